/* murmur: the output side: turning frames into files.
 *
 * A mur_video receives frames as Cairo ARGB32 pixels (native-endian,
 * premultiplied; opaque because the background is painted) and writes them:
 * - .mp4: H.264 (libx264), yuv420p, BT.709 primaries/transfer/matrix, limited
 *   range, converted with swscale's BT.709 coefficients, +faststart;
 * - other containers/formats may be added (see issue: output formats).
 * The file is written under a temporary name beside the final one and
 * renamed by mur_video_close only when complete. */
#ifndef MURMUR_VIDEO_H
#define MURMUR_VIDEO_H

#include <stdint.h>
#include "murmur/error.h"

/// What to write. Zero-initialise, then fill.
typedef struct mur_video_opts {
    const char *path;     ///< final output path; the extension picks the format
    int width, height;    ///< frame size in pixels (odd sizes are rounded down to even for yuv420p)
    int fps;              ///< frames per second of the output, 1..240
    int quality;          ///< CRF-like, 0..51, lower is better (18 is visually lossless; 0 is
                          ///< true lossless, which browsers do not play)
    const char *metadata; ///< optional text stored as the container's "comment" (provenance); may be NULL
} mur_video_opts;

typedef struct mur_video mur_video;

/// Open an encoder and a temporary output file. On failure returns MUR_EINPUT
/// (bad options) or MUR_ERUN (missing encoder, unwritable directory) with err
/// naming the cause, and leaves no file behind. The caller owns *out.
int mur_video_open(mur_video **out, const mur_video_opts *opts, mur_error *err);

/// Width and height actually encoded (even); differs from the options when
/// they were odd, which the caller may want to warn about.
void mur_video_size(const mur_video *v, int *width, int *height);

/// Encode one frame: pixels are ARGB32 rows of `stride` bytes, at least the
/// encoded size (only that much is read). Frames are numbered in call order
/// (pts 0, 1, 2, ...). After a failure v is only good for close or abort,
/// and close will not publish the file.
int mur_video_write(mur_video *v, const uint8_t *pixels, int stride, mur_error *err);

/// Flush the encoder, write the trailer, close, and rename the temporary file
/// to its final name. Frees v (even on failure; then the temporary file is removed).
/// Fails (MUR_ERUN) when no frame was written or an earlier write failed.
int mur_video_close(mur_video *v, mur_error *err);

/// Abandon: free everything and delete the temporary file. NULL is fine.
void mur_video_abort(mur_video *v);

#endif
