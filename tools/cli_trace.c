/* cli_trace: sim trace info|dump|pack|synth (placeholder until written). */
#include "cli.h"
int cli_trace(int argc, char **argv) { (void)argc; (void)argv; return 2; }
