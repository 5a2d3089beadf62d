/* libFuzzer target for cap/scaling's schedules (PutScheduledAction's
 * Schedule and Timezone, untrusted bytes from a request or a scenario).
 *
 * The input up to the first '|' is parsed as a Schedule; the rest, if any,
 * is checked as a Timezone (only names that pass sl_timezone_valid are
 * used). A parsed schedule's next firing from a fixed instant must be at or
 * after it, on a whole minute for cron(), and a second query from the
 * firing itself must return the same instant (the firing is "at or after").
 * Any violation aborts.
 */
#include "cap/scaling.h"

#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond)                                                                              \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      abort();                                                                                     \
  } while (0)

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size > 512)
    return 0;
  const char *p = (const char *)data;
  const char *bar = memchr(p, '|', size);
  size_t n = bar ? (size_t)(bar - p) : size;
  sl_schedule s;
  char err[200];
  if (!sl_schedule_parse(p, n, &s, err, sizeof(err))) {
    REQUIRE(memchr(err, 0, sizeof(err)) != NULL && err[0]);
    return 0;
  }
  char tz[64] = "";
  if (bar) {
    size_t tl = size - n - 1;
    if (tl < sizeof(tz) && memchr(bar + 1, 0, tl) == NULL && sl_timezone_valid(bar + 1, tl))
      memcpy(tz, bar + 1, tl), tz[tl] = 0;
  }
  const int64_t from = 1796040000000LL + 12345; /* 2026-11-30T12:00:12.345Z */
  sl_schedule_ctx c = {.sched = &s, .tz = tz, .put_ms = from};
  int64_t t = sl_schedule_next(&c, from);
  if (t == INT64_MAX)
    return 0;
  REQUIRE(t >= from);
  if (s.kind == SL_SCHED_CRON)
    REQUIRE(t % 60000 == 0);
  REQUIRE(sl_schedule_next(&c, t) == t);
  return 0;
}
