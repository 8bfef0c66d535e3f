/* The CSV readers' line reader (recording_csv.c, series_csv.c): a line as
 * the bytes the file holds, NUL bytes included, so a field check sees what
 * the file says rather than a C string that ended early. */
#ifndef MURMUR_DATA_CSV_LINE_H
#define MURMUR_DATA_CSV_LINE_H

#include <stdio.h>

/* The next line of fp into buf (max bytes): its length, its newline
 * included; 0 at the end; -1 when it is longer than max. */
long mur_csv_read_line(FILE *fp, char *buf, long max);

#endif
