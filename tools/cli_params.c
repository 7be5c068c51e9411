/* cli_params: `sim params show|doc` - the cycle model's parameters as
 * resolved from defaults, an INI file and --set overrides, and the generated
 * docs/parameters.md. Also the --params/--set resolution other commands
 * share. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "params.h"

static void help(FILE *f)
{
    fprintf(
        f,
        "usage: sim params show [--params P] [--set name=value]...\n"
        "       sim params doc\n"
        "\n"
        "show  prints every parameter of the cycle model with its resolved\n"
        "      value, unit and source (file, --set, or default: and where the\n"
        "      default comes from, as in docs/parameters.md)\n"
        "doc   prints docs/parameters.md (name, default, unit, range, where "
        "the\n"
        "      default comes from, meaning), generated from the same table\n"
        "\n"
        "options:\n"
        "  --params P        INI file of `name = value` lines (no sections)\n"
        "  --set name=value  override one parameter (repeatable; after "
        "--params)\n"
        "\n"
        "exit codes: 0 ok, 2 bad usage, unknown parameter or value out of "
        "range\n"
        "(the message names file:line and the nearest valid name).\n");
}

int cli_params_resolve(params *p, const char *file, char *const *sets,
                       int nsets)
{
    params_init(p);
    if (file) {
        sim_err e = params_load_file(p, file);
        if (e != SIM_OK)
            return cli_report(e);
    }
    for (int i = 0; i < nsets; i++) {
        /* one parameter set twice: refused, as a parameter file refuses a
         * repeated key (the last one silently won) */
        size_t n = strcspn(sets[i], "= \t");
        for (int j = 0; j < i; j++)
            if (strcspn(sets[j], "= \t") == n &&
                !strncmp(sets[i], sets[j], n))
                return cli_report(sim_fail(SIM_ERR_USAGE,
                                           "--set %.*s given twice ('%s', "
                                           "then '%s')",
                                           (int)n, sets[i], sets[j],
                                           sets[i]));
        sim_err e = params_set_str(p, sets[i]);
        if (e != SIM_OK)
            return cli_report(e);
    }
    sim_err e = params_check(p);
    return e ? cli_report(e) : 0;
}

int cli_params(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("params", "missing subcommand (show, doc)");
    const char *sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h")) {
        help(stdout);
        return 0;
    }
    bool show = !strcmp(sub, "show"), doc = !strcmp(sub, "doc");
    if (!show && !doc)
        return cli_usage_error("params", "unknown subcommand '%s' (show, doc)",
                               sub);
    static const struct option opts[] = {
        {"params", required_argument, 0, 'p'},
        {"set", required_argument, 0, 's'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *file = NULL;
    char *sets[64];
    int nsets = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc - 1, argv + 1, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (cli_once("params", "--params", &file, optarg))
                return 2;
            break;
        case 's':
            if (nsets == (int)(sizeof sets / sizeof sets[0]))
                return cli_usage_error("params", "too many --set");
            sets[nsets++] = optarg;
            break;
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("params", "h", opts, argv + 1);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("params", "unexpected argument '%s'",
                               argv[optind + 1]);
    if (doc) {
        if (file || nsets)
            return cli_usage_error("params", "doc takes no options");
        params_write_doc(stdout);
        return 0;
    }
    static params p;
    int rc = cli_params_resolve(&p, file, sets, nsets);
    if (rc != 0)
        return rc;
    params_write_show(stdout, &p);
    return 0;
}
