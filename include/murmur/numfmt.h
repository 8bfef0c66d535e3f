/* murmur: the text of a number in the files murmur writes. Every double
 * written to a CSV or a JSON file (traces, stats tables, per-run values,
 * series) goes through this one function, so the formats agree and a change
 * of the text is made in one place. Part of the core (libc only). */
#ifndef MURMUR_NUMFMT_H
#define MURMUR_NUMFMT_H

#include "murmur/export.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Digits that give any double back exactly (%.17g).
#define MUR_FORMAT_EXACT 17

/// Digits of a summary's numbers in a stats table (%.9g).
#define MUR_FORMAT_SUMMARY 9

/// Write finite v to buf (size bytes) as %.*g with `digits` significant
/// digits (MUR_FORMAT_EXACT: the text reads back to v exactly); negative
/// zero is written 0 (a reader's "-0" is noise, and equals 0). Returns
/// snprintf's count. Non-finite values are the caller's (empty in CSV,
/// null in JSON).
MUR_API int mur_format_double_digits(char *buf, size_t size, double v, int digits);

/// mur_format_double_digits(buf, size, v, MUR_FORMAT_EXACT).
MUR_API int mur_format_double(char *buf, size_t size, double v);

/// Room for any number's text.
#define MUR_FORMAT_SIZE 32

#ifdef __cplusplus
}
#endif

#endif
