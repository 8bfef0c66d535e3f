/* The progress bar: one line on stderr, redrawn in place at most ten
 * times a second, so a fast loop spends nothing on it. */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double mur_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void mur_progress_start(mur_progress *p, const char *unit, long total, int quiet)
{
    p->unit = unit;
    p->total = total > 0 ? total : 1;
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->start = mur_now();
    p->last = 0;
    p->extra[0] = '\0';
}

static void draw(mur_progress *p, long done)
{
    const int width = 28;
    double el = mur_now() - p->start;
    double rate = el > 0 ? done / el : 0;
    double eta = rate > 0 ? (p->total - done) / rate : 0;
    int fill = (int)((double)done * width / p->total);
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = 0;
    /* Frames per second is "fps" to a video person; anything else per second is "/s". */
    int frames = strcmp(p->unit, "frames") == 0;
    fprintf(stderr, "\r[%s] %ld/%ld %s  %.1f%s  ETA %d:%02d%s%s\033[K", bar, done, p->total,
            p->unit, rate, frames ? " fps" : "/s", (int)eta / 60, (int)eta % 60,
            p->extra[0] ? "  " : "", p->extra);
    fflush(stderr);
}

void mur_progress_update(mur_progress *p, long done, const char *extra)
{
    if (!p->enabled)
        return;
    double now = mur_now();
    if (now - p->last < 0.1 && done < p->total)
        return;
    p->last = now;
    snprintf(p->extra, sizeof p->extra, "%s", extra ? extra : "");
    draw(p, done);
}

void mur_progress_end(mur_progress *p, long done)
{
    if (!p->enabled)
        return;
    draw(p, done);
    fputc('\n', stderr);
}
