/* mur_format_double: the one place a double becomes text in a CSV or a
 * JSON file (numfmt.h).
 *
 * %.17g always reads back exactly but turns a tracker's 122.9 into
 * 122.90000000000001; %.15g is short but can lose the last bits. Whenever
 * some decimal of at most 15 significant digits reads back to v, %.15g
 * gives it (a double's half-ulp is below half a unit of its 15th digit, so
 * rounding v to 15 digits lands on that decimal) with its trailing zeros
 * dropped, which makes it the shortest; otherwise %.16g, then %.17g, which
 * always reads back. (Fewer digits in %g's exponent form are never shorter
 * text than its plain form of the same value.) */
#include "murmur/numfmt.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mur_format_double(char *buf, size_t n, double v)
{
    if (v == 0)
        v = 0;   /* -0 as 0: a reader's "-0" is noise, and equals 0 */
    if (!isfinite(v))
        return snprintf(buf, n, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    int prec, len = 0;
    if (fabs(v) < DBL_MIN) {
        /* a subnormal has fewer significant bits than 15 digits hold: its
         * shortest form is searched from one digit up */
        for (prec = 1; prec <= 17; prec++) {
            len = snprintf(buf, n, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    } else {
        /* 16 digits first: when 15 read back, 16 do too (v's nearest
         * 16-digit decimal is no farther from v than a 15-digit one), so a
         * failed 16 means 17, and most of the engine's doubles need 16 or
         * 17: two conversions and one or two strtod in place of up to
         * three of each (a trace CSV's cost) */
        char b16[MUR_FORMAT_SIZE];
        int l16 = snprintf(b16, sizeof b16, "%.16g", v);
        if (strtod(b16, NULL) != v) {
            prec = 17;
            len = snprintf(buf, n, "%.17g", v);
        } else {
            prec = 15;
            len = snprintf(buf, n, "%.15g", v);
            if (strtod(buf, NULL) != v) {
                prec = 16;
                len = l16;
                snprintf(buf, n, "%s", b16);
            }
        }
    }
    /* From 1e15 up, %.15g writes an exponent where one more digit may
     * write the whole number in fewer characters (4277834443099750, not
     * 4.27783444309975e+15): the shorter of the two. */
    if (prec < 17 && fabs(v) >= 1e15 && strchr(buf, 'e')) {
        char alt[MUR_FORMAT_SIZE];
        for (int p = prec + 1; p <= 17; p++) {
            int l = snprintf(alt, sizeof alt, "%.*g", p, v);
            if (l < len && strtod(alt, NULL) == v) {
                len = snprintf(buf, n, "%s", alt);
                break;
            }
        }
    }
    return len;
}
