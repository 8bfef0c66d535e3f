/* murmur-densitybench: where the time of a render goes, stage by stage.
 *
 *   murmur-densitybench SCENE [--threads N] [--frames K]
 *
 * Loads SCENE, creates a session (which runs the warm-up: timed on its
 * own), then for each frame steps the flocks to its tick (simulation) and
 * draws it (drawing), timing the two apart with CLOCK_MONOTONIC. Here they
 * run one after the other; a render overlaps them with encoding on its own
 * thread, so this is the split of the work, not of a render's wall time
 * (bench/murmuration_bench.sh measures that, and the encoder alone).
 * Prints one line per stage: name, seconds, frames, and ms per frame. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "murmur/scene.h"
#include "murmur/session.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int threads = 0;
    long frames = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atol(argv[++i]);
        else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: murmur-densitybench SCENE [--threads N] [--frames K]\n");
        return 2;
    }
    mur_scene *s = NULL;
    mur_error err = {{0}};
    if (mur_scene_load(&s, path, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    long all = (long)(s->duration * s->fps + 0.5);
    if (frames < 0 || frames > all)
        frames = all;
    mur_session_opts o = MUR_SESSION_OPTS_INIT;
    o.threads = threads;
    mur_session *ss = NULL;
    double t0 = now();
    if (mur_session_create(&ss, s, &o, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        mur_scene_destroy(s);
        return 1;
    }
    double warm = now() - t0, sim = 0, draw = 0;
    for (long k = 0; k < frames; k++) {
        const uint8_t *px;
        int stride;
        double a = now();
        int rc = mur_session_run_to(ss, mur_scene_frame_tick(s, k), &err);
        double b = now();
        if (!rc)
            rc = mur_session_frame(ss, k, &px, &stride, &err);   /* at its tick: draws only */
        double c = now();
        if (rc) {
            fprintf(stderr, "frame %ld: %s\n", k, err.msg);
            mur_session_destroy(ss);
            mur_scene_destroy(s);
            return 1;
        }
        sim += b - a;
        draw += c - b;
    }
    printf("warm-up     %8.2f s  (%.0f ticks before the first frame)\n", warm, s->warmup);
    printf("simulation  %8.2f s  %ld frames  %7.1f ms/frame\n", sim, frames, 1e3 * sim / (frames ? frames : 1));
    printf("drawing     %8.2f s  %ld frames  %7.1f ms/frame\n", draw, frames, 1e3 * draw / (frames ? frames : 1));
    mur_session_destroy(ss);
    mur_scene_destroy(s);
    return 0;
}
