/* The rows docs/scenes.md and docs/model.md hold for the settings and the
 * presets, generated from the settings table (presets.c): read by
 * tests/test_docs.c, which checks the docs carry them, and printed by
 * tools/doc_tables.c, to paste after a deliberate change. */
#ifndef MURMUR_TOOLS_DOC_ROWS_H
#define MURMUR_TOOLS_DOC_ROWS_H

#include <stdio.h>
#include <string.h>

#include "murmur/presets.h"

/* A number as the docs write it: no exponent below 1e10, no trailing zeros. */
static inline void num(char *buf, size_t size, double v) { snprintf(buf, size, "%.10g", v); }

/* The row of docs/scenes.md for a setting written at path ("flock.count"):
 * key, type, valid values, default (the wrkspc preset, a scene's default
 * model), meaning. */
static inline void setting_row(const mur_setting *st, const char *path, char *buf, size_t size)
{
    const mur_params *def = &mur_preset_find("wrkspc")->params;
    char range[256] = "", dflt[64];
    if (st->type == MUR_SETTING_ENUM) {
        size_t len = 0;
        for (int i = 0; st->choices[i] && len < sizeof range - 32; i++)
            len += (size_t)snprintf(range + len, sizeof range - len, "%s`%s`", i ? ", " : "",
                                    st->choices[i]);
        snprintf(dflt, sizeof dflt, "`%s`", mur_setting_choice(st, def));
    } else {
        char lo[32], hi[32];
        num(lo, sizeof lo, st->min);
        num(hi, sizeof hi, st->max);
        snprintf(range, sizeof range, "%s to %s", lo, hi);
        num(dflt, sizeof dflt, mur_setting_get(st, def));
    }
    const char *type = st->type == MUR_SETTING_ENUM ? "choice"
                       : st->type == MUR_SETTING_INT ? "whole number" : "number";
    char help[256];  /* a | inside a table cell is written \| */
    size_t h = 0;
    for (const char *c = st->help; *c && h < sizeof help - 3; c++) {
        if (*c == '|')
            help[h++] = '\\';
        help[h++] = *c;
    }
    help[h] = 0;
    snprintf(buf, size, "| `%s` | %s | %s | %s | %s |", path, type, range, dflt, help);
}

/* The setting a key path of world or flock names ("flock.count"), or NULL. */
static inline const mur_setting *setting_of(const char *path)
{
    if (strncmp(path, "world.", 6) && strncmp(path, "flock.", 6))
        return NULL;
    return strchr(path + 6, '.') ? NULL : mur_setting_find(path + 6);
}

/* A row of docs/model.md's preset table: one setting across every preset. */
static inline void preset_row(const mur_setting *st, char *buf, size_t size)
{
    size_t len = (size_t)snprintf(buf, size, "| `%s` |", st->name);
    for (int i = 0; i < mur_preset_count() && len < size; i++) {
        const mur_params *p = &mur_preset_at(i)->params;
        char v[64];
        if (st->type == MUR_SETTING_ENUM)
            snprintf(v, sizeof v, "%s", mur_setting_choice(st, p));
        else
            num(v, sizeof v, mur_setting_get(st, p));
        len += (size_t)snprintf(buf + len, size - len, " %s |", v);
    }
}

/* The preset table's header and the rows of each preset's default predator. */
static inline void preset_extra_rows(char rows[4][512])
{
    size_t l[4];
    l[0] = (size_t)snprintf(rows[0], 512, "| setting |");
    l[1] = (size_t)snprintf(rows[1], 512, "| predator mode |");
    l[2] = (size_t)snprintf(rows[2], 512, "| predator radius |");
    l[3] = (size_t)snprintf(rows[3], 512, "| predator strength |");
    for (int i = 0; i < mur_preset_count(); i++) {
        const mur_preset *pr = mur_preset_at(i);
        char r[32], f[32];
        num(r, sizeof r, pr->predator.radius);
        num(f, sizeof f, pr->predator.strength);
        l[0] += (size_t)snprintf(rows[0] + l[0], 512 - l[0], " `%s` |", pr->name);
        l[1] += (size_t)snprintf(rows[1] + l[1], 512 - l[1], " %s |",
                                 pr->predator.attract ? "attract" : "flee");
        l[2] += (size_t)snprintf(rows[2] + l[2], 512 - l[2], " %s |", r);
        l[3] += (size_t)snprintf(rows[3] + l[3], 512 - l[3], " %s |", f);
    }
}

#endif
