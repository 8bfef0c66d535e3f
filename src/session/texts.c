/* The texts a render carries besides its frames: chapters from the
 * timeline's `chapter:` entries (and its captions, when the scene asks with
 * video.chapters: captions), and the captions as subtitles, in seconds of
 * the file being written, which starts at its first frame (a part made
 * with --from starts there). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "murmur/alloc.h"
#include "murmur/session.h"
#include "play.h"
#include "texts.h"

/* Chapter starts (scene seconds) and titles, in time order; a chapter
 * that starts where the one before it starts replaces nothing: the first
 * at a time is kept (an entry's own chapter before a caption of it). */
static int chapter_list(const mur_scene *s, mur_video_text *out)
{
    int n = 0;
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        const char *names[2] = {q->chapter, s->chapter_captions ? q->caption : NULL};
        for (int k = 0; k < 2; k++)
            if (names[k] && !(n && out[n - 1].start == q->at))
                out[n++] = (mur_video_text){q->at, 0, names[k]};
    }
    return n;
}

/* Every chapter start and caption of a scene's timeline, in scene seconds
 * (a sequence's: its entries', mur_play_texts). */
static int all_texts(const mur_scene *s, mur_video_text **chapters, int *nch, mur_video_text **caps,
                     int *ncaps, mur_error *err)
{
    if (s->sequence)
        return mur_play_texts(s, chapters, nch, caps, ncaps, err);
    size_t cap = 2 * (size_t)s->ncues + 1;
    mur_video_text *ch = mur_malloc(cap * sizeof *ch), *sub = mur_malloc(cap * sizeof *sub);
    if (!ch || !sub) {
        mur_free(ch);
        mur_free(sub);
        return mur_error_set(err, MUR_ERUN, "out of memory listing chapters");
    }
    *nch = chapter_list(s, ch);
    int ns = 0;
    for (int i = 0; i < s->ncues; i++)
        if (s->cues[i].caption)
            sub[ns++] = (mur_video_text){s->cues[i].at, s->cues[i].at + s->cues[i].caption_for, s->cues[i].caption};
    *chapters = ch;
    *caps = sub;
    *ncaps = ns;
    return MUR_OK;
}

int mur_scene_texts(const mur_scene *s, long first, long last, mur_video_text **chapters,
                    int *nchapters, mur_video_text **subtitles, int *nsubtitles, mur_error *err)
{
    *chapters = *subtitles = NULL;
    *nchapters = *nsubtitles = 0;
    double t0 = mur_scene_frame_time(s, first), t1 = mur_scene_frame_time(s, last);
    mur_video_text *all = NULL, *sub = NULL;
    int n = 0, ns = 0, nc = 0, nk = 0;
    int rc = all_texts(s, &all, &n, &sub, &ns, err);
    if (rc)
        return rc;
    /* the clipped lists are never longer than the whole ones (clipped in place) */
    for (int i = 0; i < n; i++) {
        double start = all[i].start, end = i + 1 < n ? all[i + 1].start : t1;
        start = fmax(start, t0);
        end = fmin(end, t1);
        if (end - start >= 0.001 && !(nc && all[nc - 1].start == start - t0))   /* a millisecond, the containers' unit */
            all[nc++] = (mur_video_text){start - t0, end - t0, all[i].text};
    }
    for (int i = 0; i < ns; i++) {
        double start = fmax(sub[i].start, t0), end = fmin(sub[i].end, t1);
        if (end - start >= 0.001)
            sub[nk++] = (mur_video_text){start - t0, end - t0, sub[i].text};
    }
    *chapters = all;
    *nchapters = nc;
    *subtitles = sub;
    *nsubtitles = nk;
    return MUR_OK;
}

/* NAME.srt and NAME.vtt beside the video at path (a PNG sequence's:
 * captions.srt and .vtt in its folder). */
int mur_session_sidecars(const char *path, const mur_video_text *subs, int n, mur_error *err)
{
    size_t len = strlen(path);
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : len;
    if (strchr(slash ? slash : path, '%'))   /* a sequence's pattern */
        stem = slash ? (size_t)(slash - path) + 1 : 0;
    char *name = mur_malloc(stem + 16);
    if (!name)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    int rc = MUR_OK;
    static const char *const ext[] = {".srt", ".vtt"};
    for (int k = 0; k < 2 && !rc; k++) {
        snprintf(name, stem + 16, "%.*s%s%s", (int)stem, path,
                 stem && path[stem - 1] == '/' ? "captions" : stem ? "" : "captions", ext[k]);
        rc = mur_subtitles_write(name, subs, n, err);
    }
    mur_free(name);
    return rc;
}
