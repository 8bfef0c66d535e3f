/* `murmur check` and `murmur presets`: print what a scene or preset
 * resolves to, from the same settings table the loader reads.
 *
 * Both print YAML-shaped text a user can paste back into a scene, and
 * numbers in their shortest form that reads back to the same double, so
 * a pasted preset is exactly the preset. The timeline is a table: one row
 * per entry (and per ramp's end), one column per setting the timeline
 * touches, each cell the value in force at that row's time, computed by
 * the same mur_scene_params_at the renderer uses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "murmur/metrics.h"
#include "murmur/render.h"
#include "murmur/scene.h"
#include "murmur/twin.h"

int mur_cmd_presets(const mur_cli_opts *o)
{
    if (!o->scene) {
        for (int i = 0; i < mur_preset_count(); i++) {
            const mur_preset *p = mur_preset_at(i);
            printf("%-18s %4d boids  %s\n", p->name, p->params.count, p->summary);
        }
        printf("\n`murmur presets NAME` prints one as YAML to paste into a scene.\n");
        return 0;
    }
    const mur_preset *p = mur_preset_find(o->scene);
    if (!p)
        return mur_cli_usage_error("no preset named '%s' (murmur presets lists them)", o->scene);
    printf("# %s: %s\n# Paste into a scene; every line below may be changed or left out.\n",
           p->name, p->summary);
    mur_params_write(stdout, p->name, &p->params);
    if (p->predator_x) {
        char r[40], f[40];
        mur_number_format(r, sizeof r, p->predator.radius);
        mur_number_format(f, sizeof f, p->predator.strength);
        printf("predators:                # the preset's own; `predators: []` removes it\n"
               "  - mode: %s\n    radius: %s\n    strength: %s\n    x: \"%s\"\n    y: \"%s\"\n",
               p->predator.attract ? "attract" : "flee", r, f, p->predator_x, p->predator_y);
    }
    return 0;
}

/* "set alignment 0, set cohesion 1" or "ramp alignment to 1". */
static void print_changes(const char *verb, const char *to, const mur_change *c, int n)
{
    for (int i = 0; i < n; i++) {
        mur_params tmp = {0};
        char val[40];
        mur_setting_put(c[i].setting, &tmp, c[i].value);
        mur_setting_format(val, sizeof val, c[i].setting, &tmp);
        printf("%s%s %s %s%s", i ? ", " : "", verb, c[i].setting->name, to, val);
    }
}

static void print_duration(const char *label, double seconds)
{
    char b[40];
    mur_number_format(b, sizeof b, seconds);
    printf("%s%ss", label, b);
}

/* A caption's, title's or chapter's text in quotes on one row of the
 * table: a line break is shown as \n (a raw one would break the columns),
 * a quote or backslash escaped, any other control character as \xNN. */
static void print_quoted(const char *label, const char *text)
{
    printf("%s \"", label);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '\n')
            fputs("\\n", stdout);
        else if (*c == '\t')
            fputs("\\t", stdout);
        else if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20 || *c == 0x7f)
            printf("\\x%02x", *c);
        else
            putchar(*c);
    }
    putchar('"');
}

/* One row of the timeline table: a cue, or the end of a cue's ramp. */
typedef struct {
    double t;
    const mur_cue *cue;
    int ramp_end;
} row;

static int row_order(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    /* Same time: cues in file order (their index), ends after starts. */
    if (x->cue != y->cue)
        return x->cue < y->cue ? -1 : 1;
    return x->ramp_end - y->ramp_end;
}

/* The look's part of a timeline row: shows, hides, a title card, a chapter. */
static void print_look_what(const mur_cue *q, const char *sep)
{
    for (int pass = 0; pass < 2; pass++) {
        unsigned set = pass ? q->hide : q->show;
        if (!set)
            continue;
        printf("%s%s", sep, pass ? "hide" : "show");
        for (unsigned k = 0; k < MUR_LOOK_SHOWABLE; k++)
            if ((set >> k) & 1)
                printf(" %s", k == MUR_LOOK_PREDATORS ? MUR_LOOK_PREDATORS_NAME : mur_overlay_names[k]);
        if (q->fade_over > 0)
            print_duration(" over ", q->fade_over);
        sep = "; ";
    }
    if (q->title) {
        printf("%s", sep);
        print_quoted("title", q->title);
        print_duration(" for ", q->title_for);
        sep = "; ";
    }
    if (q->chapter)
        {
        printf("%s", sep);
        print_quoted("chapter", q->chapter);
    }
}

/* What a camera follows, in words. */
static void follow_name(char *out, size_t size, mur_follow follow, int target, int view3d)
{
    if (follow == MUR_FOLLOW_FLOCK)
        snprintf(out, size, view3d ? "the flock (its centre)" : "the flock (its largest cluster)");
    else
        snprintf(out, size, "%s %d", follow == MUR_FOLLOW_BOID ? "boid" : "predator", target);
}

/* The "what" column of a timeline row: the entry's sets, ramp, caption and
 * event, separated by "; ". */
static void print_what(const mur_scene *s, const mur_cue *q)
{
    const char *sep = "";
    if (q->nset) {
        print_changes("set", "", q->set, q->nset);
        sep = "; ";
    }
    if (q->nramp) {
        printf("%s", sep);
        print_changes("ramp", "to ", q->ramp, q->nramp);
        print_duration(" over ", q->over);
        printf(" (%s)", mur_ease_name(q->ease));
        sep = "; ";
    }
    if (q->caption) {
        printf("%s", sep);
        print_quoted("caption", q->caption);
        print_duration(" for ", q->caption_for);
        sep = "; ";
    }
    if (q->event) {
        printf("%sevent %s", sep, mur_event_name(q->event));
        sep = "; ";
    }
    static const char *const cam[MUR_CAMERA_KEYS] = {"zoom", "x", "y", "follow", "position.x", "position.y",
                                                      "position.z", "target.x", "target.y", "target.z",
                                                      "fov", "height"};
    for (int pass = 0; pass < 2; pass++)   /* camera sets, then ramps */
        for (int k = 0; k < q->ncamera; k++) {
            if (q->camera[k].ramp != pass)
                continue;
            char v[40];
            if (q->camera[k].key == MUR_CAMERA_FOLLOW)
                follow_name(v, sizeof v, q->camera[k].follow, (int)q->camera[k].value, s->camera.view3d);
            else
                mur_number_format(v, sizeof v, q->camera[k].value);
            printf("%s%s camera.%s %s%s", sep, pass ? "ramp" : "set", cam[q->camera[k].key],
                   pass ? "to " : "", v);
            if (q->camera[k].key == MUR_CAMERA_FOLLOW) {   /* the smooth it moves over with */
                mur_camera now;
                mur_scene_camera_at(s, q->at, &now);
                mur_number_format(v, sizeof v, now.smooth);
                printf(" (smooth %ss)", v);
            }
            if (pass)
                print_duration(" over ", q->over);
            sep = "; ";
        }
    print_look_what(q, sep);
}

/* The camera line: what it follows or where it looks, and its zoom. */
static void print_camera(const mur_scene *s)
{
    const mur_scene_camera *c = &s->camera;
    if (c->view3d) {   /* a 3D world's, given or its default */
        char v[9][40];
        for (int k = 0; k < 3; k++) {
            mur_number_format(v[k], sizeof v[k], c->position[k]);
            mur_number_format(v[3 + k], sizeof v[3 + k], c->look_at[k]);
            mur_number_format(v[6 + k], sizeof v[6 + k], c->up[k]);
        }
        char lens[40], sm[40];
        mur_number_format(lens, sizeof lens, c->orthographic ? c->height : c->fov);
        mur_number_format(sm, sizeof sm, c->smooth);
        printf("camera: %s%s from [%s, %s, %s] at %s[%s, %s, %s], up [%s, %s, %s], %s %s%s%s%s%s\n",
               c->given ? "" : "(default) ", c->orthographic ? "orthographic" : "perspective", v[0], v[1], v[2],
               c->follow == MUR_FOLLOW_FLOCK ? "the flock's centre, from " : "", v[3], v[4], v[5], v[6], v[7],
               v[8], c->orthographic ? "height" : "fov", lens, c->orthographic ? "" : " degrees",
               c->follow == MUR_FOLLOW_FLOCK ? ", smooth " : "", c->follow == MUR_FOLLOW_FLOCK ? sm : "",
               c->follow == MUR_FOLLOW_FLOCK ? "s" : "");
        return;
    }
    if (!c->given)
        return;
    char a[40], b[40], z[40];
    mur_number_format(z, sizeof z, c->zoom);
    if (c->follow == MUR_FOLLOW_NONE) {
        mur_number_format(a, sizeof a, c->x);
        mur_number_format(b, sizeof b, c->y);
        printf("camera: centre [%s, %s], zoom %s\n", a, b, z);
        return;
    }
    mur_number_format(a, sizeof a, c->smooth);
    follow_name(b, sizeof b, c->follow, c->target, 0);
    printf("camera: follows %s, zoom %s, smooth %ss\n", b, z, a);
}

static void print_timeline(const mur_scene *s)
{
    /* Columns: every setting a set or ramp touches, in order of first use. */
    const mur_setting *cols[64];
    int ncols = 0;
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        for (int k = 0; k < q->nset + q->nramp; k++) {
            const mur_setting *st = k < q->nset ? q->set[k].setting : q->ramp[k - q->nset].setting;
            int seen = 0;
            for (int j = 0; j < ncols; j++)
                seen |= cols[j] == st;
            if (!seen && ncols < 64)
                cols[ncols++] = st;
        }
    }
    if (s->ncues <= 0)
        return;
    int nrows = 0;
    row *rows = malloc((size_t)s->ncues * 2 * sizeof *rows);
    if (!rows) {
        printf("timeline: %d entries (out of memory for the table)\n", s->ncues);
        return;
    }
    for (int i = 0; i < s->ncues; i++) {
        rows[nrows++] = (row){s->cues[i].at, &s->cues[i], 0};
        if (s->cues[i].nramp)
            rows[nrows++] = (row){s->cues[i].at + s->cues[i].over, &s->cues[i], 1};
    }
    qsort(rows, (size_t)nrows, sizeof *rows, row_order);

    int width[64];
    printf("timeline (the settings in force at each time):\n  %-9s %-5s", "time", "line");
    for (int j = 0; j < ncols; j++) {
        width[j] = (int)strlen(cols[j]->name);
        if (width[j] < 9)
            width[j] = 9;
        printf(" %-*s", width[j], cols[j]->name);
    }
    printf("  what\n");
    for (int r = 0; r < nrows; r++) {
        const mur_cue *q = rows[r].cue;
        char tb[48];
        mur_number_format(tb, sizeof tb, rows[r].t);
        strcat(tb, "s");
        printf("  %-9s %-5d", tb, q->line);
        mur_params p;
        mur_scene_params_at(s, &s->params, rows[r].t, &p);
        for (int j = 0; j < ncols; j++) {
            char val[40];
            mur_setting_format(val, sizeof val, cols[j], &p);
            printf(" %-*s", width[j], val);
        }
        printf("  ");
        if (rows[r].ramp_end)
            printf("ramp ends");
        else
            print_what(s, q);
        if (rows[r].t >= s->duration)
            printf("  (after the video ends)");
        printf("\n");
    }
    free(rows);
}

/* A recording as check describes it: its file, frames, ids and most boids
 * of a frame (a replay's count is that, not a setting). */
static void print_replay(const mur_recording *r)
{
    mur_recording_info in;
    mur_recording_describe(r, &in);
    printf("replay: %s, %ld frames (ticks %ld to %ld), ids up to %d, at most %d boids", in.path, in.frames,
           in.first_tick, in.last_tick, in.max_id, in.max_boids);
}

/* One condition of the experiment: what it sets; a replay's recording in
 * place of the count the loader took from it. */
static void print_condition(const mur_condition *c)
{
    printf("  %-16s ", c->name);
    const char *sep = "";
    if (c->replay) {
        print_replay(c->replay);
        sep = "; ";
    }
    for (int k = 0; k < c->nset; k++)
        if (!c->replay || strcmp(c->set[k].setting->name, "count")) {
            printf("%s", sep);
            print_changes("set", "", &c->set[k], 1);
            sep = ", ";
        }
    printf("\n");
}

/* Where the boids come from, when not from the seed. */
static void print_recordings(const mur_scene *s)
{
    mur_recording_info in;
    if (s->replay) {
        print_replay(s->replay);
        printf("\n");
    }
    if (s->start) {
        mur_recording_describe(s->start, &in);
        printf("start: %s, tick %ld, %d boids", in.path, in.first_tick, in.max_boids);
        if (in.has_state)
            printf(", the flock's tick counter %llu (the saved run goes on)\n",
                   (unsigned long long)in.flock_tick);
        else
            printf(", no saved tick counter (starts at 0)\n");
    }
}

/* A colour as "#rrggbb". */
static const char *hex(char out[8], mur_rgba c)
{
    snprintf(out, 8, "#%02x%02x%02x", (int)lround(c.r * 255) & 0xff, (int)lround(c.g * 255) & 0xff,
             (int)lround(c.b * 255) & 0xff);
    return out;
}

/* "; drawn 16 units long in #3a1f14 with a 1.5s trail": what a predator's
 * size (a 3D falcon's length, a 2D marker's diameter), color and trail
 * give; nothing when it has none of them. */
static void print_predator_look(const mur_predator_look *pl, int depth)
{
    if (!(pl->size > 0) && !pl->has_color && !(pl->trail > 0))
        return;
    char c[8];
    printf("; drawn");
    if (pl->size > 0)
        printf(" %g units %s", pl->size, depth ? "long" : "across");
    if (pl->has_color)
        printf(" in %s", hex(c, pl->color));
    if (pl->trail > 0)
        printf(" with a %gs trail", pl->trail);
}

/* A 3D world's look: what each bird is drawn as (no arrows there: the 2D
 * shapes' names would mislead) in what colour and alpha, then the trails
 * and overlays as in 2D; the background is the sky's (print_world3d). */
static void print_look3d(const mur_scene *s)
{
    const mur_look *lk = &s->look;
    char c[8], a[40], z[40];
    mur_number_format(a, sizeof a, lk->boid_color.a);
    mur_number_format(z, sizeof z, lk->boid_size);
    if (lk->shape == MUR_SHAPE_DENSITY && !lk->shape_auto) {   /* frame3d.c: absorption */
        char o[40];
        mur_number_format(o, sizeof o, lk->boid_color.a < 1 ? lk->boid_color.a : 0.5);
        printf("look: birds absorb the sky (density), each %s of its light over half a bird of %s units, "
               "ink %s alpha %s", o, z, hex(c, lk->boid_color), a);
    } else {
        printf("look: birds drawn as %s, %s units long, %s alpha %s",
               lk->birds == MUR_BIRDS_POINTS ? "points (a dot a quarter of a bird across)"
                                             : "silhouettes (a body and two wings)",
               z, hex(c, lk->boid_color), a);
    }
    if (lk->trail_length)
        printf(", trails %d ticks%s", lk->trail_length, lk->trail_fade ? " fading" : "");
    if (lk->noverlays) {
        printf(", overlays:");
        for (int i = 0; i < lk->noverlays; i++)
            printf(" %s", mur_overlay_names[lk->overlays[i].kind]);
    }
    printf("\n");
}

/* A 3D world's lens, seam, views and sky: what the camera line leaves out
 * and the frames depend on (docs/scenes.md "murmur check in 3D"). */
static void print_world3d(const mur_scene *s)
{
    const mur_scene_camera *cam = &s->camera;
    const mur_look *lk = &s->look;
    char v[40], w[40];
    if (cam->orthographic) {
        mur_number_format(v, sizeof v, cam->height);
        printf("lens: orthographic, height %s world units\n", v);
    } else {
        mur_number_format(v, sizeof v, cam->fov);
        printf("lens: perspective, fov %s degrees, ", v);
        mur_number_format(w, sizeof w, cam->aperture);
        if (!(cam->aperture > 0))
            printf("every bird sharp (aperture 0)\n");
        else if (cam->focus_flock)
            printf("aperture %s, in focus at the flock's centre\n", w);
        else if (cam->focus > 0)
            printf("aperture %s, in focus at depth %s\n", w, (mur_number_format(v, sizeof v, cam->focus), v));
        else
            printf("aperture %s, in focus at the target's distance\n", w);
    }
    static const char *const bounds[] = {"wrap", "reflect", "avoid", "open"};
    if (cam->wrap_nearest)
        printf("seam: wrap nearest (each bird drawn at its image nearest the target)\n");
    else if (s->params.boundary == MUR_BOUNDARY_WRAP)
        printf("seam: none (each bird where it is; camera.wrap: nearest keeps the flock whole across the box's "
               "edge)\n");
    else
        printf("seam: none (world.boundary: %s)\n", bounds[s->params.boundary < 4 ? s->params.boundary : 3]);
    static const char *const views[] = {"perspective", "top", "front", "side"};
    printf("views:");
    for (int k = 0; k < cam->nviews; k++)
        printf("%s %s", k ? "," : "", views[cam->views[k] & 3]);
    printf("%s\n", cam->nviews ? "" : " perspective (the camera's alone)");
    char z[8], h[8], g[8], t[8];
    printf("sky: zenith %s, horizon %s, ground %s; ", hex(z, lk->sky_zenith), hex(h, lk->sky_horizon),
           hex(g, lk->sky_ground));
    if (lk->tree_height > 0) {
        mur_number_format(v, sizeof v, lk->tree_height);
        printf("tree line %s, %s of the frame high; ", hex(t, lk->sky_trees), v);
    } else {
        printf("no tree line; ");
    }
    mur_number_format(v, sizeof v, lk->wingbeat);
    if (lk->wingbeat > 0)
        printf("wingbeat %s a second; ", v);
    else
        printf("wings held still; ");
    mur_number_format(v, sizeof v, lk->visibility);
    if (lk->visibility > 0)
        printf("visibility %s world units\n", v);
    else
        printf("no haze (visibility 0)\n");
}

static void print_look(const mur_scene *s)
{
    if (s->params.dimensions == 3) {
        print_look3d(s);
        return;
    }
    /* the loader's names (look.h): one table each */
    const mur_rgba *b = &s->look.background, *c = &s->look.boid_color;
    printf("look: background #%02x%02x%02x, boids %s size %g ",
           (int)lround(b->r * 255), (int)lround(b->g * 255), (int)lround(b->b * 255),
           mur_shape_names[s->look.shape], s->look.boid_size);
    /* A shape left to choose itself: say when the whole world, one panel,
     * makes its arrows specks (the camera's zoom may change that later). */
    double px = s->look.boid_size * fmin(s->width / s->params.width, s->height / s->params.height);
    if (s->look.shape_auto && s->look.panels <= 1 && px < MUR_RENDER_DENSITY_PX)
        printf("(drawn as density: arrows of %.2g px) ", px);
    if (s->look.color_mode == MUR_COLOR_FIXED)
        printf("#%02x%02x%02x", (int)lround(c->r * 255), (int)lround(c->g * 255), (int)lround(c->b * 255));
    else
        printf("coloured by %s", mur_color_mode_names[s->look.color_mode]);
    if (s->look.trail_length)
        printf(", trails %d ticks%s", s->look.trail_length, s->look.trail_fade ? " fading" : "");
    if (s->look.noverlays) {
        printf(", overlays:");
        for (int i = 0; i < s->look.noverlays; i++)
            printf(" %s", mur_overlay_names[s->look.overlays[i].kind]);
    }
    printf("\n");
}

/* experiment.twin, measure and until, as the experiment will run them. */
static void print_measures(const mur_scene *s)
{
    static const char *const ops[] = {">", ">=", "<", "<="};
    if (s->nconditions > 1 || s->conditions[0].nset)
        printf("  (every condition)");   /* under the conditions listed above */
    else
        printf("experiment: %d runs x %d ticks", s->runs, s->ticks);
    double shift[3];
    mur_twin_shift3(s, &s->params, shift);
    if (s->twin.kind == MUR_TWIN_PERTURB)
        printf("; twin: each boid moved %g world units in a random direction", s->twin.perturb);
    else if (s->twin.kind == MUR_TWIN_SHIFT && s->params.dimensions == 3)
        printf("; twin: moved by %s(%g, %g, %g)", s->twin.half_box ? "half the box " : "", shift[0], shift[1],
               shift[2]);
    else if (s->twin.kind == MUR_TWIN_SHIFT && s->twin.half_box)
        printf("; twin: moved by half the box (%g, %g)", s->params.width / 2, s->params.height / 2);
    else if (s->twin.kind == MUR_TWIN_SHIFT)
        printf("; twin: moved by (%g, %g)", s->twin.shift[0], s->twin.shift[1]);
    if (s->measure.window)
        printf("; measured: mean of the last %ld ticks, every %ld", s->measure.window, s->measure.every);
    if (s->measure.radius > 0)
        printf("; neighbours and clusters within %g (measure.radius)", s->measure.radius);
    for (int i = 0; i < s->nuntil; i++)
        printf("%s time_to_%s (%s %g)", i ? "," : "; until:", mur_metric_name(s->until[i].metric),
               ops[s->until[i].op], s->until[i].value);
    printf("\n");
}

/* A sequence file: its video, then one row per entry: where it plays in
 * the whole, what it shows, how it turns in. */
static void print_sequence(const mur_scene *s)
{
    static const char *const how[] = {"cut", "fade", "crossfade"};
    const mur_sequence *q = s->sequence;
    if (s->title)
        printf("title: %s\n", s->title);
    printf("video: %dx%d, %g fps, %gs (%ld frames), quality %d\n", s->width, s->height, s->fps, s->duration,
           mur_scene_frames(s), s->quality);
    printf("output: %s\n", s->output);
    printf("sequence: %d entries\n  %-8s %-8s %-22s %s\n", q->n, "at", "frames", "turns in by", "shows");
    for (int i = 0; i < q->n; i++) {
        const mur_sequence_entry *e = &q->entries[i];
        char at[40], by[48];
        mur_number_format(at, sizeof at, (double)e->start / s->fps);
        snprintf(by, sizeof by, "%s", how[e->transition]);
        if (e->transition != MUR_TRANSITION_CUT)
            snprintf(by, sizeof by, "%s over %ld frames", how[e->transition], e->over_frames);
        printf("  %-8s %-8ld %-22s ", strcat(at, "s"), e->frames, i ? by : "-");
        if (e->title)
            print_quoted("title card", e->title);
        else
            printf("%s, its frames %ld to %ld", e->file, e->first, e->first + e->frames - 1);
        printf("\n");
    }
}

int mur_cmd_check(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_scene *s = NULL;
    int rc = mur_cli_load_scene(o->scene, NULL, &s, &err);
    if (rc)
        return mur_cli_report(rc, &err);
    printf("%s: ok\n", s->path);
    if (s->sequence) {   /* its entries, each checked as it loaded */
        print_sequence(s);
        mur_scene_destroy(s);
        return 0;
    }
    mur_cli_warnings(s, o->at);
    if (s->title)
        printf("title: %s\n", s->title);
    printf("seed: %llu\n", (unsigned long long)s->seed);
    mur_params_write(stdout, s->preset->name, &s->params);
    print_recordings(s);
    printf("video: %dx%d, %g fps, %g ticks/s, %gs (%ld frames, %.0f ticks), warm-up %.0f ticks, quality %d\n",
           s->width, s->height, s->fps, s->tps, s->duration, mur_scene_frames(s),
           s->duration * s->tps, s->warmup, s->quality);
    printf("output: %s\n", s->output);
    print_look(s);
    print_camera(s);
    if (s->params.dimensions == 3)
        print_world3d(s);
    if (s->ncues)
        print_timeline(s);
    for (int i = 0; i < s->npredators; i++) {
        const mur_script_predator *p = &s->predators[i];
        printf("predator %d: %s, radius %g, strength %g, %s", i, p->attract ? "attract" : "flee",
               p->radius, p->strength, p->path ? "path" : "expressions");
        if (p->path) {
            printf(" of %d keys (%s):", p->npath, p->smooth ? "smooth" : "linear");
            for (int k = 0; k < p->npath && k < 8; k++) {
                printf(" %gs(%g, %g", p->path[k][0], p->path[k][1], p->path[k][2]);
                if (s->params.dimensions == 3)
                    printf(", %g", p->path[k][3]);
                printf(")");
            }
            if (p->npath > 8)
                printf(" ...");
        } else {
            printf(" x=%s y=%s", p->x_expr, p->y_expr);
            if (s->params.dimensions == 3) {
                char half[40];
                mur_number_format(half, sizeof half, s->params.depth / 2);
                printf(" z=%s", p->z_expr ? p->z_expr : half);
            }
        }
        if (isfinite(p->from) || isfinite(p->until)) {
            printf(", active from %gs", isfinite(p->from) ? p->from : 0);
            if (isfinite(p->until))
                printf(" until %gs", p->until);
        }
        static const char *const prey[] = {"", "the nearest boid", "the flock's centre", "the largest cluster"};
        if (p->pursue) {
            if (p->speed > 0)
                printf("; hunts %s at %g units/tick", prey[p->pursue], p->speed);
            else
                printf("; hunts %s at 1.25 x max_speed", prey[p->pursue]);
            printf(", turning at most %g degrees a tick", p->turn);
        }
        if (p->burst > 1)
            printf("; fleeing boids up to %g x max_speed", p->burst);
        print_predator_look(&p->look, s->params.dimensions == 3);
        printf("\n");
    }
    if (s->nconditions > 1 || s->conditions[0].nset) {
        printf("experiment: %d runs x %d ticks; metrics:", s->runs, s->ticks);
        for (int k = 0; k < s->nmetrics; k++)
            printf(" %s", mur_metric_name(s->metrics[k]));
        printf("\n");
        for (int i = 0; i < s->nconditions; i++)
            print_condition(&s->conditions[i]);
    }
    if (s->twin.kind != MUR_TWIN_NONE || s->measure.window || s->nuntil)
        print_measures(s);
    mur_scene_destroy(s);
    return 0;
}
