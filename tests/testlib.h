/* testlib: the CUnit runner shared by every suite. CU_basic_run_tests returns
 * 0 even when tests fail and the counters reset in CU_cleanup_registry, so
 * the failure counts are read first and become the exit status. */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>

/* Directory of committed test data (tests/data), set by CTest. */
static inline const char *test_data_dir(void)
{
    const char *d = getenv("SIM_TEST_DATA");
    return d ? d : "tests/data";
}

/* Scratch directory for files a test writes (the CTest working dir). */
static inline const char *test_tmp_dir(void)
{
    const char *d = getenv("SIM_TEST_TMP");
    return d ? d : ".";
}

/* A whole file in memory (malloc'd; NULL if it cannot be read). */
static inline unsigned char *test_slurp(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = n > 0 ? (size_t)n : 0;
    return b;
}

static inline int test_run_suites(CU_SuiteInfo *suites)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    if (CU_register_suites(suites) != CUE_SUCCESS) {
        fprintf(stderr, "suite registration: %s\n", CU_get_error_msg());
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned nf = CU_get_number_of_failures();
    unsigned ns = CU_get_number_of_suites_failed();
    unsigned nr = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (nr == 0) {
        fprintf(stderr, "no test ran\n");
        return 1;
    }
    return (nf || ns) ? 1 : 0;
}

/* One suite per file: TEST_MAIN("trace", tests) with a CU_TestInfo table. */
#define TEST_MAIN(name, tests)                                       \
    int main(void)                                                   \
    {                                                                \
        CU_SuiteInfo suites[] = {{name, NULL, NULL, NULL, NULL, tests}, \
                                 CU_SUITE_INFO_NULL};                \
        return test_run_suites(suites);                              \
    }

#endif
