/* murmur: variants of a scene's video asked for without editing the scene
 * (`murmur render --size 720p --fps 24 --quality 28 --draft`).
 *
 * A variant changes only how the video is made: its frame size, frame
 * rate, quality. The simulation is the scene's (ticks per second of video,
 * the timeline in seconds), and the world is scaled to fit the new frame
 * as it is to the scene's own, so a draft shows the same flock smaller. */
#ifndef MURMUR_VARIANT_H
#define MURMUR_VARIANT_H

#include "murmur/export.h"

#include "murmur/error.h"
#include "murmur/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a variant changes; 0 (quality: -1) keeps the scene's value.
typedef struct mur_variant {
    int width, height;            ///< frame size, pixels (both or neither)
    int fps;                      ///< frames per second, 1 .. 240
    int quality;                  ///< CRF-like, 0 .. 51 (lower is better)
    int draft;                    ///< half the (given or the scene's) size, each side even
} mur_variant;

/// Keep everything as the scene has it.
#define MUR_VARIANT_INIT {0, 0, 0, -1, 0}

/// A frame size as text: "WxH" (each 16 .. MUR_SCENE_MAX_PIXELS) or one of
/// the names 360p, 480p, 720p, 1080p, 1440p, 4k (16:9: 640x360 .. 3840x2160).
/// 0, or -1 when text is neither.
MUR_API int mur_size_parse(const char *text, int *width, int *height);

/// Apply v to the loaded scene s, then check what the loader checks of a
/// video (at least one frame, the pixel-frame bound). MUR_EINPUT with a
/// message naming the option ("--fps 240 gives ..."), s unchanged.
MUR_API int mur_scene_vary(mur_scene *s, const mur_variant *v, mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
