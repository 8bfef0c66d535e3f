/* The CLI's commands, one file each; they share the option record and the
 * exit-status helpers of main.c. */
#ifndef MURMUR_COMMANDS_H
#define MURMUR_COMMANDS_H

#include <signal.h>
#include <stdio.h>

#include "murmur/error.h"
#include "murmur/scene.h"

typedef struct mur_cli_opts {
    const char *scene;
    const char *output;
    const char *from, *to, *at;
    const char *threads_text, *runs_text, *ticks_text, *plot;
    const char *preset;   /* render: x264 speed/size preset, NULL = medium */
    const char *condition, *run_text;  /* render, still, trace: one experiment condition and run */
    const char *runs_out; /* stats: the per-run values as CSV */
    const char *plot_effects; /* stats: the paired effects' figure */
    int correlation;      /* stats: C(r) itself, binned, with its ensemble band (field.c) */
    const char *distribution; /* stats: a per-boid quantity's histogram over the ensemble (field.c) */
    int anisotropy;       /* stats: the anisotropy gamma(n), n = 1 .. MUR_ANISOTROPY_N, with its band (field.c) */
    const char *bin_text; /* stats --correlation, --distribution: the bins' width */
    int plot_provenance;  /* stats, series, merge: the version, seed and scene in each figure's footer */
    const char *every;    /* trace: ticks between two traced ticks */
    const char *size, *fps_text, *quality_text;  /* render, still: a variant of the video */
    int draft;            /* render, still: half size, the fastest preset */
    int subtitles, subtitles_embed;  /* render: captions as .srt/.vtt beside, or as a track */
    const char *chunk;    /* render: "K/N", only chunk K of N of the frames */
    const char *loop;     /* render: the time the end crossfades into the start over */
    int float32;          /* trace: positions and velocities as float32 */
    const char *shard_text;   /* stats, series, trace: --shard K/N */
    const char *shards_text, *chunks_text;  /* plan: --shards N, --chunks N */
    int slurm, parallel;  /* plan: the engine */
    const char *murmur;   /* plan: the program the tasks run (--murmur PATH) */
    const char *slurm_time, *slurm_mem, *partition, *account, *sbatch;  /* plan --slurm: sbatch's options */
    const char **inputs;  /* join, merge: the operands (PART..., SHARD...), ninputs of them (argv's) */
    int ninputs;
    const char *argv0;    /* how murmur was called (plan: the murmur its commands run) */
    int threads;          /* 0 = all cores */
    int quiet, json;
    volatile sig_atomic_t *stop;  /* the signal flag, handed to every long loop (never NULL) */
} mur_cli_opts;

/// Print "murmur: <fmt with arg>" and a hint; returns 2.
int mur_cli_usage_error(const char *fmt, const char *arg);

/// Print err's message when rc is an error (MUR_EINTR: "interrupted (msg):
/// nothing written"; an empty message prints nothing); returns the exit status for rc.
int mur_cli_report(int rc, const mur_error *err);

/// Exit status for a return code.
int mur_cli_exit_code(int rc);

/// Load a scene and check what the scene module cannot know: that a writer
/// supports its `video.output` (an error at that line otherwise). written:
/// the file the command writes instead (-o), whose writer checks it; then
/// video.output, not written, is not checked. NULL: video.output is.
struct mur_scene;
int mur_cli_load_scene(const char *path, const char *written, struct mur_scene **out, mur_error *err);

/// MUR_EINPUT when s is a sequence file (stats, series and trace take a
/// scene: a sequence's flocks are its entries'), naming it; else 0.
int mur_cli_not_sequence(const struct mur_scene *s, mur_error *err);
/// Load and check the scene, then make a library session of it with the
/// command's --threads, --condition, --run and stop flag. The caller
/// destroys both (even on failure: either may be set).
struct mur_session;
int mur_cli_session(const mur_cli_opts *o, struct mur_scene **s, struct mur_session **ss,
                    mur_error *err);

/// Frame of a time given on the command line as option opt (--from, --at);
/// a usage error naming the option when it is not a time.
int mur_cli_frame_at(const struct mur_scene *s, const char *text, const char *opt, long *out,
                     mur_error *err);

/// Warn on stderr (file:line:col: warning: ...) about what `check` finds
/// suspicious: timeline entries past the end, captions showing together, a
/// frame size the output format rounds, and --at T (at may be NULL) past
/// the end. Returns the number of warnings.
int mur_cli_warnings(const struct mur_scene *s, const char *at);

/// Warn when a time given as option opt lies past the scene's end; 1 if so.
int mur_cli_warn_at(const struct mur_scene *s, const char *opt, const char *text);

/// Whether a command can write path (NULL and "-", standard output, pass),
/// checked before it computes: out/ is made when path is in it, then
/// mur_file_check_output (exit 2 for a directory there, else 1, naming the
/// path and the reason).
int mur_cli_output_ready(const char *path, mur_error *err);

/// mur_cli_output_ready for each of n paths (NULLs skipped), the first
/// refusal returned.
int mur_cli_outputs_ready(const char *const *paths, int n, mur_error *err);

/// Parse --shard's "K/N" (K from 1 to N) into *k and *n; a usage error
/// (printed, returns 2) otherwise.
int mur_cli_parse_shard(const char *text, int *k, int *n);
/* "K/N", whole numbers with 1 <= K <= N <= max, into *k and *n: 0, or -1
 * (the caller says what the option wants). */
int mur_cli_parse_k_of_n(const char *text, int max, int *k, int *n);

/// The shard file of shard k of n: DIR/NAME.shard-K-of-N.mur, where -o
/// gives DIR and NAME (-o out/x.csv: out/ and x; -o out/ or a folder:
/// out/ and the scene's name; no -o: out/ and the scene's name). The
/// caller frees it (mur_free); NULL when out of memory.
char *mur_cli_shard_path(const char *output, const char *scene, int k, int n);

/// The file shard k of n of scene s goes to (mur_cli_shard_path, from
/// -o), into *path (the caller frees it), after checking the scene is a
/// regular file the merge can read again; MUR_OK or an error in err.
int mur_cli_shard_file(const mur_cli_opts *o, const mur_scene *s, int k, int n, char **path,
                       mur_error *err);

/// Says (unless -q) that shard k of n at path is complete: nothing to do.
void mur_cli_shard_complete(const mur_cli_opts *o, const char *path, int k, int n);

/// Everything stats (series) writes and prints from an experiment, for a
/// whole run and a merge of shards alike: the one path from the per-run
/// values to the outputs.
struct mur_experiment;
int mur_cli_stats_options(const mur_cli_opts *o, int *json);   /* the output options' checks; 2 when bad (said) */
int mur_cli_series_options(const mur_cli_opts *o);
int mur_cli_stats_outputs(const mur_cli_opts *o, const struct mur_experiment *e, mur_error *err);
int mur_cli_series_outputs(const mur_cli_opts *o, const struct mur_experiment *e, mur_error *err);

/// stats.c's writing, for field.c: a number as the tables write it, a CSV
/// field, a sweep's columns (header; condition c's values), a CSV's
/// provenance sidecar, and an experiment run with the progress bar.
struct mur_experiment_def;
void mur_cli_put_number(FILE *fp, double v);
void mur_cli_put_csv_text(FILE *fp, const char *s);
void mur_cli_sweep_header(FILE *fp, const mur_scene *s);
void mur_cli_sweep_values(FILE *fp, const struct mur_experiment *e, int c);
int mur_cli_write_sidecar(const char *csv_path, const struct mur_experiment *e, mur_error *err);
int mur_cli_run_experiment(const mur_cli_opts *o, struct mur_experiment **e, const mur_scene *s,
                           struct mur_experiment_def *def, mur_error *err);

/// field.c: stats --correlation and --distribution. The options' checks
/// (2 when bad, said; 0 when neither is asked for), and the run, in place
/// of the table, on a loaded scene with --runs and --ticks in def.
int mur_cli_field_options(const mur_cli_opts *o);
int mur_cli_field(const mur_cli_opts *o, mur_scene *s, struct mur_experiment_def *def, mur_error *err);

/// --plot-provenance: the footer every figure then carries (murmur's
/// version, the seed, the scene), or none.
void mur_cli_figure_footer(const mur_cli_opts *o, const mur_scene *s);

int mur_cmd_render(const mur_cli_opts *o);
int mur_cmd_still(const mur_cli_opts *o);
int mur_cmd_check(const mur_cli_opts *o);
int mur_cmd_presets(const mur_cli_opts *o);
int mur_cmd_stats(const mur_cli_opts *o);
int mur_cmd_series(const mur_cli_opts *o);
int mur_cmd_trace(const mur_cli_opts *o);
int mur_cmd_join(const mur_cli_opts *o);
int mur_cmd_merge(const mur_cli_opts *o);
int mur_cmd_plan(const mur_cli_opts *o);

#endif
