/* tests/ge_lib.c — one module of ge's implementation, for the test programs.
 *
 * The Makefile compiles this file once per module header H, with
 * -DGE_LIB_HEADER='"H"' and H's implementation macro (GE_<NAME>_IMPLEMENTATION),
 * at the same flags as the tests, and archives the objects in BUILD/libge.a.
 * Every test program links that archive: a test that uses only the public API
 * defines no implementation macro and takes every module from it; a test of a
 * module's private ge__ functions or test knobs defines that module's macro
 * alone, and the linker then takes only the other modules from the archive.
 * So each module's kernels compile once per build instead of once per test.
 */
#include "ge_graph.h" /* first: ge_mem.h compiles its graph adapter only after it */
#include GE_LIB_HEADER
