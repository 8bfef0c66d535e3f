/* The command line's tables (commands, options, exit statuses, examples)
 * and their readers: the parser's look-ups, `--help` for the whole program
 * and for each command, the manual page and the bash completion. A new
 * option is one row here; main.c parses it, and the help, the manual and
 * the completion show it, with no second list to forget. */
#include "usage.h"
#include "murmur/error.h"
#include "murmur/limits.h"
#include "murmur/version.h"

#include <ctype.h>
#include <string.h>

#include "commands.h"
#include "murmur/presets.h"

#define OPT(field) offsetof(mur_cli_opts, field)
#define WIDTH 79         /* help lines stay within a standard terminal */
#define OPT_COLUMN 22    /* where an option's help starts */
#define SUMMARY_COLUMN 34

static const char about[] = "render flocking simulations (Reynolds boids) to video and figures";

static const char description[] =
    "murmur renders flocking simulations offline, to video and figures. A YAML scene scripts "
    "parameter changes and predator paths over time; a deterministic core steps the flock; "
    "Cairo draws antialiased boids, trails and overlays; libav encodes the frames. The same "
    "scene and seed give the same frames and numbers for any number of threads.";

static const char times[] = "A time T is 12s, 1.5s, 900t (ticks) or bare seconds.";

static const char scenes[] = "scene format: see README.md and the examples in scenes/";

static const mur_usage_command commands[] = {
    {"render", "SCENE", MUR_OPERAND_SCENE, "render the scene's video (default: its video.output)",
     "Draws every frame and encodes them into one file, whose extension picks the format: "
     ".mp4 (H.264, yuv420p, BT.709 tagged, +faststart), .webm (VP9), .mov (ProRes 422, for "
     "editing), .gif (one palette for the whole video, at most 50 fps), .webp (an animated WebP, "
     "looping forever, at most 60 fps) or DIR/%05d.png (a PNG "
     "sequence numbered by scene frame, with DIR/frames.txt beside it). The file carries its "
     "provenance (a .webp in an XMP chunk): murmur's version, the seed, the frames, every resolved "
     "setting and the scene itself. A terminal shows frames, fps, ETA and size. Interrupted, a render finalises the "
     "frames so far into a playable file."},
    {"still", "SCENE", MUR_OPERAND_SCENE, "one frame as an image",
     "Steps the scene to the frame at --at and draws it exactly as a render would, trails and "
     "plots included: a .png, or a .pdf or .svg in true vectors with fonts embedded, one paper "
     "column (3.5 in) wide, two for small multiples."},
    {"stats", "SCENE", MUR_OPERAND_SCENE,
     "the experiment's conditions x runs: median, p10, p90, mean of each metric at the last tick",
     "Runs each condition of the scene's experiment for its runs (run k of every condition "
     "uses the seed derived from the scene's seed and k), each for its ticks, and gives for each "
     "metric the median, the 10th and 90th percentiles (numpy's linear definition) and the mean "
     "of its value at the last tick. A table on stdout (JSON with --json); -o x.csv also writes "
     "the columns condition,metric,median,p10,p90,mean,runs,ticks, -o x.json the same as JSON; "
     "two conditions or more add baseline,effect_median,ci_low,ci_high (paired differences "
     "against experiment.baseline, by default the first condition, with a seeded 95% bootstrap "
     "interval; baseline: none, none); a recording is one run. -q with -o prints nothing but errors. "
     "The same numbers for any --threads."},
    {"series", "SCENE", MUR_OPERAND_SCENE,
     "one row per tick along the timeline, with a 10-90% band across runs when R > 1",
     "Writes tick,order,nearest,neighbours,clusters,largest,milling,state for every tick of the "
     "scene's video, and a column for each setting its timeline changes. With --runs R > 1, "
     "each metric is the median across the runs, with its 10th and 90th percentiles. Every "
     "condition of the experiment runs, its rows under a leading condition column (none "
     "when there is one). A figure marks the timeline's events and ramps."},
    {"trace", "SCENE", MUR_OPERAND_SCENE,
     "every boid's position and velocity per tick, as CSV or HDF5 (H5MD)",
     "Steps the scene's flock exactly as a render does and writes every boid's position and "
     "velocity at each tick: .csv in long form (run,condition,tick,time,id,x,y,vx,vy; a 3D "
     "world's with z and vz; each number as short as reads back to the same double) or .h5 in the "
     "H5MD layout (particles/flock/position and velocity as value[T][N][2], [3] in 3D, the readout's metrics under observables/, the "
     "scene and seed under parameters/; see docs/data.md). By default the ticks a render draws, "
     "from the first frame's to the last frame's. --run K traces experiment run K (its derived "
     "seed), --runs R runs 0 to R-1 (one .csv; NAME-runK.h5 each). An .h5 also keeps at every "
     "tick what a flock needs to go on exactly from there: --at 30s -o formed.h5 saves a state "
     "that a scene starts from with flock: {start: formed.h5}."},
    {"join", "PART...", MUR_OPERAND_FILES,
     "join a render's chunks into the file the whole render writes",
     "Takes the chunks murmur render writes with its chunk option K/N and copies their "
     "packets into one file of their format, in chunk order whatever order they are given in, "
     "each moved to its place in time: nothing is encoded again, and the frames equal a whole "
     "render's (as ffmpeg's framemd5 shows). Chapters are joined, the "
     "provenance is the whole render's, an .mp4 gets +faststart. A .gif is made from its "
     "chunks' lossless frames with one palette, byte for byte the whole render's GIF. A chunk "
     "that is missing or given twice, truncated, of another size, codec, frame rate or render "
     "(scene, seed, settings, murmur version) is refused with exit status 2 and nothing is "
     "written."},
    {"merge", "SHARD...", MUR_OPERAND_FILES,
     "shards of stats, series or trace -> the whole run's outputs, byte for byte",
     "Reads the N shard files that stats, series or trace wrote with their shard option (NAME.shard-K-of-N.mur), checks "
     "that they are all there, once each, complete, and of one scene text, seed, runs, ticks and "
     "murmur version, and writes what the whole run writes: for stats the table on stdout and -o as "
     ".csv or .json, --runs-out, --plot and --plot-effects; for series -o .csv and --plot; for "
     "trace -o .csv or .h5 (a file per run, NAME-runK.h5, for several runs). The "
     "files are the whole run's to the byte. A shard missing, given twice, truncated or of "
     "another run: exit status 2, one line naming the file, nothing written. The scene is read "
     "again from the path the shards name (relative to where they ran), and must be unchanged."},
    {"plan", "SCENE", MUR_OPERAND_SCENE,
     "a Slurm batch script or a GNU parallel command that runs the experiment in shards",
     "Prints to stdout, with --slurm, a script to run with bash where jobs are submitted (bash "
     "job.sh): it makes the outputs' folders, submits job arrays of at most 1000 shards of stats "
     "(within Slurm's default MaxArraySize) and the merge as a job that depends on them "
     "(afterok: it runs once every shard succeeded), with --time (estimated when not given), "
     "--mem, --partition, --account and --sbatch for all of them; with --parallel, one GNU "
     "parallel command (with a joblog) followed by the merge. Run again, either keeps every "
     "complete shard and runs only a missing or truncated one. Commands run "
     "relative to the directory the script starts in; the merge writes -o (default "
     "out/NAME.csv), the same file a whole `murmur stats SCENE -o out/NAME.csv` writes. Comments "
     "give the number of runs and an estimate of the CPU time, timed from a short calibration run. "
     "With --chunks N instead of --shards N, the same for a render in chunks (murmur render ... chunk K of N, "
     "then murmur join)."},
    {"check", "SCENE", MUR_OPERAND_SCENE, "validate; print the resolved settings and timeline",
     "Loads the scene as render would and prints what it resolves to: the flock settings (the "
     "preset with the scene's overrides) and the timeline as a table. The first problem stops "
     "it with file:line:col: error: ... and exit status 2; an unknown key suggests the nearest "
     "valid one. Warnings (file:line:col: warning: ..., exit status 0): a timeline entry past the "
     "end, two captions at one place at once, a frame size the output format rounds, --at past "
     "the end."},
    {"presets", "[NAME]", MUR_OPERAND_PRESET, "list the model presets, or print one as YAML",
     "Without NAME, lists the model presets (a scene's model: key); with one, prints its every "
     "setting as YAML to paste into a scene."},
    {"help", "[COMMAND]", MUR_OPERAND_COMMAND, "this text, or a command's synopsis and options",
     "Without COMMAND, the overview murmur --help prints; with one, what murmur COMMAND --help "
     "prints."},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const mur_usage_option options[] = {
    {"--output", "-o", "FILE", OPT(output), "render", 0, 1,
     "the video: .mp4 (H.264), .webm (VP9), .mov (ProRes), .gif, .webp, or DIR/%05d.png",
     "the scene's video.output; with --chunk K/N, NAME.chunk-K-of-N.EXT beside it"},
    {"--output", "-o", "FILE", OPT(output), "still", 1, 1, "the image: .png, .pdf or .svg", NULL},
    {"--output", "-o", "FILE", OPT(output), "stats", 0, 1,
     "also write the numbers as .csv or .json (- is stdout)", NULL},
    {"--output", "-o", "FILE", OPT(output), "series", 1, 1, "the series as .csv (- is stdout)",
     NULL},
    {"--output", "-o", "FILE", OPT(output), "trace", 1, 1,
     "the trace: .csv or .h5 (H5MD); no default, with --shard too (there it gives the shard files' folder, name "
     "and format)", NULL},
    {"--output", "-o", "FILE", OPT(output), "join", 1, 1,
     "the whole video, in the chunks' format (.mp4, .webm, .mov or .gif)", NULL},
    {"--chunk", NULL, "K/N", OPT(chunk), "render", 0, 0,
     "only chunk K of N (K counts from 1, as GNU parallel's {#} and a Slurm job array "
     "numbered from 1): "
     "the frames are cut every 2 s of video into N runs as even as possible; murmur join makes "
     "the whole of them. A .gif chunk holds its frames losslessly", "the whole video"},
    {"--output", "-o", "FILE", OPT(output), "merge", 1, 1,
     "the whole run's output: stats .csv or .json, series .csv, trace .csv or .h5", NULL},
    {"--output", "-o", "FILE", OPT(output), "plan", 0, 1,
     "what the plan's merge (join) writes", "out/NAME.csv (out/NAME.mp4)"},
    {"--shard", NULL, "K/N", OPT(shard_text), "stats series trace", 0, 0,
     "run only shard K of N (K from 1 to N, as a Slurm job array of 1-N or GNU parallel's {#} gives "
     "it; from a 0-based index I write $((I+1))/N) into DIR/NAME.shard-K-of-N.mur, -o giving DIR and NAME; a complete file "
     "is kept (run again: nothing to do). Job j = condition x runs + run (a trace: its run) goes to "
     "shard j mod N + 1",
     "the whole run"},
    {"--shards", NULL, "N", OPT(shards_text), "plan", 0, 0, "split the experiment's runs into N shards",
     NULL},
    {"--chunks", NULL, "N", OPT(chunks_text), "plan", 0, 0, "split the render into N chunks", NULL},
    {"--slurm", NULL, NULL, OPT(slurm), "plan", 0, 0, "print a script that submits the Slurm job arrays and the merge (run it: bash FILE)",
     NULL},
    {"--parallel", NULL, NULL, OPT(parallel), "plan", 0, 0, "print a GNU parallel command line", NULL},
    {"--murmur", NULL, "PATH", OPT(murmur), "plan", 0, 1,
     "the murmur every task and the merge run: a path the nodes see, or a name on their PATH",
     "the absolute path of this murmur"},
    {"--time", NULL, "TIME", OPT(slurm_time), "plan", 0, 0,
     "--slurm: the time limit of each task and of the merge (MINUTES, H:MM:SS, D-HH:MM:SS)",
     "twice a piece's estimated CPU time and 10 minutes"},
    {"--mem", NULL, "SIZE", OPT(slurm_mem), "plan", 0, 0,
     "--slurm: the memory of each task and of the merge (2G, 500M)", "the partition's"},
    {"--partition", NULL, "NAME", OPT(partition), "plan", 0, 0,
     "--slurm: the partition the tasks and the merge run in", "the cluster's default"},
    {"--account", NULL, "NAME", OPT(account), "plan", 0, 0,
     "--slurm: the account the tasks and the merge are charged to", "yours"},
    {"--sbatch", NULL, "ARGS", OPT(sbatch), "plan", 0, 0,
     "--slurm: more sbatch options for the tasks and the merge, as plain words", NULL},
    {"--loop", NULL, "T", OPT(loop), "render", 0, 0,
     "make the video loop without a jump: its last T crossfades into its start (the file is T "
     "shorter); at most half the clip, no --chunk", "no loop"},
    {"--from", NULL, "T", OPT(from), "render", 0, 0,
     "render only the part from T (a PNG sequence keeps the whole render's frame numbers)", "0"},
    {"--to", NULL, "T", OPT(to), "render", 0, 0, "render only the part before T",
     "the scene's end"},
    {"--from", NULL, "T", OPT(from), "trace", 0, 0, "trace from the first tick at or after T",
     "the first frame's tick"},
    {"--to", NULL, "T", OPT(to), "trace", 0, 0, "trace only the ticks before T",
     "the last frame's tick"},
    {"--at", NULL, "T", OPT(at), "still", 1, 0, "time of the still", NULL},
    {"--at", NULL, "T", OPT(at), "check", 0, 0, "also warn when a still at T would be past the end",
     NULL},
    {"--at", NULL, "T", OPT(at), "trace", 0, 0,
     "only the tick at T: a saved state for a scene's flock: {start: FILE}", NULL},
    {"--condition", NULL, "NAME", OPT(condition), "render still", 0, 0,
     "only the flock of the experiment's condition NAME, as one panel", "the scene as it is"},
    {"--run", NULL, "K", OPT(run_text), "render still", 0, 0,
     "run K of the experiment (0 .. runs - 1): its seed, the flock stats measured",
     "the scene's seed, run 0"},
    {"--every", NULL, "T", OPT(every), "trace", 0, 0,
     "record every T: ticks like 5t or a time like 0.5s", "1t"},
    {"--condition", NULL, "NAME", OPT(condition), "trace", 0, 0,
     "the experiment condition's settings", "the scene's own settings"},
    {"--condition", NULL, "NAME", OPT(condition), "series", 0, 0,
     "only the experiment condition NAME", "every condition, one band each"},
    {"--run", NULL, "K", OPT(run_text), "trace", 0, 0,
     "experiment run K's seed (0 to experiment.runs - 1)", "the scene's seed"},
    {"--runs", NULL, "R", OPT(runs_text), "stats", 0, 0, "runs per condition, 1 to " MUR_STR(MUR_MAX_RUNS),
     "the scene's experiment.runs"},
    {"--runs", NULL, "R", OPT(runs_text), "series", 0, 0, "runs for the band", "1"},
    {"--runs", NULL, "R", OPT(runs_text), "trace", 0, 0, "trace runs 0 to R-1", NULL},
    {"--runs", NULL, "R", OPT(runs_text), "plan", 0, 0, "runs per condition (passed to every shard)",
     "the scene's experiment.runs"},
    {"--ticks", NULL, "T", OPT(ticks_text), "stats", 0, 0,
     "ticks per run: a count, or a time like 15s", "the scene's experiment.ticks"},
    {"--ticks", NULL, "T", OPT(ticks_text), "series", 0, 0,
     "ticks per run: a count, or a time like 15s", "the video's duration"},
    {"--runs-out", NULL, "FILE", OPT(runs_out), "stats merge", 0, 1,
     "also write every run's values as .csv: condition,run,seed,metric,value", NULL},
    {"--ticks", NULL, "T", OPT(ticks_text), "plan", 0, 0,
     "ticks per run (passed to every shard)", "the scene's experiment.ticks"},
    {"--ticks", NULL, "T", OPT(ticks_text), "trace", 0, 0,
     "trace ticks --from to --from + T: a count, or a time like 15s", "to the last frame"},
    {"--float32", NULL, NULL, OPT(float32), "trace", 0, 0,
     ".h5: positions and velocities as float32 (half the size)", NULL},
    {"--plot", NULL, "FIG", OPT(plot), "stats series merge", 0, 1,
     "also draw a figure: .png (300 dpi), .pdf or .svg", NULL},
    {"--plot-effects", NULL, "FIG", OPT(plot_effects), "stats merge", 0, 1,
     "also draw each condition's paired effect against the baseline with its 95% interval", NULL},
    {"--json", NULL, NULL, OPT(json), "stats merge", 0, 0, "print the table on stdout as JSON, not text", NULL},
    {"--correlation", NULL, NULL, OPT(correlation), "stats", 0, 0,
     "C(r) of the velocity fluctuations at the measured tick (docs/model.md#correlation_length) in place of the "
     "table: -o the bins as .csv (condition,r,median,p10,p90,runs,pairs), --plot each condition's median with its "
     "10-90% band across runs", NULL},
    {"--anisotropy", NULL, NULL, OPT(anisotropy), "stats", 0, 0,
     "gamma(n) of the n-th nearest neighbour, n = 1 to 20, at the measured tick (docs/model.md#anisotropy) in place "
     "of the table: -o the curve as .csv (condition,n,median,p10,p90,runs), --plot each condition's median with its "
     "10-90% band across runs", NULL},
    {"--distribution", NULL, "Q", OPT(distribution), "stats", 0, 0,
     "the histogram of a per-boid quantity over the ensemble (nearest, neighbours, speed or roll) in place of the table: "
     "-o the bins as .csv, --plot the figure", NULL},
    {"--bin", NULL, "W", OPT(bin_text), "stats", 0, 0,
     "--correlation, --distribution: the bins' width, above 0, in the quantity's units",
     "experiment.measure.correlation_bin; a histogram: 1 for counts, else about 30 bins"},
    {"--plot-provenance", NULL, NULL, OPT(plot_provenance), "stats series merge", 0, 0,
     "print murmur's version, the seed and the scene in a footer under every figure", NULL},
    {"--size", NULL, "WxH", OPT(size), "render still", 0, 0,
     "frame size: WxH or 360p, 480p, 720p, 1080p, 1440p, 4k (the world is scaled to fit)",
     "the scene's video.width x height"},
    {"--fps", NULL, "N", OPT(fps_text), "render", 0, 0, "frames per second, 1 to " MUR_STR(MUR_MAX_FPS),
     "the scene's video.fps"},
    {"--quality", NULL, "Q", OPT(quality_text), "render", 0, 0,
     "CRF-like quality, 0 to " MUR_STR(MUR_MAX_QUALITY) " (lower is better)", "the scene's video.quality"},
    {"--draft", NULL, NULL, OPT(draft), "render still", 0, 0,
     "a quick look: half the size, the fastest preset", NULL},
    {"--subtitles", NULL, NULL, OPT(subtitles), "render", 0, 0,
     "also write the captions as NAME.srt and NAME.vtt beside the video", NULL},
    {"--subtitles=embed", NULL, NULL, OPT(subtitles_embed), "render", 0, 0,
     "put the captions in the file as a soft subtitle track (.mp4, .mov: mov_text; .webm: WebVTT)",
     NULL},
    {"--preset", NULL, "NAME", OPT(preset), "render", 0, 0,
     "x264 speed/size trade-off, ultrafast .. veryslow, placebo (.webm: VP9's speed)", "medium"},
    {"--threads", NULL, "N", OPT(threads_text), "render", 0, 0,
     "simulation and drawing threads (a frame is drawn in bands of rows), 1 to 256; the frames are "
     "identical for any N (1 also encodes in the drawing thread: the reference render)",
     "all cores"},
    {"--threads", NULL, "N", OPT(threads_text), "still stats series trace", 0, 0,
     "simulation (and still drawing) threads, 1 to 256; the output is identical for any N", "all cores"},
    {"--quiet", "-q", NULL, OPT(quiet), "render still stats series trace check presets join merge plan", 0, 0,
     "no progress bar, no \"wrote\" line", NULL},
    {"--help", "-h", NULL, MUR_USAGE_NO_FIELD, "*", 0, 0,
     "print this help and exit", NULL},
    {"--version", NULL, NULL, MUR_USAGE_NO_FIELD, NULL, 0, 0, "print the version and exit", NULL},
};
#define NOPTIONS (sizeof options / sizeof options[0])

static const struct {
    int code;
    const char *brief, *text;
} statuses[] = {
    {0, "done", "done"},
    {1, "failed while running",
     "failed while running (I/O, the encoder): murmur: error: ... on stderr"},
    {2, "bad usage or scene",
     "bad usage, or a bad scene: file:line:col: error: ... on stderr; nothing is written"},
    {130, "interrupted",
     "interrupted (Ctrl-C or SIGTERM), answered within a moment: a render finalises the frames "
     "so far into a playable file; a still, stats, series or trace writes nothing"},
};

static const struct {
    const char *line, *what;
} examples[] = {
    {"murmur render scenes/knockout.yaml", "render to the scene's video.output"},
    {"murmur render scenes/knockout.yaml --from 8s --to 16s -o part.mp4", "a part, as H.264"},
    {"murmur still scenes/panels.yaml --at 20s -o knockouts.pdf", "a vector figure"},
    {"murmur stats scenes/knockout-stats.yaml -o k.csv --plot k.pdf",
     "numbers and a figure for a paper"},
    {"murmur series scenes/noise-sweep.yaml --runs 8 -o sweep.csv", "a time series with a band"},
    {"murmur trace scenes/knockout.yaml --every 5t -o flock.h5", "trajectories for analysis"},
    {"murmur trace scenes/flock.yaml --at 30s -o formed.h5", "a saved state to start scenes from"},
    {"parallel --will-cite murmur render scenes/flock.yaml -q --chunk {}/4 ::: 1 2 3 4",
     "a render in 4 chunks at once"},
    {"murmur join out/flock.chunk-*-of-4.mp4 -o out/flock.mp4", "the chunks as the whole video"},
    {"murmur stats scenes/knockout-stats.yaml --shard 2/4 -o out/",
     "shard 2 of 4: out/knockout-stats.shard-2-of-4.mur"},
    {"murmur merge out/knockout-stats.shard-*-of-4.mur -o out/knockout-stats.csv",
     "the shards -> the whole run's table"},
    {"murmur plan scenes/knockout-stats.yaml --shards 4 --slurm > job.sh", "a Slurm job array and its merge"},
    {"murmur check scenes/knockout.yaml", "what a scene resolves to"},
    {"ffprobe -v error -show_entries format_tags=comment out.mp4", "a video's provenance"},
};

static const char files[] =
    "An output appears at its final name only when complete: it is written under a hidden "
    "temporary name beside it, .NAME.part.PID, and renamed; the next run writing NAME removes "
    "those a killed run left. A device or a pipe (/dev/stdout, a FIFO) is written in place. A "
    "PNG sequence DIR/%05d.png creates DIR when missing, writes DIR/frames.txt and locks DIR "
    "while it is written.";

/* ---- look-ups ------------------------------------------------------------ */

const mur_usage_command *mur_usage_command_find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, commands[i].name))
            return &commands[i];
    return NULL;
}

const char *mur_usage_command_nearest(const char *name)
{
    const char *best = NULL;
    int least = 3;   /* two edits at most ("rendr", "stil", "chekc") */
    for (size_t i = 0; i < NCOMMANDS; i++) {
        int d = mur_edit_distance(name, commands[i].name);
        if (d < least && d < (int)strlen(commands[i].name)) {
            least = d;
            best = commands[i].name;
        }
    }
    return best;
}

int mur_usage_applies(const mur_usage_option *o, const char *cmd)
{
    if (!o->commands)
        return 0;
    if (!strcmp(o->commands, "*"))
        return 1;
    size_t n = strlen(cmd);
    for (const char *p = o->commands; (p = strstr(p, cmd)); p += n)
        if ((p == o->commands || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

const mur_usage_option *mur_usage_option_find(const char *arg, const char *cmd)
{
    const mur_usage_option *any = NULL;
    for (size_t i = 0; i < NOPTIONS; i++) {
        const mur_usage_option *o = &options[i];
        if (strcmp(arg, o->name) && (!o->alias || strcmp(arg, o->alias)))
            continue;
        if (mur_usage_applies(o, cmd))
            return o;
        any = any ? any : o;
    }
    return any;
}

/* ---- --help ---------------------------------------------------------------- */

/* Prints n bytes of s as one unbreakable unit at *col: on this line after a
 * space, or on a new line at column indent when it would pass WIDTH.
 * Returns 1 when it started a new line. */
static int put_unit(FILE *fp, const char *s, size_t n, int indent, int *col)
{
    int wrapped = *col > indent && *col + 1 + (int)n > WIDTH;
    if (wrapped) {
        fprintf(fp, "\n%*s", indent, "");
        *col = indent;
    } else if (*col > indent) {
        fputc(' ', fp);
        (*col)++;
    }
    fwrite(s, 1, n, fp);
    *col += (int)n;
    return wrapped;
}

/* Prints text word by word (see put_unit). */
static void put_words(FILE *fp, const char *text, int indent, int *col)
{
    for (const char *p = text; *p;) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        if (n)
            put_unit(fp, p, n, indent, col);
        p += n;
    }
}

/* Moves from *col to column to (a new line when already past it). */
static void pad_to(FILE *fp, int to, int *col)
{
    if (*col >= to) {
        fputc('\n', fp);
        *col = 0;
    }
    fprintf(fp, "%*s", to - *col, "");
    *col = to;
}

/* "[-o FILE]", "--at T" or "[-q]": how the synopsis shows option o. */
static void synopsis_unit(char *buf, size_t size, const mur_usage_option *o)
{
    const char *name = o->alias ? o->alias : o->name;
    snprintf(buf, size, "%s%s%s%s%s", o->required ? "" : "[", name, o->arg ? " " : "",
             o->arg ? o->arg : "", o->required ? "" : "]");
}

/* "murmur render SCENE [-o FILE] ..." from column *col, wrapped under the
 * operand; -h, which every command takes, is left out. Returns the number
 * of lines it added. */
static int put_synopsis(FILE *fp, const mur_usage_command *c, int *col)
{
    int lines = 0;
    int indent = *col + (int)strlen("murmur ") + (int)strlen(c->name) + 1;
    *col += fprintf(fp, "murmur %s", c->name);
    if (c->operand)
        *col += fprintf(fp, " %s", c->operand);
    for (size_t i = 0; i < NOPTIONS; i++) {
        char unit[64];
        if (!mur_usage_applies(&options[i], c->name) || !strcmp(options[i].commands, "*"))
            continue;
        synopsis_unit(unit, sizeof unit, &options[i]);
        lines += put_unit(fp, unit, strlen(unit), indent, col);
    }
    return lines;
}

/* One option row as "  -o, --output FILE   help (default: ...)". */
static void put_option(FILE *fp, const mur_usage_option *o)
{
    int col = fprintf(fp, "  %s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
                      o->arg ? " " : "", o->arg ? o->arg : "");
    pad_to(fp, OPT_COLUMN, &col);
    put_words(fp, o->help, OPT_COLUMN, &col);
    if (o->dflt) {
        put_words(fp, "(default:", OPT_COLUMN, &col);
        char last[128];
        snprintf(last, sizeof last, "%s)", o->dflt);
        put_words(fp, last, OPT_COLUMN, &col);
    }
    fputc('\n', fp);
}

static void put_exit_statuses(FILE *fp)
{
    fputs("exit status:", fp);
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        fprintf(fp, "%s %d %s", i ? "," : "", statuses[i].code, statuses[i].brief);
    fputc('\n', fp);
}

void mur_usage_overview(FILE *fp)
{
    fprintf(fp, "murmur %s: %s\n\nusage:\n", MUR_VERSION_STRING, about);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        int col = fprintf(fp, "  ");
        if (put_synopsis(fp, &commands[i], &col))
            col = SUMMARY_COLUMN;   /* a synopsis of several lines: the summary below it */
        pad_to(fp, SUMMARY_COLUMN, &col);
        put_words(fp, commands[i].summary, SUMMARY_COLUMN, &col);
        fputc('\n', fp);
    }
    fputs("\ncommon options:\n", fp);
    for (size_t i = 0; i < NOPTIONS; i++)
        if (!options[i].commands || !strcmp(options[i].commands, "*"))
            put_option(fp, &options[i]);
    fprintf(fp, "\nmurmur COMMAND --help (or murmur help COMMAND) lists a command's options.\n%s\n",
            times);
    put_exit_statuses(fp);
    fprintf(fp, "%s\n", scenes);
}

/* text as a sentence: a capital first letter and a full stop. */
static const char *sentence(char *buf, size_t size, const char *text)
{
    snprintf(buf, size, "%c%s.", toupper((unsigned char)text[0]), text + 1);
    return buf;
}

void mur_usage_command_help(FILE *fp, const mur_usage_command *c)
{
    int col = fprintf(fp, "usage: ");
    put_synopsis(fp, c, &col);
    fputs("\n\n", fp);
    char buf[256];
    col = 0;
    put_words(fp, sentence(buf, sizeof buf, c->summary), 0, &col);
    fputs("\n\n", fp);
    col = 0;
    put_words(fp, c->text, 0, &col);
    fputs("\n\noptions:\n", fp);
    for (size_t i = 0; i < NOPTIONS; i++)
        if (mur_usage_applies(&options[i], c->name))
            put_option(fp, &options[i]);
    fputc('\n', fp);
    if (c->kind == MUR_OPERAND_SCENE)
        fprintf(fp, "%s\n", times);
    put_exit_statuses(fp);
}

/* ---- --man ----------------------------------------------------------------- */

/* Writes text for roff: a backslash as \e, a hyphen that starts a word (an
 * option, "-" for stdout) or stands inside one that did (--runs-out) as the
 * minus \- that man pages use for what is typed, and a leading . or '
 * behind \& so that the line is never read as a request. A hyphen inside
 * a word ("trade-off") stays one. */
static void roff(FILE *fp, const char *text)
{
    if (text[0] == '.' || text[0] == '\'')
        fputs("\\&", fp);
    int option = 0;   /* inside a word that began with a hyphen */
    for (const char *p = text; *p; p++) {
        if (*p == '\\')
            fputs("\\e", fp);
        else if (*p == '-' && (option || p == text || !isalnum((unsigned char)p[-1])))
            fputs("\\-", fp);
        else
            fputc(*p, fp);
        option = *p == '-' ? option || p == text || !isalnum((unsigned char)p[-1])
                           : option && isalnum((unsigned char)*p);
    }
}

static void roff_font(FILE *fp, const char *font, const char *text)
{
    fprintf(fp, "\\f%s", font);
    roff(fp, text);
    fputs("\\fR", fp);
}

/* "\fB\-o\fR, \fB\-\-output\fR \fIFILE\fR" */
static void roff_option(FILE *fp, const mur_usage_option *o)
{
    if (o->alias) {
        roff_font(fp, "B", o->alias);
        fputs(", ", fp);
    }
    roff_font(fp, "B", o->name);
    if (o->arg) {
        fputc(' ', fp);
        roff_font(fp, "I", o->arg);
    }
}

/* .SY/.OP (groff's and mandoc's man extensions) indent a long synopsis
 * under its command and bracket the optional options. */
static void man_synopsis(FILE *fp)
{
    fputs(".SH SYNOPSIS\n", fp);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        const mur_usage_command *c = &commands[i];
        fprintf(fp, ".SY murmur\n.B %s\n", c->name);
        if (c->operand && c->operand[0] == '[')
            fprintf(fp, ".RI [ %.*s ]\n", (int)strlen(c->operand) - 2, c->operand + 1);
        else if (c->operand)
            fprintf(fp, ".I %s\n", c->operand);
        for (size_t k = 0; k < NOPTIONS; k++) {
            const mur_usage_option *o = &options[k];
            if (!mur_usage_applies(o, c->name) || !strcmp(o->commands, "*"))
                continue;
            fputs(o->required ? ".BI " : ".OP ", fp);
            roff(fp, o->alias ? o->alias : o->name);
            if (o->arg)
                fprintf(fp, o->required ? " \" \" %s" : " %s", o->arg);
            fputc('\n', fp);
        }
        fputs(".YS\n", fp);
    }
    fputs(".SY murmur\n.B \\-\\-help\n.YS\n.SY murmur\n.B \\-\\-version\n.YS\n", fp);
}

static void man_commands(FILE *fp)
{
    fputs(".SH COMMANDS\n", fp);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char buf[256];
        fprintf(fp, ".TP\n.B %s\n", commands[i].name);
        roff(fp, sentence(buf, sizeof buf, commands[i].summary));
        fputc('\n', fp);
        roff(fp, commands[i].text);
        fputc('\n', fp);
    }
}

/* Each option once, with a paragraph per row: "render: the video ...". */
static void man_options(FILE *fp)
{
    fputs(".SH OPTIONS\n", fp);
    for (size_t i = 0; i < NOPTIONS; i++) {
        const mur_usage_option *o = &options[i];
        if (i == 0 || strcmp(o->name, options[i - 1].name)) {
            fputs(".TP\n", fp);
            roff_option(fp, o);
            fputc('\n', fp);
        } else {
            fputs(".IP\n", fp);
        }
        if (!o->commands)
            fputs("Alone: ", fp);
        else if (!strcmp(o->commands, "*"))
            fputs("Alone, or after any command: ", fp);
        else {
            fputs("\\fI", fp);
            for (const char *p = o->commands; *p; p++)
                if (*p == ' ')
                    fputs(", ", fp);
                else
                    fputc(*p, fp);
            fputs("\\fR: ", fp);
        }
        roff(fp, o->help);
        if (o->dflt) {
            fputs(" (default: ", fp);
            roff(fp, o->dflt);
            fputc(')', fp);
        }
        fputs(o->required ? "; required.\n" : ".\n", fp);
    }
}

void mur_usage_man(FILE *fp)
{
    fprintf(fp, ".\\\" murmur(1), printed by `murmur --man` from the tables in src/cli/usage.c\n"
                ".\\\" that also print murmur --help: edit those, not this.\n"
                ".TH MURMUR 1 \"\" \"murmur %s\" \"User Commands\"\n"
                ".\\\" Ragged right, no hyphens: CSV headers and file names stay whole.\n"
                ".nh\n.ad l\n.SH NAME\nmurmur \\- ",
            MUR_VERSION_STRING);
    roff(fp, about);
    fputc('\n', fp);
    man_synopsis(fp);
    fputs(".SH DESCRIPTION\n", fp);
    roff(fp, description);
    fputs("\n.PP\n", fp);
    roff(fp, times);
    fputs("\nA scene is one YAML file: see README.md, docs/scenes.md (every key, its type, range "
          "and default) and the examples in scenes/ in murmur's source.\n",
          fp);
    man_commands(fp);
    man_options(fp);
    fputs(".SH EXIT STATUS\n", fp);
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
        char buf[256];
        fprintf(fp, ".TP\n.B %d\n", statuses[i].code);
        roff(fp, sentence(buf, sizeof buf, statuses[i].text));
        fputc('\n', fp);
    }
    fputs(".SH FILES\n", fp);
    roff(fp, files);
    fputs("\n.SH EXAMPLES\n", fp);
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        fputs(".TP\n", fp);
        roff_font(fp, "B", examples[i].line);
        fputc('\n', fp);
        char buf[256];
        roff(fp, sentence(buf, sizeof buf, examples[i].what));
        fputc('\n', fp);
    }
    fputs(".SH SEE ALSO\n.BR ffmpeg (1),\n.BR ffprobe (1)\n", fp);
}

/* ---- --completion bash ------------------------------------------------------ */

/* The names and aliases of the options cmd takes: all of them (which 0),
 * those that take a value (1), those whose value is a file (2). */
static void bash_options(FILE *fp, const char *var, const char *cmd, int which)
{
    fprintf(fp, " %s='", var);
    int first = 1;
    for (size_t i = 0; i < NOPTIONS; i++) {
        const mur_usage_option *o = &options[i];
        if (!mur_usage_applies(o, cmd) || (which >= 1 && !o->arg) || (which == 2 && !o->file))
            continue;
        fprintf(fp, "%s%s%s%s", first ? "" : " ", o->alias ? o->alias : "", o->alias ? " " : "",
                o->name);
        first = 0;
    }
    fputc('\'', fp);
}

/* The words an operand of this kind completes to (none for a scene). */
static void bash_operand(FILE *fp, mur_operand_kind kind)
{
    fputs(kind == MUR_OPERAND_SCENE   ? " kind=scene words='"
          : kind == MUR_OPERAND_FILES ? " kind=files words='"
                                      : " kind=words words='",
          fp);
    for (int i = 0; kind == MUR_OPERAND_PRESET && i < mur_preset_count(); i++)
        fprintf(fp, "%s%s", i ? " " : "", mur_preset_at(i)->name);
    for (size_t i = 0; kind == MUR_OPERAND_COMMAND && i < NCOMMANDS; i++)
        fprintf(fp, "%s%s", i ? " " : "", commands[i].name);
    fputc('\'', fp);
}

/* The script's fixed part: what to offer after an option that takes a
 * value (a file name, or nothing to guess), after a "-", and for the
 * operand once (scene files: *.yaml, *.yml and folders). */
static const char bash_tail[] =
    "    if [[ \" $vals \" == *\" $prev \"* ]]; then\n"
    "        if [[ \" $files \" == *\" $prev \"* ]]; then\n"
    "            compopt -o filenames 2>/dev/null\n"
    "            mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
    "        fi\n"
    "        return 0\n"
    "    fi\n"
    "    if [[ $cur == -* ]]; then\n"
    "        mapfile -t COMPREPLY < <(compgen -W \"$opts\" -- \"$cur\")\n"
    "        return 0\n"
    "    fi\n"
    "    if [[ $kind == files ]]; then\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
    "        return 0\n"
    "    fi\n"
    "    for ((i = 2; i < COMP_CWORD; i++)); do\n"
    "        if [[ \" $vals \" == *\" ${COMP_WORDS[i]} \"* ]]; then\n"
    "            ((i++))\n"
    "        elif [[ ${COMP_WORDS[i]} != -* && $kind != files ]]; then\n"
    "            return 0\n"
    "        fi\n"
    "    done\n"
    "    if [[ $kind == files ]]; then\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
    "    elif [[ $kind == scene ]]; then\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"; compgen -f -X '!*.yaml' -- \"$cur\";\n"
    "                                 compgen -f -X '!*.yml' -- \"$cur\")\n"
    "    else\n"
    "        mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
    "    fi\n"
    "}\n"
    "complete -F _murmur murmur\n";

void mur_usage_bash_completion(FILE *fp)
{
    fputs("# bash completion for murmur(1), printed by `murmur --completion bash` from the\n"
          "# tables in src/cli/usage.c that also print murmur --help: edit those, not this.\n"
          "_murmur()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local opts vals files kind words i\n"
          "    if ((COMP_CWORD == 1)); then\n"
          "        mapfile -t COMPREPLY < <(compgen -W '",
          fp);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(fp, "%s ", commands[i].name);
    for (size_t i = 0; i < NOPTIONS; i++)
        if (!options[i].commands || !strcmp(options[i].commands, "*"))
            fprintf(fp, "%s%s%s%s", options[i].alias ? options[i].alias : "",
                    options[i].alias ? " " : "", options[i].name, i + 1 < NOPTIONS ? " " : "");
    fputs("' -- \"$cur\")\n        return 0\n    fi\n    case ${COMP_WORDS[1]} in\n", fp);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        fprintf(fp, "    %s)", commands[i].name);
        bash_options(fp, "opts", commands[i].name, 0);
        bash_options(fp, "vals", commands[i].name, 1);
        bash_options(fp, "files", commands[i].name, 2);
        bash_operand(fp, commands[i].kind);
        fputs(" ;;\n", fp);
    }
    fputs("    *) return 0 ;;\n    esac\n", fp);
    fputs(bash_tail, fp);
}
