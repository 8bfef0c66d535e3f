/* Error records: one formatted line, never printed by the library.
 *
 * A message often quotes a file's bytes (a CSV field, a header line, a
 * caption): a control character among them would reach the user's
 * terminal (ESC sequences retitle or clear it) or split the line (a quoted
 * newline). Every message is formatted here, so every control byte is
 * written as \xHH here, once, for all of them. */
#include "murmur/error.h"

#include <stdio.h>
#include <string.h>

/* fontconfig 2.14 (Debian 12) loses 288 bytes while it parses its
 * configuration (FcInitLoadConfigAndFonts), once per process, in the thread
 * Pango starts for it. Not ours to fix, and LeakSanitizer would fail every
 * program that draws text (Pango in the renderer, librsvg's text when the
 * scene loader checks an SVG image); this hook (read by LSan in sanitizer builds,
 * unused otherwise) ignores leaks allocated inside fontconfig. It names the
 * library, not the function: the fast unwinder LSan uses by default stops
 * at fontconfig's first frame. */
/* The hooks live here, in the file every program that links murmur
 * takes (errors are everywhere), not beside the text drawing: a program
 * that only loads scenes takes no object of the renderer from the static
 * library, and would miss them.
 * The sanitizer runtime looks these hooks up by name in the executable,
 * so they stay visible though the library hides everything it does not
 * export; only an AddressSanitizer build (the CMake option, .ci/fuzz) has
 * them, so the library a host program links exports mur_ names alone. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)   /* clang */
#define MUR_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(MUR_ASAN)   /* GCC, clang */
#define MUR_VISIBLE __attribute__((visibility("default")))
MUR_VISIBLE const char *__lsan_default_suppressions(void);
MUR_VISIBLE const char *__lsan_default_suppressions(void) { return "leak:libfontconfig.so\n"; }
/* and says nothing of it, so a program's stderr stays its own */
MUR_VISIBLE const char *__lsan_default_options(void);
MUR_VISIBLE const char *__lsan_default_options(void) { return "print_suppressions=0"; }
#endif

size_t mur_escape_controls(char *out, size_t n, const char *text)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && n; p++) {
        int control = *p < 0x20 || *p == 0x7f;
        if (k + (control ? 4 : 1) >= n)
            break;
        if (control) {
            out[k++] = '\\';
            out[k++] = 'x';
            out[k++] = hex[*p >> 4];
            out[k++] = hex[*p & 15];
        } else {
            out[k++] = (char)*p;
        }
    }
    if (n)
        out[k] = 0;
    return k;
}

int mur_error_vset(mur_error *err, int code, const char *fmt, va_list ap)
{
    if (err) {
        char raw[sizeof err->msg];
        vsnprintf(raw, sizeof raw, fmt, ap);
        mur_escape_controls(err->msg, sizeof err->msg, raw);
    }
    return code;
}

int mur_error_set(mur_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mur_error_vset(err, code, fmt, ap);
    va_end(ap);
    return code;
}

int mur_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    int row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int sub = prev + (a[i - 1] != b[j - 1]);
            int del = row[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            prev = cur;
        }
    }
    return row[lb];
}
