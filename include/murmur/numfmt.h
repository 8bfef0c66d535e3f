/* murmur: the text of a number in the files murmur writes. Every double
 * written to a CSV or a JSON file (traces, stats tables, per-run values,
 * series, provenance) goes through this one function, so the formats agree
 * and a change of the text is made in one place. Part of the core (libc only). */
#ifndef MURMUR_NUMFMT_H
#define MURMUR_NUMFMT_H

#include "murmur/export.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Room for any number's text, its terminator included.
#define MUR_FORMAT_SIZE 32

/// Write v to buf (size >= MUR_FORMAT_SIZE bytes) as the shortest text that
/// strtod reads back to exactly v ("122.9", "0.5", "1e-09"); negative zero
/// is written "0" (it equals 0). NaN and the infinities give "nan", "inf"
/// and "-inf" (CSV writers leave them empty, JSON writers put null).
/// Returns the text's length.
MUR_API int mur_format_double(char *buf, size_t size, double v);

#ifdef __cplusplus
}
#endif

#endif
