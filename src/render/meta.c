/* Provenance inside stills and figures, in the place each format keeps it.
 *
 * PDF: the document information (title, creator, subject = the provenance
 * text, keywords = its first lines), through Cairo. PNG and SVG: Cairo has
 * no way to add metadata, so the bytes it writes pass through a filter
 * that adds it: after the PNG's IHDR chunk (which the format requires
 * first), text chunks with their CRC; after the SVG's opening <svg ...>
 * tag, a <metadata> element. Only metadata is added: the pixels and the
 * drawing are Cairo's bytes unchanged.
 *
 * Nothing written depends on the clock: a PDF's dates come from
 * SOURCE_DATE_EPOCH (the reproducible-builds convention) and are left out
 * without it, so the same command writes the same bytes. */
#include "internal.h"
#include "murmur/alloc.h"
#include "murmur/version.h"

#include <cairo-pdf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* PNG: 8 bytes of signature, then IHDR: length, type, 13 bytes, CRC. */
#define PNG_AFTER_IHDR (8 + 4 + 4 + 13 + 4)

/* The CRC-32 of PNG (ISO 3309, the one zlib computes), bit by bit: chunks
 * of a few kilobytes, once per file. */
static uint32_t crc_update(uint32_t crc, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
    }
    return crc;
}

static void be32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)(v >> 24);
    b[1] = (unsigned char)(v >> 16);
    b[2] = (unsigned char)(v >> 8);
    b[3] = (unsigned char)v;
}

/* One chunk of type `type` whose data is the concatenation of parts
 * (lengths given; -1 = up to the terminating 0, which is left out). */
static cairo_status_t png_chunk(mur_meta_writer *w, const char *type, const char *const *parts,
                                const long *lens, int n)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += lens[i] < 0 ? strlen(parts[i]) : (size_t)lens[i];
    unsigned char *buf = mur_malloc(total + 12);
    if (!buf)
        return CAIRO_STATUS_NO_MEMORY;
    be32(buf, (uint32_t)total);
    memcpy(buf + 4, type, 4);
    size_t at = 8;
    for (int i = 0; i < n; i++) {
        size_t l = lens[i] < 0 ? strlen(parts[i]) : (size_t)lens[i];
        memcpy(buf + at, parts[i], l);
        at += l;
    }
    be32(buf + at, crc_update(0xFFFFFFFFu, buf + 4, total + 4) ^ 0xFFFFFFFFu);
    cairo_status_t st = w->write(w->closure, buf, (unsigned)(total + 12));
    mur_free(buf);
    return st;
}

/* tEXt Software (Latin-1, short: what most viewers show), then iTXt
 * (UTF-8, uncompressed) for the title and the whole provenance. */
static cairo_status_t png_chunks(mur_meta_writer *w)
{
    const char *sw[] = {"Software", "", ("murmur " MUR_VERSION_STRING)};
    const long swl[] = {-1, 1, -1};
    cairo_status_t st = png_chunk(w, "tEXt", sw, swl, 3);
    /* iTXt: keyword, 0, compression flag 0, method 0, language "", 0,
     * translated keyword "", 0, text */
    static const char head[5] = {0, 0, 0, 0, 0};
    if (!st && w->title) {
        const char *it[] = {"Title", head, w->title};
        const long itl[] = {-1, 5, -1};
        st = png_chunk(w, "iTXt", it, itl, 3);
    }
    if (!st) {
        const char *it[] = {"murmur:provenance", head, w->text};
        const long itl[] = {-1, 5, -1};
        st = png_chunk(w, "iTXt", it, itl, 3);
    }
    return st;
}

/* The text inside an XML element: &, < and > as entities. */
static cairo_status_t svg_metadata(mur_meta_writer *w)
{
    size_t n = strlen(w->text), cap = n * 5 + 200;
    char *buf = mur_malloc(cap);
    if (!buf)
        return CAIRO_STATUS_NO_MEMORY;
    size_t at = (size_t)snprintf(buf, cap, "\n<metadata id=\"murmur-provenance\">");
    for (size_t i = 0; i < n; i++) {
        const char *e = w->text[i] == '&' ? "&amp;" : w->text[i] == '<' ? "&lt;" : w->text[i] == '>' ? "&gt;" : NULL;
        if (e) {
            memcpy(buf + at, e, strlen(e));
            at += strlen(e);
        } else {
            buf[at++] = w->text[i];
        }
    }
    at += (size_t)snprintf(buf + at, cap - at, "</metadata>");
    cairo_status_t st = w->write(w->closure, (const unsigned char *)buf, (unsigned)at);
    mur_free(buf);
    return st;
}

/* How many of data's bytes go before the metadata, or -1: not in these. */
static long insert_point(mur_meta_writer *w, const unsigned char *data, unsigned int length)
{
    if (w->format == MUR_META_PNG) {
        if (w->seen + length < PNG_AFTER_IHDR)
            return -1;
        return (long)(PNG_AFTER_IHDR - w->seen);
    }
    static const char open[] = "<svg";
    for (unsigned int i = 0; i < length; i++) {
        if (w->match < 4) {   /* looking for "<svg", across calls */
            w->match = data[i] == (unsigned char)open[w->match] ? w->match + 1 : data[i] == '<';
        } else if (data[i] == '>') {
            return (long)i + 1;
        }
    }
    return -1;
}

cairo_status_t mur_meta_write(void *closure, const unsigned char *data, unsigned int length)
{
    mur_meta_writer *w = closure;
    if (w->done || !w->text || w->format == MUR_META_NONE)
        return w->write(w->closure, data, length);
    long at = insert_point(w, data, length);
    if (at < 0) {
        w->seen += length;
        return w->write(w->closure, data, length);
    }
    cairo_status_t st = at ? w->write(w->closure, data, (unsigned)at) : CAIRO_STATUS_SUCCESS;
    w->done = 1;
    if (!st)
        st = w->format == MUR_META_PNG ? png_chunks(w) : svg_metadata(w);
    if (!st && (unsigned)at < length)
        st = w->write(w->closure, data + at, length - (unsigned)at);
    return st;
}

/* SOURCE_DATE_EPOCH as an ISO 8601 date for Cairo, into buf; 0 when it
 * is unset or not a plain count of seconds. */
static int source_date(char *buf, size_t n)
{
    const char *e = getenv("SOURCE_DATE_EPOCH");
    char *end;
    if (!e || !*e)
        return 0;
    errno = 0;
    long long v = strtoll(e, &end, 10);
    if (*end || errno || v < 0 || v > 253402300799LL)   /* up to 9999-12-31 */
        return 0;
    time_t t = (time_t)v;
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return 0;
    return strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0;
}

void mur_meta_pdf(cairo_surface_t *pdf, const char *title, const char *text)
{
    cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_TITLE, title ? title : "murmur");
    cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_CREATOR, "murmur " MUR_VERSION_STRING);
    if (text) {
        cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_SUBJECT, text);
        /* keywords: the version, scene and seed lines, on one line */
        char kw[512];
        size_t k = 0;
        int lines = 0;
        for (const char *p = text; *p && lines < 3 && k + 3 < sizeof kw; p++) {
            if (*p == '\n') {
                if (++lines < 3) {
                    kw[k++] = ';';
                    kw[k++] = ' ';
                }
            } else {
                kw[k++] = *p;
            }
        }
        kw[k] = 0;
        cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_KEYWORDS, kw);
    }
    /* Cairo stamps the time of writing unless told otherwise; a string
     * that is not a date leaves the date out. */
    char date[32];
    if (!source_date(date, sizeof date))
        strcpy(date, "none");
    cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_CREATE_DATE, date);
    cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_MOD_DATE, date);
}
