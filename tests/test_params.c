/* Tests of the parameter table (model/params): defaults from the table, the
 * INI reader's errors naming file:line and the nearest name, range and kind
 * checks, --set, and the precedence file < --set. */
#include <stdio.h>
#include <string.h>

#include "params.h"
#include "testlib.h"

static char path[512];

static const char *write_ini(const char *name, const char *text)
{
    snprintf(path, sizeof path, "%s/params_%s.ini", test_tmp_dir(), name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_defaults_come_from_the_table(void)
{
    params p;
    params_init(&p);
    CU_ASSERT_EQUAL(P(&p, utlb_entries), 64);
    CU_ASSERT_EQUAL(P(&p, utlb_pinned), 1);
    CU_ASSERT_EQUAL(P(&p, gtlb_entries), 64);
    CU_ASSERT_EQUAL(P(&p, icache_bytes), 32768);
    CU_ASSERT_EQUAL(P(&p, cache_line_bytes), 32);
    CU_ASSERT_EQUAL(P(&p, core_hz), 667e6);
    for (int i = 0; i < PARAM__COUNT; i++) {
        CU_ASSERT_EQUAL(p.origin[i], PO_DEFAULT);
        CU_ASSERT_EQUAL(p.v[i], param_default((param_id)i));
    }
}

static void test_every_default_is_within_its_range(void)
{
    params p;
    params_init(&p);
    for (int i = 0; i < PARAM__COUNT; i++)
        CU_ASSERT_EQUAL(params_set(&p, (param_id)i, p.v[i], "t"), SIM_OK);
}

static void test_file_values_and_origin(void)
{
    params p;
    params_init(&p);
    write_ini("ok", "; comment\n# comment\ncore_hz = 533M\n"
                    "icache_miss_cycles = 30 ; inline\ncpi = 2 # inline\n"
                    "qemu_sigma = 0.5# no blank before\n");
    CU_ASSERT_EQUAL_FATAL(params_load_file(&p, path), SIM_OK);
    CU_ASSERT_EQUAL(P(&p, core_hz), 533e6);
    CU_ASSERT_EQUAL(P(&p, icache_miss_cycles), 30);
    CU_ASSERT_EQUAL(P(&p, cpi), 2);
    CU_ASSERT_EQUAL(P(&p, qemu_sigma), 0.5);
    CU_ASSERT_EQUAL(p.origin[PARAM_core_hz], PO_FILE);
    CU_ASSERT_EQUAL(p.origin[PARAM_dcache_bytes], PO_DEFAULT);
}

static void test_unknown_key_names_line_and_nearest(void)
{
    params p;
    params_init(&p);
    write_ini("unknown", "cpi = 1.5\n\nicahe_miss_cycles = 3\n");
    CU_ASSERT_EQUAL(params_load_file(&p, path), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), ".ini:3:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "'icache_miss_cycles'"));
}

/* "did you mean" ignores case: ICACHE_BYTES is icache_bytes mistyped */
static void test_nearest_ignores_case(void)
{
    params p;
    params_init(&p);
    CU_ASSERT_EQUAL(params_set_str(&p, "ICACHE_BYTES=8192"), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "did you mean 'icache_bytes'"));
    CU_ASSERT_STRING_EQUAL(param_nearest_name("Core_HZ"), "core_hz");
}

static void test_out_of_range_names_line(void)
{
    params p;
    params_init(&p);
    write_ini("range", "cpi = 1.5\nutlb_pinned = 99\n");
    CU_ASSERT_EQUAL(params_load_file(&p, path), SIM_ERR_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), ".ini:2:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "utlb_pinned"));
}

static void test_fraction_of_a_whole_parameter_is_refused(void)
{
    params p;
    params_init(&p);
    CU_ASSERT_EQUAL(params_set_str(&p, "utlb_entries=63.5"), SIM_ERR_RANGE);
    CU_ASSERT_EQUAL(params_set_str(&p, "cpi=1.25"), SIM_OK);
    CU_ASSERT_EQUAL(P(&p, cpi), 1.25);
}

/* cache sizes are whole lines, the line a power of two; checked once every
 * value is known, whatever order they were given in */
static void test_cache_constraints(void)
{
    params p;
    params_init(&p);
    CU_ASSERT_EQUAL_FATAL(params_set_str(&p, "icache_bytes=8193"), SIM_OK);
    CU_ASSERT_EQUAL(params_check(&p), SIM_ERR_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "--set: icache_bytes = 8193 "
                                                "bytes is not a whole number "
                                                "of cache lines"));
    params_init(&p);
    CU_ASSERT_EQUAL(params_set_str(&p, "cache_line_bytes=48"), SIM_ERR_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "power of two"));
    /* 8224 bytes = 257 lines of 32 but not of 64: fine until the line grows */
    CU_ASSERT_EQUAL_FATAL(params_set_str(&p, "dcache_bytes=8224"), SIM_OK);
    CU_ASSERT_EQUAL(params_check(&p), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(params_set_str(&p, "cache_line_bytes=64"), SIM_OK);
    CU_ASSERT_EQUAL(params_check(&p), SIM_ERR_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "dcache_bytes"));
    CU_ASSERT_EQUAL_FATAL(params_set_str(&p, "dcache_bytes=8256"), SIM_OK);
    CU_ASSERT_EQUAL(params_check(&p), SIM_OK);
}

static void test_garbage_values_are_refused(void)
{
    params p;
    params_init(&p);
    CU_ASSERT_EQUAL(params_set_str(&p, "cpi=fast"), SIM_ERR_FORMAT);
    CU_ASSERT_EQUAL(params_set_str(&p, "cpi=nan"), SIM_ERR_FORMAT);
    CU_ASSERT_EQUAL(params_set_str(&p, "cpi=1e999"), SIM_ERR_FORMAT);
    CU_ASSERT_EQUAL(params_set_str(&p, "cpi"), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(params_set_str(&p, "=3"), SIM_ERR_USAGE);
    write_ini("syntax", "cpi 3\n");
    CU_ASSERT_EQUAL(params_load_file(&p, path), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), ".ini:1:"));
    write_ini("section", "[cost]\ncpi = 3\n");
    CU_ASSERT_EQUAL(params_load_file(&p, path), SIM_ERR_FORMAT);
}

static void test_set_overrides_file(void)
{
    params p;
    params_init(&p);
    write_ini("prec", "cpi = 3\n");
    CU_ASSERT_EQUAL_FATAL(params_load_file(&p, path), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(params_set_str(&p, "cpi=2"), SIM_OK);
    CU_ASSERT_EQUAL(P(&p, cpi), 2);
    CU_ASSERT_EQUAL(p.origin[PARAM_cpi], PO_SET);
}

static void test_missing_file_is_io_error(void)
{
    params p;
    params_init(&p);
    CU_ASSERT_EQUAL(params_load_file(&p, "no-such-params.ini"), SIM_ERR_IO);
}

static void test_string_reader_names_its_lines(void)
{
    params p;
    params_init(&p);
    CU_ASSERT_EQUAL(params_load_string(&p, "cpi = 2\nseed = 7\n", "mem"),
                    SIM_OK);
    CU_ASSERT_EQUAL(P(&p, seed), 7);
    CU_ASSERT_EQUAL(params_load_string(&p, "cpi = 2\nsed = 7\n", "mem"),
                    SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "mem:2: unknown parameter"));
}

/* Audit: inih splits a line longer than its buffer and reads the tail as a
 * line of its own (every later error named one line too far, or the tail
 * taken as a value), and takes ':' for '=': both refused, naming the line */
static void test_long_line_and_colon_are_refused(void)
{
    params p;
    params_init(&p);
    char text[512];
    /* 198 characters: the longest line read whole */
    snprintf(text, sizeof text, "cpi = 1.5%*s\nseed = 7\n", 198 - 9, "");
    write_ini("line198", text);
    CU_ASSERT_EQUAL(params_load_file(&p, path), SIM_OK);
    CU_ASSERT_EQUAL(P(&p, seed), 7);
    params_init(&p);
    snprintf(text, sizeof text, "seed = 7\ncpi = 1.5%*sstub_insns = 9\n",
             199 - 9 - 14, "");
    write_ini("line199", text);
    CU_ASSERT_EQUAL(params_load_file(&p, path), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), ".ini:2: a line of more "
                                                "than 198 characters"));
    CU_ASSERT_EQUAL(params_load_string(&p, text, "mem"), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "mem:2: a line of more"));
    params_init(&p);
    write_ini("colon", "seed = 7\ncpi: 1.5\n");
    CU_ASSERT_EQUAL(params_load_file(&p, path), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), ".ini:2: expected `name = "
                                                "value`, found ':'"));
    CU_ASSERT_EQUAL(P(&p, cpi), param_default(PARAM_cpi));
    /* a ':' in a comment or after the '=' is no delimiter */
    write_ini("colon_ok", "; note: fitted\n# see: docs\ncpi = 1.5 ; a: b\n");
    CU_ASSERT_EQUAL(params_load_file(&p, path), SIM_OK);
    CU_ASSERT_EQUAL(P(&p, cpi), 1.5);
}

static CU_TestInfo tests[] = {
    {"defaults come from the table", test_defaults_come_from_the_table},
    {"every default is within its range",
     test_every_default_is_within_its_range},
    {"file values and origin", test_file_values_and_origin},
    {"unknown key names line and nearest",
     test_unknown_key_names_line_and_nearest},
    {"out of range names line", test_out_of_range_names_line},
    {"did you mean ignores case", test_nearest_ignores_case},
    {"fraction of a whole parameter refused",
     test_fraction_of_a_whole_parameter_is_refused},
    {"garbage values refused", test_garbage_values_are_refused},
    {"cache sizes are whole lines", test_cache_constraints},
    {"--set overrides the file", test_set_overrides_file},
    {"missing file is an I/O error", test_missing_file_is_io_error},
    {"string reader names its lines", test_string_reader_names_its_lines},
    {"long line and ':' refused", test_long_line_and_colon_are_refused},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("params", tests)
