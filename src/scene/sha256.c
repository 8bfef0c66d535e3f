/* SHA-256 through libavutil (sha256.h): the provenance names every input
 * file by its hash, so a reader can check that the scene, the replay and
 * the saved state they hold are the ones a result came from (sha256sum
 * prints the same hex). */
#include "sha256.h"

#include <libavutil/mem.h>
#include <libavutil/sha.h>
#include <stdint.h>
#include <stdio.h>

static void to_hex(const uint8_t digest[32], char out[MUR_SHA256_HEX])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    out[64] = 0;
}

int mur_sha256_hex(const void *data, size_t n, char out[MUR_SHA256_HEX])
{
    struct AVSHA *sha = av_sha_alloc();
    uint8_t digest[32];
    out[0] = 0;
    if (!sha || av_sha_init(sha, 256) < 0) {
        av_free(sha);
        return -1;
    }
    av_sha_update(sha, data, n);
    av_sha_final(sha, digest);
    av_free(sha);
    to_hex(digest, out);
    return 0;
}

int mur_sha256_file(const char *path, char out[MUR_SHA256_HEX])
{
    struct AVSHA *sha = av_sha_alloc();
    FILE *fp = fopen(path, "rb");
    uint8_t buf[65536], digest[32];
    int rc = -1;
    out[0] = 0;
    if (!sha || !fp || av_sha_init(sha, 256) < 0)
        goto fail;
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, fp)) > 0)
        av_sha_update(sha, buf, got);
    if (ferror(fp))
        goto fail;
    av_sha_final(sha, digest);
    to_hex(digest, out);
    rc = 0;
fail:
    if (fp)
        fclose(fp);
    av_free(sha);
    return rc;
}
