/* cli_replay: sim replay (placeholder until written). */
#include "cli.h"
int cli_replay(int argc, char **argv) { (void)argc; (void)argv; return 2; }
