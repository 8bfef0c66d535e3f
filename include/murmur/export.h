/* murmur: symbol visibility of the public API.
 *
 * The shared library is built with hidden visibility; MUR_API marks what it
 * exports, so only the declarations in include/murmur/ are its ABI. Static
 * builds and programs using the library need nothing defined. */
#ifndef MURMUR_EXPORT_H
#define MURMUR_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define MUR_API __attribute__((visibility("default")))
#else
#define MUR_API
#endif

#endif
