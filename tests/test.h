/* test.h — a tiny header-only test framework for ge's unit tests (C99).
 *
 *   #include "tests/test.h"
 *   GE_TEST(test_add) { GE_CHECK_EQ_INT(1 + 1, 2); }
 *   int main(int argc, char **argv) {
 *       ge_test_init(argc, argv);      optional: run only tests whose name
 *       GE_RUN(test_add);              contains one of the arguments
 *       return ge_test_main_end();
 *   }
 *
 * Output, one line per test, then a summary that tests/run_all.sh parses:
 *   PASS test_add
 *   FAIL test_sub: tests/test_x.c:12: CHECK_EQ_INT(a, b): 3 != 4
 *       tests/test_x.c:13: ...          (further failed checks, indented)
 *   1 passed, 1 failed
 * A failed check records the failure and the test goes on; GE_REQUIRE
 * returns from the test function instead (use it before dereferencing).
 * The state below is global on purpose: a test program is one TU.
 */
#ifndef GE_TEST_H
#define GE_TEST_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define GE_TEST__UNUSED __attribute__((unused))
#else
#define GE_TEST__UNUSED
#endif

static struct {
    int passed, failed;   /* tests */
    int cur_failures;     /* failed checks in the running test */
    char msg[4096];       /* their messages, newline separated */
    size_t len;
    int argc;
    char **argv;
} ge_test__s;

#define GE_TEST(name) static void name(void)
#define GE_RUN(fn) ge_test__run(#fn, fn)

/* Every check returns 1 if it held, so GE_REQUIRE can build on it. */
#define GE_CHECK(cond) \
    ge_test__check((cond) ? 1 : 0, __FILE__, __LINE__, "CHECK(%s)", #cond)
#define GE_REQUIRE(cond) \
    do { if (!GE_CHECK(cond)) return; } while (0)
#define GE_CHECK_EQ_INT(a, b) \
    ge_test__check_int((long long)(a), (long long)(b), __FILE__, __LINE__, #a, #b)
#define GE_CHECK_STR(a, b) \
    ge_test__check_str((a), (b), __FILE__, __LINE__, #a, #b)
#define GE_CHECK_NEAR(a, b, tol) \
    ge_test__check_near((double)(a), (double)(b), (double)(tol), __FILE__, __LINE__, #a, #b)

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static GE_TEST__UNUSED int ge_test__check(int ok, const char *file, int line, const char *fmt, ...);

static GE_TEST__UNUSED int ge_test__check(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    size_t room;
    int n;
    if (ok) return 1;
    ge_test__s.cur_failures++;
    room = sizeof ge_test__s.msg - ge_test__s.len;
    if (room < 2) return 0; /* buffer full: the count still goes up */
    n = snprintf(ge_test__s.msg + ge_test__s.len, room, "%s%s:%d: ",
                 ge_test__s.len ? "\n    " : "", file, line);
    if (n > 0 && (size_t)n < room) {
        ge_test__s.len += (size_t)n;
        room -= (size_t)n;
        va_start(ap, fmt);
        n = vsnprintf(ge_test__s.msg + ge_test__s.len, room, fmt, ap);
        va_end(ap);
        ge_test__s.len += (n > 0 && (size_t)n < room) ? (size_t)n : room - 1;
    } else {
        ge_test__s.len = sizeof ge_test__s.msg - 1;
    }
    return 0;
}

static GE_TEST__UNUSED int ge_test__check_int(long long a, long long b, const char *file,
                                              int line, const char *as, const char *bs)
{
    return ge_test__check(a == b, file, line, "CHECK_EQ_INT(%s, %s): %lld != %lld",
                          as, bs, a, b);
}

static GE_TEST__UNUSED int ge_test__check_str(const char *a, const char *b, const char *file,
                                              int line, const char *as, const char *bs)
{
    int ok = (a && b) ? strcmp(a, b) == 0 : a == b;
    return ge_test__check(ok, file, line, "CHECK_STR(%s, %s): \"%s\" != \"%s\"", as, bs,
                          a ? a : "(null)", b ? b : "(null)");
}

static GE_TEST__UNUSED int ge_test__check_near(double a, double b, double tol, const char *file,
                                               int line, const char *as, const char *bs)
{
    return ge_test__check(fabs(a - b) <= tol, file, line,
                          "CHECK_NEAR(%s, %s): %.9g vs %.9g (tol %g)", as, bs, a, b, tol);
}

static GE_TEST__UNUSED void ge_test_init(int argc, char **argv)
{
    ge_test__s.argc = argc;
    ge_test__s.argv = argv;
}

static GE_TEST__UNUSED void ge_test__run(const char *name, void (*fn)(void))
{
    int i, selected = ge_test__s.argc <= 1;
    for (i = 1; i < ge_test__s.argc; i++)
        if (strstr(name, ge_test__s.argv[i])) selected = 1;
    if (!selected) return;
    ge_test__s.cur_failures = 0;
    ge_test__s.len = 0;
    ge_test__s.msg[0] = '\0';
    fn();
    if (ge_test__s.cur_failures == 0) {
        ge_test__s.passed++;
        printf("PASS %s\n", name);
    } else {
        ge_test__s.failed++;
        printf("FAIL %s: %s\n", name, ge_test__s.msg);
    }
    fflush(stdout); /* keep order right if a later test crashes */
}

/* Prints the summary line; returns the process exit code. */
static GE_TEST__UNUSED int ge_test_main_end(void)
{
    printf("%d passed, %d failed\n", ge_test__s.passed, ge_test__s.failed);
    fflush(stdout);
    return ge_test__s.failed ? 1 : 0;
}

#endif /* GE_TEST_H */
