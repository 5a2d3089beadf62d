/*
 * harness.h — the smallest unit-test harness that reads well.
 *
 * Each tests/unit/<layer>/test_<module>.c defines static test functions and a main()
 * that calls them through RUN(). CHECK* report file, line and the failing
 * expression and count the failure; the binary exits non-zero if any check
 * failed. No registration magic, no fixtures: tests are plain functions.
 */
#ifndef SL_TESTS_HARNESS_H
#define SL_TESTS_HARNESS_H

#include <stdio.h>
#include <string.h>
#include <inttypes.h>

static int sl_t_failures;
static int sl_t_checks;
static const char *sl_t_current;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    sl_t_checks++;                                                                                 \
    if (!(cond)) {                                                                                 \
      sl_t_failures++;                                                                             \
      fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, sl_t_current, #cond);   \
    }                                                                                              \
  } while (0)

#define CHECK_INT(a, b)                                                                            \
  do {                                                                                             \
    long long sl_a_ = (long long)(a), sl_b_ = (long long)(b);                                      \
    sl_t_checks++;                                                                                 \
    if (sl_a_ != sl_b_) {                                                                          \
      sl_t_failures++;                                                                             \
      fprintf(stderr, "%s:%d: %s: %s == %lld, expected %lld\n", __FILE__, __LINE__, sl_t_current,  \
              #a, sl_a_, sl_b_);                                                                   \
    }                                                                                              \
  } while (0)

/* Compares a (pointer, length) pair with a C string. */
#define CHECK_MEM(p, len, expect)                                                                  \
  do {                                                                                             \
    const char *sl_p_ = (const char *)(p);                                                         \
    size_t sl_l_ = (size_t)(len);                                                                  \
    const char *sl_e_ = (expect);                                                                  \
    sl_t_checks++;                                                                                 \
    if (sl_l_ != strlen(sl_e_) || memcmp(sl_p_, sl_e_, sl_l_) != 0) {                              \
      sl_t_failures++;                                                                             \
      fprintf(stderr, "%s:%d: %s: %s is \"%.*s\", expected \"%s\"\n", __FILE__, __LINE__,          \
              sl_t_current, #p, (int)sl_l_, sl_p_ ? sl_p_ : "", sl_e_);                            \
    }                                                                                              \
  } while (0)

#define CHECK_STR(s, expect) CHECK_MEM((s).p, (s).len, (expect))

#define RUN(fn)                                                                                    \
  do {                                                                                             \
    sl_t_current = #fn;                                                                            \
    fn();                                                                                          \
  } while (0)

#define DONE()                                                                                     \
  (fprintf(stderr, "%s: %d checks, %d failed\n", __FILE__, sl_t_checks, sl_t_failures),            \
   sl_t_failures ? 1 : 0)

#endif
