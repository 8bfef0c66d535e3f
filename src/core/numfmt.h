/* Numbers as text for every CSV and JSON murmur writes: the shortest
 * decimal that reads back (strtod) to the very same double. */
#ifndef MURMUR_NUMFMT_H
#define MURMUR_NUMFMT_H

#include <stddef.h>

/// The shortest text of v that strtod reads back to exactly v ("122.9",
/// "0.5", "1e-09", "-0"), at most 24 bytes with its terminator: buf needs
/// n >= MUR_FORMAT_DOUBLE_MAX. NaN and the infinities give "nan", "inf" and
/// "-inf" (a JSON writer puts null instead: they have no JSON form).
/// Returns the text's length.
#define MUR_FORMAT_DOUBLE_MAX 32
int mur_format_double(char *buf, size_t n, double v);

#endif
