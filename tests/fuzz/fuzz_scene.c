/* libFuzzer target for the scene loader (built and run by .ci/fuzz).
 *
 * A scene is untrusted input: any bytes must give a scene or an error,
 * never a crash, a leak, undefined behaviour, a hang or a huge allocation
 * (libFuzzer's -malloc_limit_mb catches the last). A scene that loads is
 * also asked the timeline's questions, and a small one is stepped by the
 * driver, so the values the loader accepted are exercised too. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "murmur/scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Only small flocks and short warm-ups are stepped: the fuzzer's time goes
 * to the loader, and the limits on big ones are the loader's to check. */
static int small(const mur_scene *s)
{
    if (s->params.count > 64 || s->warmup > 200 || s->panels)
        return 0;
    for (int i = 0; i < s->ncues; i++)
        for (int k = 0; k < s->cues[i].nset + s->cues[i].nramp; k++) {
            const mur_change *c = k < s->cues[i].nset ? &s->cues[i].set[k] : &s->cues[i].ramp[k - s->cues[i].nset];
            if (!strcmp(c->setting->name, "count") && c->value > 64)
                return 0;
        }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mur_scene *s = NULL;
    mur_error err;
    if (mur_scene_parse(&s, "fuzz.yaml", (const char *)data, size, &err) != 0)
        return 0;
    mur_params p;
    mur_predator pred[MUR_MAX_PREDATORS];
    double alpha;
    for (int k = 0; k <= 8; k++) {
        double t = s->duration * k / 8;
        mur_scene_params_at(s, &s->params, t, &p);
        mur_scene_predators_at(s, t, pred, MUR_MAX_PREDATORS);
        mur_scene_caption_at(s, t, &alpha);
        mur_scene_frozen_at(s, t);
    }
    mur_scene_frame_tick(s, mur_scene_frames(s));
    if (small(s)) {
        mur_flock *f = NULL;
        mur_driver *d = NULL;
        if (!mur_flock_create(&f, &s->params, s->seed, &err) && !mur_driver_create(&d, &err) &&
            !mur_driver_start(d, s, f, &s->params, &err)) {
            long end = mur_scene_frame_tick(s, mur_scene_frames(s));
            mur_driver_run_to(d, end < 300 ? end : 300, &err);
        }
        mur_driver_destroy(d);
        mur_flock_destroy(f);
    }
    mur_scene_destroy(s);
    return 0;
}
