/* murmur: an experiment in pieces, for clusters (`--shard K/N`, `murmur
 * merge`).
 *
 * The jobs of an experiment are its (condition, run) pairs, numbered
 * job = condition * runs + run (conditions in the scene's order). Shard K
 * of N (K from 1 to N) runs the jobs with job mod N = K - 1: round robin,
 * so every shard gets about as many runs of every condition, and a sweep
 * whose conditions differ in cost still splits evenly. Each job's numbers
 * depend on (scene, condition, run) alone, so a shard computes exactly the
 * bits the whole run computes for its jobs.
 *
 * A shard file (docs/data.md#shard-files) holds every number of its jobs
 * that an output reads, bit for bit, and what it was made from (murmur's
 * version, the scene's path and a hash of its text, the seed, runs, ticks,
 * the shard and the provenance text): merging all N rebuilds the
 * experiment the whole run makes, and every table, figure and per-run file
 * made from it is the same to the byte. */
#ifndef MURMUR_SHARD_H
#define MURMUR_SHARD_H

#include <stdint.h>

#include "murmur/error.h"
#include "murmur/experiment.h"
#include "murmur/export.h"
#include "murmur/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most shards of one experiment (a job array's usual limit is 1001).
#define MUR_SHARD_MAX 100000

/// The format version of shard files this murmur writes and reads.
#define MUR_SHARD_FORMAT 1

/// Number of the jobs 0..jobs-1 that shard k (1..n) of n runs: those with
/// job mod n = k - 1.
MUR_API long mur_shard_jobs(long jobs, int k, int n);

/// What a shard file says of itself (its header).
typedef struct mur_shard_info {
    char command[16];       ///< "stats" or "series"
    char version[32];       ///< the murmur that wrote it
    char *scene;            ///< the scene's path as given (owned)
    uint64_t scene_hash;    ///< FNV-1a 64 of the scene file's bytes
    uint64_t seed;          ///< the scene's seed
    int shard, shards;      ///< K of N
    int runs;               ///< runs per condition
    long ticks;             ///< ticks per run
    char *condition;        ///< series --condition, or NULL (owned)
    int scene_only;         ///< 1: the scene's own settings as one condition
    int every_tick;         ///< 1: every tick kept (a series)
    long jobs;              ///< jobs in the file
    char trace[200];        ///< a trace's shape ("csv ticks 0 to 599 every 1 run 0 float32 0"), "" for an experiment
} mur_shard_info;

/// Read and check the header of the shard file at path (a file that is not
/// one, or is truncated or damaged, is MUR_EINPUT "PATH: ..."). The caller
/// frees it with mur_shard_info_free.
MUR_API int mur_shard_read_info(const char *path, mur_shard_info *out, mur_error *err);

/// Free what an info owns; NULL is fine.
MUR_API void mur_shard_info_free(mur_shard_info *info);

/// The experiment def a shard's info asks for (every shard's jobs, not one):
/// what mur_experiment_merge rebuilds. condition points into info.
MUR_API void mur_shard_def(const mur_shard_info *info, mur_experiment_def *out);

/// Write the jobs of shard def->shard of def->shards of e (run with def) to
/// path, atomically, command naming what made it ("stats", "series").
/// 0, or MUR_ERUN ("cannot write 'PATH': ...").
MUR_API int mur_experiment_shard_write(const mur_experiment *e, const mur_experiment_def *def,
                                       const char *command, const char *path, mur_error *err);

/// 1 when path is a complete shard file of exactly what e's scene, def and
/// command would write (same murmur, scene text, seed, runs, ticks, shard):
/// a shard to skip when run again. 0 otherwise (missing, partial, other).
MUR_API int mur_shard_done(const char *path, const mur_scene *s, const mur_experiment_def *def,
                           const char *command);

/// Rebuild the whole experiment of scene s (loaded from the shards' scene)
/// from the n shard files paths: every shard 1..N once, all of one scene
/// text, seed, runs, ticks, command and murmur version. MUR_EINPUT with one
/// line naming the file otherwise ("PATH: ..."; a missing shard names the
/// file it expected). The caller owns *out (mur_experiment_destroy).
MUR_API int mur_experiment_merge(mur_experiment **out, const mur_scene *s, const char *const *paths, int n,
                                 mur_error *err);

/// 1 when a and b are the same shard of the same run (every field but jobs).
MUR_API int mur_shard_same(const mur_shard_info *a, const mur_shard_info *b);

/// A shard file opened (mapped) and checked whole: header, size and hash.
typedef struct mur_shard_file mur_shard_file;

/// Open and check the shard file at path (MUR_EINPUT "PATH: ..." when it is
/// not one, or truncated or damaged). Close it with mur_shard_close.
MUR_API int mur_shard_open(mur_shard_file **out, const char *path, mur_error *err);

/// Unmap and free; NULL is fine.
MUR_API void mur_shard_close(mur_shard_file *f);

/// The header of f (lives as long as f).
MUR_API const mur_shard_info *mur_shard_file_info(const mur_shard_file *f);

/// Record i (0..jobs-1) of f: its job number into *job, its length into
/// *len; the bytes live as long as f.
MUR_API const void *mur_shard_file_record(const mur_shard_file *f, long i, uint64_t *job, size_t *len);

/// Open the shard files paths[0..n) of one run of scene s whose jobs
/// number `total`, checked as mur_experiment_merge says (every shard once,
/// one scene text, seed, shape and murmur; each holding the jobs it is
/// assigned, in order): *out gets them by shard number, [1..N] ([0]
/// unused). Free with mur_shard_set_close(*out, N).
MUR_API int mur_shard_set_open(mur_shard_file ***out, const mur_scene *s, const char *const *paths, int n, long total,
                               mur_error *err);

/// Close a set of mur_shard_set_open of n shards; NULL is fine.
MUR_API void mur_shard_set_close(mur_shard_file **set, int n);

/// Write a shard file of info (its jobs records: job numbers index[i],
/// bytes data[i] of len[i]) with the provenance text prov, atomically.
MUR_API int mur_shard_write(const char *path, const mur_shard_info *info, const char *prov, const uint64_t *index,
                            const void *const *data, const size_t *len, mur_error *err);

/// FNV-1a 64 of the file at path's bytes, into *out: 0, or MUR_ERUN.
MUR_API int mur_shard_hash_file(const char *path, uint64_t *out, mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
