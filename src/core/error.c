/* Error records: one formatted line, never printed by the library. */
#include "murmur/error.h"

#include <stdio.h>

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
