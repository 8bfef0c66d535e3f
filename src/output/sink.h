/* The output module's insides: one "sink" per family of formats, behind
 * mur_video (video.c), which checks the options, picks the format by
 * extension and runs the queue and encoding thread.
 *
 * - stream.c: a libavcodec encoder into a libavformat container (.mp4 H.264,
 *   .webm VP9, .mov ProRes), converted to YUV with BT.709 coefficients;
 *   .webp (an animated WebP: libwebp's animation encoder, one encoder for
 *   the whole clip, fed RGB; muxed in memory, its provenance added by
 *   webp.c, then written);
 * - gif.c: two passes through libavfilter (palettegen, then paletteuse) over
 *   a lossless intermediate of the frames, then the GIF encoder;
 * - sequence.c: one PNG per frame, numbered by a printf-style pattern.
 *
 * A sink is only ever used from one thread at a time (but for convert, see
 * below); the byte counter is the one thing another thread reads while it
 * works. Each sink's state is
 * its own struct, passed through video.c as a void pointer. */
#ifndef MURMUR_OUTPUT_SINK_H
#define MURMUR_OUTPUT_SINK_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixfmt.h>

#include "murmur/video.h"

/* Encoding threads of every codec: a constant, never the machine's core
 * count, because x264's frame threading changes the bitstream with the
 * thread count (deterministically for a given count). Eight keeps a 2-core
 * machine busy and an 8-core one mostly busy while the caller draws; any
 * value gives the same decoded frames for any --threads. */
#define MUR_OUT_THREADS 8

typedef struct mur_format mur_format;

/* What a sink does; the video layer calls them in the order open, write*,
 * then exactly one of close or abort. */
typedef struct mur_sink_ops {
    /* Open for frames of w x h (already rounded as the format needs).
     * bytes: where to publish the bytes on disk so far. Returns MUR_OK, or
     * MUR_EINPUT/MUR_ERUN with err filled and nothing left on disk. */
    int (*open)(void **out, const mur_format *f, const mur_video_opts *o, int w, int h,
                _Atomic int64_t *bytes, mur_error *err);
    /* One ARGB32 frame of at least w x h pixels. */
    int (*write)(void *s, const uint8_t *pixels, int stride, mur_error *err);
    /* Finish and publish under the final name(s); frees s, and on failure
     * removes what it wrote. */
    int (*close)(void *s, mur_error *err);
    /* Free s and remove everything it wrote. */
    void (*abort)(void *s);
    /* Optional (all four or none): a queue of frames as the encoder takes
     * them. slot_new makes a slot (NULL when memory is short); convert
     * fills one from the caller's pixels, in the caller's thread; write_slot
     * encodes one, in the encoding thread; slot_free frees one. convert and
     * write_slot run at once on different slots and share nothing else of
     * s. Without them the queue holds copies of the pixels for write. */
    void *(*slot_new)(void *s);
    int (*convert)(void *s, void *slot, const uint8_t *pixels, int stride, mur_error *err);
    int (*write_slot)(void *s, void *slot, mur_error *err);
    void (*slot_free)(void *slot);
} mur_sink_ops;

/* One output format: a row of video.c's table. */
struct mur_format {
    const char *ext;          /* lower-case, with the dot; compared ignoring case */
    const char *label;        /* what the user knows the codec as, for messages */
    const char *encoder;      /* libavcodec encoder name */
    enum AVCodecID codec;     /* what it writes: join checks parts by it, needing no encoder */
    const char *muxer;        /* libavformat short name (stream sinks) */
    const char *muxer_opts;   /* "k=v:k=v" options for avformat_write_header, or "" */
    enum AVPixelFormat pix_fmt; /* what the encoder is fed */
    int even;                 /* chroma subsampling: sizes rounded down to even */
    int max_fps;              /* highest frame rate the format shows faithfully */
    /* Codec-private options (quality, preset, threads) for the format's own
     * encoder; not called when opts->encoder overrides it. */
    int (*configure)(AVCodecContext *enc, const mur_video_opts *o);
    const mur_sink_ops *ops;
    /* An animated image (.webp): one encoder for the whole clip, whose one
     * packet at the end is the file; no segments, so no chunks or join, and
     * no chapters or subtitle track. 0 for the others. */
    int animation;
};

extern const mur_sink_ops mur_stream_sink;
extern const mur_sink_ops mur_gif_sink;
extern const mur_sink_ops mur_sequence_sink;

/* chapters.c: chapters and a subtitle track of a stream sink. Open adds
 * o's chapters and, when o has subtitles, a subtitle stream to mux (before
 * its header; *out NULL when there is none); write sends the subtitles to
 * the interleaver (after the header). path: for messages. */
typedef struct mur_texts mur_texts;
int mur_texts_open(mur_texts **out, AVFormatContext *mux, const mur_video_opts *o, const char *path,
                   mur_error *err);
int mur_texts_write(mur_texts *t, AVFormatContext *mux, const mur_video_opts *o, const char *path,
                    mur_error *err);
void mur_texts_free(mur_texts *t);

/* The conversion of a width x height frame of Cairo's ARGB32 to dst (BT.709,
 * limited range, bit-exact; stream.c says why each flag) on `threads` of
 * swscale's slice threads: the same bytes for any count. NULL when swscale
 * refuses it; free with sws_freeContext. */
struct SwsContext *mur_out_converter(int width, int height, enum AVPixelFormat dst, int threads);

/* The x264 preset names, NULL-terminated, fastest first. */
extern const char *const mur_x264_presets[];

/* Encoder configurations for the table (stream.c). */
int mur_out_configure_x264(AVCodecContext *enc, const mur_video_opts *o);
int mur_out_configure_vp9(AVCodecContext *enc, const mur_video_opts *o);
int mur_out_configure_prores(AVCodecContext *enc, const mur_video_opts *o);
int mur_out_configure_prores4444(AVCodecContext *enc, const mur_video_opts *o);
int mur_out_configure_qtrle(AVCodecContext *enc, const mur_video_opts *o);
int mur_out_configure_webp(AVCodecContext *enc, const mur_video_opts *o);

/* webp.c: the provenance of an animated WebP, as an XMP chunk.
 * mur_out_xmp_packet: an XMP packet whose murmur:provenance property is
 * text, XML-escaped (NULL when out of memory; free with mur_free).
 * mur_out_webp_add_xmp: the WebP file bytes[0..n) with the packet xmp in
 * its "XMP " chunk, into *out (*out_n bytes; free with mur_out_webp_free);
 * MUR_ERUN with err naming path when libwebp's muxer cannot. */
char *mur_out_xmp_packet(const char *text);
int mur_out_webp_add_xmp(const uint8_t *bytes, size_t n, const char *xmp, uint8_t **out, size_t *out_n,
                         const char *path, mur_error *err);
void mur_out_webp_free(uint8_t *bytes);

/* The format path's extension names, or NULL with err filled (video.c). */
const mur_format *mur_out_format_of(const char *path, mur_error *err);

/* The format of a .gif chunk (lossless frames for join; video.c). */
const mur_format *mur_out_gif_chunk_format(void);

/* "<dir>/.<base><suffix>.part.<pid>": mur_file_temp_name (murmur/file.h),
 * the one maker of every writer's temporary names. Each sink's open first
 * removes the temporaries of its target left by dead processes. NULL when
 * out of memory. Caller frees. */
char *mur_out_temp_name(const char *path, const char *suffix);

/* 0 when path names an image sequence with one frame number in its file
 * name (DIR/%05d.png), else MUR_EINPUT with err saying so (sequence.c). */
int mur_sequence_check(const char *path, mur_error *err);

/* The encoder for f (or o->encoder), or NULL with err naming it as missing. */
const AVCodec *mur_out_find_encoder(const mur_format *f, const mur_video_opts *o,
                                    mur_error *err);

#endif
