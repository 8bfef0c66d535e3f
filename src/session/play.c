/* A sequence file played as one video: each entry's frames come from a
 * session of its own scene (session.c, the one loop from a scene to
 * frames), made when the entry's first frame is wanted and freed when the
 * sequence is past it, so at most two entries (a crossfade's) are alive.
 * A cut passes an entry's frames through untouched, so a sequence of cuts
 * is its parts' renders joined frame for frame; a fade darkens an entry's
 * last frames and the next one's first to black, a crossfade blends them.
 *
 * Blends are integer arithmetic on the premultiplied pixels (8 bits of
 * weight), the same on every machine and thread count. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "murmur/alloc.h"
#include "murmur/version.h"
#include "play.h"

struct mur_play {
    const mur_scene *s;
    const mur_sequence *q;
    mur_session_opts opts;
    mur_session **subs;    /* [entry]: its session while it plays, else NULL */
    uint8_t *buf;          /* a blended or darkened frame */
    int stride;
};

int mur_play_create(mur_play **out, const mur_scene *s, const mur_session_opts *opts, mur_error *err)
{
    *out = NULL;
    mur_play *p = mur_calloc(1, sizeof *p);
    if (!p)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    p->s = s;
    p->q = s->sequence;
    p->opts = *opts;
    p->opts.condition = p->opts.run = -1;   /* every entry as it is */
    p->stride = s->width * 4;
    p->subs = mur_calloc((size_t)p->q->n, sizeof *p->subs);
    p->buf = mur_malloc((size_t)p->stride * (size_t)s->height);
    if (!p->subs || !p->buf) {
        mur_play_destroy(p);
        return mur_error_set(err, MUR_ERUN, "out of memory for a %dx%d frame", s->width, s->height);
    }
    *out = p;
    return MUR_OK;
}

void mur_play_destroy(mur_play *p)
{
    if (!p)
        return;
    for (int i = 0; p->subs && i < p->q->n; i++)
        mur_session_destroy(p->subs[i]);
    mur_free(p->subs);
    mur_free(p->buf);
    mur_free(p);
}

/* The entry shown at frame k: the last that has started (a crossfade's
 * second; the first is the entry before it). */
static int entry_at(const mur_sequence *q, long k)
{
    int i = 0;
    while (i + 1 < q->n && q->entries[i + 1].start <= k)
        i++;
    return i;
}

/* Entry i's local frame j (from its first shown) into *px, its session made when missing. */
static int entry_frame(mur_play *p, int i, long j, const uint8_t **px, int *stride, mur_error *err)
{
    const mur_sequence_entry *e = &p->q->entries[i];
    if (!p->subs[i]) {
        int rc = mur_session_create(&p->subs[i], e->scene, &p->opts, err);
        if (rc)
            return rc;
    }
    return mur_session_frame(p->subs[i], e->first + j, px, stride, err);
}

/* (play.h) */
void mur_play_blend(uint8_t *out, int ostride, const uint8_t *a, int astride, const uint8_t *b, int bstride,
                  int w, int h, unsigned weight)
{
    for (int y = 0; y < h; y++) {
        const uint8_t *ra = a + (size_t)y * astride, *rb = b ? b + (size_t)y * bstride : NULL;
        uint8_t *ro = out + (size_t)y * ostride;
        for (int x = 0; x < 4 * w; x++) {
            unsigned va = ra[x], vb = rb ? rb[x] : 0;
            ro[x] = (uint8_t)((va * (256 - weight) + vb * weight + 128) >> 8);
        }
    }
}

/* Keeps every pixel's alpha (the top byte of a native-endian ARGB32 word)
 * after a fade to black scaled it with the colours: frames stay opaque. */
static void keep_alpha(uint8_t *out, int ostride, const uint8_t *src, int sstride, int w, int h)
{
    for (int y = 0; y < h; y++) {
        uint32_t *ro = (uint32_t *)(void *)(out + (size_t)y * ostride);
        const uint32_t *rs = (const uint32_t *)(const void *)(src + (size_t)y * sstride);
        for (int x = 0; x < w; x++)
            ro[x] = (ro[x] & 0x00ffffffu) | (rs[x] & 0xff000000u);
    }
}

/* Frees the sessions of entries the sequence is past at frame k, entry i showing. */
static void release(mur_play *p, int i, long k)
{
    const mur_sequence_entry *e = &p->q->entries[i];
    int keep = e->transition == MUR_TRANSITION_CROSSFADE && k < e->start + e->over_frames ? i - 1 : i;
    for (int j = 0; j < keep; j++) {
        mur_session_destroy(p->subs[j]);
        p->subs[j] = NULL;
    }
}

/* How dark a fade leaves entry i's local frame j: 256 none, less toward black. */
static unsigned fade_weight(const mur_sequence *q, int i, long j)
{
    const mur_sequence_entry *e = &q->entries[i], *next = i + 1 < q->n ? &q->entries[i + 1] : NULL;
    double light = 1;
    if (e->transition == MUR_TRANSITION_FADE && j < e->over_frames)
        light = (double)(j + 1) / (double)(e->over_frames + 1);
    if (next && next->transition == MUR_TRANSITION_FADE && j >= e->frames - next->over_frames)
        light = fmin(light, (double)(e->frames - j) / (double)(next->over_frames + 1));
    return (unsigned)lround(light * 256);
}

int mur_play_frame(mur_play *p, long k, const uint8_t **pixels, int *stride, mur_error *err)
{
    int i = entry_at(p->q, k);
    const mur_sequence_entry *e = &p->q->entries[i];
    long j = k - e->start;
    release(p, i, k);
    const int w = p->s->width, h = p->s->height;
    const uint8_t *cur;
    int cs, rc;
    if (e->transition == MUR_TRANSITION_CROSSFADE && j < e->over_frames) {
        const mur_sequence_entry *prev = &p->q->entries[i - 1];
        const uint8_t *old;
        int os;
        if ((rc = entry_frame(p, i - 1, k - prev->start, &old, &os, err)))
            return rc;
        for (int y = 0; y < h; y++)   /* kept: the next session's draw may reuse its image */
            memcpy(p->buf + (size_t)y * p->stride, old + (size_t)y * os, (size_t)w * 4);
        if ((rc = entry_frame(p, i, j, &cur, &cs, err)))
            return rc;
        unsigned weight = (unsigned)lround(256.0 * (double)(j + 1) / (double)(e->over_frames + 1));
        mur_play_blend(p->buf, p->stride, p->buf, p->stride, cur, cs, w, h, weight);
        *pixels = p->buf;
        *stride = p->stride;
        return MUR_OK;
    }
    if ((rc = entry_frame(p, i, j, &cur, &cs, err)))
        return rc;
    unsigned light = fade_weight(p->q, i, j);
    if (light >= 256) {   /* a cut: the entry's own frame, untouched */
        *pixels = cur;
        *stride = cs;
        return MUR_OK;
    }
    mur_play_blend(p->buf, p->stride, cur, cs, NULL, 0, w, h, 256 - light);
    keep_alpha(p->buf, p->stride, cur, cs, w, h);
    *pixels = p->buf;
    *stride = p->stride;
    return MUR_OK;
}

int mur_play_still(mur_play *p, long k, const char *path, mur_error *err)
{
    int i = entry_at(p->q, k);
    const mur_sequence_entry *e = &p->q->entries[i];
    release(p, i, k);
    if (!p->subs[i]) {
        int rc = mur_session_create(&p->subs[i], e->scene, &p->opts, err);
        if (rc)
            return rc;
    }
    return mur_session_still(p->subs[i], e->first + (k - e->start), path, err);
}

/* ---- provenance ----------------------------------------------------------- */

/* A growing text; failed set once an allocation fails. */
typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} text;

static void put(text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->failed)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->cap ? t->cap * 2 : 4096) + n;
        char *g = mur_realloc(t->s, cap);
        if (!g) {
            t->failed = 1;
            return;
        }
        t->s = g;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n + 1);
    t->len += n;
}

/* One line per entry: what it shows and where it plays. */
static void put_entry(text *t, const mur_sequence_entry *e, int i)
{
    static const char *const how[] = {"a cut", "a fade", "a crossfade"};
    char line[1024];
    if (e->title)
        snprintf(line, sizeof line, "entry %d (line %d): title card \"%.200s\", %ld frames", i + 1, e->line,
                 e->title, e->frames);
    else
        snprintf(line, sizeof line, "entry %d (line %d): scene %.600s, its frames %ld to %ld", i + 1, e->line,
                 e->file, e->first, e->first + e->frames - 1);
    put(t, line);
    snprintf(line, sizeof line, ", at frames %ld to %ld of the sequence", e->start, e->start + e->frames - 1);
    put(t, line);
    if (i && e->transition != MUR_TRANSITION_CUT) {
        snprintf(line, sizeof line, ", after %s of %ld frames", how[e->transition], e->over_frames);
        put(t, line);
    }
    put(t, "\n");
}

int mur_play_provenance(const mur_scene *s, const char *request, char **out, mur_error *err)
{
    const mur_sequence *q = s->sequence;
    text t = {0};
    char line[1024];
    snprintf(line, sizeof line, "murmur %s\nsequence: %.900s\n", MUR_VERSION_STRING, s->path);
    put(&t, line);
    if (request && *request) {
        put(&t, request);
        if (request[strlen(request) - 1] != '\n')
            put(&t, "\n");
    }
    snprintf(line, sizeof line, "# inputs (SHA-256)\n%s  %.900s\n# entries: %d\n", s->sha256, s->path, q->n);
    put(&t, line);
    for (int i = 0; i < q->n; i++)
        put_entry(&t, &q->entries[i], i);
    for (int i = 0; i < q->n && !t.failed; i++) {
        const mur_sequence_entry *e = &q->entries[i];
        if (e->title)
            continue;
        snprintf(line, sizeof line, "# entry %d: %.900s\n", i + 1, e->file);
        put(&t, line);
        char *one = NULL;
        int rc = mur_scene_provenance(e->scene, e->scene->seed, NULL, &one, err);
        if (rc) {
            mur_free(t.s);
            return rc;
        }
        put(&t, one);
        mur_free(one);
    }
    put(&t, "# sequence file\n");
    put(&t, q->text);
    if (t.failed || !t.s) {
        mur_free(t.s);
        return mur_error_set(err, MUR_ERUN, "out of memory writing the provenance");
    }
    *out = t.s;
    return MUR_OK;
}

/* ---- chapters and captions ------------------------------------------------- */

typedef struct {
    mur_video_text *v;
    int n, cap;
} list;

static int push(list *l, mur_video_text t)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        mur_video_text *g = mur_realloc(l->v, (size_t)cap * sizeof *g);
        if (!g)
            return -1;
        l->v = g;
        l->cap = cap;
    }
    l->v[l->n++] = t;
    return 0;
}

/* Entry e's chapters and captions, shifted to where it plays (at0 s). */
static int entry_texts(const mur_sequence_entry *e, double at0, list *ch, list *cap, mur_error *err)
{
    mur_video_text *c = NULL, *u = NULL;
    int nc = 0, nu = 0, bad = 0;
    int rc = mur_scene_texts(e->scene, e->first, e->first + e->frames, &c, &nc, &u, &nu, err);
    if (rc)
        return rc;
    const char *own = e->title ? e->title : e->scene->title;
    if ((nc == 0 || c[0].start >= 0.001) && own)   /* an entry opens a chapter */
        bad |= push(ch, (mur_video_text){at0, 0, own});
    for (int k = 0; k < nc; k++)
        bad |= push(ch, (mur_video_text){at0 + c[k].start, 0, c[k].text});
    for (int k = 0; k < nu; k++)
        bad |= push(cap, (mur_video_text){at0 + u[k].start, at0 + u[k].end, u[k].text});
    mur_free(c);
    mur_free(u);
    return bad ? mur_error_set(err, MUR_ERUN, "out of memory listing chapters") : MUR_OK;
}

int mur_play_texts(const mur_scene *s, mur_video_text **chapters, int *nchapters, mur_video_text **captions,
                   int *ncaptions, mur_error *err)
{
    const mur_sequence *q = s->sequence;
    list ch = {0}, cap = {0};
    int rc = MUR_OK;
    for (int i = 0; i < q->n && !rc; i++)
        rc = entry_texts(&q->entries[i], (double)q->entries[i].start / s->fps, &ch, &cap, err);
    /* in time order (a crossfade starts an entry before the last chapter of
     * the one before may have): a stable insertion sort of a short list */
    for (int i = 1; i < ch.n; i++)
        for (int j = i; j > 0 && ch.v[j - 1].start > ch.v[j].start; j--) {
            mur_video_text t = ch.v[j];
            ch.v[j] = ch.v[j - 1];
            ch.v[j - 1] = t;
        }
    /* a chapter named as the one before it goes on with it (a title card
     * and the scene it announces, both titled alike) */
    int kept = 0;
    for (int i = 0; i < ch.n; i++)
        if (!kept || strcmp(ch.v[kept - 1].text, ch.v[i].text))
            ch.v[kept++] = ch.v[i];
    ch.n = kept;
    if (rc) {
        mur_free(ch.v);
        mur_free(cap.v);
        return rc;
    }
    *chapters = ch.v;
    *nchapters = ch.n;
    *captions = cap.v;
    *ncaptions = cap.n;
    return MUR_OK;
}
