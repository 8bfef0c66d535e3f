/* The text of a number in murmur's CSV and JSON files (murmur/numfmt.h):
 * one function, so every writer gives the same text for the same double. */
#include "murmur/numfmt.h"

#include <stdio.h>

int mur_format_double_digits(char *buf, size_t size, double v, int digits)
{
    if (v == 0)
        v = 0;   /* -0 as 0 */
    return snprintf(buf, size, "%.*g", digits, v);
}

int mur_format_double(char *buf, size_t size, double v)
{
    return mur_format_double_digits(buf, size, v, MUR_FORMAT_EXACT);
}
