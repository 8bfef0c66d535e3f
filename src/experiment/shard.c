/* Shard files (shard.h, docs/data.md#shard-files): a piece of an
 * experiment (or of a trace's runs, output/trace.c) written by `--shard
 * K/N`, read back by `murmur merge`.
 *
 * A shard file is a text header (readable with `head`), the provenance
 * text, one record per job: its number, its length and its bytes (an
 * experiment's numbers as the bytes it keeps them in, so a merge gives back
 * every double bit for bit, with no printing or parsing of numbers; a
 * trace's rows or file), and a last line with a hash of everything before
 * it. Files are mapped, not copied: a trace's shards may be large. The
 * header says how long the rest is, so a truncated file is told from a
 * complete one by its size and hash, never by trusting what it holds.
 * Bytes in memory order are only meaningful to the same build on the same
 * kind of machine: the header's murmur version and `layout` line (byte
 * order and the sizes of the records) are checked before anything is read. */
#include "murmur/shard.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"
#include "murmur/file.h"
#include "murmur/version.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
    char why[160];
    if (mur_file_check_input(path, 0, why, sizeof why))   /* a pipe would block the hash for good */
        return mur_error_set(err, MUR_EINPUT, "'%s' %s", path, why);
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
    out->scene = s->path ? mur_strdup(s->path) : NULL;
    out->condition = cond ? mur_strdup(cond) : NULL;
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

/* The header of a shard of info (its jobs, records of job_bytes bytes
 * each, or 0: of any length) with prov_len bytes of provenance after it,
 * into a new string (NULL when out of memory). */
static char *header_of(const mur_shard_info *in, size_t job_bytes, size_t prov_len)
{
    char lay[128];
    layout(lay, sizeof lay);
    size_t hn = 1024 + strlen(in->scene) + (in->condition ? strlen(in->condition) : 0) + strlen(in->trace);
    char *h = mur_malloc(hn);
    if (h)
        snprintf(h, hn,
                 MAGIC "command: %s\nmurmur: %s\nscene: %s\nscene-fnv1a64: %016" PRIx64 "\nseed: %" PRIu64
                       "\nshard: %d/%d\nruns: %d\nticks: %ld\ncondition: %s\nscene-only: %d\nevery-tick: %d\n"
                       "trace: %s\nlayout: %s\njobs: %ld\njob-bytes: %zu\nprovenance-bytes: %zu\n\n",
                 in->command, in->version, in->scene, in->scene_hash, in->seed, in->shard, in->shards, in->runs,
                 in->ticks, in->condition ? in->condition : "", in->scene_only, in->every_tick, in->trace, lay, in->jobs,
                 job_bytes, prov_len);
    return h;
}

/* Writes the shard file: header, provenance, then n records, each its
 * job number and length (8 bytes little-endian each) and its bytes, as
 * record(ctx, i, &job, &len) gives them, then the hash line. */
typedef const void *(*record_fn)(void *ctx, long i, uint64_t *job, size_t *len);

static int write_shard(const char *path, const mur_shard_info *in, size_t job_bytes, const char *prov,
                       record_fn record, void *ctx, mur_error *err)
{
    mur_atomic a;
    memset(&a, 0, sizeof a);
    if (in->condition && strpbrk(in->condition, "\r\n"))
        return mur_error_set(err, MUR_EINPUT, "a condition's name with a line break cannot go in a shard");
    char *header = header_of(in, job_bytes, strlen(prov));
    int rc = header ? mur_atomic_begin(&a, path, 0, err) : mur_error_set(err, MUR_ERUN, "out of memory writing '%s'", path);
    writer w = {NULL, FNV_OFFSET};
    if (!rc && !(w.fp = mur_atomic_fopen(&a, "wb", err)))
        rc = MUR_ERUN;
    if (!rc) {
        put(&w, header, strlen(header));
        put(&w, prov, strlen(prov));
        for (long i = 0; i < in->jobs; i++) {
            uint64_t job;
            size_t len;
            const void *data = record(ctx, i, &job, &len);
            put_u64(&w, job);
            put_u64(&w, (uint64_t)len);
            put(&w, data, len);
        }
        fprintf(w.fp, "end %016" PRIx64 "\n", w.hash);
        rc = mur_atomic_commit(&a, err);
    }
    if (rc)
        mur_atomic_abort(&a);
    mur_free(header);
    return rc;
}

/* Records given as arrays (mur_shard_write). */
typedef struct {
    const uint64_t *index;
    const void *const *data;
    const size_t *len;
} arrays_ctx;

static const void *array_record(void *ctx, long i, uint64_t *job, size_t *len)
{
    const arrays_ctx *c = ctx;
    *job = c->index[i];
    *len = c->len[i];
    return c->data[i];
}

int mur_shard_write(const char *path, const mur_shard_info *info, const char *prov, const uint64_t *index,
                    const void *const *data, const size_t *len, mur_error *err)
{
    arrays_ctx c = {index, data, len};
    return write_shard(path, info, 0, prov, array_record, &c, err);
}

/* An experiment's job i of the shard, packed into ctx's buffer. */
typedef struct {
    const mur_experiment *e;
    int shard, shards;
    unsigned char *rec;
    size_t bytes;
} jobs_ctx;

static const void *job_record(void *ctx, long i, uint64_t *job, size_t *len)
{
    jobs_ctx *c = ctx;
    long j = i * c->shards + c->shard - 1;
    mur_experiment_job_pack(c->e, j, c->rec);
    *job = (uint64_t)j;
    *len = c->bytes;
    return c->rec;
}

int mur_experiment_shard_write(const mur_experiment *e, const mur_experiment_def *def, const char *command,
                               const char *path, mur_error *err)
{
    mur_shard_info in;
    int rc = info_of(&in, e->scene, def, command, err);
    if (rc)
        return rc;
    char *prov = NULL;
    size_t bytes = mur_experiment_job_bytes(e);
    jobs_ctx c = {e, in.shard, in.shards, mur_malloc(bytes ? bytes : 1), bytes};
    in.jobs = mur_shard_jobs((long)e->nconditions * e->runs, in.shard, in.shards);
    if (!c.rec)
        rc = mur_error_set(err, MUR_ERUN, "out of memory writing '%s'", path);
    if (!rc && !(rc = mur_experiment_provenance(e, 0, &prov, err)))
        rc = write_shard(path, &in, bytes, prov, job_record, &c, err);
    mur_free(c.rec);
    mur_free(prov);
    mur_shard_info_free(&in);
    return rc;
}

/* ---- reading -------------------------------------------------------------- */

/* A shard file, mapped: its info, where its records start, the length of
 * every job's numbers (0: any). */
struct mur_shard_file {
    unsigned char *data;
    size_t len;
    size_t records;     /* offset of the first record */
    size_t job_bytes;
    long *offsets;      /* each record's offset (its 16-byte head); NULL when
                           job_bytes fixes them */
    mur_shard_info info;
};

void mur_shard_close(mur_shard_file *f)
{
    if (!f)
        return;
    if (f->data && f->len)
        munmap(f->data, f->len);
    mur_free(f->offsets);
    mur_shard_info_free(&f->info);
    mur_free(f);
}

/* Maps path read-only: a shard's records may be a trace's gigabytes, and
 * the page cache holds them better than a copy would. */
static int map_file(const char *path, unsigned char **out, size_t *len, mur_error *err)
{
    char why[160];
    if (mur_file_check_input(path, 0, why, sizeof why))   /* before open: a pipe's open blocks */
        return !strncmp(why, "cannot be read: ", 16)
                   ? mur_error_set(err, MUR_EINPUT, "cannot read shard '%s': %s", path, why + 16)
                   : mur_error_set(err, MUR_EINPUT, "%s: not a murmur shard file: it %s", path, why);
    int fd = open(path, O_RDONLY | O_NONBLOCK);   /* swapped for a pipe since: open still returns */
    if (fd < 0)
        return mur_error_set(err, MUR_EINPUT, "cannot read shard '%s': %s", path, strerror(errno));
    struct stat st;
    int rc = MUR_OK;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = mur_error_set(err, MUR_EINPUT, "%s: not a murmur shard file (not a regular file)", path);
    } else if (st.st_size == 0) {
        rc = mur_error_set(err, MUR_EINPUT, "%s: not a murmur shard file (empty)", path);
    } else if ((unsigned long long)st.st_size > (unsigned long long)SIZE_MAX / 2) {
        rc = mur_error_set(err, MUR_EINPUT, "%s: not a murmur shard file (%lld bytes)", path,
                           (long long)st.st_size);
    } else {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
            rc = mur_error_set(err, MUR_ERUN, "cannot read '%s': %s", path, strerror(errno));
        else {
            *out = p;
            *len = (size_t)st.st_size;
        }
    }
    close(fd);
    return rc;
}

/* FNV-1a of the first n bytes of the file mapped at data, read through a
 * small buffer with pread: hashing through the mapping would make every
 * page of a huge (sparse, forged) file resident. */
static int hash_prefix(const char *path, size_t n, uint64_t *out, mur_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return mur_error_set(err, MUR_ERUN, "cannot read '%s': %s", path, strerror(errno));
    unsigned char buf[65536];
    uint64_t h = FNV_OFFSET;
    size_t at = 0;
    while (at < n) {
        size_t want = n - at < sizeof buf ? n - at : sizeof buf;
        ssize_t got = pread(fd, buf, want, (off_t)at);
        if (got <= 0) {
            close(fd);
            return mur_error_set(err, MUR_ERUN, "cannot read '%s': %s", path, got < 0 ? strerror(errno) : "cut short");
        }
        h = fnv(h, buf, (size_t)got);
        at += (size_t)got;
    }
    close(fd);
    *out = h;
    return MUR_OK;
}

/* The value of header line `key: value` at *p (advanced past it) into a
 * NUL-terminated copy in buf; 0, or -1 when the line is not that key. */
static int field(const char **p, const char *end, const char *key, char *buf, size_t n)
{
    size_t k = strlen(key);
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    if (!nl || (size_t)(nl - *p) < k + 1 || memcmp(*p, key, k) || (*p)[k] != ':')
        return -1;
    size_t skip = (size_t)(nl - *p) > k + 1 && (*p)[k + 1] == ' ' ? k + 2 : k + 1;
    size_t v = (size_t)(nl - *p) - skip;
    if (v >= n)
        return -1;
    memcpy(buf, *p + skip, v);
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

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int b = 0; b < 8; b++)
        v |= (uint64_t)p[b] << (8 * b);
    return v;
}

/* Parse the header of f->data and walk its records; leaves f->info,
 * f->records and f->offsets. */
static int parse_header(mur_shard_file *f, const char *path, mur_error *err)
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
    NEED("scene", (in->scene = mur_strdup(v)) != NULL);
    NEED("scene-fnv1a64", sscanf(v, "%" SCNx64, &in->scene_hash) == 1);
    NEED("seed", sscanf(v, "%" SCNu64, &in->seed) == 1);
    NEED("shard", sscanf(v, "%d/%d", &in->shard, &in->shards) == 2 && in->shards >= 1 &&
                      in->shards <= MUR_SHARD_MAX && in->shard >= 1 && in->shard <= in->shards);
    NEED("runs", !number(v, 1, MUR_MAX_RUNS, &n));
    in->runs = (int)n;
    NEED("ticks", !number(v, 0, MUR_MAX_RUN_TICKS, &n));
    in->ticks = (long)n;
    NEED("condition", !v[0] || (in->condition = mur_strdup(v)) != NULL);
    NEED("scene-only", !number(v, 0, 1, &n));
    in->scene_only = (int)n;
    NEED("every-tick", !number(v, 0, 1, &n));
    in->every_tick = (int)n;
    if (strcmp(in->version, MUR_VERSION_STRING))
        return mur_error_set(err, MUR_EINPUT, "%s: a shard of murmur %s; this is murmur %s (run the shard again)",
                             path, in->version, MUR_VERSION_STRING);
    NEED("trace", strlen(v) < sizeof in->trace);
    strcpy(in->trace, v);
    NEED("layout", 1);
    if (strcmp(v, lay))
        return mur_error_set(err, MUR_EINPUT, "%s: a shard of another kind of machine (%s, not %s)", path, v, lay);
    NEED("jobs", !number(v, 0, 100000L * 4096, &n));
    in->jobs = (long)n;
    NEED("job-bytes", !number(v, 0, 1LL << 40, &n));
    f->job_bytes = (size_t)n;
    NEED("provenance-bytes", !number(v, 0, 1LL << 40, &n));
    prov = (size_t)n;
    if (p >= end || *p != '\n')
        return mur_error_set(err, MUR_EINPUT, "%s: damaged shard header (no blank line after it)", path);
#undef NEED
    p++;
    f->records = (size_t)(p - (const char *)f->data) + prov;
    /* every record takes 16 bytes at least: a header claiming more records
     * than the file has room for is refused before anything is allocated */
    if (f->records > f->len || (size_t)in->jobs > (f->len - f->records) / 16)
        return mur_error_set(err, MUR_EINPUT, "%s: truncated or damaged shard (%ld records cannot fit in %zu bytes)",
                             path, in->jobs, f->len);
    /* Records of a fixed length (an experiment's) are where the header's
     * numbers put them: checked by arithmetic, no walk and no table. Records
     * of any length are a trace's runs, one a run: at most `runs` of them
     * are walked. So a forged count costs nothing before it is refused. */
    size_t at = f->records, stop = f->len >= END_LINE_BYTES ? f->len - END_LINE_BYTES : 0;
    if (f->job_bytes) {
        size_t each = 16 + f->job_bytes;
        if (stop < at || (size_t)in->jobs > (stop - at) / each)
            return mur_error_set(err, MUR_EINPUT, "%s: truncated or damaged shard (%ld records of %zu bytes cannot "
                                 "fit in %zu bytes)", path, in->jobs, f->job_bytes, f->len);
        at += (size_t)in->jobs * each;
    } else if (in->jobs > in->runs) {
        return mur_error_set(err, MUR_EINPUT, "%s: damaged shard (%ld records of %d runs)", path, in->jobs, in->runs);
    } else if (!(f->offsets = mur_calloc((size_t)in->jobs + 1, sizeof *f->offsets))) {
        return mur_error_set(err, MUR_ERUN, "out of memory reading '%s'", path);
    }
    for (long i = 0; !f->job_bytes && i < in->jobs; i++) {
        uint64_t len = at + 16 <= stop ? get_u64(f->data + at + 8) : 0;
        if (at + 16 > stop || len > stop - at - 16)
            return mur_error_set(err, MUR_EINPUT, "%s: truncated or damaged shard (record %ld of %ld cut short)", path,
                                 i + 1, in->jobs);
        f->offsets[i] = (long)at;
        at += 16 + (size_t)len;
    }
    if (at != stop || f->len < END_LINE_BYTES)
        return mur_error_set(err, MUR_EINPUT, "%s: truncated or damaged shard (%zu bytes, its records end at %zu)",
                             path, f->len, at + END_LINE_BYTES);
    uint64_t h;
    int rc = hash_prefix(path, stop, &h, err);
    if (rc)
        return rc;
    char tail[END_LINE_BYTES + 1];
    snprintf(tail, sizeof tail, "end %016" PRIx64 "\n", h);
    if (memcmp(f->data + stop, tail, END_LINE_BYTES))
        return mur_error_set(err, MUR_EINPUT, "%s: damaged shard (its hash does not match its bytes)", path);
    return MUR_OK;
}

int mur_shard_open(mur_shard_file **out, const char *path, mur_error *err)
{
    mur_shard_file *f = mur_calloc(1, sizeof *f);
    *out = NULL;
    if (!f)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    int rc = map_file(path, &f->data, &f->len, err);
    if (!rc)
        rc = parse_header(f, path, err);
    if (rc)
        mur_shard_close(f);
    else
        *out = f;
    return rc;
}

const mur_shard_info *mur_shard_file_info(const mur_shard_file *f) { return &f->info; }

const void *mur_shard_file_record(const mur_shard_file *f, long i, uint64_t *job, size_t *len)
{
    const unsigned char *p = f->data + (f->offsets ? (size_t)f->offsets[i] : f->records + (size_t)i * (16 + f->job_bytes));
    *job = get_u64(p);
    *len = (size_t)get_u64(p + 8);
    /* a fixed record's own length was not walked: trusted only when it is
     * the header's (0 otherwise, which every reader refuses), so no length
     * reaches past the record */
    if (!f->offsets && *len != f->job_bytes)
        *len = 0;
    return p + 16;
}

int mur_shard_read_info(const char *path, mur_shard_info *out, mur_error *err)
{
    mur_shard_file *f;
    memset(out, 0, sizeof *out);
    int rc = mur_shard_open(&f, path, err);
    if (rc)
        return rc;
    *out = f->info;
    memset(&f->info, 0, sizeof f->info);
    mur_shard_close(f);
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
    if (a->every_tick != b->every_tick || strcmp(a->trace, b->trace))
        return "kind of run";
    return NULL;
}

int mur_shard_same(const mur_shard_info *a, const mur_shard_info *b)
{
    return !differs(a, b) && a->shard == b->shard;
}

int mur_shard_done(const char *path, const mur_scene *s, const mur_experiment_def *def, const char *command)
{
    mur_shard_info want, have;
    mur_error err = {{0}};
    if (info_of(&want, s, def, command, &err))
        return 0;
    int done = !mur_shard_read_info(path, &have, &err) && mur_shard_same(&want, &have);
    mur_shard_info_free(&want);
    mur_shard_info_free(&have);
    return done;
}

/* ---- sets of shards ------------------------------------------------------------ */

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

void mur_shard_set_close(mur_shard_file **set, int n)
{
    for (int k = 0; set && k <= n; k++)
        mur_shard_close(set[k]);
    mur_free(set);
}

int mur_shard_set_open(mur_shard_file ***out, const mur_scene *s, const char *const *paths, int n, long total,
                       mur_error *err)
{
    *out = NULL;
    mur_shard_file *ref = NULL, **set = NULL;
    int *from = NULL;
    int rc = n < 1 ? mur_error_set(err, MUR_EINPUT, "no shard to merge") : mur_shard_open(&ref, paths[0], err);
    if (rc)
        return rc;
    const mur_shard_info *in = &ref->info;
    int shards = in->shards;
    uint64_t hash = 0;
    if (strcmp(s->path, in->scene) || s->seed != in->seed)
        rc = mur_error_set(err, MUR_EINPUT, "%s: a shard of %s (seed %" PRIu64 "), not of %s", paths[0], in->scene,
                           in->seed, s->path);
    else if (!(rc = mur_shard_hash_file(s->path, &hash, err)) && hash != in->scene_hash)
        rc = mur_error_set(err, MUR_EINPUT,
                           "%s: made from %s as it was; the scene has changed since (run the shards again)", paths[0],
                           s->path);
    else if (!rc && (!(set = mur_calloc((size_t)shards + 1, sizeof *set)) ||
                     !(from = mur_calloc((size_t)shards + 1, sizeof *from))))
        rc = mur_error_set(err, MUR_ERUN, "out of memory");
    for (int i = 0; i < n && !rc; i++) {
        mur_shard_file *g = NULL;
        if ((rc = mur_shard_open(&g, paths[i], err)))
            break;
        const char *what = differs(in, &g->info);
        int k = g->info.shard;
        long want = mur_shard_jobs(total, k, shards);
        if (what)
            rc = mur_error_set(err, MUR_EINPUT, "%s: another %s than %s's: not a shard of the same run", paths[i], what,
                               paths[0]);
        else if (from[k])
            rc = mur_error_set(err, MUR_EINPUT, "%s: shard %d of %d again (also %s)", paths[i], k, shards,
                               paths[from[k] - 1]);
        else if (g->info.jobs != want)
            rc = mur_error_set(err, MUR_EINPUT, "%s: holds %ld jobs; shard %d of %d has %ld", paths[i], g->info.jobs,
                               k, shards, want);
        for (long j = 0; !rc && j < want; j++) {   /* the jobs it is assigned, in order */
            uint64_t job;
            size_t len;
            mur_shard_file_record(g, j, &job, &len);
            if (job != (uint64_t)(j * shards + k - 1))
                rc = mur_error_set(err, MUR_EINPUT, "%s: damaged shard (job %" PRIu64 " out of place)", paths[i], job);
        }
        if (rc) {
            mur_shard_close(g);
            break;
        }
        from[k] = i + 1;
        set[k] = g;
    }
    for (int k = 1; k <= shards && !rc; k++)
        if (!set[k]) {
            char *name = sibling(paths[0], k, shards);
            rc = mur_error_set(err, MUR_EINPUT, "shard %d of %d is missing%s%s%s", k, shards, name ? " (" : "",
                               name ? name : "", name ? ")" : "");
            mur_free(name);
        }
    mur_shard_close(ref);
    mur_free(from);
    if (rc)
        mur_shard_set_close(set, shards);
    else
        *out = set;
    return rc;
}

/* ---- merging experiments ---------------------------------------------------------- */

int mur_experiment_merge(mur_experiment **out, const mur_scene *s, const char *const *paths, int n,
                         mur_error *err)
{
    *out = NULL;
    mur_shard_info in;
    mur_experiment *e = NULL;
    mur_shard_file **set = NULL;
    int rc = n < 1 ? mur_error_set(err, MUR_EINPUT, "no shard to merge") : mur_shard_read_info(paths[0], &in, err);
    if (rc)
        return rc;
    mur_experiment_def def;
    mur_shard_def(&in, &def);
    if (in.trace[0] || in.every_tick != !strcmp(in.command, "series"))
        rc = mur_error_set(err, MUR_EINPUT, "%s: a shard of %s, not of an experiment", paths[0], in.command);
    if (!rc && (rc = mur_experiment_new(&e, s, &def, err))) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err ? err->msg : "");   /* what the shard asks for, said of the shard */
        mur_error_set(err, rc, "%s: %s", paths[0], why);
    }
    if (!rc)
        rc = mur_shard_set_open(&set, s, paths, n, (long)e->nconditions * e->runs, err);
    size_t bytes = e ? mur_experiment_job_bytes(e) : 0;
    for (int k = 1; !rc && k <= in.shards; k++)
        for (long j = 0; !rc && j < set[k]->info.jobs; j++) {
            uint64_t job;
            size_t len;
            const void *rec = mur_shard_file_record(set[k], j, &job, &len);
            if (len != bytes)
                rc = mur_error_set(err, MUR_EINPUT, "%s: jobs of %zu bytes, not %zu", paths[0], len, bytes);
            else
                mur_experiment_job_unpack(e, (long)job, rec);
        }
    mur_shard_set_close(set, in.shards);
    mur_shard_info_free(&in);
    if (rc)
        mur_experiment_destroy(e);
    else
        *out = e;
    return rc;
}
