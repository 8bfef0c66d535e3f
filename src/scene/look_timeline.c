/* The look on the timeline: overlays shown and hidden, captions placed,
 * title cards and fades, as a pure function of time (mur_scene_moment_at),
 * like the settings of timeline.c, so any frame can be drawn alone.
 *
 * An overlay, the predator markers or the fade changes along straight
 * lines: each `show` or `hide` (`fade-in`, `fade-out`) starts at its entry's
 * time from the value in force then and reaches its target after its
 * `over` (a hide half-way through a show's fade turns back from where the
 * show had got to). An overlay whose first entry is a `show` is hidden
 * before it, and a fade whose first entry is a `fade-in` starts from the
 * background: "show the watch at 5 s" means it was not there before. */
#include "look_timeline.h"

#include <math.h>
#include <string.h>

#define CAPTION_FADE 0.4  /* seconds of fade in and out, as timeline.c's captions */

/* Opacity of whatever `bit` selects at t, from start (its value before any
 * entry), along the entries that set `on` (to 1) or `off` (to 0) it. */
static double level_at(const mur_scene *s, double t, unsigned bit, double start,
                       int (*is)(const mur_cue *q, unsigned bit, int on))
{
    double from = start, to = start, at = 0, over = 0;
    for (int i = 0; i < s->ncues && s->cues[i].at <= t; i++) {
        const mur_cue *q = &s->cues[i];
        int on = is(q, bit, 1), off = is(q, bit, 0);
        if (!on && !off)
            continue;
        /* where the previous change had got to at this entry's time */
        double u = over > 0 ? fmin(1, (q->at - at) / over) : 1;
        from = from + (to - from) * u;
        to = on ? 1 : 0;
        at = q->at;
        over = q->fade_over;
    }
    double u = over > 0 ? fmin(1, fmax(0, (t - at) / over)) : 1;
    return from + (to - from) * u;
}

static int shows(const mur_cue *q, unsigned bit, int on)
{
    return ((on ? q->show : q->hide) >> bit) & 1;
}

static int fades(const mur_cue *q, unsigned bit, int on)
{
    (void)bit;
    return q->event == (on ? MUR_EVENT_FADE_OUT : MUR_EVENT_FADE_IN);
}

/* The value before any entry: `none` when no entry names it, else the
 * opposite of where the first one that does takes it ("show the watch at
 * 5 s": hidden before; "fade in at 0 s": background before). */
static double first_level(const mur_scene *s, unsigned bit,
                          int (*is)(const mur_cue *q, unsigned bit, int on), double none)
{
    for (int i = 0; i < s->ncues; i++) {
        if (is(&s->cues[i], bit, 1))
            return 0;
        if (is(&s->cues[i], bit, 0))
            return 1;
    }
    return none;
}

/* Opacity of a caption or title showing from `at` for `len` seconds. */
static double card_alpha(double at, double len, double t)
{
    double fade = fmin(CAPTION_FADE, len / 4);
    double in = (t - at) / fade, out = (at + len - t) / fade;
    return fmin(1, fmin(at > 0 ? in : 1, out));   /* at 0: there from the first frame */
}

void mur_scene_moment_at(const mur_scene *s, double t, mur_moment *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned k = 0; k < MUR_LOOK_SHOWABLE; k++)
        out->overlay[k] = level_at(s, t, k, first_level(s, k, shows, 1), shows);
    out->fade = level_at(s, t, 0, first_level(s, 0, fades, 0), fades);   /* 1: background */
    int n = 0;
    for (int i = 0; i < s->ncues && s->cues[i].at <= t; i++) {
        const mur_cue *q = &s->cues[i];
        if (q->caption && t < q->at + q->caption_for) {
            if (n == MUR_LOOK_MAX_CAPTIONS) {   /* the latest ones */
                memmove(out->captions, out->captions + 1, (n - 1) * sizeof out->captions[0]);
                n--;
            }
            out->captions[n++] = (mur_caption_shown){q->caption, card_alpha(q->at, q->caption_for, t),
                                                    q->caption_style};
        }
        const char *title = q->event == MUR_EVENT_TITLE ? s->title : q->title;
        if (title && t < q->at + q->title_for) {
            out->title = title;
            out->subtitle = q->event == MUR_EVENT_TITLE ? NULL : q->subtitle;
            out->title_alpha = card_alpha(q->at, q->title_for, t);
        }
    }
    out->ncaptions = n;
}

int mur_look_timeline_used(const mur_scene *s)
{
    const mur_caption_style plain = {MUR_PLACE_BOTTOM, 0, 0, 1, MUR_ALIGN_CENTRE};
    double caption_end = -1;
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        if (q->show || q->hide || q->title || q->event == MUR_EVENT_FADE_IN ||
            q->event == MUR_EVENT_FADE_OUT || q->event == MUR_EVENT_TITLE)
            return 1;
        if (!q->caption)
            continue;
        const mur_caption_style *c = &q->caption_style;
        if (c->place != plain.place || c->size != plain.size || c->align != plain.align)
            return 1;
        if (q->at < caption_end)   /* two at once (cues are sorted by time) */
            return 1;
        caption_end = fmax(caption_end, q->at + q->caption_for);
    }
    return 0;
}

int mur_look_timeline_check(const mur_scene *s, mur_error *err)
{
    unsigned have = 1u << MUR_LOOK_PREDATORS;
    for (int k = 0; k < s->look.noverlays; k++)
        have |= 1u << s->look.overlays[k].kind;
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        unsigned stray = (q->show | q->hide) & ~have;
        for (unsigned k = 0; stray && k < MUR_LOOK_PREDATORS; k++)
            if ((stray >> k) & 1)
                return mur_error_set(err, MUR_EINPUT,
                                     "%s:%d:%d: error: '%s' names the %s overlay, which look.overlays "
                                     "does not have (add it there; it is then shown or hidden here)",
                                     s->path, q->line, q->col, q->show >> k & 1 ? "show" : "hide",
                                     mur_overlay_names[k]);
        if (q->event == MUR_EVENT_TITLE && !s->title)
            return mur_error_set(err, MUR_EINPUT,
                                 "%s:%d:%d: error: 'event: title' shows the scene's title, and it has "
                                 "none (add title: ... at the top, or give the entry title: {text: ...})",
                                 s->path, q->line, q->col);
    }
    return 0;
}
