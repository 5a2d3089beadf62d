/* Logging and fatal errors; see log.h. */
#include "base/log.h"
#include "base/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

sl_log_lvl sl_log_level = SL_LOG_INFO;

static const char *const lvl_names[] = {"debug", "info", "warn", "error", "off"};

void sl_log(sl_log_lvl lvl, const char *fmt, ...) {
  if (lvl < sl_log_level)
    return;
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof(line), fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  fprintf(stderr, "sluice: %s: %s\n", lvl_names[lvl], line);
}

void sl_panic(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("sluice: fatal: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

void sl__assert_fail(const char *expr, const char *file, int line) {
  fprintf(stderr, "sluice: assertion failed: %s (%s:%d)\n", expr, file, line);
  abort();
}
