/* Reading a PNG's text chunks back, for the provenance tests: walks the
 * chunks from the signature, checks each one's CRC with zlib (an
 * implementation independent of the writer's), and returns the text of a
 * tEXt or an uncompressed iTXt chunk by keyword. */
#ifndef MURMUR_TEST_PNG_TEXT_H
#define MURMUR_TEST_PNG_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "harness.h"

static inline uint32_t png_be32(const unsigned char *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* The text under keyword key in the PNG at path (malloc'd, 0-terminated),
 * or NULL when absent. *bad_crc counts chunks whose CRC is wrong; *order
 * (may be NULL) receives the chunk types in file order, 4 letters each,
 * up to 63 chunks. */
static inline char *png_text(const char *path, const char *key, int *bad_crc, char *order)
{
    size_t n = 0;
    unsigned char *d = (unsigned char *)test_slurp(path, &n);
    char *found = NULL;
    *bad_crc = 0;
    if (order)
        order[0] = 0;
    if (!d || n < 8 || memcmp(d, "\x89PNG\r\n\x1a\n", 8)) {
        free(d);
        return NULL;
    }
    int k = 0;
    for (size_t at = 8; at + 12 <= n; k++) {
        uint32_t len = png_be32(d + at);
        if (at + 12 + len > n)
            break;
        const unsigned char *type = d + at + 4, *body = type + 4;
        if ((uint32_t)crc32(0L, type, len + 4) != png_be32(body + len))
            (*bad_crc)++;
        if (order && k < 63) {
            memcpy(order + 4 * k, type, 4);
            order[4 * k + 4] = 0;
        }
        size_t kl = strlen(key);
        int text = !memcmp(type, "tEXt", 4), itxt = !memcmp(type, "iTXt", 4);
        if (!found && (text || itxt) && len > kl && !memcmp(body, key, kl) && body[kl] == 0) {
            /* iTXt: keyword 0, compression 0, method 0, language 0, translated 0, text */
            size_t skip = text ? kl + 1 : kl + 3;
            for (int z = 0; itxt && z < 2 && skip < len; z++)
                skip += strnlen((const char *)body + skip, len - skip) + 1;
            if (skip <= len && (text || body[kl + 1] == 0)) {
                found = malloc(len - skip + 1);
                memcpy(found, body + skip, len - skip);
                found[len - skip] = 0;
            }
        }
        at += 12 + len;
    }
    free(d);
    return found;
}

#endif
