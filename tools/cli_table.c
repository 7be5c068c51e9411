/* cli_table: sim table show|convert|diff (placeholder until written). */
#include "cli.h"
int cli_table(int argc, char **argv) { (void)argc; (void)argv; return 2; }
