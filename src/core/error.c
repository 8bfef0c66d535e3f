/* Error records: one formatted line, never printed by the library. */
#include "murmur/error.h"

#include <stdio.h>
#include <string.h>

int mur_error_vset(mur_error *err, int code, const char *fmt, va_list ap)
{
    if (err)
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
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
