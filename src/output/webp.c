/* The provenance of an animated WebP: an XMP packet in the file's "XMP "
 * chunk (the WebP container's place for metadata), added with libwebp's
 * own muxer (libwebpmux) to the file libwebp's animation encoder made.
 *
 * libavformat's webp muxer has no metadata: it writes the one packet of
 * libavcodec's libwebp_anim, which is the whole file as WebPAnimEncoder
 * assembled it, and ignores the container's "comment" tag. So the sink
 * muxes into memory (stream.c), and here WebPMuxCreate parses those bytes,
 * WebPMuxSetChunk adds the packet and WebPMuxAssemble writes the file
 * again: the frames' chunks (ANMF, with their offsets, durations, blending
 * and disposal) and the ANIM chunk (background, loop count) are copied as
 * they were; VP8X gains its XMP flag and the RIFF size grows by the chunk.
 *
 * The packet is one rdf:Description holding murmur:provenance, the text
 * XML-escaped: what a PNG keeps in its iTXt chunk of that name. & < > are
 * entities, a carriage return is &#13; (an XML reader turns a raw one into a
 * line feed); bytes XML cannot hold at all (control characters other than
 * tab, line feed and carriage return; bytes that are not UTF-8) become
 * U+FFFD, so the packet is well-formed whatever a path or a scene holds. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <webp/mux.h>

#include "murmur/alloc.h"
#include "sink.h"

/* The namespace of murmur's XMP properties. */
#define XMP_NS "urn:murmur:xmp:1/"

static const char xmp_head[] =
    "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
    "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
    " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
    "  <rdf:Description rdf:about=\"\" xmlns:murmur=\"" XMP_NS "\">\n"
    "   <murmur:provenance>";
static const char xmp_tail[] =
    "</murmur:provenance>\n"
    "  </rdf:Description>\n"
    " </rdf:RDF>\n"
    "</x:xmpmeta>\n"
    "<?xpacket end=\"r\"?>";

/* Bytes of the UTF-8 sequence at p (at most n bytes left) that XML may
 * hold, or 0 when it is not one (overlong, a surrogate, past U+10FFFF,
 * U+FFFE/U+FFFF, cut short). */
static size_t utf8_char(const unsigned char *p, size_t n)
{
    unsigned c = p[0], len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (!len || len > n)
        return 0;
    uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    for (unsigned i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
        return 0;
    if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r')
        return 0;
    return len;
}

char *mur_out_xmp_packet(const char *text)
{
    size_t n = strlen(text);
    /* at most 5 bytes out for one in (&#13; &amp;; U+FFFD is 3) */
    size_t cap = sizeof xmp_head + n * 5 + sizeof xmp_tail;
    char *buf = mur_malloc(cap);
    if (!buf)
        return NULL;
    size_t at = sizeof xmp_head - 1;
    memcpy(buf, xmp_head, at);
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < n;) {
        const char *e = p[i] == '&' ? "&amp;" : p[i] == '<' ? "&lt;" : p[i] == '>' ? "&gt;" : p[i] == '\r' ? "&#13;" : NULL;
        size_t len = e ? 1 : utf8_char(p + i, n - i);
        if (!len)
            e = "\xEF\xBF\xBD";   /* U+FFFD for one byte XML cannot hold */
        if (e) {
            memcpy(buf + at, e, strlen(e));
            at += strlen(e);
            i++;
        } else {
            memcpy(buf + at, p + i, len);
            at += len;
            i += len;
        }
    }
    memcpy(buf + at, xmp_tail, sizeof xmp_tail);   /* with its terminating 0 */
    return buf;
}

int mur_out_webp_add_xmp(const uint8_t *bytes, size_t n, const char *xmp, uint8_t **out, size_t *out_n,
                         const char *path, mur_error *err)
{
    WebPData in = {bytes, n}, chunk = {(const uint8_t *)xmp, strlen(xmp)}, assembled = {NULL, 0};
    *out = NULL;
    *out_n = 0;
    WebPMux *mux = WebPMuxCreate(&in, 0);   /* 0: refers to bytes, copies nothing */
    if (!mux)
        return mur_error_set(err, MUR_ERUN, "cannot store the provenance in '%s': libwebp cannot parse "
                             "the file its encoder made", path);
    WebPMuxError e = WebPMuxSetChunk(mux, "XMP ", &chunk, 0);
    if (e == WEBP_MUX_OK)
        e = WebPMuxAssemble(mux, &assembled);
    WebPMuxDelete(mux);
    if (e != WEBP_MUX_OK) {
        WebPDataClear(&assembled);
        return mur_error_set(err, MUR_ERUN, "cannot store the provenance in '%s': %s", path,
                             e == WEBP_MUX_MEMORY_ERROR ? "out of memory" : "libwebp's muxer failed");
    }
    *out = (uint8_t *)assembled.bytes;
    *out_n = assembled.size;
    return MUR_OK;
}

void mur_out_webp_free(uint8_t *bytes)
{
    WebPFree(bytes);
}
