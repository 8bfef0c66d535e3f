/* mur_version: the version compiled into the library (murmur/version.h). */
#include "murmur/version.h"

const char *mur_version(void) { return MUR_VERSION_STRING; }
