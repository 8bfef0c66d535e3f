/* Shard files (shard.h, docs/data.md#shard-files): a piece of an
 * experiment written by `--shard K/N`, read back by `murmur merge`.
 *
 * A shard file is a text header (readable with `head`), the provenance
 * text, the jobs' numbers as the bytes the experiment keeps them in (so a
 * merge gives back every double bit for bit, with no printing or parsing
 * of numbers), and a last line with a hash of everything before it. The
 * header says how long the rest is, so a truncated file is told from a
 * complete one by its size and hash, never by trusting what it holds.
 * Bytes in memory order are only meaningful to the same build on the same
 * kind of machine: the header's murmur version and `layout` line (byte
 * order and the sizes of the records) are checked before anything is read. */
#include "murmur/shard.h"
#include "murmur/alloc.h"
#include "murmur/file.h"
#include "murmur/version.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment_internal.h"

#define MAGIC "murmur shard 1\n"
#define END_LINE_BYTES 21   /* "end " 16 hex digits "\n" */

long mur_shard_jobs(long jobs, int k, int n)
{
    return k >= 1 && k <= n && jobs > k - 1 ? (jobs - k) / n + 1 : 0;
}

/* ---- hashing -------------------------------------------------------------- */

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

int mur_shard_hash_file(const char *path, uint64_t *out, mur_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return mur_error_set(err, MUR_ERUN, "cannot read '%s': %s", path, strerror(errno));
    uint64_t h = FNV_OFFSET;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        h = fnv(h, buf, n);
    int bad = ferror(fp);
    fclose(fp);
    if (bad)
        return mur_error_set(err, MUR_ERUN, "cannot read '%s'", path);
    *out = h;
    return MUR_OK;
}

/* The record sizes and byte order a shard's bytes assume. */
static void layout(char *buf, size_t n)
{
    const uint16_t one = 1;
    snprintf(buf, n, "%s-endian, metrics %zu, twin record %zu, twin result %zu",
             *(const unsigned char *)&one ? "little" : "big", sizeof(mur_metrics), sizeof(mur_twin_record),
             sizeof(mur_twin_result));
}

/* ---- the info of what a shard is made from ---------------------------------- */

void mur_shard_info_free(mur_shard_info *info)
{
    if (!info)
        return;
    mur_free(info->scene);
    mur_free(info->condition);
    info->scene = info->condition = NULL;
}

static char *dup_text(const char *s)
{
    char *d = s ? mur_malloc(strlen(s) + 1) : NULL;
    return d ? strcpy(d, s) : NULL;
}

/* What e's scene and def make, shard and all (jobs left 0). */
static int info_of(mur_shard_info *out, const mur_scene *s, const mur_experiment_def *def, const char *command,
                   mur_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->command, sizeof out->command, "%s", command);
    snprintf(out->version, sizeof out->version, "%s", MUR_VERSION_STRING);
    int rc = mur_shard_hash_file(s->path, &out->scene_hash, err);
    if (rc)
        return rc;
    const char *cond = def->version >= 2 ? def->condition : NULL;
    out->scene = dup_text(s->path);
    out->condition = cond ? dup_text(cond) : NULL;
    if (!out->scene || (cond && !out->condition)) {
        mur_shard_info_free(out);
        return mur_error_set(err, MUR_ERUN, "out of memory");
    }
    out->seed = s->seed;
    out->shard = def->shard;
    out->shards = def->shards;
    out->runs = def->runs ? def->runs : s->runs;
    out->ticks = def->ticks ? def->ticks : s->ticks;
    out->scene_only = def->scene_only && !cond;
    out->every_tick = def->every_tick;
    return MUR_OK;
}

void mur_shard_def(const mur_shard_info *info, mur_experiment_def *out)
{
    mur_experiment_def d = MUR_EXPERIMENT_DEF_INIT;
    d.runs = info->runs;
    d.ticks = info->ticks;
    d.scene_only = info->scene_only;
    d.every_tick = info->every_tick;
    d.condition = info->condition;
    *out = d;
}

/* ---- writing -------------------------------------------------------------- */

typedef struct {
    FILE *fp;
    uint64_t hash;
} writer;

static void put(writer *w, const void *data, size_t n)
{
    w->hash = fnv(w->hash, data, n);
    fwrite(data, 1, n, w->fp);
}

static void put_u64(writer *w, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(w, b, 8);
}

int mur_experiment_shard_write(const mur_experiment *e, const mur_experiment_def *def, const char *command,
                               const char *path, mur_error *err)
{
    mur_shard_info in;
    int rc = info_of(&in, e->scene, def, command, err);
    if (rc)
        return rc;
    char *prov = NULL, *header = NULL, lay[128];
    unsigned char *rec = NULL;
    size_t bytes = experiment_job_bytes(e);
    long total = (long)e->nconditions * e->runs, jobs = mur_shard_jobs(total, in.shard, in.shards);
    mur_atomic a;
    memset(&a, 0, sizeof a);
    layout(lay, sizeof lay);
    if (in.condition && strpbrk(in.condition, "\r\n")) {
        rc = mur_error_set(err, MUR_EINPUT, "a condition's name with a line break cannot go in a shard");
        goto done;
    }
    if ((rc = mur_experiment_provenance(e, 0, &prov, err)))
        goto done;
    size_t hn = 1024 + strlen(in.scene) + (in.condition ? strlen(in.condition) : 0);
    if (!(header = mur_malloc(hn)) || !(rec = mur_malloc(bytes ? bytes : 1))) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory writing '%s'", path);
        goto done;
    }
    snprintf(header, hn,
             MAGIC "command: %s\nmurmur: %s\nscene: %s\nscene-fnv1a64: %016" PRIx64 "\nseed: %" PRIu64
                   "\nshard: %d/%d\nruns: %d\nticks: %ld\ncondition: %s\nscene-only: %d\nevery-tick: %d\n"
                   "layout: %s\njobs: %ld\njob-bytes: %zu\nprovenance-bytes: %zu\n\n",
             in.command, in.version, in.scene, in.scene_hash, in.seed, in.shard, in.shards, in.runs, in.ticks,
             in.condition ? in.condition : "", in.scene_only, in.every_tick, lay, jobs, bytes, strlen(prov));
    if ((rc = mur_atomic_begin(&a, path, 0, err)))
        goto done;
    writer w = {mur_atomic_fopen(&a, "wb", err), FNV_OFFSET};
    if (!w.fp) {
        rc = MUR_ERUN;
        goto done;
    }
    put(&w, header, strlen(header));
    put(&w, prov, strlen(prov));
    for (long i = 0; i < jobs; i++) {
        long job = i * in.shards + in.shard - 1;
        experiment_job_pack(e, job, rec);
        put_u64(&w, (uint64_t)job);
        put(&w, rec, bytes);
    }
    fprintf(w.fp, "end %016" PRIx64 "\n", w.hash);
    rc = mur_atomic_commit(&a, err);
done:
    if (rc)
        mur_atomic_abort(&a);
    mur_free(rec);
    mur_free(header);
    mur_free(prov);
    mur_shard_info_free(&in);
    return rc;
}

/* ---- reading -------------------------------------------------------------- */

/* A shard file in memory: its info, where its records start, how many
 * bytes each job's numbers are. */
typedef struct {
    unsigned char *data;
    size_t len;
    size_t records;     /* offset of the first record */
    size_t job_bytes;
    mur_shard_info info;
} shard_file;

static void shard_file_free(shard_file *f)
{
    mur_free(f->data);
    mur_shard_info_free(&f->info);
    memset(f, 0, sizeof *f);
}

static int read_all(const char *path, unsigned char **out, size_t *len, mur_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return mur_error_set(err, MUR_EINPUT, "cannot read shard '%s': %s", path, strerror(errno));
    int rc = MUR_OK;
    long size = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;
    if (size < 0 || fseek(fp, 0, SEEK_SET) != 0) {
        rc = mur_error_set(err, MUR_EINPUT, "%s: not a murmur shard (not a regular file)", path);
    } else if (!(*out = mur_malloc((size_t)size + 1))) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory reading '%s' (%ld bytes)", path, size);
    } else if (fread(*out, 1, (size_t)size, fp) != (size_t)size) {
        rc = mur_error_set(err, MUR_ERUN, "cannot read '%s'", path);
    } else {
        (*out)[size] = 0;
        *len = (size_t)size;
    }
    fclose(fp);
    if (rc) {
        mur_free(*out);
        *out = NULL;
    }
    return rc;
}

/* The value of header line `key: value` at *p (advanced past it) into a
 * NUL-terminated copy in buf; 0, or -1 when the line is not that key. */
static int field(const char **p, const char *end, const char *key, char *buf, size_t n)
{
    size_t k = strlen(key);
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    if (!nl || (size_t)(nl - *p) < k + 2 || memcmp(*p, key, k) || (*p)[k] != ':' || (*p)[k + 1] != ' ')
        return -1;
    size_t v = (size_t)(nl - *p) - k - 2;
    if (v >= n)
        return -1;
    memcpy(buf, *p + k + 2, v);
    buf[v] = 0;
    *p = nl + 1;
    return 0;
}

static int number(const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Parse the header of f->data; leaves f->info and f->records. */
static int parse_header(shard_file *f, const char *path, mur_error *err)
{
    const char *p = (const char *)f->data, *end = p + f->len;
    mur_shard_info *in = &f->info;
    char v[4200], lay[128];
    long long n;
    size_t prov = 0;
    if (f->len < sizeof MAGIC - 1 || memcmp(p, MAGIC, sizeof MAGIC - 1))
        return mur_error_set(err, MUR_EINPUT, "%s: not a murmur shard file", path);
    p += sizeof MAGIC - 1;
    layout(lay, sizeof lay);
#define NEED(key, ok) \
    if (field(&p, end, key, v, sizeof v) || !(ok)) \
        return mur_error_set(err, MUR_EINPUT, "%s: damaged or truncated shard header (at '%s')", path, key)
    NEED("command", strlen(v) < sizeof in->command);
    strcpy(in->command, v);
    NEED("murmur", strlen(v) < sizeof in->version);
    strcpy(in->version, v);
    NEED("scene", (in->scene = dup_text(v)) != NULL);
    NEED("scene-fnv1a64", sscanf(v, "%" SCNx64, &in->scene_hash) == 1);
    NEED("seed", sscanf(v, "%" SCNu64, &in->seed) == 1);
    NEED("shard", sscanf(v, "%d/%d", &in->shard, &in->shards) == 2 && in->shards >= 1 &&
                      in->shards <= MUR_SHARD_MAX && in->shard >= 1 && in->shard <= in->shards);
    NEED("runs", !number(v, 1, 100000, &n));
    in->runs = (int)n;
    NEED("ticks", !number(v, 1, 10000000, &n));
    in->ticks = (long)n;
    NEED("condition", !v[0] || (in->condition = dup_text(v)) != NULL);
    NEED("scene-only", !number(v, 0, 1, &n));
    in->scene_only = (int)n;
    NEED("every-tick", !number(v, 0, 1, &n));
    in->every_tick = (int)n;
    if (strcmp(in->version, MUR_VERSION_STRING))
        return mur_error_set(err, MUR_EINPUT, "%s: a shard of murmur %s; this is murmur %s (run the shard again)",
                             path, in->version, MUR_VERSION_STRING);
    NEED("layout", 1);
    if (strcmp(v, lay))
        return mur_error_set(err, MUR_EINPUT, "%s: a shard of another kind of machine (%s, not %s)", path, v, lay);
    NEED("jobs", !number(v, 0, 100000L * 4096, &n));
    in->jobs = (long)n;
    NEED("job-bytes", !number(v, 1, 1LL << 40, &n));
    f->job_bytes = (size_t)n;
    NEED("provenance-bytes", !number(v, 0, 1LL << 40, &n));
    prov = (size_t)n;
    if (p >= end || *p != '\n')
        return mur_error_set(err, MUR_EINPUT, "%s: damaged shard header (no blank line after it)", path);
#undef NEED
    p++;
    f->records = (size_t)(p - (const char *)f->data) + prov;
    /* the size the header promises, then the hash of what it covers */
    double want = (double)f->records + (double)in->jobs * (8.0 + (double)f->job_bytes) + END_LINE_BYTES;
    if ((double)f->len != want)
        return mur_error_set(err, MUR_EINPUT, "%s: truncated or damaged shard (%zu bytes, its header says %.0f)",
                             path, f->len, want);
    size_t body = f->len - END_LINE_BYTES;
    char tail[END_LINE_BYTES + 1];
    snprintf(tail, sizeof tail, "end %016" PRIx64 "\n", fnv(FNV_OFFSET, f->data, body));
    if (memcmp(f->data + body, tail, END_LINE_BYTES))
        return mur_error_set(err, MUR_EINPUT, "%s: damaged shard (its hash does not match its bytes)", path);
    return MUR_OK;
}

static int load(shard_file *f, const char *path, mur_error *err)
{
    memset(f, 0, sizeof *f);
    int rc = read_all(path, &f->data, &f->len, err);
    if (!rc)
        rc = parse_header(f, path, err);
    if (rc)
        shard_file_free(f);
    return rc;
}

int mur_shard_read_info(const char *path, mur_shard_info *out, mur_error *err)
{
    shard_file f;
    memset(out, 0, sizeof *out);
    int rc = load(&f, path, err);
    if (rc)
        return rc;
    *out = f.info;
    memset(&f.info, 0, sizeof f.info);
    shard_file_free(&f);
    return MUR_OK;
}

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The first field in which b differs from a (the identity of what was
 * run; not the shard's own number), or NULL. */
static const char *differs(const mur_shard_info *a, const mur_shard_info *b)
{
    if (strcmp(a->command, b->command))
        return "command";
    if (strcmp(a->version, b->version))
        return "murmur version";
    if (strcmp(a->scene, b->scene))
        return "scene";
    if (a->scene_hash != b->scene_hash)
        return "scene text";
    if (a->seed != b->seed)
        return "seed";
    if (a->shards != b->shards)
        return "shard count";
    if (a->runs != b->runs)
        return "runs";
    if (a->ticks != b->ticks)
        return "ticks";
    if (!same_text(a->condition, b->condition) || a->scene_only != b->scene_only)
        return "condition";
    if (a->every_tick != b->every_tick)
        return "kind of run";
    return NULL;
}

int mur_shard_done(const char *path, const mur_scene *s, const mur_experiment_def *def, const char *command)
{
    mur_shard_info want, have;
    mur_error err = {{0}};
    if (info_of(&want, s, def, command, &err))
        return 0;
    int done = !mur_shard_read_info(path, &have, &err) && !differs(&want, &have) && have.shard == want.shard;
    mur_shard_info_free(&want);
    mur_shard_info_free(&have);
    return done;
}

/* ---- merging ------------------------------------------------------------- */

/* The name shard k of the set would have: `first` with its
 * "shard-K-of-N" changed to k (or NULL when its name has no such part). */
static char *sibling(const char *first, int k, int n)
{
    char part[64];
    const char *base = strrchr(first, '/');
    base = base ? base + 1 : first;
    const char *at = strstr(base, ".shard-");
    char *out = mur_malloc(strlen(first) + 32);
    int kk, nn, used = 0;
    if (!out || !at || sscanf(at, ".shard-%d-of-%d%n", &kk, &nn, &used) != 2) {
        mur_free(out);
        return NULL;
    }
    snprintf(part, sizeof part, ".shard-%d-of-%d", k, n);
    snprintf(out, strlen(first) + 32, "%.*s%s%s", (int)(at - first), first, part, at + used);
    return out;
}

/* The records of shard file f (already checked against the first) into e. */
static int take(mur_experiment *e, const shard_file *f, const char *path, mur_error *err)
{
    const mur_shard_info *in = &f->info;
    long total = (long)e->nconditions * e->runs, want = mur_shard_jobs(total, in->shard, in->shards);
    if (in->jobs != want || f->job_bytes != experiment_job_bytes(e))
        return mur_error_set(err, MUR_EINPUT, "%s: holds %ld jobs of %zu bytes; shard %d of %d has %ld of %zu",
                             path, in->jobs, f->job_bytes, in->shard, in->shards, want, experiment_job_bytes(e));
    const unsigned char *p = f->data + f->records;
    for (long i = 0; i < want; i++, p += 8 + f->job_bytes) {
        uint64_t job = 0;
        for (int b = 0; b < 8; b++)
            job |= (uint64_t)p[b] << (8 * b);
        if (job != (uint64_t)(i * in->shards + in->shard - 1))
            return mur_error_set(err, MUR_EINPUT, "%s: damaged shard (job %" PRIu64 " out of place)", path, job);
        experiment_job_unpack(e, (long)job, p + 8);
    }
    return MUR_OK;
}

int mur_experiment_merge(mur_experiment **out, const mur_scene *s, const char *const *paths, int n,
                         mur_error *err)
{
    *out = NULL;
    if (n < 1)
        return mur_error_set(err, MUR_EINPUT, "no shard to merge");
    shard_file first, f;
    memset(&f, 0, sizeof f);
    int rc = load(&first, paths[0], err);
    if (rc)
        return rc;
    const mur_shard_info *in = &first.info;
    int *seen = NULL;
    mur_experiment *e = NULL;
    uint64_t hash = 0;
    mur_experiment_def def;
    mur_shard_def(in, &def);
    if (strcmp(s->path, in->scene) || s->seed != in->seed) {
        rc = mur_error_set(err, MUR_EINPUT, "%s: a shard of %s (seed %" PRIu64 "), not of %s", paths[0],
                           in->scene, in->seed, s->path);
        goto done;
    }
    if ((rc = mur_shard_hash_file(s->path, &hash, err)))
        goto done;
    if (hash != in->scene_hash) {
        rc = mur_error_set(err, MUR_EINPUT, "%s: made from %s as it was; the scene has changed since (run the shards again)",
                           paths[0], s->path);
        goto done;
    }
    if (!(seen = mur_calloc((size_t)in->shards + 1, sizeof *seen))) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory");
        goto done;
    }
    if ((rc = experiment_new(&e, s, &def, err)))
        goto done;
    for (int i = 0; i < n && !rc; i++) {
        const shard_file *g = &first;
        if (i > 0) {
            shard_file_free(&f);
            if ((rc = load(&f, paths[i], err)))
                break;
            g = &f;
        }
        const char *what = differs(in, &g->info);
        if (what) {
            rc = mur_error_set(err, MUR_EINPUT, "%s: another %s than %s's: not a shard of the same run", paths[i], what,
                               paths[0]);
        } else if (seen[g->info.shard]) {
            rc = mur_error_set(err, MUR_EINPUT, "%s: shard %d of %d again (also %s)", paths[i], g->info.shard,
                               in->shards, paths[seen[g->info.shard] - 1]);
        } else {
            seen[g->info.shard] = i + 1;
            rc = take(e, g, paths[i], err);
        }
    }
    for (int k = 1; k <= in->shards && !rc; k++)
        if (!seen[k]) {
            char *name = sibling(paths[0], k, in->shards);
            rc = mur_error_set(err, MUR_EINPUT, "shard %d of %d is missing%s%s%s", k, in->shards,
                               name ? " (" : "", name ? name : "", name ? ")" : "");
            mur_free(name);
        }
done:
    shard_file_free(&f);
    shard_file_free(&first);
    mur_free(seen);
    if (rc)
        mur_experiment_destroy(e);
    else
        *out = e;
    return rc;
}
