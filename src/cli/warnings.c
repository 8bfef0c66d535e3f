/* What `check` warns about: a scene that loads but will not do what its
 * author likely meant. Warnings go to stderr as "file:line:col: warning:
 * ..." (or "murmur: warning: ..." without a place) and change no exit
 * status: the scene is valid. */
#include <math.h>
#include <stdio.h>

#include "commands.h"
#include "murmur/scene.h"
#include "murmur/session.h"
#include "murmur/video.h"

/* Entries at or after the end never happen in a render. */
static int past_the_end(const mur_scene *s)
{
    int n = 0;
    for (int i = 0; i < s->ncues; i++)
        if (s->cues[i].at >= s->duration) {
            fprintf(stderr, "%s:%d:%d: warning: this entry at %gs is past the end of the video (%gs): "
                            "it never shows\n",
                    s->path, s->cues[i].line, s->cues[i].col, s->cues[i].at, s->duration);
            n++;
        }
    return n;
}

/* Whether two captions ask for the same place. */
static int same_place(const mur_caption_style *a, const mur_caption_style *b)
{
    if (a->place != b->place)
        return 0;
    return a->place != MUR_PLACE_AT || (a->x == b->x && a->y == b->y && a->align == b->align);
}

/* Two captions at one place at once: the older is moved away from the
 * newer, which is often a `for` longer than meant. (At different places,
 * say top and bottom, they are meant to show together.) One warning per
 * later caption. */
static int overlapping_captions(const mur_scene *s)
{
    int n = 0;
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        for (int j = i - 1; q->caption && j >= 0; j--) {
            const mur_cue *p = &s->cues[j];
            if (!p->caption || p->at + p->caption_for <= q->at || !same_place(&p->caption_style, &q->caption_style))
                continue;
            fprintf(stderr, "%s:%d:%d: warning: this caption (at %gs) overlaps the one on line %d "
                            "(until %gs), at the same place: that one moves away while both show\n",
                    s->path, q->line, q->col, q->at, p->line, fmin(p->at + p->caption_for, q->at + q->caption_for));
            n++;
            break;
        }
    }
    return n;
}

static int rounded_size(const mur_scene *s)
{
    int w, h;
    mur_video_encoded_size(s->output, s->width, s->height, &w, &h);
    if (w == s->width && h == s->height)
        return 0;
    if (s->output_line)
        fprintf(stderr, "%s:%d:%d: warning: ", s->path, s->output_line, s->output_col);
    else
        fprintf(stderr, "%s: warning: ", s->path);
    fprintf(stderr, "the video's %dx%d frames will be rounded down to %dx%d (%s needs even sizes)\n",
            s->width, s->height, w, h, s->output);
    return 1;
}

int mur_cli_warn_at(const mur_scene *s, const char *opt, const char *text)
{
    double t;
    if (!text || mur_time_parse(text, s->tps, &t) || t < s->duration)
        return 0;
    fprintf(stderr, "murmur: warning: %s %s is past the end of the video (%gs): the flock is drawn "
                    "as the simulation goes on, but no render has this frame\n",
            opt, text, s->duration);
    return 1;
}

int mur_cli_warnings(const mur_scene *s, const char *at)
{
    return past_the_end(s) + overlapping_captions(s) + rounded_size(s) + mur_cli_warn_at(s, "--at", at);
}
