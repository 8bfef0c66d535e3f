/* The video section (`video:`): size, frame rate, timing, output and quality. */
#include "parse.h"
#include "murmur/limits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mur_parse_video_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    const char *k = p->key;
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, k);
    if (rc)
        return rc;
    if (!strcmp(k, "width")) return mur_parse_integer(c, p->v, k, 16, MUR_SCENE_MAX_PIXELS, &s->width);
    if (!strcmp(k, "height")) return mur_parse_integer(c, p->v, k, 16, MUR_SCENE_MAX_PIXELS, &s->height);
    if (!strcmp(k, "fps")) {
        /* Whole frames per second: encoders take an integer rate here, and
         * an error at the key beats one after the simulation has started. */
        int fps;
        if ((rc = mur_parse_integer(c, p->v, k, 1, MUR_MAX_FPS, &fps)))
            return rc;
        s->fps = fps;
        return 0;
    }
    if (!strcmp(k, "ticks_per_second")) return mur_parse_number(c, p->v, k, 0.01, 10000, &s->tps);
    if (!strcmp(k, "duration")) return mur_parse_time_value(c, p->v, k, 0, MUR_SCENE_MAX_SECONDS, &s->duration);
    if (!strcmp(k, "warmup")) {
        double t;
        if ((rc = mur_parse_time_value(c, p->v, k, 0, MUR_SCENE_MAX_TICKS / c->tps, &t)))
            return rc;
        s->warmup = floor(t * c->tps + 0.5);
        return 0;
    }
    if (!strcmp(k, "output")) {
        if ((rc = mur_parse_text(c, p->v, k, MUR_SCENE_MAX_PATH, &s->output)))
            return rc;
        if (!*s->output)
            return mur_parse_fail_at(c, p->v, "'output' must not be empty");
        s->output_line = (int)p->v->start_mark.line + 1;
        s->output_col = (int)p->v->start_mark.column + 1;
        return 0;
    }
    if (!strcmp(k, "quality")) return mur_parse_integer(c, p->v, k, 0, MUR_MAX_QUALITY, &s->quality);
    if (!strcmp(k, "chapters")) {
        static const char *const chapter_sources[] = {"entries", "captions", NULL};
        return mur_parse_choice(c, p->v, k, chapter_sources, &s->chapter_captions);
    }
    if (!strcmp(k, "gif_colours")) return mur_parse_integer(c, p->v, k, 2, 256, &s->gif_colours);
    if (!strcmp(k, "gif_dither")) {   /* in MUR_GIF_DITHER_* order */
        static const char *const dithers[] = {"none", "bayer", "floyd_steinberg", "sierra2_4a", NULL};
        return mur_parse_choice(c, p->v, k, dithers, &s->gif_dither);
    }
    return 0;
}

const char *const mur_parse_video_keys[] = {"width", "height", "fps", "ticks_per_second",
                                         "duration", "warmup", "output", "quality", "chapters",
                                         "gif_colours", "gif_dither", NULL};
