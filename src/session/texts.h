/* Sidecar subtitle files of a render (texts.c). Private to src/session. */
#ifndef MURMUR_SESSION_TEXTS_H
#define MURMUR_SESSION_TEXTS_H

#include "murmur/video.h"

/* NAME.srt and NAME.vtt beside the video at path (for a PNG sequence
 * DIR/%05d.png: DIR/captions.srt and .vtt), each holding subs. 0, or the
 * error of the first that could not be written. */
int mur_session_sidecars(const char *path, const mur_video_text *subs, int n, mur_error *err);

#endif
