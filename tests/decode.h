/* A test-side video reader built directly on libavformat, libavcodec and
 * libswscale (never on murmur's writer), so tests check files the way a
 * player sees them: what the container and the stream say, and the decoded
 * pixels. Paths may be videos, GIFs or image sequence patterns
 * (DIR/%05d.png, starting at any number). */
#ifndef MURMUR_TEST_DECODE_H
#define MURMUR_TEST_DECODE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char codec[32];    /* libavcodec name of the first video stream's codec, e.g. "h264" */
    char pix_fmt[32];  /* decoder output, e.g. "yuv420p" */
    int width, height; /* coded size in pixels */
    int frames;        /* frames actually decoded */
    int primaries, trc, colorspace, range; /* AVCOL_* of the first decoded frame (from the bitstream) */
    double fps;        /* the stream's average frame rate */
} test_video_info;

/* Open path, decode every frame of its first video stream and describe it.
 * Returns 0, or -1 (with a line on stderr) when the file cannot be read. */
int test_video_probe(const char *path, test_video_info *out);

/* Decode frame `index` (0-based) and convert it to packed RGB24 with the
 * BT.709 limited->full range conversion. On success *rgb holds w*h*3 bytes
 * (caller frees with free()) and 0 is returned; otherwise -1. */
int test_video_frame_rgb(const char *path, int index, uint8_t **rgb, int *w, int *h);

/* Decode frame `index` and copy plane p of it as stored (Y, U or V of a
 * YUV frame: no conversion), its visible bytes only: *bytes holds *w * *h
 * bytes (caller frees with free()). 0, or -1. */
int test_video_frame_plane(const char *path, int index, int p, uint8_t **bytes, int *w, int *h);

/* FNV-1a 64 over one frame's planes, as test_video_hash reads each (0 when
 * its format has no planes to read): for frames the test made itself. */
struct AVFrame;
uint64_t test_frame_hash(const struct AVFrame *f);

/* FNV-1a 64 over every decoded frame's planes (Y, U, V; or packed RGB; and
 * the palette of a palette format), row by row, the visible width only
 * (never the padding). 0 when the file cannot be read. */
uint64_t test_video_hash(const char *path);

/* The same over frames first .. first+count-1 only; 0 when the file cannot
 * be read or has fewer frames. */
uint64_t test_video_hash_range(const char *path, int first, int count);

/* The container-level metadata tag `key` into buf (n bytes). Returns 0,
 * or -1 when the file cannot be read or has no such tag. */
int test_video_tag(const char *path, const char *key, char *buf, size_t n);

/* ---- animated WebP, read with libwebp's own demuxer and decoder (libavformat
 * 5.1 does not demux an animated WebP) ---- */

/* The whole of file path (*n bytes; caller frees with free()), or NULL. */
uint8_t *test_read_file(const char *path, size_t *n);

/* Frame `index` (0-based) of the animated WebP at path as the canvas a
 * browser shows, straight (unpremultiplied) RGBA: *rgba holds w*h*4 bytes
 * (caller frees with free()). 0, or -1. */
int test_webp_frame_rgba(const char *path, int index, uint8_t **rgba, int *w, int *h);

/* The provenance an animated WebP keeps: its XMP chunk's murmur:provenance
 * element, the text unescaped (&amp; &lt; &gt; &#13;), into buf (n bytes).
 * The packet is checked as it is read: the element once, no '<' inside it,
 * no other entity. 0, or -1 when the file cannot be read, has no XMP chunk
 * or the packet is not so. */
int test_webp_provenance(const char *path, char *buf, size_t n);

#endif
