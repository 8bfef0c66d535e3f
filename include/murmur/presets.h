/* murmur: the presets of docs/model.md and the table of model settings.
 *
 * Both are plain data tables in src/core/presets.c; the scene loader, `murmur
 * check`, `murmur presets` and the docs all read them, so a setting's name,
 * range and help text live in exactly one place. */
#ifndef MURMUR_PRESETS_H
#define MURMUR_PRESETS_H

#include "murmur/export.h"

#include <stddef.h>
#include "murmur/flock.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A named preset: model settings plus the default predator of the variant.
typedef struct mur_preset {
    const char *name;          ///< e.g. "wrkspc"
    const char *summary;       ///< one line for `murmur presets`
    mur_params params;         ///< every setting, world size included
    mur_predator predator;     ///< default mode, radius and strength of a scripted predator
    const char *predator_x;    ///< default predator path as expressions of t, W, H (NULL: none)
    const char *predator_y;
} mur_preset;

/// The preset a scene without `model:` takes, and mur_params_init gives.
#define MUR_PRESET_DEFAULT "wrkspc"

/// Number of presets.
MUR_API int mur_preset_count(void);

/// Preset i (0 <= i < count); static storage.
MUR_API const mur_preset *mur_preset_at(int i);

/// Preset by name, or NULL.
MUR_API const mur_preset *mur_preset_find(const char *name);

typedef enum { MUR_SETTING_INT, MUR_SETTING_REAL, MUR_SETTING_ENUM } mur_setting_type;

/// One model setting as a scene names it.
typedef struct mur_setting {
    const char *name;            ///< scene key, e.g. "separation_radius"
    mur_setting_type type;
    size_t offset;               ///< offset in mur_params (int for INT/ENUM, double for REAL)
    double min, max;             ///< valid closed range (INT and REAL)
    const char *const *choices;  ///< NULL-terminated names (ENUM); index = value
    const char *help;            ///< one line with units
    const char *kind;            ///< the family kind owning it ("couzin", "turn", ...; murmur/family.h), or NULL: every kind's
} mur_setting;

/// Number of settings in the table.
MUR_API int mur_setting_count(void);

/// Setting i; static storage.
MUR_API const mur_setting *mur_setting_at(int i);

/// Setting by name, or NULL.
MUR_API const mur_setting *mur_setting_find(const char *name);

/// Value of a setting as a double (enums give their index).
MUR_API double mur_setting_get(const mur_setting *s, const mur_params *p);

/// Store a value (already range-checked by the caller; ints are rounded).
MUR_API void mur_setting_put(const mur_setting *s, mur_params *p, double v);

/// Whether the setting means something under p's kinds: a setting of no
/// kind always does, one of a kind only while that kind is chosen.
MUR_API int mur_setting_active(const mur_setting *s, const mur_params *p);

/// Whether a listing of p's settings (`murmur check`, provenance) shows it:
/// the active ones, less the family's choices and the density while p is
/// the Reynolds family of a sized world (so its listing is as it always was).
MUR_API int mur_setting_shown(const mur_setting *s, const mur_params *p);

/// Name of an enum setting's current value.
MUR_API const char *mur_setting_choice(const mur_setting *s, const mur_params *p);

#ifdef __cplusplus
}
#endif

#endif
