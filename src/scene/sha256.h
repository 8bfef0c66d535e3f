/* SHA-256 of what a scene read (its text, a replay, a saved state), for the
 * provenance that pins a run's inputs. libavutil's av_sha does the hashing.
 * Private to src/scene. */
#ifndef MURMUR_SCENE_SHA256_H
#define MURMUR_SCENE_SHA256_H

#include <stddef.h>

/* 64 hex digits and a terminator. */
#define MUR_SHA256_HEX 65

/* The SHA-256 of n bytes at data as lowercase hex (what sha256sum prints).
 * 0, or -1 when out of memory (out is then ""). */
int mur_sha256_hex(const void *data, size_t n, char out[MUR_SHA256_HEX]);

/* The same of the file at path, read whole. 0, or -1 when it cannot be read
 * or memory is short (out is then ""). */
int mur_sha256_file(const char *path, char out[MUR_SHA256_HEX]);

#endif
