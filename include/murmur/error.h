/* murmur: error records shared by every module.
 *
 * Library code never prints or exits: a failing call returns a negative code
 * and fills a mur_error with one line of text (for scenes, prefixed with
 * file:line:col). The CLI maps codes to exit statuses. */
#ifndef MURMUR_ERROR_H
#define MURMUR_ERROR_H

#include "murmur/export.h"

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Return codes: 0 is success, every failure is negative.
enum {
    MUR_OK = 0,
    MUR_EINPUT = -2,   ///< bad usage or bad scene: the user must change something (exit 2)
    MUR_ERUN = -1,     ///< failed while running: I/O, encoder, memory (exit 1)
    MUR_EINTR = -3,    ///< stopped by a signal; output so far was finalised (exit 130)
};

/// Whether an options struct of version v (its `version` field) is one this
/// murmur reads: the one check every entry point that takes a versioned
/// struct makes (older versions it still reads, up to the newest).
#define MUR_VERSION_OK(v, oldest, newest) ((v) >= (oldest) && (v) <= (newest))

/// One line describing the last failure; empty when none.
typedef struct mur_error {
    char msg[1024];
} mur_error;

/// Fill err (if not NULL) with a printf-style message; returns code.
MUR_API int mur_error_set(mur_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/// text into out (n bytes, NUL-terminated, cut short to fit) with every
/// control character (below 0x20, and 0x7f) written as \xHH, so quoted
/// bytes can neither drive a terminal nor break a message's one line.
/// Returns the length written. mur_error_set applies it to every message.
MUR_API size_t mur_escape_controls(char *out, size_t n, const char *text);

/// va_list form of mur_error_set.
MUR_API int mur_error_vset(mur_error *err, int code, const char *fmt, va_list ap);

/// Edits (insertions, deletions, substitutions: Levenshtein) between two
/// short words, for an error's "did you mean": 0 .. 63, or 99 when either
/// is longer than 63 bytes.
MUR_API int mur_edit_distance(const char *a, const char *b);

#ifdef __cplusplus
}
#endif

#endif
