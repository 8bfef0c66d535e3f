/* Playing a sequence file's entries as one video (play.c). Private to
 * src/session: a session of a sequence (mur_scene.sequence) holds one. */
#ifndef MURMUR_SESSION_PLAY_H
#define MURMUR_SESSION_PLAY_H

#include <stdint.h>

#include "murmur/session.h"
#include "murmur/video.h"

typedef struct mur_play mur_play;

/* A player of sequence scene s (s->sequence set) with the session's
 * options (threads, stop) for every entry's own session. The caller owns
 * *out (mur_play_destroy). MUR_ERUN when out of memory. */
int mur_play_create(mur_play **out, const mur_scene *s, const mur_session_opts *opts, mur_error *err);

/* Free a player and the entries' sessions it holds; NULL is fine. */
void mur_play_destroy(mur_play *p);

/* Frame k of the sequence, forward only (as a session's): the frame of the
 * entry that shows then, blended with the entry before in a crossfade,
 * darkened in a fade. ARGB32 rows of *stride bytes, valid until the next
 * call. An entry's session is made when its first frame is asked for and
 * freed once the sequence is past it. */
int mur_play_frame(mur_play *p, long k, const uint8_t **pixels, int *stride, mur_error *err);

/* out = a + (b - a) * weight / 256 per byte of every pixel of w x h frames
 * (rows of the given strides; b NULL: black): integer arithmetic, the same
 * on every machine. out may be a. */
void mur_play_blend(uint8_t *out, int ostride, const uint8_t *a, int astride, const uint8_t *b, int bstride,
                    int w, int h, unsigned weight);

/* A still of frame k: the still of the entry that shows then, at its own
 * frame (mur_session_still, with that scene's provenance; a crossfade's
 * still is its second entry's). */
int mur_play_still(mur_play *p, long k, const char *path, mur_error *err);

/* The provenance of a render of the sequence: murmur's version, the
 * sequence file, the request, every entry with its frames, each entry's
 * scene's own provenance, and the sequence file's text. Free *out with mur_free. */
int mur_play_provenance(const mur_scene *s, const char *request, char **out, mur_error *err);

/* Every chapter start and every caption of the whole sequence, in seconds
 * of the sequence (chapters: start only, in time order; captions: start
 * and end), the entries' own shifted to where they play; each entry that
 * opens with no chapter of its own opens one with its title (a title
 * card's text, a scene's `title:`). The caller frees both with mur_free. */
int mur_play_texts(const mur_scene *s, mur_video_text **chapters, int *nchapters, mur_video_text **captions,
                   int *ncaptions, mur_error *err);

#endif
