/* A program that embeds libmurmur as an installed package: load a scene
 * from a string, step its flock, measure it, draw a frame into its own
 * buffer. Built by consumer.sh with find_package and with pkg-config. */
#include <murmur/murmur.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    static const char text[] = "model: wrkspc\nseed: 3\nflock: {count: 60}\nvideo: {width: 64, height: 48}\n";
    mur_error err = {{0}};
    mur_scene *s = NULL;
    mur_flock *f = NULL;
    mur_metrics_ctx *m = mur_metrics_ctx_create();
    mur_renderer *r = NULL;
    mur_metrics v;
    const uint8_t *px;
    int stride, rc = mur_scene_parse(&s, "app.yaml", text, strlen(text), &err);
    if (!rc && !(rc = mur_flock_create(&f, &s->params, s->seed, &err))) {
        for (int t = 0; t < 100; t++)
            mur_flock_step(f);
        rc = m ? mur_metrics_compute(m, f, &v) : MUR_ERUN;
    }
    if (!rc && !(rc = mur_renderer_create(&r, mur_scene_look(s), s->width, s->height, &err)))
        rc = mur_renderer_draw_image(r, (const mur_flock *const *)&f, 1, 0.0, &px, &stride, &err);
    if (!rc)
        printf("murmur %s: %d boids, order %.3f, frame %dx%d\n", mur_version(), mur_flock_count(f),
               mur_metrics_value(&v, mur_metric_find("order")), s->width, s->height);
    else
        fprintf(stderr, "app: %s\n", err.msg);
    mur_renderer_destroy(r);
    mur_metrics_ctx_destroy(m);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
    return rc ? 1 : 0;
}
