/* murmur: the output side: turning frames into files.
 *
 * A mur_video receives frames as Cairo ARGB32 pixels (native-endian,
 * premultiplied; opaque because the background is painted) and writes them
 * in the format its path's extension names:
 * - .mp4: H.264 (libx264), yuv420p, BT.709 primaries/transfer/matrix, limited
 *   range, converted with swscale's BT.709 coefficients, +faststart;
 * - .webm: VP9 (libvpx-vp9), yuv420p, BT.709, constant quality;
 * - .mov: ProRes 422 (prores_ks), yuv422p10le, BT.709: for editing software;
 * - .gif: one 256-colour palette computed from every frame of the video
 *   (libavfilter's palettegen and paletteuse), for slides and web pages;
 * - .webp: an animated WebP (libwebp's animation encoder), looping forever;
 * - DIR/%05d.png: an image sequence, one PNG per frame numbered by the
 *   pattern, with the provenance in a text file beside them.
 * Translucent frames (opts.alpha) keep their alpha in .mov (ProRes 4444),
 * .webm (VP9 with an alpha channel), .webp (animated WebP) and PNGs (RGBA),
 * unpremultiplied.
 * A video is written under a temporary name beside the final one and renamed
 * by mur_video_close only when complete; each PNG of a sequence likewise.
 *
 * With opts.queue > 0 the encoding runs on a thread of its own behind a
 * bounded queue of frames, so the caller draws the next frame while the
 * previous ones encode; the output is the same bytes either way. */
#ifndef MURMUR_VIDEO_H
#define MURMUR_VIDEO_H

#include "murmur/export.h"

#include <signal.h>
#include <stdint.h>
#include "murmur/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The version of mur_video_opts this header describes.
#define MUR_VIDEO_OPTS_VERSION 4

/// A stretch of a video with a text: a chapter (its title) or a subtitle.
typedef struct mur_video_text {
    double start, end;    ///< seconds from the file's first frame, start < end
    const char *text;     ///< UTF-8; a subtitle may hold line breaks
} mur_video_text;

/// What to write. Start from MUR_VIDEO_OPTS_INIT (zeros but the version), then fill.
typedef struct mur_video_opts {
    unsigned version;     ///< MUR_VIDEO_OPTS_VERSION
    const char *path;     ///< final output path; the extension picks the format (see above)
    int width, height;    ///< frame size in pixels (odd sizes are rounded down to even for
                          ///< the yuv420p and yuv422p formats)
    int fps;              ///< frames per second of the output, 1..240 (.gif: 1..50)
    int quality;          ///< CRF-like, 0..51, lower is better (18 is visually lossless; 0 is
                          ///< true lossless, which browsers do not play). .webm maps it onto
                          ///< VP9's 0..63, .mov onto a ProRes profile; .gif and .png ignore it
    const char *metadata; ///< optional provenance text: the container's "comment" tag (.mp4,
                          ///< .mov, .webm), a GIF comment block, an XMP chunk's
                          ///< murmur:provenance (.webp), or NAME.txt beside a PNG
                          ///< sequence; may be NULL
    const char *preset;   ///< x264 speed/size trade-off: ultrafast ... veryslow, placebo;
                          ///< NULL = "medium". VP9 maps it to its cpu-used; others ignore it
    long first_number;    ///< number of the first frame of a PNG sequence (a part of a render
                          ///< keeps the whole render's numbers); >= 0
    int queue;            ///< frames buffered for a background encoding thread, 0..64;
                          ///< 0 = encode in the caller's thread during mur_video_write
    const char *encoder;  ///< libavcodec encoder to use instead of the format's; NULL = the
                          ///< format's (for tests of a missing encoder)
    int alpha;            ///< 1: frames are translucent and keep their alpha: .mov becomes
                          ///< ProRes 4444 (yuva444p10le), .webm VP9 with alpha (yuva420p),
                          ///< .webp WebP with alpha (ALPH), PNGs RGBA; other formats are
                          ///< refused (mur_video_check_alpha)
    /* version 2 */
    const mur_video_text *chapters; ///< the container's chapters (.mp4, .mov, .webm; other
    int nchapters;                  ///< formats have none and ignore them), sorted by start
    const mur_video_text *subtitles;///< a soft subtitle track: mov_text in .mp4 and .mov,
    int nsubtitles;                 ///< WebVTT in .webm (MUR_EINPUT for other formats)
    /* version 3 */
    int chunk, nchunks;             ///< 1..nchunks: the file is chunk `chunk` of a render cut
                                    ///< into nchunks (mur_video_join makes the whole); 0: a
                                    ///< whole file. Its metadata starts with the chunk line
                                    ///< (MUR_VIDEO_CHUNK_LINE); a .gif chunk holds its frames
                                    ///< losslessly (QuickTime Animation in a QuickTime file),
                                    ///< since a GIF's palette is the whole video's
    long chunk_frames;              ///< frames the chunk is to hold (first_number is its first)
    /* version 4 */
    int gif_colours;                ///< .gif: colours of its one palette, 2..256 (0 = 256)
    int gif_dither;                 ///< .gif: MUR_GIF_DITHER_* (0: none, flat colours exact)
} mur_video_opts;

/// How a GIF maps colours its palette lacks (mur_video_opts.gif_dither;
/// libavfilter's paletteuse dither modes; scene video.gif_dither names them in this order).
enum { MUR_GIF_DITHER_NONE, MUR_GIF_DITHER_BAYER, MUR_GIF_DITHER_FLOYD_STEINBERG, MUR_GIF_DITHER_SIERRA2_4A };

/// The first line of a chunk's metadata: chunk K of N, frames A to B (the
/// whole render's numbers, B inclusive), then the whole render's metadata.
#define MUR_VIDEO_CHUNK_LINE "chunk: %d of %d, frames %ld to %ld\n"

/// Frames in one segment of a video at fps: a video is encoded in segments
/// of 2 s (a keyframe interval), each by a fresh encoder with the same
/// settings, so any run of whole segments encodes to the same packets
/// whether rendered alone or as part of the whole (murmur render --chunk).
MUR_API long mur_video_segment_frames(int fps);

/// The frames of chunk k (1..n) of a video of `frames` frames at fps, cut on
/// segment boundaries: its S segments (the last may be short) are dealt out
/// in contiguous runs, chunk k getting segments floor((k-1)S/n) to
/// floor(kS/n) - 1, so two chunks differ by at most one segment. *first and
/// *count are frames from the video's first. MUR_EINPUT, with err saying
/// why in one line, when k is not in 1..n or n exceeds S.
MUR_API int mur_video_chunk_frames(long frames, int fps, int k, int n, long *first, long *count,
                                   mur_error *err);

/// A mur_video_opts of this version, every other field zero.
#define MUR_VIDEO_OPTS_INIT {.version = MUR_VIDEO_OPTS_VERSION}

/// Fill *out with MUR_VIDEO_OPTS_INIT (for C++ and bindings, which cannot use the macro).
MUR_API void mur_video_opts_init(mur_video_opts *out);

typedef struct mur_video mur_video;

/// 0 when a writer supports path (its extension, and for an image sequence
/// one frame number in the file name); else MUR_EINPUT with err saying why
/// and listing the formats. Touches no file: for checking a scene at load.
MUR_API int mur_video_check_path(const char *path, mur_error *err);

/// The frame size a video at path encodes for frames of width x height:
/// rounded down to even where the format needs it (.mp4, .webm, .mov), else
/// as given (and as given for a path of no known format).
MUR_API void mur_video_encoded_size(const char *path, int width, int height, int *out_w, int *out_h);

/// 0 when the format path names keeps an alpha channel (.mov, .webm, .webp,
/// a PNG sequence); else MUR_EINPUT with err saying which formats do.
MUR_API int mur_video_check_alpha(const char *path, mur_error *err);

/// Open an encoder and a temporary output file. On failure returns MUR_EINPUT
/// (bad options) or MUR_ERUN (missing encoder, unwritable directory) with err
/// naming the cause, and leaves no file behind. The caller owns *out.
MUR_API int mur_video_open(mur_video **out, const mur_video_opts *opts, mur_error *err);

/// Width and height actually encoded (even); differs from the options when
/// they were odd, which the caller may want to warn about.
MUR_API void mur_video_size(const mur_video *v, int *width, int *height);

/// Encode one frame: pixels are ARGB32 rows of `stride` bytes, at least the
/// encoded size (only that much is read), and may be reused as soon as the
/// call returns. Frames are numbered in call order (pts 0, 1, 2, ...). With a
/// queue, a failure of an earlier frame may be reported by a later call or
/// by close. After a failure v is only good for close or abort, and close
/// will not publish the file.
MUR_API int mur_video_write(mur_video *v, const uint8_t *pixels, int stride, mur_error *err);

/// Bytes written to disk so far (approximate while encoding; safe to call
/// from the writing thread while a queue is encoding).
MUR_API int64_t mur_video_bytes(const mur_video *v);

/// Flush the encoder, write the trailer, close, and rename the temporary file
/// to its final name. Frees v (even on failure; then the temporary file is removed).
/// Fails (MUR_ERUN) when no frame was written or an earlier write failed.
MUR_API int mur_video_close(mur_video *v, mur_error *err);

/// Write subtitles as a file a player or a lecture platform reads beside the
/// video: SubRip for a path ending in .srt, WebVTT for .vtt (MUR_EINPUT for
/// another). Times in milliseconds. The file appears at path only when
/// complete. n may be 0 (a file with no cues).
MUR_API int mur_subtitles_write(const char *path, const mur_video_text *cues, int n, mur_error *err);

/// What mur_video_join made.
typedef struct mur_join_result {
    int parts;            ///< chunks joined
    long frames;          ///< frames in the joined file
} mur_join_result;

/// Join the chunks of one render (files written with opts.chunk, given in
/// any order) into path, which must have the chunks' extension: the video
/// packets copied as they are (a .gif: decoded and given one palette), their
/// timestamps moved to their place, chapters (and a subtitle track) joined,
/// the metadata the whole render's. The result equals a whole render frame
/// for frame. MUR_EINPUT, with err naming the part, when a part is not a
/// chunk, is truncated, differs from the first (size, codec, frame rate,
/// render) or when chunks are missing or given twice (or a part changed
/// between the check of every header and its copy); MUR_ERUN for I/O. Holds
/// one part open at a time, so nparts may exceed the open-file limit.
/// path appears only when complete; on failure nothing is left. stop (may be
/// NULL) is polled between packets: non-zero stops the join with MUR_EINTR,
/// nothing written.
MUR_API int mur_video_join(const char *path, const char *const *parts, int nparts,
                           volatile sig_atomic_t *stop, mur_join_result *res, mur_error *err);

/// Non-zero when path already holds chunk k of n of the render whose
/// metadata (what follows the chunk line: the whole render's provenance) is
/// `metadata`, with every one of its frames: what rendering the chunk again
/// would write, so a plan run again skips it. 0 for a missing, truncated or
/// damaged file, a chunk of another render or another cut, a device.
MUR_API int mur_video_chunk_done(const char *path, int k, int n, const char *metadata);

/// Abandon: free everything and delete the temporary file (for a PNG
/// sequence: the frames written by v). NULL is fine.
MUR_API void mur_video_abort(mur_video *v);

#ifdef __cplusplus
}
#endif

#endif
