/* Proves the shared runner turns a failing assertion into a failing exit
 * status (CTest expects this program to fail: WILL_FAIL). */
#include "testlib.h"

static void test_fails_on_purpose(void)
{
    int two = 2;
    CU_ASSERT_EQUAL(two + 2, 5);
}

static CU_TestInfo tests[] = {
    {"a failing assertion", test_fails_on_purpose},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("cunit_selfcheck", tests)
