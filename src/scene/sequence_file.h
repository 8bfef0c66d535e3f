/* Sequence files (sequence_file.c): many scenes played as one video.
 * Private to src/scene; the loaded entries are public (mur_scene.sequence). */
#ifndef MURMUR_SCENE_SEQUENCE_FILE_H
#define MURMUR_SCENE_SEQUENCE_FILE_H

#include <stddef.h>

#include "murmur/error.h"
#include "murmur/scene.h"
#include "murmur/variant.h"

/* Non-zero when the text is a YAML mapping with a top-level `sequence`
 * key: a sequence file, which mur_scene_parse hands to mur_sequence_parse. */
int mur_sequence_sniff(const char *src, size_t len);

/* Parse a sequence file (mur_scene_parse's contract): every entry's scene
 * loaded (paths relative to the file's folder), sizes and frame rates
 * matched or set by its `video:`, the entries laid out in frames; *out is
 * a scene whose video is the whole sequence (its `sequence` set). Errors
 * name file:line:col of the entry, key or transition at fault. */
int mur_sequence_parse(mur_scene **out, const char *name, const char *src, size_t len, mur_error *err);

/* Lay the entries of s out again after its size, fps or quality changed
 * (mur_scene_vary): each entry's scene given the same, the frames and the
 * video's duration counted anew. MUR_EINPUT when a transition no longer fits. */
int mur_sequence_vary(mur_scene *s, const mur_variant *v, mur_error *err);

/* Free a sequence and the scenes of its entries; NULL is fine. */
void mur_sequence_free(mur_sequence *q);

#endif
