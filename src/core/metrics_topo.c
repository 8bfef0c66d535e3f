/* The topological measures of docs/model.md: border and core birds' nearest
 * neighbour distances, the anisotropy gamma(n) of the n-th neighbour
 * (Ballerini et al. 2008, PNAS 105:1232) and the birds' roll.
 *
 * Each bird's K nearest neighbours are found, in 2D or 3D, with a grid of
 * cells holding about two birds each (over the world under wrap, over the
 * birds' box else): shells of cells around the bird's own, outwards, until
 * K are found and no unvisited cell can hold a nearer one. Neighbours are
 * ranked by distance, then by index, so every result is a function of the
 * state alone; sums run in bird order.
 *
 * A bird is on the border when it is not strictly inside the convex hull of
 * its MUR_BORDER_K nearest neighbours: when some direction u has every
 * neighbour's unit offset d_j with d_j . u <= 0 (a closed half-space holds
 * them all). Such a u, when one exists, can be taken normal to two of the
 * d_j in 3D (an edge of the cone {u : d_j . u <= 0}) or to one in 2D, so
 * those candidates, with both signs, decide. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "murmur/alloc.h"

#include "flock_internal.h"
#include "metrics_internal.h"
#include "starling.h"

/* The most neighbours any measure here needs. */
#define TOPO_K (MUR_ANISOTROPY_N > MUR_BORDER_K ? MUR_ANISOTROPY_N : MUR_BORDER_K)

struct mur_topo {
    size_t cap, cells_cap;
    double *p;            /* positions, 3 a bird (z 0 in 2D) */
    int *nb;              /* each bird's neighbours, nearest first, TOPO_K a bird */
    double *d2;           /* their squared distances */
    unsigned char *border;
    double *edge;         /* each bird's squared distance to the nearest border bird, when below its K-th neighbour's */
    int *cell_of, *order, *start;
    int n[3];             /* cells along each axis */
    double o[3], h[3];    /* the grid's origin and cells' sides */
    double size[3];       /* the world's sides, for the nearest image */
    int wrap, dims, k;    /* k: neighbours each bird has (TOPO_K, or n - 1) */
};

void mur_metrics_topo_free_(struct mur_topo *t)
{
    if (!t)
        return;
    mur_free(t->p);
    mur_free(t->nb);
    mur_free(t->d2);
    mur_free(t->border);
    mur_free(t->edge);
    mur_free(t->cell_of);
    mur_free(t->order);
    mur_free(t->start);
    mur_free(t);
}

static int reserve(struct mur_topo *t, size_t n)
{
    if (n <= t->cap)
        return 0;
    void *a[] = {mur_realloc(t->p, 3 * n * sizeof *t->p), mur_realloc(t->nb, TOPO_K * n * sizeof *t->nb),
                 mur_realloc(t->d2, TOPO_K * n * sizeof *t->d2), mur_realloc(t->border, n),
                 mur_realloc(t->cell_of, n * sizeof *t->cell_of), mur_realloc(t->order, n * sizeof *t->order),
                 mur_realloc(t->edge, n * sizeof *t->edge)};
    /* each realloc that worked owns its block now, even when another failed */
    t->p = a[0] ? a[0] : t->p;
    t->nb = a[1] ? a[1] : t->nb;
    t->d2 = a[2] ? a[2] : t->d2;
    t->border = a[3] ? a[3] : t->border;
    t->cell_of = a[4] ? a[4] : t->cell_of;
    t->order = a[5] ? a[5] : t->order;
    t->edge = a[6] ? a[6] : t->edge;
    for (int k = 0; k < 7; k++)
        if (!a[k])
            return -1;
    t->cap = n;
    return 0;
}

/* The grid's extent along each axis: the world's under wrap, else the
 * birds' box (at least a millionth of its largest side). */
static void extent(struct mur_topo *t, int n, double ext[3])
{
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++) {
        lo[a] = hi[a] = t->p[a];
        for (int i = 1; i < n; i++) {
            lo[a] = fmin(lo[a], t->p[3 * i + a]);
            hi[a] = fmax(hi[a], t->p[3 * i + a]);
        }
    }
    double big = 0;
    for (int a = 0; a < t->dims; a++)
        big = fmax(big, t->wrap ? t->size[a] : hi[a] - lo[a]);
    for (int a = 0; a < 3; a++) {
        t->o[a] = t->wrap ? 0 : lo[a];
        ext[a] = a >= t->dims ? 1 : t->wrap ? t->size[a] : fmax(hi[a] - lo[a], 1e-6 * big + 1e-300);
    }
}

/* Files the n birds into cells of about two birds each. 0 or -1. */
static int build(struct mur_topo *t, int n)
{
    double ext[3], vol = 1;
    extent(t, n, ext);
    for (int a = 0; a < t->dims; a++)
        vol *= ext[a];
    double side = pow(2 * vol / n, 1.0 / t->dims);
    long total;
    do {
        total = 1;
        for (int a = 0; a < 3; a++) {
            double c = a < t->dims ? floor(ext[a] / side) : 1;
            t->n[a] = c < 1 ? 1 : c > 1 << 20 ? 1 << 20 : (int)c;
            t->h[a] = ext[a] / t->n[a];
            total *= t->n[a];
        }
        side *= 1.25;
    } while (total > 4L * n + 64);
    if ((size_t)total + 1 > t->cells_cap) {
        int *s = mur_realloc(t->start, ((size_t)total + 1) * sizeof *s);
        if (!s)
            return -1;
        t->start = s;
        t->cells_cap = (size_t)total + 1;
    }
    memset(t->start, 0, ((size_t)total + 1) * sizeof *t->start);
    for (int i = 0; i < n; i++) {
        int c = 0;
        for (int a = 2; a >= 0; a--) {
            int q = (int)floor((t->p[3 * i + a] - t->o[a]) / t->h[a]);
            q = t->wrap ? ((q % t->n[a]) + t->n[a]) % t->n[a] : q < 0 ? 0 : q >= t->n[a] ? t->n[a] - 1 : q;
            c = c * t->n[a] + q;
        }
        t->cell_of[i] = c;
        t->start[c + 1]++;
    }
    for (long c = 0; c < total; c++)
        t->start[c + 1] += t->start[c];
    for (int i = 0; i < n; i++)   /* ascending index within a cell: a counting sort */
        t->order[t->start[t->cell_of[i]]++] = i;
    for (long c = total; c > 0; c--)
        t->start[c] = t->start[c - 1];
    t->start[0] = 0;
    return 0;
}

/* The offset from bird i to bird j, nearest image under wrap. */
static void offset(const struct mur_topo *t, int i, int j, double d[3])
{
    for (int a = 0; a < 3; a++) {
        d[a] = t->p[3 * j + a] - t->p[3 * i + a];
        if (t->wrap && a < t->dims)
            d[a] = mur_near_image(d[a], t->size[a]);
    }
}

/* Puts j at d2 into a ranked list of *have (at most k). */
static void rank(int k, int *nb, double *dd, int *have, int j, double d2)
{
    int at = *have;
    if (at == k && (d2 > dd[at - 1] || (d2 == dd[at - 1] && j > nb[at - 1])))
        return;
    if (at == k)
        at--;
    else
        (*have)++;
    while (at > 0 && (dd[at - 1] > d2 || (dd[at - 1] == d2 && nb[at - 1] > j))) {
        nb[at] = nb[at - 1];
        dd[at] = dd[at - 1];
        at--;
    }
    nb[at] = j;
    dd[at] = d2;
}

typedef struct {
    const struct mur_topo *t;
    int i, k, edge, have;
    double reach2;
    int *nb;
    double *dd;
} knn_search;

static void knn_in(void *ctx, int cell)
{
    knn_search *q = ctx;
    const struct mur_topo *t = q->t;
    for (int l = t->start[cell]; l < t->start[cell + 1]; l++) {
        int j = t->order[l];
        if (j == q->i || (q->edge && !t->border[j]))
            continue;
        double d[3];
        offset(t, q->i, j, d);
        double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (d2 < q->reach2)
            rank(q->k, q->nb, q->dd, &q->have, j, d2);
    }
}

/* Bird i's k nearest others (border birds only, with `edge`) closer than
 * sqrt(reach2) into nb, dd (ranked): shells of cells around its own, until
 * k are found and no cell beyond can hold a nearer one; how many. */
static int nearest_k(const struct mur_topo *t, int i, int k, int edge, double reach2, int *nb, double *dd)
{
    knn_search q = {t, i, k, edge, 0, reach2, nb, dd};
    int c = t->cell_of[i], at[3] = {c % t->n[0], c / t->n[0] % t->n[1], c / t->n[0] / t->n[1]};
    int rmax = mur_grid_shell_last_(at, t->n, t->wrap);
    double hmin = INFINITY;
    for (int a = 0; a < t->dims; a++)
        hmin = fmin(hmin, t->h[a]);
    for (int r = 0; r <= rmax; r++) {
        mur_grid_shell_(at, t->n, t->wrap, r, knn_in, &q);
        double reach = r * hmin;   /* a cell beyond this shell is at least this far */
        if ((q.have == k && dd[k - 1] <= reach * reach) || reach * reach >= reach2)
            break;
    }
    return q.have;
}

/* Each core bird's squared distance to the nearest border bird, searched as far as
 * its K-th neighbour (INFINITY beyond): Hanisch's edge correction, which
 * the anisotropy applies (docs/model.md "Anisotropy"). */
static void edges(struct mur_topo *t, int n)
{
    for (int i = 0; i < n; i++) {
        int j;
        double d2, reach2 = t->d2[(size_t)i * TOPO_K + t->k - 1] * (1 + 1e-9);
        t->edge[i] = t->border[i] ? 0 : nearest_k(t, i, 1, 1, reach2, &j, &d2) ? d2 : INFINITY;
    }
}

/* Whether every unit offset d[0 .. k-1] lies in one closed half-space
 * through the bird: some candidate u with all d . u <= eps or all >= -eps. */
static int one_side(const double (*d)[3], int k, int dims)
{
    const double eps = 1e-9;
    int pairs = dims == 3 ? k : 1, tried = 0;
    for (int a = 0; a < k; a++)
        for (int b = dims == 3 ? a + 1 : 0; b < pairs; b++) {
            double u[3];
            if (dims == 3) {
                u[0] = d[a][1] * d[b][2] - d[a][2] * d[b][1];
                u[1] = d[a][2] * d[b][0] - d[a][0] * d[b][2];
                u[2] = d[a][0] * d[b][1] - d[a][1] * d[b][0];
            } else {
                u[0] = -d[a][1];
                u[1] = d[a][0];
                u[2] = 0;
            }
            double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            if (!(l > 1e-9))
                continue;
            tried = 1;
            int below = 1, above = 1;
            for (int j = 0; j < k && (below || above); j++) {
                double s = (d[j][0] * u[0] + d[j][1] * u[1] + d[j][2] * u[2]) / l;
                below = below && s <= eps;
                above = above && s >= -eps;
            }
            if (below || above)
                return 1;
        }
    /* no candidate: every offset on one line (or none), no hull to be in */
    return !tried;
}

/* Marks each bird border (1) or core (0). */
static void classify(struct mur_topo *t, int n)
{
    int kb = t->k < MUR_BORDER_K ? t->k : MUR_BORDER_K;
    for (int i = 0; i < n; i++) {
        double d[MUR_BORDER_K][3];
        for (int j = 0; j < kb; j++) {
            offset(t, i, t->nb[(size_t)i * TOPO_K + j], d[j]);
            double l = sqrt(d[j][0] * d[j][0] + d[j][1] * d[j][1] + d[j][2] * d[j][2]);
            for (int a = 0; a < 3; a++)
                d[j][a] = l > 0 ? d[j][a] / l : 0;
        }
        t->border[i] = (unsigned char)(kb < t->dims + 1 || one_side((const double (*)[3])d, kb, t->dims));
    }
}

/* Every bird's neighbours and class for flock f (n >= 2): the scratch. */
static int neighbours_of(mur_metrics_ctx *m, const mur_flock *f, int n, struct mur_topo **out)
{
    if (!m->topo && !(m->topo = mur_calloc(1, sizeof *m->topo)))
        return MUR_ERUN;
    struct mur_topo *t = m->topo;
    if (reserve(t, (size_t)n))
        return MUR_ERUN;
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *z = mur_flock_z(f);
    t->dims = mur_flock_dimensions(f) == 3 ? 3 : 2;
    t->wrap = p->boundary == MUR_BOUNDARY_WRAP;
    t->size[0] = p->width;
    t->size[1] = p->height;
    t->size[2] = t->dims == 3 ? p->depth : 1;
    t->k = n - 1 < TOPO_K ? n - 1 : TOPO_K;
    for (int i = 0; i < n; i++) {
        t->p[3 * i] = x[i];
        t->p[3 * i + 1] = y[i];
        t->p[3 * i + 2] = t->dims == 3 ? z[i] : 0;
    }
    if (build(t, n))
        return MUR_ERUN;
    for (int i = 0; i < n; i++) {
        if (i % 4096 == 4095 && m->stop && *m->stop)
            return MUR_EINTR;
        nearest_k(t, i, t->k, 0, INFINITY, t->nb + (size_t)i * TOPO_K, t->d2 + (size_t)i * TOPO_K);
    }
    classify(t, n);
    edges(t, n);
    *out = t;
    return MUR_OK;
}

/* The unit mean velocity into v; 0 when there is none. */
static int heading(const mur_flock *f, int n, double v[3])
{
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f), *vz = mur_flock_z(f) ? mur_flock_vz(f) : NULL;
    v[0] = v[1] = v[2] = 0;
    for (int i = 0; i < n; i++) {
        v[0] += vx[i];
        v[1] += vy[i];
        v[2] += vz ? vz[i] : 0;
    }
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int a = 0; a < 3; a++)
        v[a] = l > 0 ? v[a] / l : 0;
    return l > 0;
}

/* The eigenvector of the smallest eigenvalue of the symmetric M (row-major
 * 3 x 3; in 2D its upper 2 x 2) into w. */
static void smallest_axis(const double M[9], int dims, double w[3])
{
    if (dims == 3) {
        double l[3], vec[3][3];
        mur_sym3_eigen_(M, l, vec);
        memcpy(w, vec[0], sizeof vec[0]);
        return;
    }
    /* 2 x 2: the largest eigenvalue's axis is at half the angle atan2(2b, a - c) */
    double th = 0.5 * atan2(2 * M[1], M[0] - M[4]);
    w[0] = -sin(th);
    w[1] = cos(th);
    w[2] = 0;
}

/* gamma(n) for n = 1 .. MUR_ANISOTROPY_N from the scratch (NaN past t->k). */
static void gamma_curve(const struct mur_topo *t, const mur_flock *f, int n, double *gamma)
{
    double v[3];
    int moving = heading(f, n, v);
    for (int q = 0; q < MUR_ANISOTROPY_N; q++) {
        gamma[q] = NAN;
        if (q >= t->k || !moving)
            continue;
        double M[9] = {0};
        int used = 0;
        for (int i = 0; i < n; i++) {
            double d[3];
            offset(t, i, t->nb[(size_t)i * TOPO_K + q], d);
            double l2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (!(l2 > 0) || !(t->edge[i] > l2))   /* the same bits when that neighbour is the border's */
                continue;   /* a border bird, or one whose n-th neighbour is farther than the border */
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    M[3 * a + b] += d[a] * d[b] / l2;
            used++;
        }
        if (!used)
            continue;
        double w[3];
        smallest_axis(M, t->dims, w);
        double c = w[0] * v[0] + w[1] * v[1] + w[2] * v[2];
        gamma[q] = c * c;
    }
}

double mur_anisotropy_range(const double *gamma, int count, int dimensions)
{
    /* the band 1/D +- tol, reached from gamma(1)'s side: the crossing of its near edge */
    double iso = 1.0 / (dimensions == 3 ? 3 : 2), tol = MUR_ANISOTROPY_TOL;
    if (count < 1 || isnan(gamma[0]))
        return NAN;
    if (fabs(gamma[0] - iso) <= tol)
        return 1;
    double sign = gamma[0] > iso ? 1 : -1, edge = iso + sign * tol;
    for (int q = 1; q < count; q++) {
        if (isnan(gamma[q]))
            return NAN;
        if (sign * (gamma[q] - edge) <= 0)   /* between n = q and q + 1 */
            return q + (gamma[q - 1] - edge) / (gamma[q - 1] - gamma[q]);
    }
    return NAN;
}

int mur_metrics_anisotropy(mur_metrics_ctx *m, const mur_flock *f, double *gamma)
{
    int n = mur_flock_count(f);
    for (int q = 0; q < MUR_ANISOTROPY_N; q++)
        gamma[q] = NAN;
    if (n < 2)
        return MUR_OK;
    struct mur_topo *t;
    int rc = neighbours_of(m, f, n, &t);
    if (!rc)
        gamma_curve(t, f, n, gamma);
    return rc;
}

/* Bird i's |roll|, degrees; NaN without a body frame or a velocity. */
static double roll_deg(const mur_flock *f, int i)
{
    const double *up = mur_flock_up(f);
    if (!up)
        return NAN;
    double v[3] = {mur_flock_vx(f)[i], mur_flock_vy(f)[i], mur_flock_vz(f)[i]};
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(l > 0))
        return NAN;
    for (int a = 0; a < 3; a++)
        v[a] /= l;
    return fabs(mur_starling_roll_(v, up + 3 * (size_t)i)) * (180 / MUR_PI);
}

void mur_metrics_roll_(const mur_flock *f, double *out)
{
    for (int i = 0, n = mur_flock_count(f); i < n; i++)
        out[i] = roll_deg(f, i);
}

/* roll_mean and roll_steep over the birds with a roll (NaN: none). */
static void roll_measures(const mur_flock *f, int n, double *mean, double *steep)
{
    double sum = 0;
    int count = 0, many = 0;
    for (int i = 0; i < n; i++) {
        double r = roll_deg(f, i);
        if (isnan(r))
            continue;
        sum += r;
        count++;
        many += r > MUR_ROLL_STEEP;
    }
    *mean = count ? sum / count : NAN;
    *steep = count ? (double)many / count : NAN;
}

/* nearest_border, nearest_core and their ratio from the scratch. */
static void border_measures(const struct mur_topo *t, int n, mur_metrics *out)
{
    double s[2] = {0, 0};
    int c[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        int b = t->border[i] ? 0 : 1;
        s[b] += sqrt(t->d2[(size_t)i * TOPO_K]);
        c[b]++;
    }
    out->nearest_border = c[0] ? s[0] / c[0] : NAN;
    out->nearest_core = c[1] ? s[1] / c[1] : NAN;
    out->nearest_ratio = out->nearest_core > 0 ? out->nearest_border / out->nearest_core : NAN;
}

int mur_metrics_topo_(mur_metrics_ctx *m, const mur_flock *f, unsigned want, mur_metrics *out)
{
    enum {
        BORDER = 1u << MUR_METRIC_NEAREST_BORDER | 1u << MUR_METRIC_NEAREST_CORE | 1u << MUR_METRIC_NEAREST_RATIO,
        ANISO = 1u << MUR_METRIC_ANISOTROPY | 1u << MUR_METRIC_ANISOTROPY_N,
        ROLL = 1u << MUR_METRIC_ROLL_MEAN | 1u << MUR_METRIC_ROLL_STEEP
    };
    int n = mur_flock_count(f);
    out->nearest_border = out->nearest_core = out->nearest_ratio = NAN;
    out->anisotropy = out->anisotropy_n = out->roll_mean = out->roll_steep = NAN;
    if (want & ROLL)
        roll_measures(f, n, &out->roll_mean, &out->roll_steep);
    if (!(want & (BORDER | ANISO)) || n < 2)
        return MUR_OK;
    struct mur_topo *t;
    int rc = neighbours_of(m, f, n, &t);
    if (rc)
        return rc;
    if (want & BORDER)
        border_measures(t, n, out);
    if (want & ANISO) {
        double gamma[MUR_ANISOTROPY_N];
        gamma_curve(t, f, n, gamma);
        out->anisotropy = gamma[0];
        out->anisotropy_n = mur_anisotropy_range(gamma, MUR_ANISOTROPY_N, t->dims);
    }
    return MUR_OK;
}
