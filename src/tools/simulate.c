#include "tools/tools.h"
int sl_tool_simulate(int argc, char **argv) { (void)argc; (void)argv; return 2; }
