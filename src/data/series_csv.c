/* Reference curves from series CSVs (series_csv.h). libcsv splits the
 * fields; this file finds the two columns and names the line of anything
 * wrong. */
#include "series_csv.h"
#include "csv_line.h"
#include "murmur/alloc.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 1000000   /* a series of a million ticks is plenty */
#define CELL 128

typedef struct {
    const char *shown, *xcol, *ycol;
    mur_error *err;
    int rc;
    long line;
    int header, field;
    int at_x, at_y, at_ymed, at_cond;
    char cx[CELL + 1], cy[CELL + 1], cond[CELL + 1], last_cond[CELL + 1];
    int have_x, have_y;
    double *x, *y;
    int n, cap;
} reader;

static void fail(reader *rd, const char *what)
{
    if (!rd->rc)
        rd->rc = mur_error_set(rd->err, MUR_EINPUT, "%s:%ld: error: %s", rd->shown, rd->line, what);
}

static void keep(char *dst, const char *s, size_t len)
{
    len = len > CELL ? CELL : len;
    memcpy(dst, s, len);
    dst[len] = 0;
}

static void on_field(void *data, size_t len, void *ctx)
{
    reader *rd = ctx;
    const char *s = data ? data : "";
    int k = rd->field++;
    if (rd->rc)
        return;
    if (memchr(s, '\0', len))   /* a C string would end there: what is read is not what the file says */
        return fail(rd, "a field holds a NUL byte: a series is text");
    if (!rd->header) {
        char name[CELL + 1], med[CELL + 8];
        keep(name, s, len);
        snprintf(med, sizeof med, "%s_median", rd->ycol);
        if (!strcmp(name, rd->xcol))
            rd->at_x = k;
        if (!strcmp(name, rd->ycol))
            rd->at_y = k;
        if (!strcmp(name, med))
            rd->at_ymed = k;
        if (!strcmp(name, "condition"))
            rd->at_cond = k;
        return;
    }
    if (k == rd->at_x)
        keep(rd->cx, s, len), rd->have_x = 1;
    if (k == rd->at_y)
        keep(rd->cy, s, len), rd->have_y = 1;
    if (k == rd->at_cond)
        keep(rd->cond, s, len);
}

static int number(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return *s && !*end && errno == 0 && isfinite(*out);
}

static int add(reader *rd, double x, double y)
{
    if (rd->n == rd->cap) {
        int cap = rd->cap ? 2 * rd->cap : 1024;
        double *nx = mur_realloc(rd->x, (size_t)cap * sizeof *nx);
        if (nx)
            rd->x = nx;
        double *ny = nx ? mur_realloc(rd->y, (size_t)cap * sizeof *ny) : NULL;
        if (!ny) {
            rd->rc = mur_error_set(rd->err, MUR_ERUN, "out of memory reading '%s'", rd->shown);
            return -1;
        }
        rd->y = ny;
        rd->cap = cap;
    }
    rd->x[rd->n] = x;
    rd->y[rd->n++] = y;
    return 0;
}

static void on_row(int c, void *ctx)
{
    (void)c;
    reader *rd = ctx;
    int fields = rd->field;
    rd->field = 0;
    if (rd->rc || fields == 0)
        return;
    if (!rd->header) {
        rd->header = 1;
        if (rd->at_ymed >= 0)
            rd->at_y = rd->at_ymed;
        char msg[300];
        if (rd->at_x < 0 || rd->at_y < 0) {
            snprintf(msg, sizeof msg, "a series CSV with a '%s' column is needed (murmur series of a scene whose "
                     "timeline changes %s): this header has no '%s'", rd->at_x < 0 ? rd->xcol : rd->ycol,
                     rd->xcol, rd->at_x < 0 ? rd->xcol : rd->ycol);
            fail(rd, msg);
        }
        return;
    }
    double x, y;
    if (!rd->have_x || !rd->have_y)
        return fail(rd, "a row shorter than the header");
    if (!number(rd->cx, &x) || !number(rd->cy, &y))
        return fail(rd, "a value that is not a number");
    rd->have_x = rd->have_y = 0;
    if (rd->n >= MAX_POINTS)
        return fail(rd, "more than a million rows");
    if (rd->at_cond >= 0 && rd->n && strcmp(rd->cond, rd->last_cond) && add(rd, NAN, NAN))
        return;
    if (rd->at_cond >= 0)
        memcpy(rd->last_cond, rd->cond, sizeof rd->cond);
    add(rd, x, y);
}

int mur_series_csv_read(const char *path, const char *shown, const char *xcol, const char *ycol,
                        double **x, double **y, int *n, mur_error *err)
{
    *x = *y = NULL;
    *n = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return mur_error_set(err, MUR_EINPUT, "%s: error: cannot open the reference series: %s", shown,
                             strerror(errno));
    reader rd = {.shown = shown, .xcol = xcol, .ycol = ycol, .err = err,
                 .at_x = -1, .at_y = -1, .at_ymed = -1, .at_cond = -1};
    struct csv_parser parser;
    if (csv_init(&parser, CSV_APPEND_NULL)) {
        fclose(fp);
        return mur_error_set(err, MUR_ERUN, "out of memory reading '%s'", shown);
    }
    char buf[8192];
    long len;
    while (!rd.rc && (len = mur_csv_read_line(fp, buf, sizeof buf)) != 0) {
        rd.line++;
        if (len < 0) {
            fail(&rd, "a line longer than 8192 bytes: not a series row");
            break;
        }
        if (csv_parse(&parser, buf, (size_t)len, on_field, on_row, &rd) != (size_t)len && !rd.rc)
            rd.rc = mur_error_set(err, MUR_EINPUT, "%s:%ld: error: malformed CSV", shown, rd.line);
    }
    if (!rd.rc && ferror(fp))
        rd.rc = mur_error_set(err, MUR_EINPUT, "%s: error: cannot read it: %s", shown, strerror(errno));
    if (!rd.rc)
        csv_fini(&parser, on_field, on_row, &rd);   /* a last row without its newline */
    csv_free(&parser);
    fclose(fp);
    if (!rd.rc && !rd.header)
        rd.rc = mur_error_set(err, MUR_EINPUT, "%s:1: error: the reference series is empty", shown);
    else if (!rd.rc && rd.n == 0)
        rd.rc = mur_error_set(err, MUR_EINPUT, "%s:2: error: the reference series has no rows", shown);
    if (rd.rc) {
        mur_free(rd.x);
        mur_free(rd.y);
        return rd.rc;
    }
    *x = rd.x;
    *y = rd.y;
    *n = rd.n;
    return MUR_OK;
}
