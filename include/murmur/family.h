/* murmur: the model family's kinds (docs/model.md "Model families").
 *
 * A model is three choices, each a kind: neighbours (metric | topological)
 * x interaction (reynolds | vicsek | couzin) x motion (steer | turn | set),
 * chosen by the settings `neighbours`, `interaction` and `motion`
 * (murmur/presets.h). Every kind is a row of one table (src/core/family.c):
 * its name, its own settings (their ranges are the settings table's), their
 * defaults, and the functions that do it; adding a kind is adding a row. */
#ifndef MURMUR_FAMILY_H
#define MURMUR_FAMILY_H

#include "murmur/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The most settings of its own a kind has.
#define MUR_KIND_KEYS 3

/// The most values the `params` overlay leads with for an interaction.
#define MUR_KIND_READOUT 5

/// One of them: the overlay's short label and the setting it shows.
typedef struct mur_kind_readout {
    const char *label;                    ///< e.g. "sep", "eta"; NULL past the last
    const char *setting;                  ///< the setting's name in the settings table
} mur_kind_readout;

/// One kind, as the table documents it.
typedef struct mur_kind {
    const char *axis;                     ///< "neighbours", "interaction" or "motion"
    const char *name;                     ///< e.g. "topological"; the axis setting's choice
    int value;                            ///< that choice's value (mur_neighbours, ...)
    const char *keys[MUR_KIND_KEYS];      ///< its own settings (NULL past the last)
    double defaults[MUR_KIND_KEYS];       ///< their values in every preset not of this kind
    const char *summary;                  ///< one line
    const char *source;                   ///< the paper it follows, or "" (murmur's own)
    mur_kind_readout readout[MUR_KIND_READOUT]; ///< an interaction's own values the `params` overlay leads
                                          ///< with (its weights, noise, zones); none for the other axes
} mur_kind;

/// Number of kinds in the table.
MUR_API int mur_kind_count(void);

/// Kind i (0 <= i < count); static storage.
MUR_API const mur_kind *mur_kind_at(int i);

/// The kind of an axis by name, or NULL.
MUR_API const mur_kind *mur_kind_find(const char *axis, const char *name);

/// The kind of an axis by its choice's value (mur_interaction, ...), or NULL.
MUR_API const mur_kind *mur_kind_of(const char *axis, int value);

#ifdef __cplusplus
}
#endif

#endif
