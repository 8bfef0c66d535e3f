/* A minimal test harness: TEST(name) defines a case, CHECK records a
 * failure with file:line and keeps going, and main() (harness.c) runs every
 * case, or those named on the command line, and ends with
 * "N passed, N failed". */
#ifndef MURMUR_TEST_HARNESS_H
#define MURMUR_TEST_HARNESS_H

#include <stdio.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
extern int test_failures;  /* failures in the running case */
extern int test_skipped;   /* the running case could not run (SKIP) */

/* The running case cannot run here (a tool it needs is missing): say why
 * and end it. A run whose cases all skipped exits 77, which ctest reports
 * as skipped (SKIP_RETURN_CODE), not passed. */
#define SKIP(...)                                                               \
    do {                                                                        \
        fprintf(stderr, "  skipped: ");                                         \
        fprintf(stderr, __VA_ARGS__);                                           \
        fputc('\n', stderr);                                                    \
        test_skipped = 1;                                                       \
        return;                                                                 \
    } while (0)

#define TEST(name)                                                              \
    static void name(void);                                                     \
    __attribute__((constructor)) static void register_##name(void)             \
    {                                                                           \
        test_register(#name, name);                                             \
    }                                                                           \
    static void name(void)

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "  %s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            test_failures++;                                                    \
        }                                                                       \
    } while (0)

/* The whole file at path, NUL-terminated, its length to *len (if given);
 * NULL when it cannot be read. The caller frees it. */
char *test_slurp(const char *path, size_t *len);

/* A CHECK that ends the case when it fails (for preconditions). */
#define REQUIRE(cond, ...)                                                      \
    do {                                                                        \
        int before_ = test_failures;                                            \
        CHECK(cond, __VA_ARGS__);                                               \
        if (test_failures != before_)                                           \
            return;                                                             \
    } while (0)

#endif
