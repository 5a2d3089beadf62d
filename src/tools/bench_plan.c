/*
 * bench_plan.c — schedule, key distributions, histogram and AWS
 * configuration of `sluice bench`; the design is in tools/bench_plan.h.
 */
#include "tools/bench_plan.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
  return -1;
}

/* A number with an optional k suffix (thousands); *p advances past it. */
static bool read_number(const char **p, double *out, bool allow_time) {
  char *end;
  double v = strtod(*p, &end);
  if (end == *p || !isfinite(v) || v < 0)
    return false;
  if (*end == 'k') {
    v *= 1000;
    end++;
  } else if (allow_time && *end == 'm') {
    v *= 60;
    end++;
  } else if (allow_time && *end == 's') {
    end++;
  }
  *p = end;
  *out = v;
  return true;
}

int sl_bench_schedule_parse(const char *text, sl_bench_schedule *out, char *err, size_t err_cap) {
  memset(out, 0, sizeof(*out));
  const char *p = text;
  if (!*p)
    return fail(err, err_cap, "empty schedule");
  while (*p) {
    if (out->n == SL_BENCH_MAX_WINDOWS)
      return fail(err, err_cap, "more than %d windows", SL_BENCH_MAX_WINDOWS);
    const char *start = p;
    sl_bench_window *w = &out->w[out->n];
    if (!read_number(&p, &w->from, false))
      return fail(err, err_cap, "window '%s': expected a rate", start);
    w->to = w->from;
    if (*p == '-') {
      p++;
      if (!read_number(&p, &w->to, false))
        return fail(err, err_cap, "window '%s': expected the rate the ramp ends at", start);
    }
    if (*p != '@')
      return fail(err, err_cap, "window '%s': expected '@SECONDS' (e.g. 1000@10 or 0-5000@30)",
                  start);
    p++;
    if (!read_number(&p, &w->seconds, true) || w->seconds <= 0)
      return fail(err, err_cap, "window '%s': expected a positive duration", start);
    if (*p && *p != ',')
      return fail(err, err_cap, "window '%s': unexpected '%c'", start, *p);
    if (*p == ',' && !*++p)
      return fail(err, err_cap, "a window is missing after the last ','");
    double n = floor((w->from + w->to) / 2 * w->seconds + 1e-9);
    if (n > 1e12)
      return fail(err, err_cap, "window '%s' offers more than 10^12 operations", start);
    w->n_ops = (uint64_t)n;
    w->first_op = out->n_ops;
    w->start_s = out->seconds;
    out->n_ops += w->n_ops;
    out->seconds += w->seconds;
    out->n++;
  }
  return 0;
}

void sl_bench_schedule_scale(sl_bench_schedule *s, double factor) {
  double start = 0;
  for (size_t i = 0; i < s->n; i++) {
    sl_bench_window *w = &s->w[i];
    w->from *= factor;
    w->to *= factor;
    w->seconds /= factor;
    w->start_s = start;
    start += w->seconds;
  }
  s->seconds = start;
}

size_t sl_bench_schedule_window(const sl_bench_schedule *s, uint64_t op) {
  for (size_t i = 0; i < s->n; i++)
    if (op < s->w[i].first_op + s->w[i].n_ops)
      return i;
  return s->n ? s->n - 1 : 0;
}

double sl_bench_schedule_time(const sl_bench_schedule *s, uint64_t op) {
  const sl_bench_window *w = &s->w[sl_bench_schedule_window(s, op)];
  double k = (double)(op - w->first_op);
  double a = w->from, b = w->to;
  if (a == b)
    return w->start_s + k / a;
  /* N(t) = a t + c t^2 with c = (b - a) / 2T; the root of N(t) = k, in the
   * form that stays exact when c is small. */
  double c = (b - a) / (2 * w->seconds);
  double disc = a * a + 4 * c * k;
  if (disc < 0)
    disc = 0;
  double den = a + sqrt(disc);
  double t = den > 0 ? 2 * k / den : 0;
  return w->start_s + t;
}

/* xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
void sl_bench_rng_seed(sl_bench_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) {
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    r->s[i] = z ^ (z >> 31);
  }
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sl_bench_rng_next(sl_bench_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double sl_bench_rng_unit(sl_bench_rng *r) { return (double)(sl_bench_rng_next(r) >> 11) * 0x1p-53; }

int sl_bench_keys_init(sl_bench_keys *k, const char *spec, uint64_t n_keys, char *err,
                       size_t err_cap) {
  memset(k, 0, sizeof(*k));
  k->n_keys = n_keys;
  if (n_keys == 0)
    return fail(err, err_cap, "--keys must be at least 1");
  if (strcmp(spec, "uniform") == 0) {
    k->kind = SL_BENCH_KEYS_UNIFORM;
  } else if (strcmp(spec, "sequential") == 0) {
    k->kind = SL_BENCH_KEYS_SEQUENTIAL;
  } else if (strncmp(spec, "zipf", 4) == 0 && (spec[4] == 0 || spec[4] == ':')) {
    k->kind = SL_BENCH_KEYS_ZIPF;
    k->zipf_s = 1.0;
    if (spec[4] == ':') {
      char *end;
      k->zipf_s = strtod(spec + 5, &end);
      if (*end || !(k->zipf_s > 0) || k->zipf_s > 10)
        return fail(err, err_cap, "zipf exponent '%s': expected a number in (0, 10]", spec + 5);
    }
    if (n_keys > SL_BENCH_MAX_ZIPF_KEYS)
      return fail(err, err_cap, "zipf takes at most %u keys", SL_BENCH_MAX_ZIPF_KEYS);
    k->cdf = malloc(n_keys * sizeof(double));
    if (!k->cdf)
      return fail(err, err_cap, "out of memory for %llu keys", (unsigned long long)n_keys);
    double sum = 0;
    for (uint64_t i = 0; i < n_keys; i++) {
      sum += 1.0 / pow((double)(i + 1), k->zipf_s);
      k->cdf[i] = sum;
    }
    for (uint64_t i = 0; i < n_keys; i++)
      k->cdf[i] /= sum;
    k->cdf[n_keys - 1] = 1.0;
  } else if (strncmp(spec, "hot:", 4) == 0) {
    k->kind = SL_BENCH_KEYS_HOT;
    char *end;
    k->hot_share = strtod(spec + 4, &end);
    if (*end || !(k->hot_share > 0) || k->hot_share > 1)
      return fail(err, err_cap, "hot share '%s': expected a number in (0, 1]", spec + 4);
  } else {
    return fail(err, err_cap,
                "unknown key distribution '%s' (uniform, zipf[:S], hot:SHARE, sequential)", spec);
  }
  return 0;
}

void sl_bench_keys_free(sl_bench_keys *k) {
  free(k->cdf);
  k->cdf = NULL;
}

uint64_t sl_bench_keys_pick(const sl_bench_keys *k, sl_bench_rng *r, uint64_t op) {
  switch (k->kind) {
  case SL_BENCH_KEYS_SEQUENTIAL:
    return op % k->n_keys;
  case SL_BENCH_KEYS_UNIFORM:
    return sl_bench_rng_next(r) % k->n_keys;
  case SL_BENCH_KEYS_HOT:
    if (k->n_keys == 1 || sl_bench_rng_unit(r) < k->hot_share)
      return 0;
    return 1 + sl_bench_rng_next(r) % (k->n_keys - 1);
  case SL_BENCH_KEYS_ZIPF: {
    double u = sl_bench_rng_unit(r);
    uint64_t lo = 0, hi = k->n_keys - 1;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      if (k->cdf[mid] > u)
        hi = mid;
      else
        lo = mid + 1;
    }
    return lo;
  }
  }
  return 0;
}

size_t sl_bench_hist_index(uint64_t us) {
  if (us < 64)
    return (size_t)us;
  int msb = 63 - __builtin_clzll(us); /* >= 6 */
  if (msb > 40)
    return SL_BENCH_HIST_N - 1;
  int shift = msb - 5;                                    /* keep 6 bits: 32..63 */
  size_t sub = (size_t)(us >> shift) - SL_BENCH_HIST_SUB; /* 0..31 */
  size_t i = 64 + (size_t)(msb - 6) * SL_BENCH_HIST_SUB + sub;
  return i < SL_BENCH_HIST_N ? i : SL_BENCH_HIST_N - 1;
}

uint64_t sl_bench_hist_value(size_t i) {
  if (i < 64)
    return i;
  size_t msb = 6 + (i - 64) / SL_BENCH_HIST_SUB, sub = (i - 64) % SL_BENCH_HIST_SUB;
  int shift = (int)msb - 5;
  return (((uint64_t)(sub + SL_BENCH_HIST_SUB) + 1) << shift) - 1;
}

void sl_bench_hist_add(sl_bench_hist *h, uint64_t us) {
  h->count[sl_bench_hist_index(us)]++;
  h->n++;
  if (us > h->max_us)
    h->max_us = us;
}

void sl_bench_hist_merge(sl_bench_hist *into, const sl_bench_hist *from) {
  for (size_t i = 0; i < SL_BENCH_HIST_N; i++)
    into->count[i] += from->count[i];
  into->n += from->n;
  if (from->max_us > into->max_us)
    into->max_us = from->max_us;
}

uint64_t sl_bench_hist_quantile(const sl_bench_hist *h, double q) {
  if (h->n == 0)
    return 0;
  if (q >= 1)
    return h->max_us;
  uint64_t rank = (uint64_t)ceil(q * (double)h->n), seen = 0;
  if (rank == 0)
    rank = 1;
  for (size_t i = 0; i < SL_BENCH_HIST_N; i++) {
    seen += h->count[i];
    if (seen >= rank) {
      uint64_t v = sl_bench_hist_value(i);
      return v < h->max_us ? v : h->max_us;
    }
  }
  return h->max_us;
}

/* --- AWS configuration --- */

static void copy(char *dst, size_t cap, const char *src, size_t len) {
  if (len >= cap)
    len = cap - 1;
  memcpy(dst, src, len);
  dst[len] = 0;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (len + 1 == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb)
        free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (buf)
    buf[len] = 0;
  return buf;
}

/* The value of 'key' in section 'section' of an INI text (the AWS files'
 * format: "[section]", "key = value", '#' and ';' comments). */
static bool ini_get(const char *text, const char *section, const char *key, char *out, size_t cap) {
  bool in = false;
  const char *p = text;
  while (*p) {
    const char *eol = strchr(p, '\n');
    if (!eol)
      eol = p + strlen(p);
    const char *a = p, *b = eol;
    while (a < b && isspace((unsigned char)*a))
      a++;
    while (b > a && isspace((unsigned char)b[-1]))
      b--;
    if (a < b && *a == '[' && b[-1] == ']') {
      const char *s = a + 1, *e = b - 1;
      while (s < e && isspace((unsigned char)*s))
        s++;
      while (e > s && isspace((unsigned char)e[-1]))
        e--;
      in = (size_t)(e - s) == strlen(section) && memcmp(s, section, (size_t)(e - s)) == 0;
    } else if (in && a < b && *a != '#' && *a != ';') {
      const char *eq = memchr(a, '=', (size_t)(b - a));
      if (eq) {
        const char *ke = eq;
        while (ke > a && isspace((unsigned char)ke[-1]))
          ke--;
        const char *v = eq + 1;
        while (v < b && isspace((unsigned char)*v))
          v++;
        if ((size_t)(ke - a) == strlen(key) && memcmp(a, key, (size_t)(ke - a)) == 0) {
          copy(out, cap, v, (size_t)(b - v));
          return true;
        }
      }
    }
    p = *eol ? eol + 1 : eol;
  }
  return false;
}

static bool from_ini(sl_bench_aws *out, const char *text, const char *section) {
  char id[128], secret[128];
  if (!ini_get(text, section, "aws_access_key_id", id, sizeof(id)) ||
      !ini_get(text, section, "aws_secret_access_key", secret, sizeof(secret)))
    return false;
  copy(out->access_key_id, sizeof(out->access_key_id), id, strlen(id));
  copy(out->secret, sizeof(out->secret), secret, strlen(secret));
  out->session_token[0] = 0;
  ini_get(text, section, "aws_session_token", out->session_token, sizeof(out->session_token));
  return true;
}

int sl_bench_aws_load(sl_bench_aws *out, const char *(*env)(const char *name), const char *home,
                      char *err, size_t err_cap) {
  memset(out, 0, sizeof(*out));
  const char *profile = env("AWS_PROFILE");
  if (!profile || !*profile)
    profile = "default";
  char path[1024], section[300];
  const char *cred_path = env("AWS_SHARED_CREDENTIALS_FILE");
  if (!cred_path || !*cred_path) {
    snprintf(path, sizeof(path), "%s/.aws/credentials", home ? home : "");
    cred_path = path;
  }
  char cfg_path_buf[1024];
  const char *cfg_path = env("AWS_CONFIG_FILE");
  if (!cfg_path || !*cfg_path) {
    snprintf(cfg_path_buf, sizeof(cfg_path_buf), "%s/.aws/config", home ? home : "");
    cfg_path = cfg_path_buf;
  }
  char *creds = read_file(cred_path), *cfg = read_file(cfg_path);
  if (strcmp(profile, "default") == 0)
    snprintf(section, sizeof(section), "default");
  else
    snprintf(section, sizeof(section), "profile %s", profile);

  const char *id = env("AWS_ACCESS_KEY_ID"), *secret = env("AWS_SECRET_ACCESS_KEY");
  int rc = 0;
  if (id && *id && secret && *secret) {
    copy(out->access_key_id, sizeof(out->access_key_id), id, strlen(id));
    copy(out->secret, sizeof(out->secret), secret, strlen(secret));
    const char *tok = env("AWS_SESSION_TOKEN");
    if (tok)
      copy(out->session_token, sizeof(out->session_token), tok, strlen(tok));
    snprintf(out->source, sizeof(out->source), "environment");
  } else if (creds && from_ini(out, creds, profile)) {
    snprintf(out->source, sizeof(out->source), "%s [%s]", cred_path, profile);
  } else if (cfg && from_ini(out, cfg, section)) {
    snprintf(out->source, sizeof(out->source), "%s [%s]", cfg_path, section);
  } else {
    rc = fail(err, err_cap,
              "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or add profile "
              "'%s' to %s",
              profile, cred_path);
  }
  const char *region = env("AWS_REGION");
  if (!region || !*region)
    region = env("AWS_DEFAULT_REGION");
  if (region && *region)
    copy(out->region, sizeof(out->region), region, strlen(region));
  else if (!(cfg && ini_get(cfg, section, "region", out->region, sizeof(out->region))))
    snprintf(out->region, sizeof(out->region), "us-east-1");
  free(creds);
  free(cfg);
  return rc;
}

/* --- replies ---------------------------------------------------------------- */

static bool is_throttle(sl_str type) {
  return sl_str_eq_c(type, "ProvisionedThroughputExceededException") ||
         sl_str_eq_c(type, "ThrottlingException") || sl_str_eq_c(type, "RequestLimitExceeded");
}

static size_t n_unprocessed(const sl_json *root, const char *member, const char *table, bool keys) {
  const sl_json *u = sl_json_get(root, member);
  const sl_json *t = u && u->type == SL_JSON_OBJECT ? sl_json_get(u, table) : NULL;
  if (t && keys)
    t = t->type == SL_JSON_OBJECT ? sl_json_get(t, "Keys") : NULL;
  return t && t->type == SL_JSON_ARRAY ? t->arr.n : 0;
}

static double units_of(const sl_json *cc, int depth) {
  if (!cc || depth > 1)
    return 0;
  if (cc->type == SL_JSON_ARRAY) {
    double sum = 0;
    for (size_t i = 0; i < cc->arr.n; i++)
      sum += units_of(cc->arr.items[i], depth + 1);
    return sum;
  }
  if (cc->type != SL_JSON_OBJECT)
    return 0;
  const sl_json *u = sl_json_get(cc, "CapacityUnits");
  if (!u || u->type != SL_JSON_NUMBER)
    return 0;
  double v = strtod(u->str.p, NULL);
  return isfinite(v) ? v : 0;
}

void sl_bench_reply_classify(sl_arena *a, int status, sl_str body, const char *table,
                             sl_bench_unprocessed unprocessed, sl_bench_reply *out) {
  *out = (sl_bench_reply){.outcome = SL_BENCH_REPLY_ERROR, .type = SL_STR_NULL};
  sl_json *root = NULL;
  sl_json_error jerr;
  if (sl_json_parse(a, body.p, body.len, &root, &jerr) != 0 || !root ||
      root->type != SL_JSON_OBJECT)
    root = NULL;
  if (status == 200) {
    out->outcome = SL_BENCH_REPLY_OK;
    if (!root)
      return;
    out->units = units_of(sl_json_get(root, "ConsumedCapacity"), 0);
    if (unprocessed == SL_BENCH_UNPROCESSED_ITEMS)
      out->unprocessed = n_unprocessed(root, "UnprocessedItems", table, false);
    else if (unprocessed == SL_BENCH_UNPROCESSED_KEYS)
      out->unprocessed = n_unprocessed(root, "UnprocessedKeys", table, true);
    out->last_key = sl_json_get(root, "LastEvaluatedKey");
    return;
  }
  if (!root)
    return;
  const sl_json *t = sl_json_get(root, "__type");
  sl_str type = t && t->type == SL_JSON_STRING ? t->str : SL_STR_NULL;
  /* After the last '#', as botocore reads it (rsplit('#', 1)). */
  const char *hash = type.len ? memrchr(type.p, '#', type.len) : NULL;
  if (hash)
    type = sl_str_make(hash + 1, type.len - (size_t)(hash + 1 - type.p));
  out->type = type;
  bool throttled = is_throttle(type);
  if (sl_str_eq_c(type, "TransactionCanceledException")) {
    const sl_json *cr = sl_json_get(root, "CancellationReasons");
    for (size_t i = 0; cr && cr->type == SL_JSON_ARRAY && i < cr->arr.n; i++) {
      const sl_json *it = cr->arr.items[i];
      const sl_json *code = it->type == SL_JSON_OBJECT ? sl_json_get(it, "Code") : NULL;
      if (code && code->type == SL_JSON_STRING && sl_str_eq_c(code->str, "ThrottlingError"))
        throttled = true;
    }
  }
  if (throttled)
    out->outcome = SL_BENCH_REPLY_THROTTLED;
  const sl_json *reasons = sl_json_get(root, "ThrottlingReasons");
  if (!reasons) /* ThrottlingException spells it lower-case (facts 1.2) */
    reasons = sl_json_get(root, "throttlingReasons");
  if (!reasons || reasons->type != SL_JSON_ARRAY || reasons->arr.n == 0)
    return;
  out->reasons = SL_NEW_ARRAY(a, sl_str, reasons->arr.n);
  for (size_t i = 0; i < reasons->arr.n; i++) {
    const sl_json *it = reasons->arr.items[i];
    const sl_json *r = it->type == SL_JSON_OBJECT ? sl_json_get(it, "reason") : NULL;
    if (r && r->type == SL_JSON_STRING)
      out->reasons[out->n_reasons++] = r->str;
  }
}
