/* murmur: the version of the library and the command.
 *
 * The one place the version is written: CMake reads it from here (for the
 * library's VERSION, the package and murmur.pc), like libgit2's version.h. */
#ifndef MURMUR_VERSION_H
#define MURMUR_VERSION_H

#include "murmur/export.h"

#define MUR_VERSION_MAJOR 0
#define MUR_VERSION_MINOR 2
#define MUR_VERSION_PATCH 0
#define MUR_VERSION_STRING "0.2.0"

#ifdef __cplusplus
extern "C" {
#endif

/// The library's version as "MAJOR.MINOR.PATCH", e.g. "0.2.0"; a static string.
/// It may differ from MUR_VERSION_STRING when a program runs against a newer
/// shared library than the headers it was built with.
MUR_API const char *mur_version(void);

#ifdef __cplusplus
}
#endif

#endif
