/* Drawing one frame: background, panels, world fit, trails, boids, overlays.
 *
 * Boids and trails are drawn in world coordinates under one transform, so
 * sizes and line widths given in world units scale with the output (a 4K
 * render is a sharp 1080p one, not a field of specks); overlay text and
 * boxes scale with the frame the same way. Boids of one colour bin go into
 * one path and one fill: Cairo's cost is per fill, not per vertex, so
 * 100,000 boids are a few dozen fills rather than 100,000.
 *
 * Colour by cluster keeps a cluster's colour while it lives: observe()
 * matches each tick's clusters to the previous tick's by majority vote
 * (largest cluster first), and draw() runs the same matching against that
 * record, which leaves it unchanged when it is current. Colours thus depend
 * on the observed ticks only, and a still equals the frame of a render. */
#include "internal.h"
#include "murmur/presets.h"
#include "density.h"
#include "murmur/alloc.h"
#include "../util/pool.h"

#include <float.h>
#include <limits.h>
#include <stdatomic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#define HEADING_BINS 48     /* hue steps for colour by heading: finer is not visible */
#define SPEED_BINS 32
#define NEIGHBOUR_BINS 25   /* 0 .. 23 neighbours, and 24 or more */
#define CLUSTER_COLOURS 12
_Static_assert(HEADING_BINS <= MUR_MAX_BINS && SPEED_BINS <= MUR_MAX_BINS &&
                   NEIGHBOUR_BINS <= MUR_MAX_BINS && CLUSTER_COLOURS + 1 <= MUR_MAX_BINS,
               "a colour mode has more bins than MUR_MAX_BINS");

/* Qualitative colours that stay apart on dark and light backgrounds
 * (Okabe-Ito first, then lighter companions). */
static const double cluster_palette[CLUSTER_COLOURS][3] = {
    {0.90, 0.62, 0.00}, {0.34, 0.71, 0.91}, {0.00, 0.62, 0.45}, {0.94, 0.89, 0.26},
    {0.80, 0.47, 0.65}, {0.84, 0.37, 0.00}, {0.55, 0.83, 0.78}, {0.99, 0.50, 0.45},
    {0.50, 0.69, 0.83}, {0.74, 0.73, 0.85}, {0.70, 0.87, 0.41}, {1.00, 0.93, 0.44},
};

/* A sequential ramp from cool to warm for speed and neighbour counts: blue,
 * cyan, green, yellow, red; every step visible on a dark background. */
static void ramp(double u, double rgb[3])
{
    static const double k[5][3] = {
        {0.30, 0.43, 0.96}, {0.13, 0.72, 0.81}, {0.58, 0.85, 0.30}, {1.00, 0.83, 0.23}, {1.00, 0.42, 0.42},
    };
    u = fmin(fmax(u, 0), 1) * 4;
    int i = (int)u;
    if (i > 3)
        i = 3;
    double f = u - i;
    for (int c = 0; c < 3; c++)
        rgb[c] = k[i][c] + (k[i + 1][c] - k[i][c]) * f;
}

/* HSV with full value to RGB, h in [0, 1). */
static void hue_rgb(double h, double sat, double *rgb)
{
    double h6 = h * 6;
    int i = (int)h6 % 6;
    double f = h6 - floor(h6);
    double p = 1 - sat, q = 1 - sat * f, t = 1 - sat * (1 - f);
    const double tab[6][3] = {{1, t, p}, {q, 1, p}, {p, 1, t}, {p, q, 1}, {t, p, 1}, {1, p, q}};
    memcpy(rgb, tab[i], sizeof tab[i]);
}

int mur_bin_count(const mur_look *lk)
{
    switch (lk->color_mode) {
    case MUR_COLOR_HEADING: return HEADING_BINS;
    case MUR_COLOR_SPEED: return SPEED_BINS;
    case MUR_COLOR_NEIGHBOURS: return NEIGHBOUR_BINS;
    case MUR_COLOR_CLUSTER: return CLUSTER_COLOURS + 1;
    case MUR_COLOR_GROUP: return lk->ngroups + 1;
    default: return 1;
    }
}

static void bin_colour(const mur_look *lk, int bin, double rgb[3])
{
    switch (lk->color_mode) {
    case MUR_COLOR_HEADING:
        hue_rgb((bin + 0.5) / HEADING_BINS, 0.55, rgb);
        return;
    case MUR_COLOR_SPEED:
        ramp((bin + 0.5) / SPEED_BINS, rgb);
        return;
    case MUR_COLOR_NEIGHBOURS:
        ramp((double)bin / (NEIGHBOUR_BINS - 1), rgb);
        return;
    case MUR_COLOR_CLUSTER:
        if (bin == 0) {   /* a boid alone: neutral, so that clusters stand out */
            rgb[0] = rgb[1] = rgb[2] = 0.55;
            return;
        }
        memcpy(rgb, cluster_palette[bin - 1], sizeof cluster_palette[0]);
        return;
    case MUR_COLOR_GROUP:
        if (bin < lk->ngroups) {
            rgb[0] = lk->group_colors[bin].r;
            rgb[1] = lk->group_colors[bin].g;
            rgb[2] = lk->group_colors[bin].b;
            return;
        }
        __attribute__((fallthrough));   /* a boid in no group: the boid colour */
    default:
        rgb[0] = lk->boid_color.r;
        rgb[1] = lk->boid_color.g;
        rgb[2] = lk->boid_color.b;
        return;
    }
}

void mur_bin_colour(const mur_look *lk, int bin, double rgb[3])
{
    bin_colour(lk, bin, rgb);
    /* The palettes are made for dark scenes; on a light one they are
     * darkened a quarter so that yellow and cyan boids still show. */
    const mur_rgba *bg = &lk->background;
    if (lk->color_mode != MUR_COLOR_FIXED && 0.2126 * bg->r + 0.7152 * bg->g + 0.0722 * bg->b >= 0.5)
        for (int c = 0; c < 3; c++)
            rgb[c] *= 0.72;
}

void mur_bin_rgb8(const mur_look *lk, int bin, uint8_t rgb[3])
{
    double c[3];
    mur_bin_colour(lk, bin, c);
    for (int k = 0; k < 3; k++)
        rgb[k] = (uint8_t)lround(fmin(fmax(c[k], 0), 1) * 255);
}

/* ---- lifetime ------------------------------------------------------------- */

static void panel_free(mur_panel_state *ps, int nseries)
{
    mur_camera_free(&ps->cam);
    mur_pred_trails_free(ps);
    mur_trails_free(&ps->trails);
    if (ps->series)
        for (int k = 0; k < nseries; k++)
            mur_series_free(&ps->series[k]);
    mur_free(ps->series);
    mur_free(ps->cid);
    mur_metrics_ctx_destroy(ps->mx);
    cairo_surface_destroy(ps->sky);
    mur_free(ps->tau);
}

/* An image overlay's picture and place (mur_image): sizes, bytes, fractions. */
static int image_ok(const mur_image *im)
{
    if (!im || !im->data || im->width < 1 || im->height < 1 || im->width > MUR_IMAGE_MAX_PIXELS ||
        im->height > MUR_IMAGE_MAX_PIXELS || !(im->opacity >= 0 && im->opacity <= 1) ||
        (unsigned)im->corner > MUR_CORNER_BOTTOM_RIGHT || !(im->frame_width >= 0 && im->frame_width <= 1) ||
        !(im->frame_height >= 0 && im->frame_height <= 1))
        return 0;
    if (im->format == MUR_IMAGE_PIXELS &&
        (im->stride < 4 * im->width || im->stride % 4 || im->size < (size_t)im->stride * (size_t)im->height))
        return 0;
    if (im->format != MUR_IMAGE_PIXELS && (im->format != MUR_IMAGE_SVG || im->size < 1))
        return 0;
    for (int k = 0; im->has_region && k < 4; k++)
        if (!(im->region[k] >= 0 && im->region[k] <= 1) || (k >= 2 && !(im->region[k] > 0)))
            return 0;
    return 1;
}

/* A look the drawing can trust: names in range (colour bins, shapes and
 * metrics index tables), sizes positive. A scene's always is; a look an
 * embedding program fills may not be. */
static int look_ok(const mur_look *lk, mur_error *err)
{
    const char *bad = NULL;
    if (!MUR_VERSION_OK(lk->version, MUR_LOOK_OLDEST, MUR_LOOK_VERSION))
        return mur_error_set(err, MUR_EINPUT, "a look of version %u (this murmur takes %d)", lk->version,
                             MUR_LOOK_VERSION);
    if (lk->panels < 1)
        bad = "panels (at least 1)";
    else if ((unsigned)lk->shape > MUR_SHAPE_DENSITY || (unsigned)lk->color_mode > MUR_COLOR_GROUP ||
             (lk->color_mode == MUR_COLOR_GROUP && (lk->ngroups < 0 || lk->ngroups > MUR_MAX_GROUPS ||
                                                     (lk->ngroups && !lk->group_colors))))
        bad = "shape or colour mode";
    else if (!(lk->boid_size > 0) || lk->trail_length < 0 || !(lk->tps > 0))
        bad = "boid size, trail length or ticks per second";
    else if (lk->noverlays < 0 || (lk->noverlays > 0 && !lk->overlays))
        bad = "overlays";
    else if (lk->version >= 4 && (lk->npredator_looks < 0 || lk->npredator_looks > MUR_MAX_PREDATORS ||
                                  (lk->npredator_looks && !lk->predator_looks)))
        bad = "predator looks";
    for (int k = 0; k < (lk->version >= 4 ? lk->npredator_looks : 0) && !bad; k++) {
        const mur_predator_look *pl = &lk->predator_looks[k];
        if (!(pl->size >= 0 && pl->size <= MUR_MAX_WORLD) || !(pl->trail >= 0 && pl->trail <= MUR_PREDATOR_TRAIL_MAX))
            bad = "predator look (size, trail)";
    }
    for (int k = 0; k < lk->noverlays && !bad; k++) {
        const mur_overlay *o = &lk->overlays[k];
        int ok = (unsigned)o->kind <= MUR_OVERLAY_FIGURE && (unsigned)o->corner <= MUR_CORNER_BOTTOM_RIGHT;
        if (o->kind == MUR_OVERLAY_IMAGE)
            ok = ok && image_ok(o->image);
        if (o->kind == MUR_OVERLAY_READOUT) {
            ok = ok && o->nmetrics >= 0 && o->nmetrics <= 8;
            for (int m = 0; ok && m < o->nmetrics; m++)
                ok = o->metrics[m] >= 0 && o->metrics[m] < MUR_METRIC_COUNT;
        }
        if (o->kind == MUR_OVERLAY_PLOT)   /* samples of a window: an int count */
            ok = ok && o->metric >= 0 && o->metric < MUR_METRIC_COUNT && o->window > 0 &&
                 o->window * lk->tps < 1e9;
        if (o->kind == MUR_OVERLAY_FIGURE)
            ok = ok && o->metric >= 0 && o->metric < MUR_METRIC_COUNT && o->setting &&
                 o->x_range[1] > o->x_range[0] && o->nref >= 0 && (!o->nref || (o->ref_x && o->ref_y));
        if (!ok)
            bad = "overlay";
    }
    if (bad)
        return mur_error_set(err, MUR_EINPUT, "the look's %s is out of range", bad);
    return MUR_OK;
}

/* Boids in a frame from which it is drawn in bands. Below it the bands'
 * set-up costs more than the drawing they share: 4% more CPU for a 1080p
 * render of 2,000 boids with fading trails (where the encoder fills the
 * cores anyway), 2.5% at 10,000; at 100,000 bands take a render from 54 s
 * to 44.5 s (bench/render_bench.sh). The pixels are the same either way;
 * MURMUR_BANDS=always or never in the environment overrides the choice
 * (the tests draw small flocks in bands; a benchmark can compare). */
#define BAND_MIN_BOIDS 30000

static long band_min(void)
{
    const char *e = getenv("MURMUR_BANDS");
    if (e && !strcmp(e, "always"))
        return 0;
    if (e && !strcmp(e, "never"))
        return LONG_MAX;
    return BAND_MIN_BOIDS;
}

int mur_renderer_create(mur_renderer **out, const mur_look *lk, int width, int height,
                        mur_error *err)
{
    *out = NULL;
    if (width < 1 || height < 1 || width > MUR_LOOK_MAX_PIXELS || height > MUR_LOOK_MAX_PIXELS)
        return mur_error_set(err, MUR_EINPUT, "frame size %dx%d is out of range", width, height);
    int rc = look_ok(lk, err);
    if (rc)
        return rc;
    mur_renderer *r = mur_calloc(1, sizeof *r);
    if (!r)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    r->look = lk;
    r->band_min = band_min();
    r->width = width;
    r->height = height;
    r->npanels = lk->panels;
    mur_theme_for(&lk->background, &r->theme);
    r->panels = mur_calloc((size_t)r->npanels, sizeof *r->panels);
    if (!r->panels)
        goto oom;
    for (int i = 0; i < r->npanels; i++) {
        mur_panel_state *ps = &r->panels[i];
        if (lk->noverlays && !(ps->series = mur_calloc((size_t)lk->noverlays, sizeof *ps->series)))
            goto oom;
        if (!(ps->mx = mur_metrics_ctx_create()) || mur_pred_trails_init(ps, lk))
            goto oom;
        mur_metrics_ctx_set_radius(ps->mx, lk->metric_radius);
        mur_metrics_ctx_set_correlation(ps->mx, lk->correlation_bin, lk->correlation_range);
    }
    /* Pango and fontconfig only for looks with text: loading fonts is the
     * slowest part of a short still. */
    int text = lk->noverlays > 0 || r->npanels > 1 || lk->caption_at || lk->moment_at || mur_views3d_wanted(lk);
    if (mur_overlay_images_init(r)) {
        mur_renderer_destroy(r);
        return mur_error_set(err, MUR_ERUN, "cannot set up the image overlays (out of memory)");
    }
    if (text && mur_text_init(&r->text, MUR_TEXT_FRAME)) {
        mur_renderer_destroy(r);
        return mur_error_set(err, MUR_ERUN, "cannot set up text drawing (Pango, font '%s')", MUR_FONT);
    }
    *out = r;
    return MUR_OK;
oom:
    mur_renderer_destroy(r);
    return mur_error_set(err, MUR_ERUN, "out of memory");
}

void mur_renderer_destroy(mur_renderer *r)
{
    if (!r)
        return;
    if (r->image)
        cairo_surface_destroy(r->image);
    mur_overlay_images_free(r);
    mur_pool_destroy(r->pool);
    if (r->panels)
        for (int i = 0; i < r->npanels; i++)
            panel_free(&r->panels[i], r->look->noverlays);
    mur_free(r->panels);
    mur_text_free(&r->text);
    mur_free(r->bin);
    mur_free(r->order);
    mur_free(r->ids);
    mur_free(r->m_size);
    mur_free(r->m_start);
    mur_free(r->m_members);
    mur_free(r->m_count);
    mur_free(r->m_list);
    mur_free(r->m_claimed);
    mur_free(r->m_seen);
    mur_density_destroy(r->density);
    mur_free(r->bk_start);
    mur_free(r->bk_items);
    mur_free(r->bk_batch);
    mur_free(r->bk_lo);
    mur_free(r->bk_hi);
    mur_free(r);
}

void mur_renderer_set_ghost(mur_renderer *r, int panel, const mur_flock *ghost, double dx, double dy)
{
    if (panel < 0 || panel >= r->npanels)
        return;
    r->panels[panel].ghost = ghost;
    r->panels[panel].ghost_shift[0] = dx;
    r->panels[panel].ghost_shift[1] = dy;
    r->panels[panel].ghost_shift[2] = 0;
}

void mur_renderer_set_ghost3(mur_renderer *r, int panel, const mur_flock *ghost, const double shift[3])
{
    mur_renderer_set_ghost(r, panel, ghost, shift[0], shift[1]);
    if (panel >= 0 && panel < r->npanels)
        r->panels[panel].ghost_shift[2] = shift[2];
}

void mur_renderer_set_stop(mur_renderer *r, volatile sig_atomic_t *stop)
{
    r->stop = stop;
    for (int i = 0; i < r->npanels; i++)
        mur_metrics_ctx_set_stop(r->panels[i].mx, stop);
}

int mur_renderer_set_threads(mur_renderer *r, int threads, mur_error *err)
{
    if (threads <= 0)
        threads = mur_cpu_count();
    if (mur_pool_threads(r->pool) == threads)
        return MUR_OK;
    mur_pool *pool = threads > 1 ? mur_pool_create(threads) : NULL;
    if (threads > 1 && !pool)
        return mur_error_set(err, MUR_ERUN, "cannot start %d drawing threads", threads);
    mur_density_destroy(r->density);   /* it works on the pool: made again on the new one */
    r->density = NULL;
    mur_pool_destroy(r->pool);
    r->pool = pool;
    return MUR_OK;
}

/* Grows the renderer's scratch array r->field to `count` elements, its
 * contents kept; returns -1 from the function when memory is short (the
 * array is then as it was). */
#define GROW(field, count)                                                     \
    do {                                                                       \
        void *p_ = mur_realloc(r->field, (count) * sizeof *r->field);          \
        if (!p_)                                                               \
            return -1;                                                         \
        r->field = p_;                                                         \
    } while (0)

/* Scratch for n boids; ids of cluster matching range over 2n (see below). */
static int reserve(mur_renderer *r, int n)
{
    if ((size_t)n <= r->cap)
        return 0;
    size_t cap = (size_t)n + (size_t)n / 2 + 16;
    GROW(bin, cap);
    GROW(order, cap);
    GROW(ids, cap);
    GROW(m_size, cap);
    GROW(m_start, cap + 1);
    GROW(m_members, cap);
    GROW(m_list, cap);
    GROW(m_count, 2 * cap);
    GROW(m_claimed, 2 * cap);
    GROW(m_seen, 2 * cap);
    r->cap = cap;
    return 0;
}

/* ---- stable cluster colours ---------------------------------------------- */

static int cmp_cluster(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Colour ids for the clusters of `label` (each boid's cluster named by its
 * smallest member) given the previous ids `prev` of nprev boids: every
 * cluster of two or more takes the id most of its members had (ties to the
 * smaller id), larger clusters choosing first; a cluster whose choice is
 * taken, or that is new, takes the smallest id neither taken now nor in use
 * before, so it does not borrow a colour the eye still remembers. Ids stay
 * below 2n (at most n/2 clusters, n/2 ids in use before), lone boids get -1. */
static void match_clusters(mur_renderer *r, const int *label, int n, const int *prev, int nprev,
                           int *out)
{
    int *size = r->m_size, *start = r->m_start, *mem = r->m_members, *cnt = r->m_count;
    unsigned char *claimed = r->m_claimed, *seen = r->m_seen;
    long long *list = r->m_list;
    size_t nids = 2 * (size_t)n;   /* n <= MUR_MAX_BOIDS: fits an int */
    int idmax = (int)nids;
    memset(size, 0, (size_t)n * sizeof *size);
    for (int i = 0; i < n; i++)
        size[label[i]]++;
    start[0] = 0;
    for (int l = 0; l < n; l++)
        start[l + 1] = start[l] + size[l];
    for (int l = 0; l < n; l++)
        cnt[l] = start[l];
    for (int i = 0; i < n; i++)
        mem[cnt[label[i]]++] = i;
    memset(cnt, 0, nids * sizeof *cnt);
    memset(claimed, 0, nids);
    memset(seen, 0, nids);
    if (nprev > n)
        nprev = n;
    for (int i = 0; i < nprev; i++)
        if (prev[i] >= 0 && prev[i] < idmax)
            seen[prev[i]] = 1;
    int nc = 0;
    for (int l = 0; l < n; l++)
        if (size[l] >= 2)
            list[nc++] = ((long long)(n - size[l]) << 32) | l;   /* largest first, then by label */
    qsort(list, (size_t)nc, sizeof *list, cmp_cluster);
    for (int i = 0; i < n; i++)
        out[i] = -1;
    int pending = 0;
    for (int c = 0; c < nc; c++) {
        int l = (int)(list[c] & 0xffffffff), best = -1, votes = 0;
        for (int k = start[l]; k < start[l + 1]; k++) {
            int j = mem[k], p = j < nprev ? prev[j] : -1;
            if (p < 0 || p >= idmax)
                continue;
            int v = ++cnt[p];
            if (v > votes || (v == votes && p < best)) {
                best = p;
                votes = v;
            }
        }
        for (int k = start[l]; k < start[l + 1]; k++) {
            int j = mem[k], p = j < nprev ? prev[j] : -1;
            if (p >= 0 && p < idmax)
                cnt[p] = 0;
        }
        if (best >= 0 && !claimed[best]) {
            claimed[best] = 1;
            for (int k = start[l]; k < start[l + 1]; k++)
                out[mem[k]] = best;
        } else {
            list[pending++] = list[c];   /* pending < c + 1: never overwrites unread entries */
        }
    }
    int next = 0;
    for (int c = 0; c < pending; c++) {
        int l = (int)(list[c] & 0xffffffff);
        while (next < idmax && (claimed[next] || seen[next]))
            next++;
        int id = next < idmax ? next : 0;
        if (next < idmax)
            claimed[next] = 1;
        for (int k = start[l]; k < start[l + 1]; k++)
            out[mem[k]] = id;
    }
}

/* ---- observing ticks ----------------------------------------------------- */

static void fail_observe(mur_renderer *r, const char *what, int n)
{
    if (mur_render_stopped(r)) {   /* the metrics stop with the drawing */
        r->failed = MUR_EINTR;
        mur_error_set(&r->fail, MUR_EINTR, "stopped while recording %s of %d boids", what, n);
        return;
    }
    r->failed = MUR_ERUN;
    mur_error_set(&r->fail, MUR_ERUN, "out of memory recording %s of %d boids", what, n);
}

static void assign_bins(mur_renderer *r, int panel, const mur_flock *f, int n);
static void bins_of_ids(mur_renderer *r, int n);

double mur_boid_size(const mur_renderer *r)
{
    return r->size_scale > 0 ? r->look->boid_size * r->size_scale : r->look->boid_size;
}

/* The metric the colour mode takes its per-boid results from: each boid's
 * count of neighbours, or its cluster. */
static unsigned colour_metrics(const mur_look *lk)
{
    return lk->color_mode == MUR_COLOR_NEIGHBOURS ? 1u << MUR_METRIC_NEIGHBOURS
           : lk->color_mode == MUR_COLOR_CLUSTER  ? 1u << MUR_METRIC_CLUSTERS
                                                  : 0;
}

unsigned mur_look_metrics_wanted(const mur_look *lk)
{
    return mur_overlays_metrics_wanted(lk) | colour_metrics(lk);
}

/* What mur_renderer_observe measures on any tick: its plots' metrics, and
 * the colour mode's (trails keep each tick's colours); one measurement
 * serves them all. */
static unsigned observed_metrics(const mur_look *lk)
{
    unsigned want = colour_metrics(lk);
    for (int k = 0; k < lk->noverlays; k++)
        if ((lk->overlays[k].kind == MUR_OVERLAY_PLOT || lk->overlays[k].kind == MUR_OVERLAY_FIGURE) &&
            lk->overlays[k].metric != 0)
            want |= 1u << lk->overlays[k].metric;
    return want;
}

void mur_renderer_observe(mur_renderer *r, int panel, const mur_flock *f, long tick)
{
    const mur_look *lk = r->look;
    if (r->failed || panel < 0 || panel >= r->npanels)
        return;
    mur_panel_state *ps = &r->panels[panel];
    int n = mur_flock_count(f), rc;
    mur_metrics m;
    int have = 0;
    /* a tick of the warm-up (<= 0, look.trail_warm) is for the trails and
     * their colours only: plots and the camera start at the first frame */
    if (tick > 0) {
        mur_camera_observe(r, panel, f, tick);
        mur_pred_trails_observe(ps, f, tick);
    }
    for (int k = 0; k < lk->noverlays && tick > 0; k++) {
        const mur_overlay *o = &lk->overlays[k];
        if (o->kind != MUR_OVERLAY_PLOT && o->kind != MUR_OVERLAY_FIGURE)
            continue;
        mur_series *ser = &ps->series[k];
        if (!ser->cap && (o->kind == MUR_OVERLAY_FIGURE ? mur_figure_init(ser) : mur_series_init(ser, o, lk->tps))) {
            fail_observe(r, "a plot", n);
            return;
        }
        if (tick % ser->stride)
            continue;
        double v;
        if (o->metric == 0) {
            v = mur_metrics_order_of(f);
        } else {
            if (!have && mur_metrics_compute_some(ps->mx, f, observed_metrics(lk), &m)) {
                fail_observe(r, "metrics", n);
                return;
            }
            have = 1;
            v = mur_metrics_value(&m, o->metric);
        }
        if (o->kind == MUR_OVERLAY_FIGURE)
            mur_figure_push(ser, tick, mur_setting_get(o->setting, mur_flock_params(f)), v);
        else
            mur_series_push(ser, tick / lk->tps, v);
    }
    if (lk->color_mode == MUR_COLOR_CLUSTER && n > 0) {
        if ((!have && mur_metrics_compute_some(ps->mx, f, observed_metrics(lk), &m)) || reserve(r, n)) {
            fail_observe(r, "clusters", n);
            return;
        }
        have = 1;
        if ((size_t)n > ps->cid_cap) {
            int *c = mur_realloc(ps->cid, (size_t)n * sizeof *c);
            if (!c) {
                fail_observe(r, "clusters", n);
                return;
            }
            ps->cid = c;
            ps->cid_cap = (size_t)n;
        }
        match_clusters(r, mur_metrics_cluster_of(ps->mx), n, ps->cid, ps->ncid, r->ids);
        memcpy(ps->cid, r->ids, (size_t)n * sizeof *r->ids);
        ps->ncid = n;
    }
    if (lk->trail_length <= 0)
        return;
    /* Trails keep each tick's colours: colour by neighbours needs this
     * tick's counts. */
    if ((lk->color_mode == MUR_COLOR_NEIGHBOURS && n > 0 && !have &&
         mur_metrics_compute_some(ps->mx, f, observed_metrics(lk), &m)) ||
        reserve(r, n)) {
        fail_observe(r, "trails", n);
        return;
    }
    if (n > 0 && lk->color_mode == MUR_COLOR_CLUSTER)
        bins_of_ids(r, n);   /* matched above */
    else if (n > 0)
        assign_bins(r, panel, f, n);
    /* warm trails count from the warm-up's start: the ticks a run without one has */
    if ((rc = mur_trails_record(&ps->trails, lk->trail_length, f, tick + lk->trail_warm, r->bin))) {
        if (rc == -2) {
            r->failed = MUR_EINPUT;
            mur_error_set(&r->fail, MUR_EINPUT,
                          "%s: error: trails of %d ticks for %d boids need more than 1 GiB; "
                          "shorten look.trails.length", lk->name ? lk->name : "scene", lk->trail_length, n);
        } else {
            fail_observe(r, "trails", n);
        }
    }
}

/* ---- boids ---------------------------------------------------------------- */

/* The corners of a boid's outline (not a dot), world units, in drawing
 * order, to wx, wy: the tip, the left wing, the notch (arrows), the right
 * wing. Returns how many (3 or 4). */
static int boid_outline(mur_shape shape, double size, double x, double y, double ux, double uy,
                        double wx[4], double wy[4])
{
    double px = -uy, py = ux;   /* the heading's left */
    double h = size / 2;
    int nv = 0;
    wx[nv] = x + ux * h, wy[nv++] = y + uy * h;
    wx[nv] = x - ux * h + px * h * 0.6, wy[nv++] = y - uy * h + py * h * 0.6;
    if (shape == MUR_SHAPE_ARROW || shape == MUR_SHAPE_DENSITY)   /* a density look's ghost: arrows */
        wx[nv] = x - ux * h * 0.45, wy[nv++] = y - uy * h * 0.45;   /* the notch */
    wx[nv] = x - ux * h - px * h * 0.6, wy[nv++] = y - uy * h - py * h * 0.6;
    return nv;
}

/* Add boid i's outline to the current path, in world coordinates. */
static void boid_path(cairo_t *cr, mur_shape shape, double size, double x, double y, double ux,
                      double uy)
{
    if (shape == MUR_SHAPE_DOT) {
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, size / 4, 0, 2 * MUR_PI);
        return;
    }
    double wx[4], wy[4];
    int nv = boid_outline(shape, size, x, y, ux, uy, wx, wy);
    cairo_move_to(cr, wx[0], wy[0]);
    for (int k = 1; k < nv; k++)
        cairo_line_to(cr, wx[k], wy[k]);
    cairo_close_path(cr);
}

void mur_boid_path(cairo_t *cr, mur_shape shape, double size, double x, double y, double ux, double uy)
{
    boid_path(cr, shape, size, x, y, ux, uy);
}

/* Bin of u in [0, 1) among nb; NaN (never from the core) goes to bin 0
 * rather than into an undefined conversion. */
static int unit_bin(double u, int nb)
{
    if (!(u > 0))
        return 0;
    return u >= 1 ? nb - 1 : (int)(u * nb);
}

/* Colour by heading's bin of a velocity: unit_bin of its angle, atan2's
 * over 2 pi (in [0, 1)). atan2 and the binning took 3% of a 100,000-boid
 * render's CPU (every boid, every tick, twice), so the angle is first
 * estimated by a polynomial (Abramowitz and Stegun 4.4.49:
 * atan z on [0, 1] within 1e-5 radians, 48 / 2 pi times that in bins) and
 * the bin taken from it when it lies more than HEADING_MARGIN of a bin
 * (a hundred times the estimate's error) from the bin's edges: the exact
 * angle is in the same bin. Near an edge, on an axis, and for anything
 * not finite, atan2 decides. The bins are atan2's, exactly (a test
 * compares them over two million headings and the edges). */
#define HEADING_MARGIN 1e-2
/* atan z ~ z (A1 + z^2 (A3 + z^2 (A5 + z^2 (A7 + z^2 A9)))) on [0, 1] */
#define ATAN_A1 0.9998660
#define ATAN_A3 -0.3302995
#define ATAN_A5 0.1801410
#define ATAN_A7 -0.0851330
#define ATAN_A9 0.0208351

static int heading_bin_exact(double vx, double vy)
{
    double a = atan2(vy, vx) / (2 * MUR_PI);
    return unit_bin(a < 0 ? a + 1 : a, HEADING_BINS);
}

int mur_heading_bin(double vx, double vy)
{
    double ax = fabs(vx), ay = fabs(vy);
    if (ax > 0 && ay > 0 && ax <= DBL_MAX && ay <= DBL_MAX) {
        double z = ax < ay ? ax / ay : ay / ax, z2 = z * z;   /* in (0, 1] */
        double t = z * (ATAN_A1 + z2 * (ATAN_A3 + z2 * (ATAN_A5 + z2 * (ATAN_A7 + z2 * ATAN_A9))));
        if (ax < ay)
            t = MUR_PI / 2 - t;
        if (vx < 0)
            t = MUR_PI - t;
        double u = (vy < 0 ? 2 * MUR_PI - t : t) / (2 * MUR_PI);   /* in [0, 1] */
        double x = u * HEADING_BINS, edge = floor(x);
        if (x - edge > HEADING_MARGIN && x - edge < 1 - HEADING_MARGIN)
            return (int)edge;   /* inside bin `edge`, away from both its edges */
    }
    return heading_bin_exact(vx, vy);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* mur_heading_bin four at a time: the same estimate (its operations in
 * another order: still well within its error), the same margin, and
 * atan2 for the lanes it leaves. */
__attribute__((target("avx2"))) static void heading_bins_avx2(const double *vx, const double *vy, int n,
                                                              int *bin)
{
    const __m256d sign = _mm256_set1_pd(-0.0), zero = _mm256_setzero_pd(), big = _mm256_set1_pd(DBL_MAX);
    const __m256d half_pi = _mm256_set1_pd(MUR_PI / 2), pi = _mm256_set1_pd(MUR_PI);
    const __m256d two_pi = _mm256_set1_pd(2 * MUR_PI), bins = _mm256_set1_pd(HEADING_BINS);
    const __m256d lo_edge = _mm256_set1_pd(HEADING_MARGIN), hi_edge = _mm256_set1_pd(1 - HEADING_MARGIN);
    const __m256d c1 = _mm256_set1_pd(ATAN_A1), c3 = _mm256_set1_pd(ATAN_A3);
    const __m256d c5 = _mm256_set1_pd(ATAN_A5), c7 = _mm256_set1_pd(ATAN_A7);
    const __m256d c9 = _mm256_set1_pd(ATAN_A9), mid = _mm256_set1_pd(0.5);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d x = _mm256_loadu_pd(vx + i), y = _mm256_loadu_pd(vy + i);
        __m256d ax = _mm256_andnot_pd(sign, x), ay = _mm256_andnot_pd(sign, y);
        __m256d steep = _mm256_cmp_pd(ax, ay, _CMP_LT_OQ);
        __m256d z = _mm256_div_pd(_mm256_blendv_pd(ay, ax, steep), _mm256_blendv_pd(ax, ay, steep));
        __m256d z2 = _mm256_mul_pd(z, z);
        __m256d t = _mm256_add_pd(c7, _mm256_mul_pd(z2, c9));
        t = _mm256_add_pd(c5, _mm256_mul_pd(z2, t));
        t = _mm256_add_pd(c3, _mm256_mul_pd(z2, t));
        t = _mm256_mul_pd(z, _mm256_add_pd(c1, _mm256_mul_pd(z2, t)));
        t = _mm256_blendv_pd(t, _mm256_sub_pd(half_pi, t), steep);
        t = _mm256_blendv_pd(t, _mm256_sub_pd(pi, t), _mm256_cmp_pd(x, zero, _CMP_LT_OQ));
        t = _mm256_blendv_pd(t, _mm256_sub_pd(two_pi, t), _mm256_cmp_pd(y, zero, _CMP_LT_OQ));
        __m256d ok = _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(ax, zero, _CMP_GT_OQ), _mm256_cmp_pd(ay, zero, _CMP_GT_OQ)),
                                   _mm256_and_pd(_mm256_cmp_pd(ax, big, _CMP_LE_OQ), _mm256_cmp_pd(ay, big, _CMP_LE_OQ)));
        __m256d u = _mm256_blendv_pd(mid, _mm256_mul_pd(_mm256_div_pd(t, two_pi), bins), ok);
        __m256d edge = _mm256_floor_pd(u), frac = _mm256_sub_pd(u, edge);
        ok = _mm256_and_pd(ok, _mm256_and_pd(_mm256_cmp_pd(frac, lo_edge, _CMP_GT_OQ),
                                             _mm256_cmp_pd(frac, hi_edge, _CMP_LT_OQ)));
        _mm_storeu_si128((__m128i *)(void *)(bin + i), _mm256_cvttpd_epi32(edge));
        unsigned sure = (unsigned)_mm256_movemask_pd(ok);
        for (int j = 0; j < 4; j++)
            if (!(sure >> j & 1))
                bin[i + j] = heading_bin_exact(vx[i + j], vy[i + j]);
    }
    for (; i < n; i++)
        bin[i] = mur_heading_bin(vx[i], vy[i]);
}
#endif

void mur_heading_bins(const double *vx, const double *vy, int n, int *bin)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2")) {
        heading_bins_avx2(vx, vy, n, bin);
        return;
    }
#endif
    for (int i = 0; i < n; i++)
        bin[i] = mur_heading_bin(vx[i], vy[i]);
}

/* Colour bins of cluster colour ids (r->ids): 0 for a lone boid. */
static void bins_of_ids(mur_renderer *r, int n)
{
    for (int i = 0; i < n; i++)
        r->bin[i] = r->ids[i] < 0 ? 0 : 1 + r->ids[i] % CLUSTER_COLOURS;
}

/* Colour bin of every boid of panel `panel` into r->bin: by neighbours,
 * from the counts of the panel's last metrics; by cluster, matched against
 * the colours observed last. */
static void assign_bins(mur_renderer *r, int panel, const mur_flock *f, int n)
{
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    switch (lk->color_mode) {
    case MUR_COLOR_HEADING:
        mur_heading_bins(vx, vy, n, r->bin);
        return;
    case MUR_COLOR_SPEED: {
        /* the speed rule's own range, so a colour means the same speed all video long */
        double lo = p->speed_rule == MUR_SPEED_CLAMP ? p->min_speed : 0, hi = p->max_speed;
        double span = hi > lo ? hi - lo : 1;
        const double *vz = mur_flock_vz(f);   /* a 3D flock's speed has a z too */
        for (int i = 0; i < n; i++) {
            double v2 = vx[i] * vx[i] + vy[i] * vy[i];
            if (vz)
                v2 += vz[i] * vz[i];
            r->bin[i] = unit_bin((sqrt(v2) - lo) / span, SPEED_BINS);
        }
        return;
    }
    case MUR_COLOR_NEIGHBOURS: {
        const int *c = mur_metrics_neighbour_counts(r->panels[panel].mx);
        for (int i = 0; i < n; i++)
            r->bin[i] = c[i] < NEIGHBOUR_BINS - 1 ? c[i] : NEIGHBOUR_BINS - 1;
        return;
    }
    case MUR_COLOR_CLUSTER: {
        const mur_panel_state *ps = &r->panels[panel];
        match_clusters(r, mur_metrics_cluster_of(ps->mx), n, ps->cid, ps->ncid, r->ids);
        bins_of_ids(r, n);
        return;
    }
    case MUR_COLOR_GROUP: {
        const unsigned char *g = mur_flock_groups(f);
        for (int i = 0; i < n; i++)
            r->bin[i] = g && g[i] < lk->ngroups ? g[i] : lk->ngroups;
        return;
    }
    default:
        memset(r->bin, 0, (size_t)n * sizeof *r->bin);
        return;
    }
}

/* Boid images (a boid and its copies across a wrap seam) in one fill, for
 * boids BIG_BOID_PX or more across. Cairo's scan converter keeps a row's
 * edges sorted, so one fill costs about the number of its edge crossings:
 * near nothing for small boids, which rarely overlap, but every pair for
 * boids as large as the frame, all of which overlap (16,000 boids three
 * times the world's size at 1080 x 1080: 57 s for one frame; batched, 2 s,
 * growing linearly). Batches of FILL_IMAGES bound the crossings to a few
 * times FILL_IMAGES per boid. Below BIG_BOID_PX (every example scene) a
 * colour bin stays one fill, so their frames are as before, byte for byte. Where boids of two batches overlap, only
 * antialiased edge pixels differ from one fill (translucent boids darken
 * there, as they already do across colour bins); small boids keep one fill
 * per bin. */
#define BIG_BOID_PX 64
#define FILL_IMAGES 64
#define FAST_AA_PX 16   /* boids under this many pixels across: 4 x 4 antialiasing */

/* Boid images in one fill at most, for boids of any size. A bin of more is
 * filled in parts, so that the stop flag is looked at between them: one
 * fill of 4,000,000 small boids took a second at 1080p and held a path of
 * hundreds of megabytes (1 GB of memory for the still; in parts, 350 MB).
 * Up to this many a bin is one fill, as it always was; past it, boids of
 * two parts that share a pixel's edge blend rather than merge there (1,527
 * of 2,073,600 pixels of that still, by at most 29 of 255). */
#define FILL_MAX 65536

/* A fill in a band (cr's target holds rows [y0, y1) of the frame only)
 * whose shapes span device columns [x0, x1]. Cairo rasterises a fill
 * within the extents of its polygon, which it measures on the exact
 * edges, in a band cut at the band's rows; its 4 x 4 scan converter (the
 * fast antialiasing of small boids) first snaps the edges to quarter
 * pixels, so an edge cut at a band's row can reach a pixel left of those
 * extents, which the band would leave out and the whole frame draws (a
 * pixel in a few frames). Two edges of opposite direction on top of one
 * another cover nothing but widen the extents: a pixel outside the
 * shapes, or on the clip's side when the shapes come within two pixels of
 * it. A side the shapes cross needs none (the clip's side bounds the
 * extents there), and must get none: a guard on top of the edges Cairo
 * cuts at the clip changed a pixel (scenes/flock.yaml). */
static void band_guards(cairo_t *cr, double y0, double y1, double x0, double x1)
{
    double cx0, cy0, cx1, cy1;
    cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1);
    cairo_user_to_device(cr, &cx0, &cy0);
    cairo_user_to_device(cr, &cx1, &cy1);
    double lo = round(fmin(cx0, cx1)), hi = round(fmax(cx0, cx1));   /* whole pixels (clip_to_world) */
    double at[2] = {fmax(floor(x0) - 1, lo), fmin(ceil(x1) + 1, hi)};
    int want[2] = {x0 >= lo, x1 <= hi};
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    cairo_identity_matrix(cr);
    for (int side = 0; side < 2; side++) {
        if (!want[side])
            continue;
        cairo_move_to(cr, at[side], y0);
        cairo_line_to(cr, at[side], y1);
        cairo_close_path(cr);
    }
    cairo_set_matrix(cr, &m);
}

/* Widen xs (device columns) to boid image (x, y)'s outline as boid_path
 * draws it, within device rows [y0, y1] (a band's: Cairo cuts the polygon
 * there): its edges' columns between those rows, or a dot's circle. A
 * boid crossing the clip below a band but not in it is, to that band, a
 * shape near the clip, which needs a guard on the clip's side (band_guards;
 * a boid at the frame's left edge, its tip in the band above the crossing,
 * lost a pixel of the tip without one). */
static void shape_columns(const cairo_matrix_t *m, mur_shape shape, double size, double x, double y,
                          double ux, double uy, double y0, double y1, double xs[2])
{
    if (shape == MUR_SHAPE_DOT) {
        double cx = m->xx * x + m->xy * y + m->x0, r = size / 4 * hypot(m->xx, m->xy);
        xs[0] = fmin(xs[0], cx - r);
        xs[1] = fmax(xs[1], cx + r);
        return;
    }
    /* boid_path's outline, the notch included: between two rows the
     * notch's sides can bound the shape where the triangle around it
     * would reach further */
    double wx[4], wy[4];
    int nv = boid_outline(shape, size, x, y, ux, uy, wx, wy);
    double cx[4], cy[4];
    for (int k = 0; k < nv; k++) {
        cx[k] = m->xx * wx[k] + m->xy * wy[k] + m->x0;
        cy[k] = m->yx * wx[k] + m->yy * wy[k] + m->y0;
    }
    for (int k = 0; k < nv; k++) {
        int j = (k + 1) % nv, a = cy[k] <= cy[j] ? k : j, b = a == k ? j : k;   /* a above b */
        if (cy[b] < y0 || cy[a] > y1)
            continue;   /* the edge is outside the rows */
        double d = cy[b] - cy[a];
        double ta = cy[a] < y0 ? (y0 - cy[a]) / d : 0, tb = cy[b] > y1 ? (y1 - cy[a]) / d : 1;
        double xa = cx[a] + (cx[b] - cx[a]) * ta, xb = cx[a] + (cx[b] - cx[a]) * tb;
        xs[0] = fmin(xs[0], fmin(xa, xb));
        xs[1] = fmax(xs[1], fmax(xa, xb));
    }
}

/* Fill the path in bin b's colour; band: cr's target is a band of rows
 * [y0, y1), its shapes within device columns xs[0] .. xs[1]. */
static void fill_bin(cairo_t *cr, const mur_look *lk, int b, int band, double y0, double y1,
                     const double xs[2])
{
    /* the fine grid does not snap; no columns: nothing of the path in the rows */
    if (band && cairo_get_antialias(cr) == CAIRO_ANTIALIAS_FAST && xs[0] <= xs[1])
        band_guards(cr, y0, y1, xs[0], xs[1]);
    double rgb[3];
    mur_bin_colour(lk, b, rgb);
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], lk->boid_color.a);
    cairo_fill(cr);
}

/* Marks a band's surface (band_draw): in_band. */
static const cairo_user_data_key_t band_key;
static int in_band(cairo_t *cr);

/* Rows of the frame, device pixels, that cr's target holds: a band's
 * surface (mur_renderer_draw_image) holds its own rows under a device
 * offset. 1 and the rows [*y0, *y1) for an image surface, 0 for any other
 * (vector stills): draw everything. */
int mur_target_rows(cairo_t *cr, double *y0, double *y1)
{
    cairo_surface_t *s = cairo_get_target(cr);
    if (cairo_surface_get_type(s) != CAIRO_SURFACE_TYPE_IMAGE)
        return 0;
    double ox, oy;
    cairo_surface_get_device_offset(s, &ox, &oy);
    *y0 = -oy;
    *y1 = -oy + cairo_image_surface_get_height(s);
    return 1;
}

/* Whether a shape reaching `reach` device pixels around world point (x, y)
 * can touch rows [y0, y1) (antialiasing included). A shape that cannot is
 * left out of the path: a scan converter's coverage of a row depends only
 * on the edges crossing it, so the rows drawn are the same either way. */
static inline int meets_rows(const cairo_matrix_t *m, double reach, double y0, double y1, double x,
                             double y)
{
    double dy = m->yx * x + m->yy * y + m->y0;
    return dy + reach >= y0 && dy - reach < y1;
}

/* Under wrap a boid on the seam shows on both sides, as its neighbours
 * see it: the shift (sx, sy) to its image across the seam (0 on an axis it
 * is away from) and how many more images it has (0 to 3). */
static int seam_images(int wrap, double x, double y, double size, double w, double h, double *sx,
                       double *sy)
{
    *sx = *sy = 0;
    if (!wrap || !(x < size || x > w - size || y < size || y > h - size))
        return 0;
    *sx = x < size ? w : (x > w - size ? -w : 0);
    *sy = y < size ? h : (y > h - size ? -h : 0);
    return (*sx != 0) + (*sy != 0) + (*sx != 0 && *sy != 0);
}

/* Boids in colour-bin runs of r->order (start[b] .. start[b+1]); px: a
 * boid's size on the frame, pixels. Only boids that reach cr's target rows
 * (a band's, mur_target_rows) go into the path, but every boid counts
 * towards a bin's parts (FILL_MAX), so the parts, and the pixels, are
 * those of the whole frame drawn at once. 0, or MUR_EINTR when the stop
 * flag was seen (the path is then dropped). */
static int draw_boids(mur_renderer *r, cairo_t *cr, const mur_flock *f, const int *start, int nb,
                      double px)
{
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    double size = mur_boid_size(r), w = p->width, h = p->height;
    int wrap = p->boundary == MUR_BOUNDARY_WRAP && !r->tiling;   /* tiled: the next image draws it */
    int batch = (px < BIG_BOID_PX ? FILL_MAX : FILL_IMAGES) - 3;   /* room for a boid's 4 images */
    double y0 = 0, y1 = 0, reach = px + 2;   /* a boid lies within its size of its centre */
    cairo_matrix_t m;
    int rows = mur_target_rows(cr, &y0, &y1), band = rows && in_band(cr);
    cairo_get_matrix(cr, &m);
    /* In a band, only the positions of its bucket (bucket_boids) */
    const int *list = NULL;
    int nlist = 0, li = 0;
    if (band && r->bk_ready) {
        int kb = (int)(y0 / MUR_BAND_ROWS);
        list = r->bk_items + r->bk_start[kb];
        nlist = r->bk_start[kb + 1] - r->bk_start[kb];
    }
    for (int b = 0; b < nb; b++) {
        if (start[b] == start[b + 1])
            continue;
        int lo = start[b], hi = start[b + 1];
        if (list) {   /* this bin's run of the bucket */
            lo = li;
            while (li < nlist && list[li] < start[b + 1])
                li++;
            hi = li;
            if (lo == hi)
                continue;
        }
        cairo_new_path(cr);
        int images = 0, held = 0, part = 0;   /* held: images in the path; part: of the bin */
        double xs[2] = {INFINITY, -INFINITY};   /* their device columns */
        for (int q = lo; q < hi; q++) {
            if (q > lo && (q - lo) % MUR_POLL_BOIDS == 0 && mur_render_stopped(r)) {
                cairo_new_path(cr);
                return MUR_EINTR;
            }
            int k = list ? list[q] : q, i = r->order[k];
            if (r->tiling && (x[i] + r->tile_dx < r->cull[0] - size || x[i] + r->tile_dx > r->cull[2] + size ||
                              y[i] + r->tile_dy < r->cull[1] - size || y[i] + r->tile_dy > r->cull[3] + size))
                continue;   /* this image of it is out of the view */
            int next = list ? r->bk_batch[k] : part + (images >= batch);
            if (next != part) {   /* the bin's next part: FILL_MAX */
                if (held)
                    fill_bin(cr, lk, b, band, y0, y1, xs);
                images = held = 0;
                part = next;
                xs[0] = INFINITY;
                xs[1] = -INFINITY;
            }
            images++;
            double sx, sy;   /* a boid on the seam shows on both sides */
            images += seam_images(wrap, x[i], y[i], size, w, h, &sx, &sy);
            if (rows && !meets_rows(&m, reach, y0, y1, x[i], y[i]) &&
                !(sx != 0 && meets_rows(&m, reach, y0, y1, x[i] + sx, y[i])) &&
                !(sy != 0 && (meets_rows(&m, reach, y0, y1, x[i], y[i] + sy) ||
                              (sx != 0 && meets_rows(&m, reach, y0, y1, x[i] + sx, y[i] + sy)))))
                continue;   /* none of its images reaches these rows */
            held = 1;
            double l = sqrt(vx[i] * vx[i] + vy[i] * vy[i]);
            double ux = l > 0 ? vx[i] / l : 1, uy = l > 0 ? vy[i] / l : 0;
            for (int c = 0; band && c < 4; c++)   /* the images' columns */
                if (!((c & 1) && sx == 0) && !((c & 2) && sy == 0))
                    shape_columns(&m, lk->shape, size, x[i] + (c & 1 ? sx : 0), y[i] + (c & 2 ? sy : 0),
                                  ux, uy, y0, y1, xs);
            boid_path(cr, lk->shape, size, x[i], y[i], ux, uy);
            if (sx != 0)
                boid_path(cr, lk->shape, size, x[i] + sx, y[i], ux, uy);
            if (sy != 0)
                boid_path(cr, lk->shape, size, x[i], y[i] + sy, ux, uy);
            if (sx != 0 && sy != 0)
                boid_path(cr, lk->shape, size, x[i] + sx, y[i] + sy, ux, uy);
        }
        if (held)
            fill_bin(cr, lk, b, band, y0, y1, xs);
    }
    return MUR_OK;
}

/* Sort the boids of r->order (bins start[0 .. nb]) into the bands they
 * can reach under cr's matrix, once a frame, so that a band builds only
 * the paths that touch it (a band that walked all 100,000 boids spent
 * more than it drew); and number each position's part of its bin as
 * draw_boids would count it over the whole frame, so a band's parts are
 * the frame's. px: a boid's size on the frame, pixels. 0, or -1 when
 * memory is short. */
static int bucket_boids(mur_renderer *r, cairo_t *cr, const mur_flock *f, const int *start, int nb,
                        double px)
{
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    double size = mur_boid_size(r);
    double w = p->width, h = p->height, reach = px + 2;
    int wrap = p->boundary == MUR_BOUNDARY_WRAP && !r->tiling, batch = (px < BIG_BOID_PX ? FILL_MAX : FILL_IMAGES) - 3;
    int n = start[nb], bands = (r->height + MUR_BAND_ROWS - 1) / MUR_BAND_ROWS;
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    r->bk_ready = 0;
    if ((size_t)n > r->bk_cap || bands + 1 > r->bk_bands) {
        size_t cap = (size_t)n + (size_t)n / 2 + 16;
        GROW(bk_batch, cap);
        GROW(bk_lo, cap);
        GROW(bk_hi, cap);
        GROW(bk_start, (size_t)bands + 2);
        r->bk_cap = cap;
        r->bk_bands = bands + 1;
    }
    memset(r->bk_start, 0, (size_t)(bands + 2) * sizeof *r->bk_start);
    size_t total = 0;
    for (int b = 0; b < nb; b++) {
        int images = 0, part = 0;
        for (int k = start[b]; k < start[b + 1]; k++) {
            int i = r->order[k];
            if (images >= batch) {
                part++;
                images = 0;
            }
            images++;
            double sx, sy;
            images += seam_images(wrap, x[i], y[i], size, w, h, &sx, &sy);
            r->bk_batch[k] = part;
            double ylo = INFINITY, yhi = -INFINITY;
            for (int c = 0; c < 4; c++)
                if (!((c & 1) && sx == 0) && !((c & 2) && sy == 0)) {
                    double cy = m.yx * (x[i] + (c & 1 ? sx : 0)) + m.yy * (y[i] + (c & 2 ? sy : 0)) + m.y0;
                    ylo = fmin(ylo, cy - reach);
                    yhi = fmax(yhi, cy + reach);
                }
            int b0 = ylo >= 0 ? (int)fmin(ylo / MUR_BAND_ROWS, bands) : 0;
            int b1 = yhi >= 0 ? (int)fmin(yhi / MUR_BAND_ROWS, bands - 1) : -1;   /* NaN: none */
            r->bk_lo[k] = b0;
            r->bk_hi[k] = b1;
            for (int kb = b0; kb <= b1; kb++)
                r->bk_start[kb + 1]++;
            total += (size_t)(b1 >= b0 ? b1 - b0 + 1 : 0);
        }
    }
    if (total > r->bk_items_cap) {
        size_t cap = total + total / 2 + 16;
        GROW(bk_items, cap);
        r->bk_items_cap = cap;
    }
    for (int kb = 0; kb < bands; kb++)
        r->bk_start[kb + 1] += r->bk_start[kb];
    int *fill = r->bk_start;   /* each band's next entry; shifted back below */
    for (int k = 0; k < n; k++)
        for (int kb = r->bk_lo[k]; kb <= r->bk_hi[k]; kb++)
            r->bk_items[fill[kb]++] = k;
    for (int kb = bands; kb > 0; kb--)   /* fill[kb] ran up to the next band's start */
        r->bk_start[kb] = r->bk_start[kb - 1];
    r->bk_start[0] = 0;
    r->bk_ready = 1;
    return 0;
}

/* Enters with r->bin holding each boid's colour bin; leaves r->order with
 * the boids sorted by bin (a counting sort, stable) and start[b] .. start[b
 * + 1] each bin's run; start has MUR_MAX_BINS + 2 entries. */
static void sort_by_bin(mur_renderer *r, int n, int nb, int *start)
{
    memset(start, 0, (MUR_MAX_BINS + 2) * sizeof *start);
    for (int i = 0; i < n; i++)
        start[r->bin[i] + 1]++;
    for (int b = 0; b < nb; b++)
        start[b + 1] += start[b];
    int next[MUR_MAX_BINS + 1];
    memcpy(next, start, sizeof next);
    for (int i = 0; i < n; i++)
        r->order[next[r->bin[i]]++] = i;
}

/* Clips cr to the panel's world on whole pixels and leaves that rectangle
 * in device pixels in d[4] (x, y, width, height): Cairo keeps a
 * pixel-aligned rectangle as a region, while a fractional one becomes a
 * mask that every fill and stroke is composited through (trails: ten times
 * slower). */
static void clip_to_world(cairo_t *cr, const mur_panel_ctx *pc, int d[4])
{
    double cx0 = pc->ox, cy0 = pc->oy, cx1 = pc->ox + pc->ww * pc->scale, cy1 = pc->oy + pc->wh * pc->scale;
    cairo_user_to_device(cr, &cx0, &cy0);
    cairo_user_to_device(cr, &cx1, &cy1);
    cx0 = round(cx0); cy0 = round(cy0); cx1 = round(cx1); cy1 = round(cy1);
    d[0] = (int)cx0;
    d[1] = (int)cy0;
    d[2] = (int)(cx1 - cx0);
    d[3] = (int)(cy1 - cy0);
    cairo_device_to_user(cr, &cx0, &cy0);
    cairo_device_to_user(cr, &cx1, &cy1);
    cairo_rectangle(cr, cx0, cy0, cx1 - cx0, cy1 - cy0);
    cairo_clip(cr);
}

/* A thin frame around a panel of small multiples. */
static void outline_panel(const mur_renderer *r, cairo_t *cr, const mur_panel_ctx *pc, double u)
{
    cairo_save(cr);
    if (pc->view[2] > 0)   /* a camera's view */
        cairo_rectangle(cr, pc->view[0], pc->view[1], pc->view[2], pc->view[3]);
    else
        cairo_rectangle(cr, pc->ox, pc->oy, pc->ww * pc->scale, pc->wh * pc->scale);
    cairo_set_line_width(cr, fmax(0.12 * u, 0.5));
    const double *l = r->theme.line;
    cairo_set_source_rgba(cr, l[0], l[1], l[2], l[3] * 0.5);
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* Whether cr draws into a band (band_draw marks its surfaces), not the
 * frame whole: said, not guessed from the rows, since a frame of one band
 * has the frame's rows (its ghost was drawn twice). */
static int in_band(cairo_t *cr)
{
    return cairo_surface_get_user_data(cairo_get_target(cr), &band_key) != NULL;
}

int mur_draw_world(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const int *start, int nb,
                   const int d[4], int layer)
{
    const mur_look *lk = r->look;
    const mur_flock *f = pc->f;
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
    int rc = lk->trail_length > 0 && layer <= MUR_LAYER_TRAILS
                 ? mur_trails_draw(r, cr, &r->panels[pc->index].trails, mur_flock_params(f), d[0], d[1], d[2], d[3])
                 : 0;
    if (!rc && mur_render_stopped(r))
        rc = MUR_EINTR;
    if (rc || layer == MUR_LAYER_TRAILS)
        return rc;
    if (layer < 0 || layer == MUR_LAYER_UNDER)
        mur_watch_plane(pc, 0);
    if (layer == MUR_LAYER_UNDER)
        return 0;
    /* Boids a few pixels across look the same with Cairo's coarser
     * antialiasing grid (4 x 4 samples rather than 256 x 15; compared at 8x
     * zoom) and take half the rasterising; larger ones keep the fine grid,
     * whose edges stay smooth. The choice depends on the look and frame
     * size only, so a still is still a frame. */
    double bx = mur_boid_size(r), by = 0;
    cairo_user_to_device_distance(cr, &bx, &by);
    cairo_set_antialias(cr, hypot(bx, by) < FAST_AA_PX ? CAIRO_ANTIALIAS_FAST : CAIRO_ANTIALIAS_GOOD);
    if (layer < 0 || layer == MUR_LAYER_BOIDS) {   /* specks of a crowd: density (density.c) */
        double px = hypot(bx, by);
        int drc = mur_density_wanted(lk, px) ? mur_density_draw(r, cr, f, nb, px)
                                              : draw_boids(r, cr, f, start, nb, px);
        if (drc)
            return drc;
    }
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
    /* a twin's ghost over its boids (nothing when the panel has none); in
     * bands, drawn whole after them (draw_world_banded) */
    if ((layer < 0 || layer == MUR_LAYER_BOIDS) && !in_band(cr) && mur_ghost_draw(r, cr, pc->index))
        return MUR_EINTR;
    if (layer < 0 || layer == MUR_LAYER_OVER)
        mur_overlays_world_over(pc);
    return 0;
}

/* ---- bands ------------------------------------------------------------------ */

/* A frame drawn into r->image is drawn in bands of MUR_BAND_ROWS rows, on the
 * renderer's threads. A band is an image surface over the frame's own
 * rows (the same pixels, the same stride) whose device offset puts it at
 * its first row, so user space, the transformation matrix and everything
 * computed from them are the whole frame's to the bit: Cairo adds the
 * offset after the matrix, and an integer added to a coordinate below
 * 2^21 is exact, so every edge lands on the same 1/256 of a pixel. The
 * rows do not depend on the thread count. What keeps state between frames
 * (the trails' layers) is brought up to date before the bands start; the
 * bands only read it.
 *
 * What is drawn in bands: the trails' layers laid over the frame (image
 * sources at whole pixels) and boids under the fast antialiasing (every
 * large flock), with guard edges (band_guards). Two things a band cannot
 * reproduce exactly are drawn whole, after the bands: boids under the fine
 * grid (its scan converter decides per row between sampling and an exact
 * area from the edges it has met so far, and a band's edges start at the
 * band) and a twin's ghost (stroked on that grid). So are the overlays and
 * text, a handful of shapes, and Pango is not to be shared between
 * threads. Every example scene's frames are byte-identical to the frames
 * drawn whole (tests/test_bands.c, and the project's byte-identity set). */

typedef struct band_job {
    mur_renderer *r;
    mur_panel_ctx *pc;
    const int *start;
    int nb;
    const int *d;            /* the panel's clip, device pixels */
    cairo_matrix_t m;        /* world -> device */
    int layer;               /* MUR_LAYER_TRAILS or MUR_LAYER_BOIDS */
    _Atomic int rc;          /* the first failure */
} band_job;

/* Draw job->layer into bands [begin, end). */
static void band_draw(void *ctx, int begin, int end)
{
    band_job *job = ctx;
    mur_renderer *r = job->r;
    unsigned char *px = cairo_image_surface_get_data(r->image);
    int stride = cairo_image_surface_get_stride(r->image);
    for (int k = begin; k < end && !atomic_load(&job->rc); k++) {
        int y0 = k * MUR_BAND_ROWS, y1 = y0 + MUR_BAND_ROWS < r->height ? y0 + MUR_BAND_ROWS : r->height;
        if (y0 < job->d[1])
            y0 = job->d[1];
        if (y1 > job->d[1] + job->d[3])
            y1 = job->d[1] + job->d[3];
        if (y0 >= y1)
            continue;   /* outside the panel */
        cairo_surface_t *s = cairo_image_surface_create_for_data(px + (size_t)y0 * (size_t)stride,
                                                                 CAIRO_FORMAT_ARGB32, r->width, y1 - y0, stride);
        cairo_surface_set_device_offset(s, 0, -y0);
        cairo_surface_set_user_data(s, &band_key, (void *)&band_key, NULL);
        cairo_t *cr = cairo_create(s);
        cairo_rectangle(cr, job->d[0], job->d[1], job->d[2], job->d[3]);   /* device pixels */
        cairo_clip(cr);
        cairo_set_matrix(cr, &job->m);
        int rc = mur_draw_world(r, cr, job->pc, job->start, job->nb, job->d, job->layer);
        if (!rc && cairo_status(cr) != CAIRO_STATUS_SUCCESS)
            rc = -1;
        cairo_destroy(cr);
        cairo_surface_destroy(s);
        if (rc) {
            int none = 0;
            atomic_compare_exchange_strong(&job->rc, &none, rc);
        }
    }
}

/* The layer in bands on the renderer's threads; what mur_draw_world returns. */
static int draw_bands(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const int *start, int nb,
                      const int d[4], int layer)
{
    band_job job = {.r = r, .pc = pc, .start = start, .nb = nb, .d = d, .layer = layer};
    cairo_get_matrix(cr, &job.m);
    atomic_init(&job.rc, 0);
    cairo_surface_flush(r->image);   /* what cr drew is in the pixels */
    mur_pool_run(r->pool, band_draw, &job, (r->height + MUR_BAND_ROWS - 1) / MUR_BAND_ROWS);
    cairo_surface_mark_dirty(r->image);
    return atomic_load(&job.rc);
}

/* A panel's world (mur_draw_world) into r->image, the trails and the boids
 * in bands; the watch overlays (few shapes) and the ghost whole, on cr, in
 * between. */
static int draw_world_banded(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const int *start,
                             int nb, const int d[4])
{
    int rc = 0;
    if (r->look->trail_length > 0) {
        mur_trails *t = &r->panels[pc->index].trails;
        rc = mur_trails_prepare(r, cr, t, mur_flock_params(pc->f), d[0], d[1], d[2], d[3]);
        if (rc == 1)
            rc = draw_bands(r, cr, pc, start, nb, d, MUR_LAYER_TRAILS);
        else if (rc == 0)   /* stroked afresh: one thread */
            rc = mur_draw_world(r, cr, pc, start, nb, d, MUR_LAYER_TRAILS);
    }
    if (!rc && mur_render_stopped(r))
        rc = MUR_EINTR;
    if (!rc)
        rc = mur_draw_world(r, cr, pc, start, nb, d, MUR_LAYER_UNDER);
    /* Boids under the fast antialiasing (a few pixels across: every large
     * flock) in bands. Larger ones, drawn with the fine grid, whole: Cairo's
     * fine scan converter chooses between sampling a row and computing it
     * exactly from what it has seen of the polygon so far, and a band's
     * polygon starts at the band (a pixel of scenes/knockout.yaml
     * differed); they are few. */
    double bx = mur_boid_size(r), by = 0;
    cairo_user_to_device_distance(cr, &bx, &by);
    if (!rc && (hypot(bx, by) >= FAST_AA_PX || mur_density_wanted(r->look, hypot(bx, by)))) {
        /* with the ghost; density drawing splits its own work on r->pool */
        rc = mur_draw_world(r, cr, pc, start, nb, d, MUR_LAYER_BOIDS);
    } else if (!rc) {
        if (bucket_boids(r, cr, pc->f, start, nb, hypot(bx, by)))
            rc = -1;
        if (!rc)
            rc = draw_bands(r, cr, pc, start, nb, d, MUR_LAYER_BOIDS);
        r->bk_ready = 0;
        /* The ghost, whole: strokes with the fine grid, as above; a twin is
         * a few hundred boids. */
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
        if (!rc && mur_ghost_draw(r, cr, pc->index))
            rc = MUR_EINTR;
    }
    if (!rc)
        rc = mur_draw_world(r, cr, pc, start, nb, d, MUR_LAYER_OVER);
    return rc;
}

/* One flock in the rectangle (x, y, w, h) of the frame, world scaled to fit;
 * its overlay boxes stack in st. */
static int draw_panel(mur_renderer *r, cairo_t *cr, int index, const mur_flock *f, double t,
                      double x, double y, double w, double h, double u, mur_stacks *st,
                      int outline, mur_error *err)
{
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f);
    if (mur_render_stopped(r))
        return mur_error_set(err, MUR_EINTR, "stopped while drawing %d boids", n);
    if (reserve(r, n))
        return mur_error_set(err, MUR_ERUN, "out of memory drawing %d boids", n);
    mur_panel_ctx pc = {.r = r, .cr = cr, .index = index, .f = f, .t = t, .u = u, .stacks = st,
                        .ww = p->width, .wh = p->height};
    pc.scale = fmin(w / p->width, h / p->height);
    pc.ox = x + (w - p->width * pc.scale) / 2;
    pc.oy = y + (h - p->height * pc.scale) / 2;
    unsigned want = mur_look_metrics_wanted(lk);
    if (want && n > 0) {
        int rc = mur_metrics_compute_some(r->panels[index].mx, f, want, &pc.metrics);
        if (rc == MUR_EINTR)
            return mur_error_set(err, MUR_EINTR, "stopped while measuring %d boids", n);
        if (rc)
            return mur_error_set(err, MUR_ERUN, "out of memory measuring %d boids", n);
        pc.have_metrics = 1;
    }
    /* Each bin's boids one contiguous run. */
    int nb = mur_bin_count(lk), start[MUR_MAX_BINS + 2];
    if (n > 0)
        assign_bins(r, index, f, n);
    sort_by_bin(r, n, nb, start);

    mur_view view;
    int rc;
    if (mur_flock_z(f)) {   /* a 3D world, through its camera (frame3d.c) */
        rc = mur_views3d_draw(r, cr, &pc, x, y, w, h);
    } else if (mur_camera_view(r, index, f, t, &view)) {
        rc = mur_camera_draw(r, cr, &pc, &view, x, y, w, h, start, nb);
    } else {
        cairo_save(cr);
        int d[4];
        clip_to_world(cr, &pc, d);
        cairo_translate(cr, pc.ox, pc.oy);
        cairo_scale(cr, pc.scale, pc.scale);
        rc = r->banding ? draw_world_banded(r, cr, &pc, start, nb, d)
                        : mur_draw_world(r, cr, &pc, start, nb, d, MUR_LAYER_ALL);
        cairo_restore(cr);
    }
    if (rc == MUR_EINTR)
        return mur_error_set(err, MUR_EINTR, "stopped while drawing %d boids", n);
    if (rc)
        return mur_error_set(err, MUR_ERUN, "out of memory drawing the trails or the density of %d boids", n);
    if (outline && !mur_flock_z(f))   /* a 3D panel is all picture: no world's edge to draw */
        outline_panel(r, cr, &pc, u);
    mur_overlays_panel(&pc);
    return MUR_OK;
}

int mur_renderer_draw(mur_renderer *r, cairo_t *cr, const mur_flock *const *flocks, int n,
                      double t, mur_error *err)
{
    const mur_look *lk = r->look;
    if (r->failed) {
        if (err)
            *err = r->fail;
        return r->failed;
    }
    if (n < 1 || n > r->npanels)
        return mur_error_set(err, MUR_ERUN, "drawing %d panels with a renderer for %d", n, r->npanels);
    int rc = MUR_OK;
    cairo_save(cr);
    /* Opaque background: the encoder reads ARGB32 as straight RGB, which is
     * only right when alpha is 1 everywhere (premultiplied = straight). A
     * transparent look's frames keep the background's alpha (the writer
     * unpremultiplies them for the formats that keep it). */
    if (lk->transparent && lk->background.a < 1) {
        cairo_save(cr);
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        cairo_set_source_rgba(cr, lk->background.r, lk->background.g, lk->background.b,
                              fmax(lk->background.a, 0));
        cairo_rectangle(cr, 0, 0, r->width, r->height);
        cairo_fill(cr);
        cairo_restore(cr);
    } else {
        cairo_set_source_rgb(cr, lk->background.r, lk->background.g, lk->background.b);
        cairo_rectangle(cr, 0, 0, r->width, r->height);
        cairo_fill(cr);
    }
    if (r->text.layout)
        mur_text_begin(&r->text, cr);
    mur_titles_moment(r, t);
    /* text never below MUR_TEXT_MIN_PX pixels (legible.c) */
    double W = r->width, H = r->height, legible = mur_legible_unit(lk, fmin(W, H));
    double U = fmax(fmax(fmin(W, H) / 100, r->ui_floor), legible);
    mur_stacks frame = {0, 0, W, H, 2 * U, {0}, {0}};
    if (n == 1) {
        rc = draw_panel(r, cr, 0, flocks[0], t, 0, 0, W, H, U, &frame, 0, err);
    } else {
        /* Panels: the look's columns, else side by side up to three, else a
         * grid as square as possible; each under its condition's name. */
        int cols = lk->columns > 0 ? (lk->columns < n ? lk->columns : n)
                 : n <= 3 ? n : (int)ceil(sqrt((double)n));
        int rows = (n + cols - 1) / cols;
        double pw = W / cols, ph = H / rows;
        double u = fmax(fmax(fmax(fmin(pw, ph) / 100, 0.6 * U), r->ui_floor), legible);
        double strip = 4.6 * u, pad = 1.2 * u;
        for (int i = 0; i < n && !rc; i++) {
            double x = (i % cols) * pw, y = (i / cols) * ph;
            mur_stacks st = {x + pad, y + strip, pw - 2 * pad, ph - strip - pad, 1.4 * u, {0}, {0}};
            rc = draw_panel(r, cr, i, flocks[i], t, st.x, st.y, st.w, st.h, u, &st, 1, err);
            const char *name = lk->labels && i < lk->panels && lk->labels[i] ? lk->labels[i] : "";
            mur_overlays_label(r, cr, name, x, y, pw, strip, u);
        }
        /* thin separators between cells */
        const double *l = r->theme.line;
        cairo_set_source_rgba(cr, l[0], l[1], l[2], l[3]);
        cairo_set_line_width(cr, fmax(0.15 * U, 1));
        for (int c = 1; c < cols; c++) {
            cairo_move_to(cr, c * pw, 0);
            cairo_line_to(cr, c * pw, H);
        }
        for (int k = 1; k < rows; k++) {
            cairo_move_to(cr, 0, k * ph);
            cairo_line_to(cr, W, k * ph);
        }
        cairo_stroke(cr);
    }
    if (!rc) {
        mur_overlays_images(r, cr, &frame);
        mur_overlays_clock(r, cr, &frame, t, U);
        if (lk->moment_at)
            mur_titles_draw(r, cr, &frame, U);   /* captions placed, fades, titles */
        else
            mur_overlays_caption(r, cr, &frame, t, U);
    }
    cairo_restore(cr);
    if (rc)
        return rc;
    cairo_status_t st = cairo_status(cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return mur_error_set(err, MUR_ERUN, "drawing failed: %s", cairo_status_to_string(st));
    return MUR_OK;
}

int mur_renderer_draw_image(mur_renderer *r, const mur_flock *const *flocks, int n, double t,
                            const uint8_t **pixels, int *stride, mur_error *err)
{
    if (!r->image) {
        r->image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, r->width, r->height);
        if (cairo_surface_status(r->image) != CAIRO_STATUS_SUCCESS) {
            cairo_surface_destroy(r->image);
            r->image = NULL;
            return mur_error_set(err, MUR_ERUN, "cannot allocate a %dx%d frame", r->width, r->height);
        }
    }
    cairo_t *cr = cairo_create(r->image);
    /* Bands pay for themselves in a crowd (band_min). Either way the
     * pixels are the same, and the choice rests on the frame, never on the
     * thread count. */
    long boids = 0;
    for (int i = 0; i < n; i++)
        boids += flocks[i] ? mur_flock_count(flocks[i]) : 0;
    r->banding = (r->pool || r->band_min == 0) && boids >= r->band_min;   /* one thread: nothing to share */
    int rc = mur_renderer_draw(r, cr, flocks, n, t, err);
    r->banding = 0;
    cairo_destroy(cr);
    if (rc)
        return rc;
    cairo_surface_flush(r->image);
    *pixels = cairo_image_surface_get_data(r->image);
    *stride = cairo_image_surface_get_stride(r->image);
    return MUR_OK;
}

int mur_renderer_trail(const mur_renderer *r, int panel, int i, const mur_params *p, double *x,
                       double *y, int max)
{
    if (panel < 0 || panel >= r->npanels || max < 1)
        return 0;
    const mur_trails *t = &r->panels[panel].trails;
    int want = max < t->slots ? max : t->slots, np = 0;
    if (want < 1)
        return 0;
    float *fx = mur_malloc((size_t)want * sizeof *fx), *fy = mur_malloc((size_t)want * sizeof *fy);
    if (fx && fy)
        np = mur_trails_polyline(t, i, p, fx, fy, want);
    for (int k = 0; k < np; k++) {
        x[k] = fx[k];
        y[k] = fy[k];
    }
    mur_free(fx);
    mur_free(fy);
    return np;
}
