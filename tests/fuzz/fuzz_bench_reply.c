/* libFuzzer target for sluice bench's reply classifier
 * (sl_bench_reply_classify, tools/bench_plan.h), which reads whatever body an
 * endpoint returns. The first input byte picks the HTTP status (200, 400 or
 * 500) and what counts as unprocessed; the rest is the body, in an
 * exact-size heap copy. Beyond memory safety it checks: a 200 is ok with no
 * exception; otherwise the exception has no namespace ('#') left, a
 * throttle is one of the throttling exceptions or a cancelled transaction,
 * and no exception means an error; reasons are readable strings; units are
 * finite. Seeds: tests/fuzz/corpus/bench_reply/. */
#include "tools/bench_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ASSERT(e)                                                                             \
  do {                                                                                             \
    if (!(e)) {                                                                                    \
      fprintf(stderr, "fuzz_bench_reply: %s:%d: %s\n", __FILE__, __LINE__, #e);                    \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  static const int statuses[3] = {200, 400, 500};
  int status = statuses[data[0] % 3];
  sl_bench_unprocessed up = (sl_bench_unprocessed)((data[0] / 3) % 3);
  size_t len = size - 1;
  char *body = malloc(len ? len : 1);
  memcpy(body, data + 1, len);
  sl_arena a;
  sl_arena_init(&a);
  sl_bench_reply r;
  sl_bench_reply_classify(&a, status, sl_str_make(body, len), "t", up, &r);
  FUZZ_ASSERT(isfinite(r.units));
  if (status == 200) {
    FUZZ_ASSERT(r.outcome == SL_BENCH_REPLY_OK && r.type.len == 0 && r.n_reasons == 0);
  } else {
    FUZZ_ASSERT(r.outcome != SL_BENCH_REPLY_OK && r.last_key == NULL && r.unprocessed == 0);
    FUZZ_ASSERT(!memchr(r.type.p ? r.type.p : "", '#', r.type.len));
    if (r.outcome == SL_BENCH_REPLY_THROTTLED)
      FUZZ_ASSERT(sl_str_eq_c(r.type, "ProvisionedThroughputExceededException") ||
                  sl_str_eq_c(r.type, "ThrottlingException") ||
                  sl_str_eq_c(r.type, "RequestLimitExceeded") ||
                  sl_str_eq_c(r.type, "TransactionCanceledException"));
    if (r.type.len == 0)
      FUZZ_ASSERT(r.outcome == SL_BENCH_REPLY_ERROR);
    /* Strings without escapes point into the body; escaped ones are copies
     * in the arena: either way they are readable. */
    for (size_t i = 0; i < r.n_reasons; i++)
      FUZZ_ASSERT(r.reasons[i].len == 0 || r.reasons[i].p != NULL);
  }
  sl_arena_destroy(&a);
  free(body);
  return 0;
}
