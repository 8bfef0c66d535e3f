/* Where a hunting predator heads (flock.h, mur_flock_pursue_target): the
 * nearest boid, the flock's centre, or the centre of its largest cluster.
 * The predator's own motion (its speed and turning limit) is the
 * timeline's driver's (src/scene/hunt.c); this is only the question of
 * where the prey is, asked of the flock's state after a tick.
 *
 * Centres under `wrap` are circular means along each axis (the mean of
 * the boids' angles around the torus), so a flock straddling an edge has
 * its centre among its boids, not in the empty middle of the world. The
 * largest cluster is the one the `largest` metric measures (metrics.c),
 * found with a scratch that each thread keeps for its next question.
 *
 * A 3D flock's (mur_flock_pursue_target3) asks the same three questions
 * with z: the nearest boid by the nearest image along all three axes, the
 * centres circular along each axis that wraps, the largest cluster the 3D
 * `largest` metric's (metrics3.c). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "murmur/alloc.h"
#include "murmur/flock.h"
#include "murmur/metrics.h"

#ifndef MUR_PI
#define MUR_PI 3.14159265358979323846
#endif

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *m) { mur_metrics_ctx_destroy(m); }
static void scratch_make_key(void) { (void)pthread_key_create(&scratch_key, scratch_free); }

/* This thread's clustering scratch (freed when the thread ends), or NULL. */
static mur_metrics_ctx *scratch(void)
{
    pthread_once(&scratch_once, scratch_make_key);
    mur_metrics_ctx *m = pthread_getspecific(scratch_key);
    if (!m && (m = mur_metrics_ctx_create()) && pthread_setspecific(scratch_key, m)) {
        mur_metrics_ctx_destroy(m);
        m = NULL;
    }
    return m;
}

/* The centre of boids i with pick(i) (all when member is NULL, else those
 * whose cluster is `cluster`), circular along an axis that wraps. */
static void centre(const mur_flock *f, const int *member, int cluster, double *cx, double *cy)
{
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    int n = mur_flock_count(f), wrap = p->boundary == MUR_BOUNDARY_WRAP;
    double sx = 0, sy = 0, cxs = 0, cxc = 0, cys = 0, cyc = 0;
    long k = 0;
    for (int i = 0; i < n; i++) {
        if (member && member[i] != cluster)
            continue;
        k++;
        if (wrap) {
            double ax = 2 * MUR_PI * x[i] / p->width, ay = 2 * MUR_PI * y[i] / p->height;
            cxs += sin(ax);
            cxc += cos(ax);
            cys += sin(ay);
            cyc += cos(ay);
        } else {
            sx += x[i];
            sy += y[i];
        }
    }
    if (!wrap) {
        *cx = sx / (double)k;
        *cy = sy / (double)k;
        return;
    }
    double ax = atan2(cxs, cxc), ay = atan2(cys, cyc);
    *cx = (ax < 0 ? ax + 2 * MUR_PI : ax) * p->width / (2 * MUR_PI);
    *cy = (ay < 0 ? ay + 2 * MUR_PI : ay) * p->height / (2 * MUR_PI);
}

int mur_flock_pursue_target(const mur_flock *f, mur_pursue what, double x, double y, double *tx, double *ty)
{
    int n = mur_flock_count(f);
    if (n < 1)
        return -1;
    if (what == MUR_PURSUE_CENTRE) {
        centre(f, NULL, 0, tx, ty);
        return 0;
    }
    if (what == MUR_PURSUE_LARGEST) {
        mur_metrics_ctx *m = scratch();
        mur_metrics out;
        if (!m || mur_metrics_compute_some(m, f, 1u << MUR_METRIC_LARGEST, &out))
            return MUR_ERUN;
        const int *of = mur_metrics_cluster_of(m);
        /* the largest cluster: the most boids, the one named first on a tie */
        int best = of[0], most = 0;
        int *size = mur_calloc((size_t)n, sizeof *size);
        if (!size)
            return MUR_ERUN;
        for (int i = 0; i < n; i++)
            if (++size[of[i]] > most || (size[of[i]] == most && of[i] < best)) {
                most = size[of[i]];
                best = of[i];
            }
        mur_free(size);
        centre(f, of, best, tx, ty);
        return 0;
    }
    const double *bx = mur_flock_x(f), *by = mur_flock_y(f);
    double best = INFINITY;
    for (int i = 0; i < n; i++) {   /* nearest: by the nearest image, the first on a tie */
        double dx, dy;
        mur_flock_offset(f, x, y, bx[i], by[i], &dx, &dy);
        double d = dx * dx + dy * dy;
        if (d < best) {
            best = d;
            *tx = x + dx;
            *ty = y + dy;
        }
    }
    return 0;
}

/* centre() with z: the centre of boids i (all, or cluster `cluster`) of a 3D flock. */
static void centre3(const mur_flock *f, const int *member, int cluster, double c[3])
{
    const mur_params *p = mur_flock_params(f);
    const double *pos[3] = {mur_flock_x(f), mur_flock_y(f), mur_flock_z(f)};
    const double size[3] = {p->width, p->height, p->depth};
    int n = mur_flock_count(f), wrap = p->boundary == MUR_BOUNDARY_WRAP;
    double sum[3] = {0, 0, 0}, s[3] = {0, 0, 0}, co[3] = {0, 0, 0};
    long k = 0;
    for (int i = 0; i < n; i++) {
        if (member && member[i] != cluster)
            continue;
        k++;
        for (int a = 0; a < 3; a++) {
            if (wrap) {
                double ang = 2 * MUR_PI * pos[a][i] / size[a];
                s[a] += sin(ang);
                co[a] += cos(ang);
            } else {
                sum[a] += pos[a][i];
            }
        }
    }
    for (int a = 0; a < 3; a++) {
        if (!wrap) {
            c[a] = sum[a] / (double)k;
            continue;
        }
        double ang = atan2(s[a], co[a]);
        c[a] = (ang < 0 ? ang + 2 * MUR_PI : ang) * size[a] / (2 * MUR_PI);
    }
}

int mur_flock_pursue_target3(const mur_flock *f, mur_pursue what, const double at[3], double to[3])
{
    int n = mur_flock_count(f);
    if (n < 1 || mur_flock_dimensions(f) != 3)
        return -1;
    if (what == MUR_PURSUE_CENTRE) {
        centre3(f, NULL, 0, to);
        return 0;
    }
    if (what == MUR_PURSUE_LARGEST) {
        mur_metrics_ctx *m = scratch();
        mur_metrics out;
        if (!m || mur_metrics_compute_some(m, f, 1u << MUR_METRIC_LARGEST, &out))
            return MUR_ERUN;
        const int *of = mur_metrics_cluster_of(m);
        int best = of[0], most = 0;   /* the most boids, the one named first on a tie */
        int *size = mur_calloc((size_t)n, sizeof *size);
        if (!size)
            return MUR_ERUN;
        for (int i = 0; i < n; i++)
            if (++size[of[i]] > most || (size[of[i]] == most && of[i] < best)) {
                most = size[of[i]];
                best = of[i];
            }
        mur_free(size);
        centre3(f, of, best, to);
        return 0;
    }
    const mur_params *p = mur_flock_params(f);
    const double *bx = mur_flock_x(f), *by = mur_flock_y(f), *bz = mur_flock_z(f);
    double best = INFINITY;
    for (int i = 0; i < n; i++) {   /* nearest: by the nearest image, the first on a tie */
        double b[3] = {bx[i], by[i], bz[i]}, d[3];
        mur_params_offset3(p, at, b, d);
        double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (dd < best) {
            best = dd;
            for (int a = 0; a < 3; a++)
                to[a] = at[a] + d[a];
        }
    }
    return 0;
}
