/* A reference curve from a series CSV (docs/data.md "Series"): two of its
 * columns as (x, y) points in row order, for the figure overlay. */
#ifndef MURMUR_DATA_SERIES_CSV_H
#define MURMUR_DATA_SERIES_CSV_H

#include "murmur/error.h"

/* Read columns xcol and ycol of the CSV at path (ycol: `NAME_median` when
 * the file has it, an ensemble's, else `NAME`) into *x, *y (n points; the
 * caller frees both with mur_free). Where a `condition` column changes,
 * a point of NaN breaks the curve. MUR_EINPUT naming shown:line when the
 * file is missing, malformed or without the columns. */
int mur_series_csv_read(const char *path, const char *shown, const char *xcol, const char *ycol,
                        double **x, double **y, int *n, mur_error *err);

#endif
