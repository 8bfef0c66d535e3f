#include "harness.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TESTS 256

static struct {
    const char *name;
    test_fn fn;
} tests[MAX_TESTS];
static int ntests;
int test_failures;
int test_skipped;

void test_register(const char *name, test_fn fn)
{
    if (ntests == MAX_TESTS) {
        fprintf(stderr, "harness: too many tests\n");
        abort();
    }
    tests[ntests].name = name;
    tests[ntests].fn = fn;
    ntests++;
}

static int selected(const char *name, int argc, char **argv)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < ntests; i++) {
        if (!selected(tests[i].name, argc, argv))
            continue;
        test_failures = 0;
        test_skipped = 0;
        tests[i].fn();
        printf("%s %s\n", test_failures ? "FAIL" : test_skipped ? "skip" : "ok  ", tests[i].name);
        fflush(stdout);
        if (test_failures)
            failed++;
        else if (test_skipped)
            skipped++;
        else
            passed++;
    }
    /* A case named on the command line that does not exist is a failure:
     * ctest names every case, and a renamed one must not pass silently. */
    for (int a = 1; a < argc; a++) {
        int found = 0;
        for (int i = 0; i < ntests && !found; i++)
            found = strcmp(tests[i].name, argv[a]) == 0;
        if (!found) {
            printf("FAIL %s: no such case\n", argv[a]);
            failed++;
        }
    }
    printf("%d passed, %d failed%s\n", passed, failed, skipped ? ", some skipped" : "");
    return failed ? 1 : skipped && !passed ? 77 : 0;   /* 77: ctest's SKIP_RETURN_CODE */
}

char *test_slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = 0;
    fclose(fp);
    if (len)
        *len = b ? (size_t)n : 0;
    return b;
}
