/* Graph benchmarks: `make bench` (placeholder until the lead writes it). */
#define GE_IMPLEMENTATION
#include "ge_graph.h"
#include <stdio.h>

int main(void)
{
    printf("graph_bench placeholder\n");
    return 0;
}
