/* What the scene module's experiment (experiment.c) shares with its shard
 * files (shard.c): the results' layout, an experiment made without being
 * run, and a job's numbers as bytes. */
#ifndef MURMUR_EXPERIMENT_INTERNAL_H
#define MURMUR_EXPERIMENT_INTERNAL_H

#include <stddef.h>

#include "murmur/experiment.h"

struct mur_experiment {
    const mur_scene *scene;
    int nconditions;
    int scene_only;
    int first;            /* scene condition of condition 0 (def->condition picks one) */
    int runs;
    long ticks;
    int every_tick;
    long stride;          /* recorded ticks per run: ticks + 1, or 1 */
    mur_metrics *m;       /* [(condition * runs + run) * stride + recorded tick] */
    mur_twin_record *tw;  /* twins: [(condition * runs + run) * (ticks + 1) + tick], else NULL */
    mur_twin_result *twr; /* twins: [condition * runs + run] */
    double *window;       /* measure.window: [(condition * runs + run) * MUR_METRIC_COUNT + metric] means, else NULL */
    long samples;         /* ticks sampled in the window */
    double *until;        /* until: [(condition * runs + run) * nuntil + i] first tick it holds, +inf if never; else NULL */
    double *scratch;      /* runs values, for summaries */
    int nextra;           /* def.extra: the caller's statistics, [(condition * runs + run) * nextra + j] */
    double *extra;        /* their values (window means), else NULL */
    mur_experiment_extra_fn extra_fn;
    void *extra_ctx;
};

/* An experiment of def's shape with every slot empty (until: +inf), not
 * run: what mur_experiment_run fills, or a merge of shards. */
int mur_experiment_new(mur_experiment **out, const mur_scene *s, const mur_experiment_def *def, mur_error *err);

/* Bytes of one job's numbers (every slot the outputs read), the same for
 * every job of e. */
size_t mur_experiment_job_bytes(const mur_experiment *e);

/* Job `job`'s slots into out (mur_experiment_job_bytes bytes), and back. */
void mur_experiment_job_pack(const mur_experiment *e, long job, unsigned char *out);
void mur_experiment_job_unpack(mur_experiment *e, long job, const unsigned char *in);

#endif
