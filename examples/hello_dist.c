/* Builds against the amalgamation with one call:
 *   cc -std=c99 -I dist examples/hello_dist.c -lm -o hello_dist
 * (placeholder: the lead will make it use the ge_graph API) */
#define GE_IMPLEMENTATION
#include "ge.h"
#include <stdio.h>

int main(void)
{
    printf("hello from dist/ge.h\n");
    return 0;
}
