/*
 * The parameters of the capacity model (see cap.h, "parameters", and
 * cap/params.def, one row each): the profiles' defaults, setting one by
 * name, --config files of "name = value" lines, and the parameter list as
 * text (`sluice serve --help-config`) and as JSON (the admin API).
 */
#include "cap/cap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parameters ---- */

void sl_cap_params_default(sl_cap_params *p, const char *profile) {
#define X(name, def, unit, doc) p->name = (int64_t)(def);
#include "cap/params.def"
#undef X
  if (profile && strcmp(profile, "unlimited") == 0)
    p->unlimited = 1;
}

static bool parse_value(sl_str v, int64_t *out) {
  char tmp[64];
  if (v.len == 0 || v.len >= sizeof(tmp))
    return false;
  memcpy(tmp, v.p, v.len);
  tmp[v.len] = 0;
  char *end;
  if (tmp[v.len - 1] == '%') {
    /* "3.25%" -> ppm */
    tmp[v.len - 1] = 0;
    double d = strtod(tmp, &end);
    if (*end)
      return false;
    *out = (int64_t)(d * 10000.0 + (d >= 0 ? 0.5 : -0.5));
    return true;
  }
  long long ll = strtoll(tmp, &end, 10);
  if (*end) {
    if (strcmp(tmp, "on") == 0 || strcmp(tmp, "true") == 0)
      ll = 1;
    else if (strcmp(tmp, "off") == 0 || strcmp(tmp, "false") == 0)
      ll = 0;
    else
      return false;
  }
  *out = ll;
  return true;
}

bool sl_cap_params_set(sl_cap_params *p, sl_str name, sl_str value) {
  int64_t v;
  if (!parse_value(value, &v))
    return false;
#define X(n, def, unit, doc)                                                                       \
  if (sl_str_eq_c(name, #n)) {                                                                     \
    p->n = v;                                                                                      \
    return true;                                                                                   \
  }
#include "cap/params.def"
#undef X
  return false;
}

static sl_str trim(sl_str s) {
  while (s.len && (s.p[0] == ' ' || s.p[0] == '\t'))
    s = sl_str_make(s.p + 1, s.len - 1);
  while (s.len && (s.p[s.len - 1] == ' ' || s.p[s.len - 1] == '\t' || s.p[s.len - 1] == '\r' ||
                   s.p[s.len - 1] == '\n'))
    s.len--;
  return s;
}

bool sl_cap_params_load(sl_cap_params *p, const char *path, char *err, size_t err_len) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, err_len, "cannot open %s", path);
    return false;
  }
  char line[512];
  int lineno = 0;
  bool ok = true;
  while (fgets(line, sizeof(line), f)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    sl_str s = trim(sl_str_c(line));
    if (s.len == 0)
      continue;
    const char *eq = memchr(s.p, '=', s.len);
    if (!eq) {
      snprintf(err, err_len, "%s:%d: expected 'name = value'", path, lineno);
      ok = false;
      break;
    }
    sl_str name = trim(sl_str_make(s.p, (size_t)(eq - s.p)));
    sl_str value = trim(sl_str_make(eq + 1, s.len - (size_t)(eq - s.p) - 1));
    if (!sl_cap_params_set(p, name, value)) {
      snprintf(err, err_len, "%s:%d: unknown parameter or bad value: %.*s", path, lineno,
               (int)s.len, s.p);
      ok = false;
      break;
    }
  }
  fclose(f);
  return ok;
}

void sl_cap_params_describe(const sl_cap_params *p, sl_buf *out) {
#define X(name, def, unit, doc)                                                                    \
  sl_buf_printf(out, "  %-28s %14lld  %-10s %s\n", #name, (long long)p->name, unit, doc);
#include "cap/params.def"
#undef X
}

void sl_cap_params_write_json(const sl_cap_params *p, sl_jw *w) {
  sl_jw_obj_begin(w);
#define X(name, def, unit, doc)                                                                    \
  sl_jw_key_c(w, #name);                                                                           \
  sl_jw_int(w, p->name);
#include "cap/params.def"
#undef X
  sl_jw_obj_end(w);
}
