/* murmur: sessions, a scene turned into frames: the library's one loop
 * from a loaded scene to drawn frames, stills and encoded videos.
 *
 * A session holds one flock and driver per panel (one per experiment
 * condition when the scene's layout asks for panels, else one) and a
 * renderer. Every flock starts at tick 0 and is stepped to each frame's
 * tick, so any frame, a still or a part of a render (first, last), is
 * exactly the frame of a whole render. `murmur render` and `murmur still`
 * are thin callers of this; a host program may be another.
 *
 * Every long loop (the warm-up, stepping to a frame, drawing, encoding)
 * polls opts.stop and returns MUR_EINTR once it is non-zero. */
#ifndef MURMUR_SESSION_H
#define MURMUR_SESSION_H

#include <cairo.h>
#include <signal.h>
#include <stdint.h>

#include "murmur/error.h"
#include "murmur/export.h"
#include "murmur/flock.h"
#include "murmur/scene.h"
#include "murmur/video.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most panels a session draws (experiment conditions side by side).
#define MUR_SESSION_MAX_PANELS 64

/// The version of mur_session_opts this header describes.
#define MUR_SESSION_OPTS_VERSION 2

/// How a session runs. Start from MUR_SESSION_OPTS_INIT, then set fields.
typedef struct mur_session_opts {
    unsigned version;             ///< MUR_SESSION_OPTS_VERSION
    int threads;                  ///< threads stepping each flock and drawing each frame (bands,
                                  ///< density): 0 = all cores, 1 = the single-threaded reference
                                  ///< (same frames either way)
    volatile sig_atomic_t *stop;  ///< polled by every long loop; non-zero stops it with
                                  ///< MUR_EINTR (a signal handler sets it). NULL: never
    int condition;                ///< -1: the scene as it is (a panel per condition when its
                                  ///< layout asks); c: only the scene's experiment condition c
                                  ///< (s->conditions[c]), one flock, one panel
    int run;                      ///< -1: the scene's seed; k: the seed of an experiment's run
                                  ///< k, mur_rng_derive(seed, k) (0 is the scene's seed), so
                                  ///< the flock is the one that run steps (experiment.h)
} mur_session_opts;

/// Defaults: all cores, no stop flag, the scene as it is with its own seed.
#define MUR_SESSION_OPTS_INIT {MUR_SESSION_OPTS_VERSION, 0, NULL, -1, -1}

/// Fill *out with MUR_SESSION_OPTS_INIT (for bindings that cannot use the macro).
MUR_API void mur_session_opts_init(mur_session_opts *out);

typedef struct mur_session mur_session;

/// Create a session of scene s (which must outlive it): a flock per panel
/// (condition overrides applied, same seed), the warm-up run, a renderer at
/// the scene's size. The caller owns *out (mur_session_destroy). MUR_EINPUT
/// for an unknown opts version, too many panels, a condition outside
/// [-1, s->nconditions) or a run outside [-1, 100000), MUR_EINTR when stopped
/// in the warm-up, MUR_ERUN when out of memory.
MUR_API int mur_session_create(mur_session **out, const mur_scene *s, const mur_session_opts *opts,
                               mur_error *err);

/// Free a session; NULL is fine.
MUR_API void mur_session_destroy(mur_session *ss);

/// The scene the session was created from.
MUR_API const mur_scene *mur_session_scene(const mur_session *ss);

/// Number of panels (flocks) the session draws, 1 .. MUR_SESSION_MAX_PANELS.
MUR_API int mur_session_panels(const mur_session *ss);

/// The flock of panel i as last stepped; owned by the session.
MUR_API const mur_flock *mur_session_flock(const mur_session *ss, int panel);

/// Ticks every panel's flock has run, counted from the first frame (0 after create).
MUR_API long mur_session_tick(const mur_session *ss);

/// Change the model setting `name` (a scene key of docs/model.md, e.g.
/// "alignment"; a choice by its index) to value in every panel from the next
/// tick on: the settings the timeline starts from (the scene's, with the
/// condition's overrides) change, so the timeline's own `set` and `ramp`
/// entries of that setting still apply on top. MUR_EINPUT naming the
/// setting for an unknown name or a value out of its range.
MUR_API int mur_session_set(mur_session *ss, const char *name, double value, mur_error *err);

/// Step every panel's flock to `tick` (counted from the first frame; never
/// backwards: a later call with a smaller tick does nothing).
MUR_API int mur_session_run_to(mur_session *ss, long tick, mur_error *err);

/// Step to frame k and draw it into the session's own image (MUR_EINPUT for a
/// frame before the session's tick: flocks do not step backwards): ARGB32 rows of
/// *stride bytes, premultiplied, native-endian, opaque, the scene's size.
/// *pixels stays valid until the next draw or destroy.
MUR_API int mur_session_frame(mur_session *ss, long k, const uint8_t **pixels, int *stride,
                              mur_error *err);

/// Step to frame k (not before the session's tick: MUR_EINPUT) and draw it onto cr, a program's own Cairo context
/// (an image surface on its own buffer, a PDF, a window), covering (0, 0)
/// to (width, height) of cr's user space.
MUR_API int mur_session_draw(mur_session *ss, long k, cairo_t *cr, double width, double height,
                             mur_error *err);

/// The provenance of a file made by this session (mur_scene_provenance):
/// the seed its flocks started from and, when opts chose an experiment
/// condition or run, an "experiment: condition NAME, run K" line before the
/// request (lines saying what was made; may be NULL). Stills store it
/// themselves. The caller frees *out with mur_free. 0, or MUR_ERUN.
MUR_API int mur_session_provenance(const mur_session *ss, const char *request, char **out,
                                   mur_error *err);

/// Step to frame k (not before the session's tick: MUR_EINPUT) and write it as a still: .png at the scene's size, .pdf
/// or .svg as vectors one paper column wide, carrying the session's
/// provenance (mur_session_provenance). The file appears at path only
/// when complete. MUR_EINPUT for another extension.
MUR_API int mur_session_still(mur_session *ss, long k, const char *path, mur_error *err);

/// Frame index of a time of video (12s, 1.5s, 900t; see mur_time_parse):
/// the first frame at or after it. MUR_EINPUT when text is not a time in
/// [0, MUR_SCENE_MAX_SECONDS]; err is left for the caller to word.
MUR_API int mur_session_frame_at(const mur_scene *s, const char *text, long *out);

/// The version of mur_render_opts this header describes.
#define MUR_RENDER_OPTS_VERSION 4

/// What mur_render_opts.subtitles asks for (flags).
#define MUR_SUBTITLES_FILES 1     ///< NAME.srt and NAME.vtt beside the video (a PNG sequence:
                                  ///< captions.srt and captions.vtt in its folder)
#define MUR_SUBTITLES_EMBED 2     ///< a soft subtitle track in the file (.mp4, .mov, .webm)

/// Progress of a render: frames done of total, bytes written so far.
typedef void (*mur_render_progress)(void *ctx, long done, long total, int64_t bytes);

/// What mur_session_render writes. Start from MUR_RENDER_OPTS_INIT.
typedef struct mur_render_opts {
    unsigned version;             ///< MUR_RENDER_OPTS_VERSION
    const char *path;             ///< output file; its extension picks the format (video.h)
    long first, last;             ///< frames [first, last); last < 0 = to the end
    const char *preset;           ///< x264 speed/size preset, NULL = medium (video.h)
    const char *metadata;         ///< provenance text stored in the file; may be NULL
    int queue;                    ///< frames buffered for the encoding thread (0 = encode in
                                  ///< the caller's thread; same bytes either way)
    mur_render_progress progress; ///< called after each frame; may be NULL
    void *progress_ctx;
    /* version 2 */
    int subtitles;                ///< the captions as subtitles: MUR_SUBTITLES_* flags, 0 = none.
                                  ///< Chapters (timeline `chapter:`) are always written
    /* version 3 */
    int chunk, nchunks;           ///< 1..nchunks: only chunk `chunk` of the frames [first,
                                  ///< last) cut into nchunks on segment boundaries
                                  ///< (mur_video_chunk_frames), written for mur_video_join;
                                  ///< 0 = all of them. No subtitles with a chunk
    /* version 4 */
    long loop;                    ///< frames the end crossfades into the start over, so the file
                                  ///< loops without a jump (a GIF on a web page): the file holds
                                  ///< frames [first, last - loop), its first `loop` blended with
                                  ///< the last `loop` of the range; at most half the range, no
                                  ///< chunk. 0 = none
} mur_render_opts;

/// Defaults: the whole video, medium preset, no queue, no progress, no subtitles.
#define MUR_RENDER_OPTS_INIT {MUR_RENDER_OPTS_VERSION, NULL, 0, -1, NULL, NULL, 0, NULL, NULL, 0, 0, 0, 0}

/// Fill *out with MUR_RENDER_OPTS_INIT (for bindings that cannot use the macro).
MUR_API void mur_render_opts_init(mur_render_opts *out);

/// The chapters and the captions (as subtitles) of frames [first, last) of
/// s, in seconds from frame `first`: chapters from timeline `chapter:`
/// entries (and every caption when video.chapters is `captions`), each to
/// the next one's start; captions clipped to the part. The caller frees
/// both arrays with mur_free (their texts are the scene's). 0 or MUR_ERUN.
MUR_API int mur_scene_texts(const mur_scene *s, long first, long last, mur_video_text **chapters,
                            int *nchapters, mur_video_text **subtitles, int *nsubtitles,
                            mur_error *err);

/// What a render made.
typedef struct mur_render_result {
    long frames;                  ///< frames in the file (0: no file)
    int width, height;            ///< size encoded: the scene's, rounded down to even sizes
                                  ///< for formats that need them
} mur_render_result;

/// Render frames [first, last) of the session into a video file; *res (may
/// be NULL) says what was made. Stopped (MUR_EINTR) after some frames, the
/// file is finalised with those frames, playable; stopped before the first,
/// nothing is written. MUR_EINPUT for an empty or bad range, a bad path or a
/// scene whose fps is not whole; MUR_ERUN for I/O and encoder failures (no
/// file is left).
MUR_API int mur_session_render(mur_session *ss, const mur_render_opts *o, mur_render_result *res,
                               mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
