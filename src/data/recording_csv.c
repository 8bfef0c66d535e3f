/* Recorded flocks from CSV (docs/data.md "Recorded flocks in"): a header
 * naming the columns, then one row per boid per frame: `frame,id,x,y` and
 * optionally `vx,vy`, in any column order, other columns ignored. A 3D
 * world's recording has a `z` column too (and `vz` with the velocities):
 * one without z in a 3D world, or with z in a 2D one, is refused at its
 * header line. A
 * trace's own CSV (`tick` for `frame`) reads back too, one run of it.
 * libcsv splits the fields (quotes, CRLF); this file gives them meaning and
 * names the line of anything wrong. Lines are fed to the parser one at a
 * time, so the line a row ends on is known when the row is. */
#include "recording.h"
#include "csv_line.h"
#include "murmur/alloc.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COL_FRAME, COL_ID, COL_X, COL_Y, COL_VX, COL_VY, COL_RUN, COL_Z, COL_VZ, NCOLS };
static const char *const col_names[NCOLS] = {"frame", "id", "x", "y", "vx", "vy", "run", "z", "vz"};

/* Longest cell kept (a number or a run): longer ones are not numbers. */
#define CELL 64
/* Longest line, and longest row (a quoted field may span lines), read:
 * a recording's rows are a few numbers, and a file of one huge line (a
 * sparse file, a forged one) must be refused without holding it. */
#define MAX_LINE 65536
/* Most columns a header may name: frame, id, x, y and what a tracker adds. */
#define MAX_COLUMNS 1024

typedef struct {
    int id;
    long line;
    double x, y, vx, vy, z, vz;
} row;

typedef struct {
    rec_builder b;
    const char *shown;
    const mur_params *p;
    mur_error *err;
    int rc;                    /* the first error; parsing goes on, ignored */
    long line;                 /* the line being fed */
    long header_line;
    int header;                /* the header has been read */
    int at[NCOLS];             /* field index of each column, -1: absent */
    int nfields;               /* fields of the header */
    int field;                 /* fields of the row so far */
    size_t row_bytes;          /* bytes fed since the last row ended */
    char cell[NCOLS][CELL + 1];
    char run[CELL + 1];        /* the run of the first row */
    long frame;                /* the frame being gathered, -1 before the first */
    row *rows;                 /* its rows */
    long nrows, cap;
} reader;

static void fail(reader *rd, const char *fmt, const char *a, const char *b)
{
    if (rd->rc)
        return;
    char msg[200];
    snprintf(msg, sizeof msg, fmt, a, b);
    rd->rc = mur_error_set(rd->err, MUR_EINPUT, "%s:%ld: error: %s", rd->shown, rd->line, msg);
}

static void on_field(void *data, size_t len, void *ctx)
{
    reader *rd = ctx;
    const char *s = data ? data : "";
    int k = rd->field++;
    if (rd->rc)
        return;
    if (memchr(s, '\0', len))   /* a C string would end there: what is read is not what the file says */
        return fail(rd, "a field holds a NUL byte%s%s: a recording is text", "", "");
    if (!rd->header && k >= MAX_COLUMNS) {
        char lim[24];
        snprintf(lim, sizeof lim, "%d", MAX_COLUMNS);
        return fail(rd, "a header of more than %s columns%s: a replay's names frame, id, x, y (vx, vy, run)", lim, "");
    }
    if (!rd->header) {
        if (k == 0 && len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {   /* a UTF-8 byte order mark (spreadsheets write one) */
            s += 3;
            len -= 3;
        }
        char name[CELL + 1];
        snprintf(name, sizeof name, "%.*s", (int)(len < CELL ? len : CELL), s);
        int col = -1;
        for (int c = 0; c < NCOLS; c++)
            if (!strcmp(name, col_names[c]) || (c == COL_FRAME && !strcmp(name, "tick")))
                col = c;
        if (col >= 0 && rd->at[col] >= 0)
            fail(rd, "two columns are named '%s'%s", name, col == COL_FRAME ? " (or frame and tick)" : "");
        else if (col >= 0)
            rd->at[col] = k;
        return;
    }
    for (int c = 0; c < NCOLS; c++)
        if (rd->at[c] == k)   /* a cell too long for a number says so when read */
            snprintf(rd->cell[c], sizeof rd->cell[c], "%s", len <= CELL ? s : "(a long text)");
}

/* Cell c as a finite number, or a message. */
static int cell_number(reader *rd, int c, double *v)
{
    const char *s = rd->cell[c];
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (!*s || *end) {
        fail(rd, "%s = '%s' is not a number", col_names[c], s);
        return -1;
    }
    if (!isfinite(*v)) {
        fail(rd, "%s = %s: a recording's numbers must be finite", col_names[c], s);
        return -1;
    }
    return 0;
}

static int cell_whole(reader *rd, int c, double max, long *out)
{
    double v;
    if (cell_number(rd, c, &v))
        return -1;
    if (v != floor(v) || v < 0 || v > max) {
        char lim[40];
        snprintf(lim, sizeof lim, "%.0f", max);
        fail(rd, c == COL_ID ? "an id is a whole number from 0 to %s (got %s)"
                             : "a frame is a whole number from 0 to %s (got %s)",
             lim, rd->cell[c]);
        return -1;
    }
    *out = (long)v;
    return 0;
}

static int by_id(const void *a, const void *b)
{
    const row *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* The gathered frame into the recording: sorted by id, each id once. */
static void end_frame(reader *rd)
{
    if (rd->rc || rd->frame < 0)
        return;
    qsort(rd->rows, (size_t)rd->nrows, sizeof *rd->rows, by_id);
    rec_builder *b = &rd->b;
    for (long i = 0; i < rd->nrows; i++) {
        const row *w = &rd->rows[i];
        if (i > 0 && w->id == rd->rows[i - 1].id) {
            char id[24], frame[24];
            snprintf(id, sizeof id, "%d", w->id);
            snprintf(frame, sizeof frame, "%ld", rd->frame);
            long l = rd->line;
            rd->line = w->line > rd->rows[i - 1].line ? w->line : rd->rows[i - 1].line;
            fail(rd, "id %s appears twice in frame %s", id, frame);
            rd->line = l;
            return;
        }
        if (mur_rec_grow(b, b->rows)) {
            rd->rc = mur_error_set(rd->err, MUR_ERUN, "out of memory reading '%s'", rd->shown);
            return;
        }
        b->r->id[b->rows] = w->id;
        b->r->x[b->rows] = w->x;
        b->r->y[b->rows] = w->y;
        b->r->vx[b->rows] = w->vx;
        b->r->vy[b->rows] = w->vy;
        if (b->three) {
            b->r->z[b->rows] = w->z;
            b->r->vz[b->rows] = w->vz;
        }
        b->rows++;
    }
    if (mur_rec_frame(b, rd->frame))
        rd->rc = mur_error_set(rd->err, MUR_ERUN, "out of memory reading '%s'", rd->shown);
    rd->nrows = 0;
}

/* A position where the world can show it: inside a wrapping world (else
 * the wrap would move it), near a walled one (boids may overshoot a wall;
 * a recording in other coordinates lies far off). */
static int in_world(reader *rd, int c, double v, double size)
{
    int wrap = rd->p->boundary == MUR_BOUNDARY_WRAP;
    if (wrap ? v >= 0 && v <= size : v >= -size && v <= 2 * size)
        return 0;
    if (!rd->rc)
        rd->rc = mur_error_set(rd->err, MUR_EINPUT,
                               "%s:%ld: error: %s = %s lies %soutside the world (0 to %g): set "
                               "%s to the recording's coordinates",
                               rd->shown, rd->line, col_names[c], rd->cell[c], wrap ? "" : "far ", size,
                               c == COL_Z ? "world.depth" : "world.width and world.height");
    return -1;
}

static void data_row(reader *rd)
{
    long frame, id;
    row w = {0};
    w.line = rd->line;
    if (cell_whole(rd, COL_FRAME, 1e8, &frame) || cell_whole(rd, COL_ID, MUR_REPLAY_MAX_ID, &id) ||
        cell_number(rd, COL_X, &w.x) || cell_number(rd, COL_Y, &w.y) ||
        in_world(rd, COL_X, w.x, rd->p->width) || in_world(rd, COL_Y, w.y, rd->p->height))
        return;
    if (rd->at[COL_VX] >= 0 && (cell_number(rd, COL_VX, &w.vx) || cell_number(rd, COL_VY, &w.vy)))
        return;
    if (rd->b.three && (cell_number(rd, COL_Z, &w.z) || in_world(rd, COL_Z, w.z, rd->p->depth) ||
                        (rd->at[COL_VZ] >= 0 && cell_number(rd, COL_VZ, &w.vz))))
        return;
    w.id = (int)id;
    if (rd->at[COL_RUN] >= 0) {
        if (rd->frame < 0 && !rd->b.rows)
            snprintf(rd->run, sizeof rd->run, "%s", rd->cell[COL_RUN]);
        else if (strcmp(rd->run, rd->cell[COL_RUN]))
            return fail(rd, "a second run (%s after %s): replay one run of a trace", rd->cell[COL_RUN], rd->run);
    }
    if (frame < rd->frame) {
        char a[24], b[24];
        snprintf(a, sizeof a, "%ld", frame);
        snprintf(b, sizeof b, "%ld", rd->frame);
        return fail(rd, "frame %s after frame %s: frames must not go backwards", a, b);
    }
    if (frame != rd->frame) {
        end_frame(rd);
        rd->frame = frame;
    }
    if (rd->b.rows + rd->nrows >= MUR_REPLAY_MAX_ROWS || rd->nrows >= MUR_MAX_BOIDS) {
        char lim[40];
        snprintf(lim, sizeof lim, "%ld", rd->nrows >= MUR_MAX_BOIDS ? (long)MUR_MAX_BOIDS : MUR_REPLAY_MAX_ROWS);
        return fail(rd, "more %s than a replay may hold (%s)",
                    rd->nrows >= MUR_MAX_BOIDS ? "boids in one frame" : "rows", lim);
    }
    if (rd->nrows == rd->cap) {
        long cap = rd->cap ? 2 * rd->cap : 256;
        row *q = mur_realloc(rd->rows, (size_t)cap * sizeof *q);
        if (!q) {
            rd->rc = mur_error_set(rd->err, MUR_ERUN, "out of memory reading '%s'", rd->shown);
            return;
        }
        rd->rows = q;
        rd->cap = cap;
    }
    rd->rows[rd->nrows++] = w;
}

static void header_done(reader *rd)
{
    rd->header = 1;
    rd->nfields = rd->field;
    rd->header_line = rd->line;
    static const int need[] = {COL_FRAME, COL_ID, COL_X, COL_Y};
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
        if (rd->at[need[k]] < 0)
            return fail(rd, "no '%s' column: a replay has the columns frame, id, x, y%s",
                        col_names[need[k]], " and optionally vx, vy (a header line names them)");
    if ((rd->at[COL_VX] < 0) != (rd->at[COL_VY] < 0))
        return fail(rd, "'%s' without '%s': give both velocities or neither",
                    rd->at[COL_VX] < 0 ? "vy" : "vx", rd->at[COL_VX] < 0 ? "vx" : "vy");
    int three = rd->p->dimensions == 3;
    if (three && rd->at[COL_Z] < 0)
        return fail(rd, "no 'z' column: a replay in a 3D world (dimensions: 3) has the columns frame, id, "
                        "x, y, z%s%s", " and optionally vx, vy, vz", "");
    if (!three && rd->at[COL_Z] >= 0)
        return fail(rd, "a 'z' column: a 3D recording cannot replay in a 2D world%s%s",
                    " (set world.dimensions: 3, or drop the column)", "");
    if (!three && rd->at[COL_VZ] >= 0)
        return fail(rd, "a 'vz' column: a 3D recording's velocity cannot replay in a 2D world%s%s",
                    " (set world.dimensions: 3, or drop the column)", "");
    if (three && (rd->at[COL_VX] < 0) != (rd->at[COL_VZ] < 0))
        return fail(rd, "'%s' without '%s': a 3D recording gives vx, vy and vz, or none",
                    rd->at[COL_VZ] < 0 ? "vx" : "vz", rd->at[COL_VZ] < 0 ? "vz" : "vx");
    if (three) {   /* mur_rec_begin grew the 2D rows; z and vz grow with them from here */
        rec_builder *b = &rd->b;
        b->three = 1;
        b->r->dimension = 3;
        if (!(b->r->z = mur_malloc((size_t)b->cap * sizeof(double))) ||
            !(b->r->vz = mur_malloc((size_t)b->cap * sizeof(double))))
            rd->rc = mur_error_set(rd->err, MUR_ERUN, "out of memory reading '%s'", rd->shown);
    }
}

static void on_row(int term, void *ctx)
{
    (void)term;
    reader *rd = ctx;
    if (!rd->rc && !rd->header) {
        header_done(rd);
    } else if (!rd->rc) {
        if (rd->field != rd->nfields) {
            char a[24], b[24];
            snprintf(a, sizeof a, "%d", rd->field);
            snprintf(b, sizeof b, "%d", rd->nfields);
            fail(rd, "%s fields where the header has %s", a, b);
        } else {
            data_row(rd);
        }
    }
    rd->field = 0;
    rd->row_bytes = 0;
    memset(rd->cell, 0, sizeof rd->cell);
}

static void *csv_realloc(void *p, size_t n) { return mur_realloc(p, n); }

static int parse(reader *rd, FILE *fp)
{
    struct csv_parser parser;
    char *line = mur_malloc(MAX_LINE);
    if (!line || csv_init(&parser, CSV_APPEND_NULL)) {
        mur_free(line);
        return mur_error_set(rd->err, MUR_ERUN, "out of memory reading '%s'", rd->shown);
    }
    csv_set_realloc_func(&parser, csv_realloc);
    csv_set_free_func(&parser, mur_free);
    long len;
    char lim[24];
    snprintf(lim, sizeof lim, "%d", MAX_LINE);
    while (!rd->rc && (len = mur_csv_read_line(fp, line, MAX_LINE)) != 0) {
        rd->line++;
        if (len < 0 || (rd->row_bytes += (size_t)len) > MAX_LINE) {
            fail(rd, len < 0 ? "a line longer than %s bytes%s: not a recording's row"
                             : "a row longer than %s bytes (a quote left open?)%s", lim, "");
            break;
        }
        if (csv_parse(&parser, line, (size_t)len, on_field, on_row, rd) != (size_t)len && !rd->rc)
            rd->rc = mur_error_set(rd->err, MUR_ERUN, "out of memory reading '%s'", rd->shown);
    }
    mur_free(line);
    if (!rd->rc && ferror(fp))
        rd->rc = mur_error_set(rd->err, MUR_EINPUT, "%s: error: cannot read it: %s", rd->shown,
                               strerror(errno));
    if (!rd->rc)
        csv_fini(&parser, on_field, on_row, rd);
    csv_free(&parser);
    return rd->rc;
}

int mur_recording_read_csv(mur_recording **out, const char *path, const char *shown,
                           const mur_params *p, mur_error *err)
{
    *out = NULL;
    reader *rd = mur_calloc(1, sizeof *rd);
    if (!rd)
        return mur_error_set(err, MUR_ERUN, "out of memory reading '%s'", shown);
    rd->shown = shown;
    rd->p = p;
    rd->err = err;
    rd->frame = -1;
    for (int c = 0; c < NCOLS; c++)
        rd->at[c] = -1;
    int rc = mur_rec_begin(&rd->b, shown, err);
    FILE *fp = rc ? NULL : fopen(path, "rb");
    if (!rc && !fp)
        rc = mur_error_set(err, MUR_EINPUT, "%s: error: cannot read it: %s", shown, strerror(errno));
    if (!rc && !(rc = parse(rd, fp))) {
        end_frame(rd);
        rc = rd->rc;
    }
    if (!rc && !rd->header)
        rc = mur_error_set(err, MUR_EINPUT, "%s:1: error: empty: a replay starts with a header line "
                           "frame,id,x,y", shown);
    else if (!rc && rd->b.r->nframes == 0)
        rc = mur_error_set(err, MUR_EINPUT, "%s:%ld: error: a header and no rows: no frames to "
                           "replay (an empty flock's .csv trace; its .h5 replays)", shown, rd->header_line);
    if (!rc)
        rc = mur_rec_finish(&rd->b, rd->at[COL_VX] >= 0, p, err);
    if (fp)
        fclose(fp);
    if (rc)
        mur_recording_destroy(rd->b.r);
    else
        *out = rd->b.r;
    mur_free(rd->rows);
    mur_free(rd);
    return rc;
}
