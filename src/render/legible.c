/* Text a viewer can read at any frame size.
 *
 * Overlay text is sized in UI units, a hundredth of the frame's (or
 * panel's) short side, so it scales with the frame: a 4K frame is a sharp
 * 1080p one. Small frames took that too far: at 640x360 a readout's font
 * was 8 pixels (capitals 6 pixels high), a blur in a lecture hall. The UI
 * unit therefore has a floor: the smallest text the look draws is at least
 * MUR_TEXT_MIN_PX pixels (its font size; capitals about 8 pixels high).
 * Where every text of a look is already that large the floor is below the
 * unit and changes nothing, so such frames are as before, byte for byte.
 * A frame smaller than 360p is a thumbnail: it has the 360p frame's layout,
 * scaled down (11 px text would fill it).
 *
 * The factors are the text sizes overlays.c draws, in UI units; a look's
 * smallest among those it uses sets its floor, whether or not the overlay
 * is showing at a given time, so that text does not change size when
 * another overlay comes or goes. */
#include "internal.h"

#include <math.h>

/* text size of each overlay kind's smallest text (mur_overlay_kind order) */
static const double least_text[] = {
    [MUR_OVERLAY_READOUT] = 2.3,   /* metric names and values */
    [MUR_OVERLAY_PLOT] = 1.9,      /* its title (the axis labels, 1.5, are held at
                                    * MUR_TEXT_MIN_PX on their own: a floor set by them
                                    * would double every box of a 360p frame) */
    [MUR_OVERLAY_WATCH] = 2.0,     /* the legend's rows */
    [MUR_OVERLAY_PARAMS] = 2.2,
    [MUR_OVERLAY_CLOCK] = 2.3,
    [MUR_OVERLAY_STATE] = 2.3,
    [MUR_OVERLAY_IMAGE] = INFINITY,   /* no text */
    [MUR_OVERLAY_FIGURE] = 1.9,    /* its title, as the plot's */
};
#define CAPTION_TEXT 3.4           /* mur_overlays_caption, at size 1 */
#define LABEL_TEXT 2.6             /* panel names (mur_overlays_label) */

/* The least text size in a frame of short side `side`. */
static double least_px(double side)
{
    return MUR_TEXT_MIN_PX * fmin(1, side / MUR_TEXT_MIN_SIDE);
}

double mur_legible_size(double size, double side)
{
    return fmax(size, least_px(side));
}

double mur_legible_unit(const mur_look *lk, double side)
{
    double least = lk->caption_at || lk->moment_at ? CAPTION_TEXT : INFINITY;
    if (lk->panels > 1)
        least = fmin(least, LABEL_TEXT);
    for (int k = 0; k < lk->noverlays; k++)
        least = fmin(least, least_text[lk->overlays[k].kind]);
    return isfinite(least) ? least_px(side) / least : 0;
}
