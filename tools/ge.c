/* ge — the command-line tool (DESIGN §9). One translation unit: it compiles every
 * module's implementation. Placeholder until the subcommands land. */
#define GE_IMPLEMENTATION
#include "ge_graph.h"
#include <stdio.h>

static int usage(FILE *f)
{
    fprintf(f, "usage: ge run|inspect|compile MODEL [options]\n");
    return f == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (argv[1][0] == '-' && argv[1][1] == 'h')) return usage(stdout);
    fprintf(stderr, "ge: no subcommands yet\n");
    return usage(stderr);
}
