/* The exception table and failure recording; see err.h. */
#include "base/err.h"

#include <stdarg.h>
#include <string.h>

static const struct {
  const char *service;
  const char *type;
  int status;
  const char *key;
} err_table[] = {
#define X(code, service, type, status, key) {#service, type, status, key},
#include "base/errors.def"
#undef X
};

void sl_failure_init(sl_failure *f, sl_arena *arena) {
  memset(f, 0, sizeof(*f));
  f->arena = arena;
}

sl_err sl_failf(sl_failure *f, sl_err code, const char *fmt, ...) {
  if (f->code != SL_OK)
    return code;
  f->code = code;
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    f->message = sl_arena_vprintf(f->arena, fmt, ap);
    va_end(ap);
    f->has_message = true;
  }
  return code;
}

const char *sl_err_type(sl_err code) { return err_table[code].type; }

const char *sl_err_name(sl_err code) {
  const char *t = err_table[code].type;
  const char *h = strchr(t, '#');
  return h ? h + 1 : t;
}

int sl_err_status(sl_err code) { return err_table[code].status; }

const char *sl_err_message_key(sl_err code) { return err_table[code].key; }

const char *sl_err_service(sl_err code) { return err_table[code].service; }
