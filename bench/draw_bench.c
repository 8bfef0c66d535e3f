/* murmur-drawbench: how long Cairo takes to draw one 1080p frame, apart from
 * simulation and encoding.
 *
 *   murmur-drawbench [--frames F] [N ...]     (default: 2000 10000 100000)
 *
 * For each boid count N (the wrkspc preset at its own density, colour by
 * heading, arrows of size 6) it prints the median milliseconds a frame takes
 * to draw without trails and with 30-tick fading trails, the two figures the
 * render benchmark (render_bench.sh) is made of besides the encoder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "murmur/render.h"

int main(int argc, char **argv)
{
    int frames = 15, counts[16], ncounts = 0;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            frames = (int)strtol(argv[++i], &end, 10);
            if (*end || frames < 1)
                goto usage;
        } else if (ncounts < 16) {
            counts[ncounts++] = (int)strtol(argv[i], &end, 10);
            if (*end || counts[ncounts - 1] < 1)
                goto usage;
        } else {
            goto usage;
        }
    }
    if (!ncounts) {
        counts[0] = 2000;
        counts[1] = 10000;
        counts[2] = 100000;
        ncounts = 3;
    }
    printf("%8s %14s %18s   (median ms a 1920x1080 frame, %d frames)\n", "boids", "no trails",
           "30-tick trails", frames);
    for (int k = 0; k < ncounts; k++) {
        double plain, trails;
        mur_error err;
        if (mur_render_bench(counts[k], 1920, 1080, 0, frames, &plain, &err) ||
            mur_render_bench(counts[k], 1920, 1080, 30, frames, &trails, &err)) {
            fprintf(stderr, "murmur-drawbench: %s\n", err.msg);
            return 1;
        }
        printf("%8d %14.1f %18.1f\n", counts[k], plain, trails);
        fflush(stdout);
    }
    return 0;
usage:
    fprintf(stderr, "usage: murmur-drawbench [--frames F] [N ...]\n");
    return 2;
}
