/* tests/test_engine_ai_core.c again, with the AI Core kernels on OpenBLAS
 * (GE_USE_OPENBLAS; the Makefile links -lopenblas for this program). */
#define GE_USE_OPENBLAS
#include "tests/test_engine_ai_core.c"
