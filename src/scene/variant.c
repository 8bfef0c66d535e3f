/* Variants of a scene's video (variant.h): --size, --fps, --quality and
 * --draft from the command line, applied to a loaded scene before a
 * session is made of it. Only the video's fields change; the timeline is
 * in seconds and the simulation in ticks per second of video, so every
 * frame of a variant shows the state the scene's own frame at that time
 * shows. */
#include "murmur/variant.h"
#include "sequence_file.h"
#include "murmur/limits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The usual names of video sizes, all 16:9 (480p as 854 wide, the width
 * that keeps the aspect closest with an even number). */
static const struct {
    const char *name;
    int width, height;
} named_sizes[] = {
    {"360p", 640, 360},   {"480p", 854, 480},   {"720p", 1280, 720},
    {"1080p", 1920, 1080}, {"1440p", 2560, 1440}, {"4k", 3840, 2160},
};

static int side(const char *s, char **end, int *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    long v = strtol(s, end, 10);
    if (v < 16 || v > MUR_SCENE_MAX_PIXELS)
        return -1;
    *out = (int)v;
    return 0;
}

int mur_size_parse(const char *text, int *width, int *height)
{
    for (size_t i = 0; i < sizeof named_sizes / sizeof named_sizes[0]; i++)
        if (!strcasecmp(text, named_sizes[i].name)) {
            *width = named_sizes[i].width;
            *height = named_sizes[i].height;
            return 0;
        }
    char *end;
    int w, h;
    if (side(text, &end, &w) || (*end != 'x' && *end != 'X') || side(end + 1, &end, &h) || *end)
        return -1;
    *width = w;
    *height = h;
    return 0;
}

int mur_scene_vary(mur_scene *s, const mur_variant *v, mur_error *err)
{
    int w = v->width ? v->width : s->width, h = v->height ? v->height : s->height;
    double fps = v->fps ? v->fps : s->fps;
    if (v->draft) {
        /* half, and even so that no format has to round it again */
        w = (int)fmax(16, (w / 2) & ~1);
        h = (int)fmax(16, (h / 2) & ~1);
    }
    if (v->fps && (v->fps < 1 || v->fps > MUR_MAX_FPS))
        return mur_error_set(err, MUR_EINPUT, "--fps must be 1 to %d, not %d", MUR_MAX_FPS, v->fps);
    if (v->quality > MUR_MAX_QUALITY)
        return mur_error_set(err, MUR_EINPUT, "--quality must be 0 to %d, not %d", MUR_MAX_QUALITY, v->quality);
    double frames = floor(s->duration * fps + 1e-9);
    if (frames < 1)
        return mur_error_set(err, MUR_EINPUT,
                             "the video is %gs: at %g fps that is less than one frame",
                             s->duration, fps);
    if ((double)w * h * frames > MUR_SCENE_MAX_PIXEL_FRAMES)
        return mur_error_set(err, MUR_EINPUT,
                             "%dx%d pixels x %.0f frames is more than %.3g pixel-frames: "
                             "a smaller size or fewer fps",
                             w, h, frames, MUR_SCENE_MAX_PIXEL_FRAMES);
    s->width = w;
    s->height = h;
    s->fps = fps;
    if (v->quality >= 0)
        s->quality = v->quality;
    return s->sequence ? mur_sequence_vary(s, v, err) : MUR_OK;   /* its entries too */
}
