/* libFuzzer target for the whole path from scene to picture (built and run
 * by .ci/fuzz): the input is a scene; one that loads gets what `murmur
 * still` and `murmur render` do to it for one frame: a flock per panel,
 * the warm-up, the ticks to the frame (observed by the renderer, so trails,
 * plots and cluster colours have history), the frame drawn with its
 * overlays and caption, written as a still (PNG, PDF or SVG), and handed
 * to the video writer of the scene's own output format for a one-frame
 * file.
 *
 * The steps are the library calls src/cli/session.c makes (it cannot be
 * used as is: it loads from a path and runs the warm-up at once, before the
 * scene could be made small). A valid scene may ask for hours of work (an
 * 8K frame, millions of boids, a long warm-up), which the loader's budgets
 * allow; that cost is the render's and not a defect, and one execution of
 * seconds would starve the fuzzer. So the loaded scene is shrunk first
 * (shrink()): every knob that multiplies the work is capped, and every other
 * value is left as loaded, since the caps are within the loader's ranges.
 *
 * To see how far an input gets: MURMUR_FUZZ_VERBOSE=1 ./fuzz_render FILE
 * prints each step's error, if any. */
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "murmur/render.h"
#include "murmur/scene.h"
#include "murmur/video.h"

#include <libavutil/log.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PANELS 64     /* as src/cli/session.h */
#define CAP_SIDE 256      /* frame width and height, pixels */
#define CAP_BOIDS 2000    /* boids of all panels together */
#define CAP_WARMUP 200    /* warm-up ticks */
#define CAP_TICKS 30      /* ticks run after the warm-up, to the frame drawn */
/* Boid pairs of all the ticks run: with radii as large as the world every
 * boid meets every other, and a pair cost about 0.05 us under the
 * sanitizers (scenes/milling.yaml), so this keeps the stepping near 50 ms
 * at worst. A flock of more than 1,000 boids is drawn as it starts,
 * without a tick. */
#define CAP_PAIRS 1.0e6

/* Where the still and the video go: one private folder per process, made
 * at start, emptied after every input and removed at exit. */
static char dir[64];

static void empty_dir(void)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char path[sizeof dir + 512];
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
            unlink(path);
    closedir(d);
}

static void remove_dir(void)
{
    empty_dir();
    rmdir(dir);
}

static int make_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%.40s/murmur-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        dir[0] = 0;
        return -1;
    }
    atexit(remove_dir);
    return 0;
}

/* Caps every count a list of changes sets; returns the largest left. */
static int cap_count(mur_change *c, int n, int cap)
{
    int most = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(c[i].setting->name, "count")) {
            if (c[i].value > cap)
                c[i].value = cap;
            if (c[i].value > most)
                most = (int)c[i].value;
        }
    return most;
}

/* Make a loaded scene cheap to draw: a frame of at most CAP_SIDE a side,
 * at most CAP_BOIDS boids in all panels (at the start, in every condition
 * and after every timeline change) and at most CAP_WARMUP warm-up ticks.
 * Each cap lowers a value to one the loader accepts, so the scene stays
 * valid. Returns the ticks that may run (warm-up and after) within
 * CAP_PAIRS; the warm-up is shortened to fit what the frame leaves. */
static long shrink(mur_scene *s, int npanels)
{
    int cap = CAP_BOIDS / npanels;
    if (s->width > CAP_SIDE)
        s->width = CAP_SIDE;
    if (s->height > CAP_SIDE)
        s->height = CAP_SIDE;
    if (s->params.count > cap)
        s->params.count = cap;
    int most = s->params.count, c;
    for (int i = 0; i < s->ncues; i++) {
        if ((c = cap_count(s->cues[i].set, s->cues[i].nset, cap)) > most)
            most = c;
        if ((c = cap_count(s->cues[i].ramp, s->cues[i].nramp, cap)) > most)
            most = c;
    }
    for (int i = 0; i < s->nconditions; i++)
        if ((c = cap_count(s->conditions[i].set, s->conditions[i].nset, cap)) > most)
            most = c;
    double pairs = (double)npanels * most * most;
    long ticks = pairs > 0 ? (long)fmin(CAP_PAIRS / pairs, 1e6) : 1000000;
    long warmup = ticks - CAP_TICKS < CAP_WARMUP ? ticks - CAP_TICKS : CAP_WARMUP;
    if (s->warmup > warmup)
        s->warmup = warmup > 0 ? warmup : 0;
    return ticks - (long)s->warmup;
}

/* The last frame whose tick is at most max (frame 0 at least). */
static long frame_to_draw(const mur_scene *s, long max)
{
    long k = 0, frames = mur_scene_frames(s);
    while (k + 1 < frames && k < CAP_TICKS && mur_scene_frame_tick(s, k + 1) <= max)
        k++;
    return k;
}

static int verbose;

/* The first step of the last input that failed, NULL when every step
 * succeeded (tests/test_fuzz_regressions.c checks the seeds with it). */
static const char *failed_step;

/* rc, after noting the step that failed and printing its error when
 * MURMUR_FUZZ_VERBOSE is set. */
static int said(const char *step, int rc, const mur_error *err)
{
    if (rc && !failed_step)
        failed_step = step;
    if (verbose)
        fprintf(stderr, "fuzz_render: %s: %s\n", step, rc ? err->msg : "ok");
    return rc;
}

typedef struct {
    mur_renderer *r;
    int panel;
} observer;

static void observe(void *ctx, const mur_flock *f, long tick)
{
    observer *o = ctx;
    mur_renderer_observe(o->r, o->panel, f, tick);
}

/* The frame in a one-frame video of the scene's own format (the file name
 * of its output, in dir). Errors are fine: options a writer refuses (a GIF
 * at 60 fps, a bad sequence pattern) are the user's. */
static void write_video(const mur_scene *s, const uint8_t *px, int stride)
{
    const char *base = strrchr(s->output, '/');
    base = base ? base + 1 : s->output;
    char path[sizeof dir + 300];
    if (fabs(s->fps - lround(s->fps)) > 1e-9 ||
        snprintf(path, sizeof path, "%s/%s", dir, base) >= (int)sizeof path)
        return;
    mur_video_opts vo = {.version = MUR_VIDEO_OPTS_VERSION, .path = path, .width = s->width, .height = s->height,
                         .fps = (int)lround(s->fps), .quality = s->quality, .preset = "ultrafast",
                         .metadata = s->title};
    mur_video *v = NULL;
    mur_error err;
    if (said("video open", mur_video_open(&v, &vo, &err), &err))
        return;
    if (said("video write", mur_video_write(v, px, stride, &err), &err)) {
        mur_video_abort(v);
        return;
    }
    said("video close", mur_video_close(v, &err), &err);
}

/* The encoders' chatter (x264 prints its statistics at every close) only
 * slows the fuzzer; the CLI keeps errors, which the verbose mode shows. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    verbose = getenv("MURMUR_FUZZ_VERBOSE") != NULL;
    av_log_set_level(verbose ? AV_LOG_ERROR : AV_LOG_QUIET);
    if (make_dir()) {
        perror("fuzz_render: cannot make a temporary folder");
        exit(1);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mur_scene *s = NULL;
    mur_renderer *r = NULL;
    mur_flock *flocks[MAX_PANELS] = {0};
    mur_driver *drivers[MAX_PANELS] = {0};
    observer obs[MAX_PANELS];
    mur_error err;
    int n = 0;
    failed_step = NULL;
    if (said("load", mur_scene_parse(&s, "fuzz.yaml", (const char *)data, size, &err), &err))
        return 0;
    int npanels = mur_scene_look(s)->panels;
    if (npanels > MAX_PANELS) {
        failed_step = "panels";   /* `render` refuses it too */
        goto done;
    }
    long ticks = shrink(s, npanels);
    if (said("renderer", mur_renderer_create(&r, mur_scene_look(s), s->width, s->height, &err), &err))
        goto done;
    for (; n < npanels; n++) {
        mur_params base = s->params;
        if (s->panels)
            mur_scene_apply(s->conditions[n].set, s->conditions[n].nset, &base);
        if (said("flock", mur_flock_create(&flocks[n], &base, s->seed, &err), &err))
            goto done;
        if (said("driver", mur_driver_create(&drivers[n], &err), &err)) {
            n++;
            goto done;
        }
        obs[n] = (observer){r, n};
        mur_driver_set_on_tick(drivers[n], observe, &obs[n]);
        if (said("warm-up", mur_driver_start(drivers[n], s, flocks[n], &base, &err), &err)) {
            n++;
            goto done;
        }
    }
    long k = frame_to_draw(s, ticks < CAP_TICKS ? ticks : CAP_TICKS);
    for (int i = 0; i < n; i++)
        if (said("ticks", mur_driver_run_to(drivers[i], mur_scene_frame_tick(s, k), &err), &err))
            goto done;
    const uint8_t *px;
    int stride;
    double t = mur_scene_frame_time(s, k);
    if (said("draw", mur_renderer_draw_image(r, (const mur_flock *const *)flocks, n, t, &px, &stride, &err),
             &err))
        goto done;
    write_video(s, px, stride);
    /* The still's format by the seed, which the fuzzer may change freely:
     * a vector still costs twice a PNG, so a quarter of the inputs each. */
    static const char *const kinds[] = {"png", "pdf", "svg", "png"};
    char still[sizeof dir + 16];
    snprintf(still, sizeof still, "%s/still.%s", dir, kinds[s->seed % 4]);
    said("still", mur_renderer_write_still(r, (const mur_flock *const *)flocks, n, t, still, &err), &err);
done:
    mur_renderer_destroy(r);
    for (int i = 0; i < n; i++) {
        mur_driver_destroy(drivers[i]);
        mur_flock_destroy(flocks[i]);
    }
    mur_scene_destroy(s);
    empty_dir();
    return 0;
}
