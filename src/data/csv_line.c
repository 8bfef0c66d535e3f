/* The CSV readers' line reader: csv_line.h. */
#include "csv_line.h"

long mur_csv_read_line(FILE *fp, char *buf, long max)
{
    long n = 0;
    int ch;
    while (n < max && (ch = getc_unlocked(fp)) != EOF) {   /* one reader: no lock a byte */
        buf[n++] = (char)ch;
        if (ch == '\n')
            return n;
    }
    return n < max ? n : -1;
}
