/* Demo of the ge API: `make demo` (placeholder until the lead writes it). */
#define GE_IMPLEMENTATION
#include "ge_graph.h"
#include <stdio.h>

int main(void)
{
    printf("demo placeholder\n");
    return 0;
}
