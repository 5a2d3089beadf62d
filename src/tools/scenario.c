/*
 * The scenario reader of `sluice simulate`: JSON -> sl_scenario with every
 * member checked; see scenario.h. docs/simulate.md is the format's
 * reference; tests/conformance/test_simulate_tool.py (test_bad_scenarios)
 * pins the messages and tests/fuzz/fuzz_scenario.c feeds it random bytes.
 */
#include "tools/scenario.h"
#include "base/clock.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  sl_arena *a;
  char *err;
  size_t err_len;
} rd;

static bool fail(rd *r, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail(rd *r, const char *path, const char *fmt, ...) {
  int n = snprintf(r->err, r->err_len, "%s: ", path);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < r->err_len)
    vsnprintf(r->err + n, r->err_len - (size_t)n, fmt, ap);
  va_end(ap);
  return false;
}

/* "parent.key" or "parent[i]" */
static const char *sub(rd *r, const char *parent, const char *key) {
  return sl_arena_printf(r->a, "%s%s%s", parent, *parent ? "." : "", key).p;
}
static const char *idx(rd *r, const char *parent, size_t i) {
  return sl_arena_printf(r->a, "%s[%zu]", parent, i).p;
}

/* Every member of 'o' must be one of 'allowed' (NULL-terminated). */
static bool only(rd *r, const sl_json *o, const char *path, const char *const *allowed) {
  for (size_t i = 0; i < o->obj.n; i++) {
    sl_str k = o->obj.members[i].key;
    bool ok = false;
    for (const char *const *p = allowed; *p && !ok; p++)
      ok = sl_str_eq_c(k, *p);
    if (!ok) {
      sl_buf b;
      sl_buf_init(&b, r->a);
      for (const char *const *p = allowed; *p; p++)
        sl_buf_printf(&b, "%s%s", p == allowed ? "" : ", ", *p);
      return fail(r, sub(r, path, sl_arena_strdup(r->a, k).p),
                  "unknown member (expected one of: %.*s)", SL_STR_FMT(sl_buf_str(&b)));
    }
  }
  return true;
}

static bool want_obj(rd *r, const sl_json *v, const char *path) {
  if (!v || v->type != SL_JSON_OBJECT)
    return fail(r, path, "expected an object, got %s", v ? sl_json_type_name(v->type) : "nothing");
  return true;
}

/* A number member in [lo, hi]; absent: 'def' (or an error when required). */
static bool num(rd *r, const sl_json *o, const char *key, const char *path, double lo, double hi,
                bool required, double def, double *out) {
  const sl_json *v = sl_json_get(o, key);
  const char *p = sub(r, path, key);
  if (!v) {
    if (required)
      return fail(r, p, "missing (a number)");
    *out = def;
    return true;
  }
  if (v->type != SL_JSON_NUMBER)
    return fail(r, p, "expected a number, got %s", sl_json_type_name(v->type));
  char buf[64];
  size_t n = v->str.len < sizeof(buf) - 1 ? v->str.len : sizeof(buf) - 1;
  memcpy(buf, v->str.p, n);
  buf[n] = 0;
  double d = strtod(buf, NULL);
  if (!(d >= lo && d <= hi))
    return fail(r, p, "%s is out of range (%g to %g)", buf, lo, hi);
  *out = d;
  return true;
}

static bool int_num(rd *r, const sl_json *o, const char *key, const char *path, int64_t lo,
                    int64_t hi, bool required, int64_t def, int64_t *out) {
  double d;
  if (!num(r, o, key, path, (double)lo, (double)hi, required, (double)def, &d))
    return false;
  if (d != floor(d))
    return fail(r, sub(r, path, key), "expected a whole number, got %g", d);
  *out = (int64_t)d;
  return true;
}

static bool str(rd *r, const sl_json *o, const char *key, const char *path, bool required,
                sl_str *out) {
  const sl_json *v = sl_json_get(o, key);
  if (!v) {
    if (required)
      return fail(r, sub(r, path, key), "missing (a string)");
    return true;
  }
  if (v->type != SL_JSON_STRING)
    return fail(r, sub(r, path, key), "expected a string, got %s", sl_json_type_name(v->type));
  *out = v->str;
  return true;
}

static bool boolean(rd *r, const sl_json *o, const char *key, const char *path, bool *out) {
  const sl_json *v = sl_json_get(o, key);
  if (!v)
    return true;
  if (v->type != SL_JSON_TRUE && v->type != SL_JSON_FALSE)
    return fail(r, sub(r, path, key), "expected true or false, got %s", sl_json_type_name(v->type));
  *out = v->type == SL_JSON_TRUE;
  return true;
}

/* One of 'names' (NULL-terminated): its index in *out. */
static bool choice(rd *r, const sl_json *o, const char *key, const char *path,
                   const char *const *names, bool required, int *out) {
  sl_str s = SL_STR_NULL;
  if (!str(r, o, key, path, required, &s))
    return false;
  if (!s.p)
    return true;
  for (int i = 0; names[i]; i++)
    if (sl_str_eq_c(s, names[i])) {
      *out = i;
      return true;
    }
  sl_buf b;
  sl_buf_init(&b, r->a);
  for (int i = 0; names[i]; i++)
    sl_buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
  return fail(r, sub(r, path, key), "'%.*s' is not one of: %.*s", SL_STR_FMT(s),
              SL_STR_FMT(sl_buf_str(&b)));
}

/* "item_bytes": N, {"min": A, "max": B} (uniform), or {"distribution": ...}:
 * normal (mean, sd), lognormal (median, sigma), weighted (values,
 * weights), each within optional min/max (default 1 and 409,600). */
static bool size_of(rd *r, const sl_json *o, const char *key, const char *path, uint32_t def,
                    sl_sim_size *out) {
  const sl_json *v = sl_json_get(o, key);
  const char *p = sub(r, path, key);
  memset(out, 0, sizeof(*out));
  out->min = out->max = def;
  if (!v)
    return true;
  double lo, hi;
  if (v->type == SL_JSON_NUMBER) {
    if (!num(r, o, key, path, 1, 400 * 1024, true, 0, &lo))
      return false;
    out->min = out->max = (uint32_t)lo;
    return true;
  }
  static const char *const ok[] = {"distribution", "min",   "max",    "mean",    "sd",
                                   "median",       "sigma", "values", "weights", NULL};
  static const char *const kinds[] = {"uniform", "normal", "lognormal", "weighted", NULL};
  if (!want_obj(r, v, p) || !only(r, v, p, ok))
    return false;
  int kind = 0;
  if (!choice(r, v, "distribution", p, kinds, false, &kind))
    return false;
  static const uint8_t kind_of[] = {SL_SIZE_UNIFORM, SL_SIZE_NORMAL, SL_SIZE_LOGNORMAL,
                                    SL_SIZE_WEIGHTED};
  out->kind = kind_of[kind];
  bool bounded = out->kind == SL_SIZE_UNIFORM;
  if (!num(r, v, "min", p, 1, 400 * 1024, bounded, 1, &lo) ||
      !num(r, v, "max", p, 1, 400 * 1024, bounded, 400 * 1024, &hi))
    return false;
  if (hi < lo)
    return fail(r, p, "max is below min");
  out->min = (uint32_t)lo;
  out->max = (uint32_t)hi;
  static const char *const own[4][3] = {
      {NULL}, {"mean", "sd", NULL}, {"median", "sigma", NULL}, {"values", "weights", NULL}};
  static const char *const all[] = {"mean", "sd", "median", "sigma", "values", "weights", NULL};
  for (const char *const *m = all; *m; m++) {
    bool mine = false;
    for (const char *const *q = own[kind]; *q && !mine; q++)
      mine = !strcmp(*q, *m);
    if (!mine && sl_json_get(v, *m))
      return fail(r, sub(r, p, *m), "not a member of the %s distribution", kinds[kind]);
  }
  if (out->kind == SL_SIZE_NORMAL)
    return num(r, v, "mean", p, 1, 400 * 1024, true, 0, &out->mean) &&
           num(r, v, "sd", p, 0, 400 * 1024, true, 0, &out->sd);
  if (out->kind == SL_SIZE_LOGNORMAL)
    return num(r, v, "median", p, 1, 400 * 1024, true, 0, &out->mean) &&
           num(r, v, "sigma", p, 0, 10, true, 0, &out->sd);
  if (out->kind != SL_SIZE_WEIGHTED)
    return true;
  const sl_json *vals = sl_json_get(v, "values"), *w = sl_json_get(v, "weights");
  const char *vp = sub(r, p, "values");
  if (!vals || vals->type != SL_JSON_ARRAY || !vals->arr.n || vals->arr.n > 1000)
    return fail(r, vp, "expected a list of 1 to 1000 sizes in bytes");
  if (w && (w->type != SL_JSON_ARRAY || w->arr.n != vals->arr.n))
    return fail(r, sub(r, p, "weights"), "expected a list of numbers, one per value");
  out->n_values = (uint32_t)vals->arr.n;
  out->values = SL_NEW_ARRAY(r->a, uint32_t, out->n_values);
  out->weights = SL_NEW_ARRAY(r->a, double, out->n_values);
  double sum = 0;
  for (uint32_t i = 0; i < out->n_values; i++) {
    const sl_json *x = vals->arr.items[i];
    double d = x->type == SL_JSON_NUMBER ? strtod(sl_arena_strdup(r->a, x->str).p, NULL) : 0;
    if (!(d >= 1 && d <= 400 * 1024) || d != floor(d))
      return fail(r, idx(r, vp, i), "expected a size in bytes (1 to 409600)");
    out->values[i] = (uint32_t)d;
    double wi = 1;
    if (w) {
      const sl_json *y = w->arr.items[i];
      wi = y->type == SL_JSON_NUMBER ? strtod(sl_arena_strdup(r->a, y->str).p, NULL) : -1;
      if (!(wi >= 0 && wi <= 1e12))
        return fail(r, idx(r, sub(r, p, "weights"), i), "expected a number >= 0");
    }
    sum += wi;
    out->weights[i] = sum;
  }
  if (!(sum > 0))
    return fail(r, sub(r, p, "weights"), "the weights add up to 0");
  for (uint32_t i = 0; i < out->n_values; i++)
    out->weights[i] /= sum;
  return true;
}

/* "scheduled": [{"schedule", "timezone"?, "min"?, "max"?, "start"?, "end"?}],
 * PutScheduledAction's members (docs/simulate.md). */
static bool scheduled_of(rd *r, const sl_json *x, const char *path, sl_sim_scaling *sc) {
  const sl_json *v = sl_json_get(x, "scheduled");
  if (!v)
    return true;
  const char *p = sub(r, path, "scheduled");
  if (v->type != SL_JSON_ARRAY)
    return fail(r, p, "expected a list of scheduled actions");
  sc->n_scheduled = (uint32_t)v->arr.n;
  sc->scheduled = SL_NEW_ARRAY(r->a, sl_sim_scheduled, v->arr.n + 1);
  static const char *const ok[] = {"schedule", "timezone", "min", "max", "start", "end", NULL};
  for (size_t i = 0; i < v->arr.n; i++) {
    const sl_json *o = v->arr.items[i];
    char ip[32];
    snprintf(ip, sizeof(ip), "%zu", i);
    const char *q = sub(r, p, ip);
    sl_sim_scheduled *a = &sc->scheduled[i];
    sl_str sched = SL_STR_NULL, tz = SL_STR_NULL, start = SL_STR_NULL, end = SL_STR_NULL;
    if (!want_obj(r, o, q) || !only(r, o, q, ok) || !str(r, o, "schedule", q, true, &sched) ||
        !str(r, o, "timezone", q, false, &tz) || !str(r, o, "start", q, false, &start) ||
        !str(r, o, "end", q, false, &end) ||
        !int_num(r, o, "min", q, 1, 1000000000, false, 0, &a->min) ||
        !int_num(r, o, "max", q, 1, 1000000000, false, 0, &a->max))
      return false;
    char why[200];
    if (!sl_schedule_parse(sched.p, sched.len, &a->sched, why, sizeof(why)))
      return fail(r, sub(r, q, "schedule"), "%s", why);
    if (tz.len >= sizeof(a->tz) || !sl_timezone_valid(tz.p, tz.len))
      return fail(r, sub(r, q, "timezone"), "not a time zone of the IANA database");
    if (tz.len)
      memcpy(a->tz, tz.p, tz.len);
    a->has_min = sl_json_get(o, "min") != NULL;
    a->has_max = sl_json_get(o, "max") != NULL;
    if (!a->has_min && !a->has_max)
      return fail(r, q, "at least one of min and max is needed");
    if (a->has_min && a->has_max && a->max < a->min)
      return fail(r, sub(r, q, "max"), "below min");
    a->has_start = start.p != NULL;
    a->has_end = end.p != NULL;
    if (start.p && !sl_time_parse_iso(start, &a->start_ms))
      return fail(r, sub(r, q, "start"), "expected an ISO 8601 time");
    if (end.p && !sl_time_parse_iso(end, &a->end_ms))
      return fail(r, sub(r, q, "end"), "expected an ISO 8601 time");
  }
  return true;
}

/* A target-tracking policy's members, in 'x' at 'path'. */
static bool policy_of(rd *r, const sl_json *x, const char *path, sl_sim_policy *pol) {
  int64_t in_s, out_s;
  /* The developer guide's range for the target utilization: 20 to 90 %. */
  if (!num(r, x, "target_utilization", path, 20, 90, true, 0, &pol->target_pct) ||
      !int_num(r, x, "scale_in_cooldown_s", path, 0, 86400 * 7, false, 0, &in_s) ||
      !int_num(r, x, "scale_out_cooldown_s", path, 0, 86400 * 7, false, 0, &out_s) ||
      !boolean(r, x, "disable_scale_in", path, &pol->disable_scale_in))
    return false;
  pol->scale_in_cooldown_ms = in_s * 1000;
  pol->scale_out_cooldown_ms = out_s * 1000;
  return true;
}

/* "autoscaling": {"read": T, "write": T}, each T a scalable target: its
 * bounds, its scheduled actions and either one target-tracking policy (its
 * members in T) or a list of them ("policies"). */
static bool scaling_of(rd *r, const sl_json *o, const char *path, bool provisioned,
                       sl_sim_scaling out[2]) {
  memset(out, 0, 2 * sizeof(*out));
  const sl_json *v = sl_json_get(o, "autoscaling");
  if (!v)
    return true;
  const char *p = sub(r, path, "autoscaling");
  static const char *const dirs[] = {"read", "write", NULL};
  if (!want_obj(r, v, p) || !only(r, v, p, dirs))
    return false;
  if (!provisioned)
    return fail(r, p, "auto scaling needs billing_mode PROVISIONED");
  static const char *const ok[] = {"target_utilization",
                                   "min",
                                   "max",
                                   "scale_in_cooldown_s",
                                   "scale_out_cooldown_s",
                                   "disable_scale_in",
                                   "scheduled",
                                   "policies",
                                   NULL};
  static const char *const pol_ok[] = {"target_utilization", "scale_in_cooldown_s",
                                       "scale_out_cooldown_s", "disable_scale_in", NULL};
  static const char *const one[] = {"target_utilization", "scale_in_cooldown_s",
                                    "scale_out_cooldown_s", "disable_scale_in"};
  for (int d = 0; d < 2; d++) {
    const sl_json *x = sl_json_get(v, dirs[d]);
    if (!x)
      continue;
    const char *dp = sub(r, p, dirs[d]);
    sl_sim_scaling *sc = &out[d];
    if (!want_obj(r, x, dp) || !only(r, x, dp, ok) ||
        !int_num(r, x, "min", dp, 1, 1000000000, true, 0, &sc->min) ||
        !int_num(r, x, "max", dp, 1, 1000000000, true, 0, &sc->max) || !scheduled_of(r, x, dp, sc))
      return false;
    if (sc->max < sc->min)
      return fail(r, sub(r, dp, "max"), "below min");
    const sl_json *list = sl_json_get(x, "policies");
    if (!list) {
      if (!policy_of(r, x, dp, &sc->policies[0]))
        return false;
      sc->n_policies = 1;
      sc->on = true;
      continue;
    }
    const char *lp = sub(r, dp, "policies");
    for (size_t k = 0; k < sizeof(one) / sizeof(one[0]); k++)
      if (sl_json_get(x, one[k]))
        return fail(r, sub(r, dp, one[k]),
                    "a member of each policy when \"policies\" is given, not of the target");
    if (list->type != SL_JSON_ARRAY || list->arr.n == 0)
      return fail(r, lp, "expected a list of 1 to %d target-tracking policies",
                  SL_SIM_MAX_POLICIES);
    if (list->arr.n > SL_SIM_MAX_POLICIES)
      return fail(r, lp, "%zu policies: at most %d on one scalable target", list->arr.n,
                  SL_SIM_MAX_POLICIES);
    for (size_t i = 0; i < list->arr.n; i++) {
      const char *q = idx(r, lp, i);
      const sl_json *e = list->arr.items[i];
      if (!want_obj(r, e, q) || !only(r, e, q, pol_ok) || !policy_of(r, e, q, &sc->policies[i]))
        return false;
    }
    sc->n_policies = (uint32_t)list->arr.n;
    sc->on = true;
  }
  return true;
}

static bool keys_of(rd *r, const sl_json *o, const char *key, const char *path, sl_sim_keys *k) {
  memset(k, 0, sizeof(*k));
  k->kind = SL_KEYS_UNIFORM;
  k->count = 1000000;
  k->prefix = SL_STR("k");
  const sl_json *v = sl_json_get(o, key);
  if (!v)
    return true;
  const char *p = sub(r, path, key);
  static const char *const ok[] = {"distribution", "count", "exponent", "hot_share", "hot_keys",
                                   "prefix",       "names", "weights",  NULL};
  static const char *const kinds[] = {"uniform", "zipf", "hot", "sequential", "named", NULL};
  int kind = 0;
  if (!want_obj(r, v, p) || !only(r, v, p, ok) ||
      !choice(r, v, "distribution", p, kinds, true, &kind))
    return false;
  k->kind = (uint8_t)kind;
  double d;
  if (!num(r, v, "count", p, 1, 1e15, false, 1000000, &d))
    return false;
  k->count = (uint64_t)d;
  if (!str(r, v, "prefix", p, false, &k->prefix))
    return false;
  if (kind == SL_KEYS_ZIPF) {
    if (!num(r, v, "exponent", p, 0.01, 10, true, 0, &k->exponent))
      return false;
  } else if (sl_json_get(v, "exponent")) {
    return fail(r, sub(r, p, "exponent"), "only for the zipf distribution");
  }
  if (kind == SL_KEYS_HOT) {
    if (!num(r, v, "hot_share", p, 0, 1, true, 0, &k->hot_share) ||
        !num(r, v, "hot_keys", p, 1, 1e6, false, 1, &d))
      return false;
    k->hot_keys = (uint32_t)d;
  } else if (sl_json_get(v, "hot_share") || sl_json_get(v, "hot_keys")) {
    return fail(r, sub(r, p, "hot_share"), "only for the hot distribution");
  }
  if (kind == SL_KEYS_NAMED) {
    const sl_json *names = sl_json_get(v, "names"), *w = sl_json_get(v, "weights");
    const char *np = sub(r, p, "names");
    if (!names || names->type != SL_JSON_ARRAY || !names->arr.n || names->arr.n > 100000)
      return fail(r, np, "expected a list of 1 to 100000 key strings");
    if (w && (w->type != SL_JSON_ARRAY || w->arr.n != names->arr.n))
      return fail(r, sub(r, p, "weights"), "expected a list of numbers, one per name");
    k->n_names = (uint32_t)names->arr.n;
    k->names = SL_NEW_ARRAY(r->a, sl_str, k->n_names);
    k->weights = SL_NEW_ARRAY(r->a, double, k->n_names);
    double sum = 0;
    for (uint32_t i = 0; i < k->n_names; i++) {
      const sl_json *n = names->arr.items[i];
      if (n->type != SL_JSON_STRING || !n->str.len || n->str.len > 2048)
        return fail(r, idx(r, np, i), "expected a key string of 1 to 2048 bytes");
      k->names[i] = n->str;
      double wi = 1;
      if (w) {
        const sl_json *x = w->arr.items[i];
        wi = x->type == SL_JSON_NUMBER ? strtod(sl_arena_strdup(r->a, x->str).p, NULL) : -1;
        if (!(wi >= 0))
          return fail(r, idx(r, sub(r, p, "weights"), i), "expected a number >= 0");
      }
      sum += wi;
      k->weights[i] = sum;
    }
    if (!(sum > 0))
      return fail(r, sub(r, p, "weights"), "the weights add up to 0");
    for (uint32_t i = 0; i < k->n_names; i++)
      k->weights[i] /= sum;
    k->count = k->n_names;
  } else if (sl_json_get(v, "names") || sl_json_get(v, "weights")) {
    return fail(r, sub(r, p, "names"), "only for the named distribution");
  }
  return true;
}

/* Throughput members shared by tables, GSIs and actions. */
static bool throughput(rd *r, const sl_json *o, const char *path, int64_t *rcu, int64_t *wcu,
                       int64_t *max_r, int64_t *max_w, int64_t *warm_r, int64_t *warm_w,
                       int64_t def) {
  return int_num(r, o, "read_capacity", path, 1, 1000000000, false, def, rcu) &&
         int_num(r, o, "write_capacity", path, 1, 1000000000, false, def, wcu) &&
         int_num(r, o, "max_read_request_units", path, -1, 1000000000, false, def == -2 ? -2 : -1,
                 max_r) &&
         int_num(r, o, "max_write_request_units", path, -1, 1000000000, false, def == -2 ? -2 : -1,
                 max_w) &&
         int_num(r, o, "warm_read", path, 1, 1000000000, false, def == -2 ? -2 : 0, warm_r) &&
         int_num(r, o, "warm_write", path, 1, 1000000000, false, def == -2 ? -2 : 0, warm_w);
}

static const char *const billing_modes[] = {"PROVISIONED", "PAY_PER_REQUEST", NULL};

static bool table_of(rd *r, const sl_json *v, const char *p, sl_sim_table *t) {
  static const char *const ok[] = {"name",
                                   "billing_mode",
                                   "read_capacity",
                                   "write_capacity",
                                   "max_read_request_units",
                                   "max_write_request_units",
                                   "warm_read",
                                   "warm_write",
                                   "lsis",
                                   "gsis",
                                   "autoscaling",
                                   NULL};
  memset(t, 0, sizeof(*t));
  int mode = 1;
  if (!want_obj(r, v, p) || !only(r, v, p, ok) || !str(r, v, "name", p, true, &t->name) ||
      !choice(r, v, "billing_mode", p, billing_modes, false, &mode))
    return false;
  t->on_demand = mode == 1;
  if (!throughput(r, v, p, &t->rcu, &t->wcu, &t->max_read, &t->max_write, &t->warm_read,
                  &t->warm_write, 0))
    return false;
  if (!t->on_demand && (!sl_json_get(v, "read_capacity") || !sl_json_get(v, "write_capacity")))
    return fail(r, p, "a PROVISIONED table needs read_capacity and write_capacity");
  if (t->on_demand && (sl_json_get(v, "read_capacity") || sl_json_get(v, "write_capacity")))
    return fail(r, p,
                "read_capacity and write_capacity cannot be given when billing_mode is "
                "PAY_PER_REQUEST");
  if (!scaling_of(r, v, p, !t->on_demand, t->scaling))
    return false;
  const sl_json *lsis = sl_json_get(v, "lsis");
  if (lsis) {
    const char *lp = sub(r, p, "lsis");
    if (lsis->type != SL_JSON_ARRAY || lsis->arr.n > SL_SIM_MAX_LSIS)
      return fail(r, lp, "expected a list of at most %d LSI entry sizes in bytes", SL_SIM_MAX_LSIS);
    for (size_t i = 0; i < lsis->arr.n; i++) {
      const sl_json *e = lsis->arr.items[i];
      double d = e->type == SL_JSON_NUMBER ? strtod(sl_arena_strdup(r->a, e->str).p, NULL) : 0;
      if (!(d >= 1 && d <= 400 * 1024))
        return fail(r, idx(r, lp, i), "expected an entry size in bytes (1 to 409600)");
      t->lsi_entry_bytes[t->n_lsis++] = (uint32_t)d;
    }
  }
  const sl_json *gsis = sl_json_get(v, "gsis");
  if (!gsis)
    return true;
  const char *gp = sub(r, p, "gsis");
  if (gsis->type != SL_JSON_ARRAY || gsis->arr.n > SL_SIM_MAX_GSIS)
    return fail(r, gp, "expected a list of at most %d GSIs", SL_SIM_MAX_GSIS);
  static const char *const gok[] = {"name",
                                    "read_capacity",
                                    "write_capacity",
                                    "max_read_request_units",
                                    "max_write_request_units",
                                    "warm_read",
                                    "warm_write",
                                    "keys",
                                    "share",
                                    "keys_change",
                                    "entry_bytes",
                                    "autoscaling",
                                    NULL};
  for (size_t i = 0; i < gsis->arr.n; i++) {
    const sl_json *g = gsis->arr.items[i];
    const char *ip = idx(r, gp, i);
    sl_sim_gsi *x = &t->gsis[t->n_gsis];
    if (!want_obj(r, g, ip) || !only(r, g, ip, gok) || !str(r, g, "name", ip, true, &x->name) ||
        !throughput(r, g, ip, &x->rcu, &x->wcu, &x->max_read, &x->max_write, &x->warm_read,
                    &x->warm_write, 0) ||
        !keys_of(r, g, "keys", ip, &x->keys) ||
        !num(r, g, "share", ip, 0, 1, false, 1, &x->share) ||
        !boolean(r, g, "keys_change", ip, &x->keys_change) ||
        !size_of(r, g, "entry_bytes", ip, 0, &x->entry) ||
        !scaling_of(r, g, ip, !t->on_demand, x->scaling))
      return false;
    if (!t->on_demand && (!sl_json_get(g, "read_capacity") || !sl_json_get(g, "write_capacity")))
      return fail(r, ip, "a GSI of a PROVISIONED table needs read_capacity and write_capacity");
    if (t->on_demand && (sl_json_get(g, "read_capacity") || sl_json_get(g, "write_capacity")))
      return fail(r, ip, "a GSI of a PAY_PER_REQUEST table takes no read/write_capacity");
    for (uint32_t k = 0; k < t->n_gsis; k++)
      if (sl_str_eq(t->gsis[k].name, x->name))
        return fail(r, sub(r, ip, "name"), "duplicate GSI name '%.*s'", SL_STR_FMT(x->name));
    t->n_gsis++;
  }
  return true;
}

static const char *const op_names[] = {
    "GetItem",      "PutItem",        "UpdateItem",       "DeleteItem",         "Query", "Scan",
    "BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems", NULL};
static const char *const retry_names[] = {"none",          "legacy",    "standard", "adaptive",
                                          "standard-2026", "immediate", NULL};

const char *sl_sim_op_name(sl_sim_op op) { return op_names[op]; }
const char *sl_sim_retry_name(sl_sim_retry x) { return retry_names[x]; }
bool sl_sim_op_writes(sl_sim_op op) {
  return op == SL_OP_PUT || op == SL_OP_UPDATE || op == SL_OP_DELETE || op == SL_OP_BATCH_WRITE ||
         op == SL_OP_TRANSACT_WRITE;
}

static int find_table(const sl_scenario *s, sl_str name) {
  for (uint32_t i = 0; i < s->n_tables; i++)
    if (sl_str_eq(s->tables[i].name, name))
      return (int)i;
  return -1;
}

static int find_gsi(const sl_sim_table *t, sl_str name) {
  for (uint32_t i = 0; i < t->n_gsis; i++)
    if (sl_str_eq(t->gsis[i].name, name))
      return (int)i;
  return -1;
}

static bool client_of(rd *r, const sl_json *o, const char *path, sl_sim_client *c) {
  memset(c, 0, sizeof(*c));
  c->retry = SL_RETRY_NONE;
  const sl_json *v = sl_json_get(o, "client");
  if (!v) {
    c->max_attempts = 1;
    return true;
  }
  const char *p = sub(r, path, "client");
  static const char *const ok[] = {"retry",      "max_attempts",   "delay_ms", "resend_unprocessed",
                                   "resend_max", "resend_base_ms", NULL};
  int retry = 0;
  if (!want_obj(r, v, p) || !only(r, v, p, ok) ||
      !choice(r, v, "retry", p, retry_names, true, &retry))
    return false;
  c->retry = (uint8_t)retry;
  /* facts §9: DynamoDB's attempts in each mode. */
  static const uint32_t attempts[] = {1, 10, 3, 3, 4, 10};
  double d;
  if (!num(r, v, "max_attempts", p, 1, 1000, false, attempts[retry], &d))
    return false;
  c->max_attempts = (uint32_t)d;
  if (retry == SL_RETRY_NONE && c->max_attempts != 1)
    return fail(r, sub(r, p, "max_attempts"), "retry 'none' makes one attempt");
  if (!num(r, v, "delay_ms", p, 0, 3600000, false, 1, &d))
    return false;
  c->delay_ms = (uint32_t)d;
  if (!boolean(r, v, "resend_unprocessed", p, &c->resend_unprocessed) ||
      !num(r, v, "resend_max", p, 0, 1000, false, 8, &d))
    return false;
  c->resend_max = (uint32_t)d;
  if (!num(r, v, "resend_base_ms", p, 1, 60000, false, 50, &d))
    return false;
  c->resend_base_ms = (uint32_t)d;
  return true;
}

static bool workload_of(rd *r, const sl_json *v, const char *p, sl_scenario *s,
                        sl_sim_workload *w) {
  static const char *const ok[] = {"name",
                                   "table",
                                   "index",
                                   "lsi",
                                   "fetch_unprojected",
                                   "operation",
                                   "consistent_read",
                                   "item_bytes",
                                   "items_per_request",
                                   "keys",
                                   "arrival",
                                   "phases",
                                   "client",
                                   NULL};
  memset(w, 0, sizeof(*w));
  w->index = -1;
  w->lsi = -1;
  sl_str table = SL_STR_NULL, index = SL_STR_NULL;
  int op = 0;
  if (!want_obj(r, v, p) || !only(r, v, p, ok) || !str(r, v, "name", p, false, &w->name) ||
      !str(r, v, "table", p, true, &table) || !str(r, v, "index", p, false, &index) ||
      !choice(r, v, "operation", p, op_names, true, &op) ||
      !boolean(r, v, "consistent_read", p, &w->consistent) ||
      !size_of(r, v, "item_bytes", p, 1000, &w->item) || !keys_of(r, v, "keys", p, &w->keys) ||
      !client_of(r, v, p, &w->client))
    return false;
  w->op = (uint8_t)op;
  int ti = find_table(s, table);
  if (ti < 0)
    return fail(r, sub(r, p, "table"), "no table named '%.*s' in tables", SL_STR_FMT(table));
  w->table = (uint32_t)ti;
  if (!w->name.p)
    w->name = sl_arena_printf(r->a, "%s %.*s", op_names[op], SL_STR_FMT(table));
  if (index.p) {
    int gi = find_gsi(&s->tables[ti], index);
    if (gi < 0)
      return fail(r, sub(r, p, "index"), "table '%.*s' has no GSI named '%.*s'", SL_STR_FMT(table),
                  SL_STR_FMT(index));
    if (op != SL_OP_QUERY && op != SL_OP_SCAN)
      return fail(r, sub(r, p, "index"), "%s cannot target an index (only Query and Scan can)",
                  op_names[op]);
    if (w->consistent)
      return fail(r, sub(r, p, "consistent_read"),
                  "Consistent reads are not supported on global secondary indexes");
    w->index = gi;
  }
  if (sl_json_get(v, "lsi")) {
    const sl_sim_table *t = &s->tables[ti];
    double li;
    if (!num(r, v, "lsi", p, 0, SL_SIM_MAX_LSIS - 1, true, 0, &li))
      return false;
    if (li != floor(li) || (uint32_t)li >= t->n_lsis)
      return fail(r, sub(r, p, "lsi"), "table '%.*s' has %u LSIs (lsi is a number from 0)",
                  SL_STR_FMT(table), t->n_lsis);
    if (op != SL_OP_QUERY)
      return fail(r, sub(r, p, "lsi"), "only a Query reads an LSI here");
    if (index.p)
      return fail(r, sub(r, p, "lsi"), "give index (a GSI) or lsi, not both");
    w->lsi = (int32_t)li;
  }
  if (!boolean(r, v, "fetch_unprojected", p, &w->fetch))
    return false;
  if (w->fetch && w->lsi < 0)
    return fail(r, sub(r, p, "fetch_unprojected"),
                "only for a Query of an LSI (a GSI cannot fetch what it does not project)");
  /* Per-request item counts: the service's limits (facts §2.2). */
  uint32_t lim = op == SL_OP_BATCH_WRITE ? 25
                 : op == SL_OP_BATCH_GET || op == SL_OP_TRANSACT_GET || op == SL_OP_TRANSACT_WRITE
                     ? 100
                 : op == SL_OP_QUERY || op == SL_OP_SCAN ? 100000
                                                         : 1;
  uint32_t def = op == SL_OP_BATCH_WRITE ? 25 : op == SL_OP_QUERY || op == SL_OP_SCAN ? 10 : 1;
  double d;
  if (!num(r, v, "items_per_request", p, 1, lim, false, def, &d))
    return false;
  w->items = (uint32_t)d;
  static const char *const arrivals[] = {"even", "per_ms", NULL};
  int arrival = 0;
  if (!choice(r, v, "arrival", p, arrivals, false, &arrival))
    return false;
  w->per_ms = arrival == 1;
  const sl_json *phases = sl_json_get(v, "phases");
  const char *pp = sub(r, p, "phases");
  if (!phases || phases->type != SL_JSON_ARRAY || !phases->arr.n ||
      phases->arr.n > SL_SIM_MAX_PHASES)
    return fail(r, pp, "expected a list of 1 to %d phases, e.g. [{\"duration_s\":60,\"rate\":100}]",
                SL_SIM_MAX_PHASES);
  static const char *const phok[] = {"duration_s", "rate", "rate_from", "rate_to", NULL};
  for (size_t i = 0; i < phases->arr.n; i++) {
    const sl_json *ph = phases->arr.items[i];
    const char *ip = idx(r, pp, i);
    sl_sim_phase *x = &w->phases[w->n_phases++];
    double dur, rate;
    if (!want_obj(r, ph, ip) || !only(r, ph, ip, phok) ||
        !num(r, ph, "duration_s", ip, 0.001, 1e7, true, 0, &dur))
      return false;
    x->duration_us = (int64_t)llround(dur * 1e6);
    bool has_rate = sl_json_get(ph, "rate") != NULL;
    bool has_ramp = sl_json_get(ph, "rate_from") || sl_json_get(ph, "rate_to");
    if (has_rate == has_ramp)
      return fail(r, ip, "give either rate, or rate_from and rate_to (requests per second)");
    if (has_rate) {
      if (!num(r, ph, "rate", ip, 0, 1e9, true, 0, &rate))
        return false;
      x->rate_from = x->rate_to = rate;
    } else if (!num(r, ph, "rate_from", ip, 0, 1e9, true, 0, &x->rate_from) ||
               !num(r, ph, "rate_to", ip, 0, 1e9, true, 0, &x->rate_to)) {
      return false;
    }
  }
  return true;
}

static bool action_of(rd *r, const sl_json *v, const char *p, const sl_scenario *s,
                      sl_sim_action *x) {
  static const char *const ok[] = {"at_s",
                                   "table",
                                   "index",
                                   "billing_mode",
                                   "read_capacity",
                                   "write_capacity",
                                   "max_read_request_units",
                                   "max_write_request_units",
                                   "warm_read",
                                   "warm_write",
                                   NULL};
  memset(x, 0, sizeof(*x));
  sl_str table = SL_STR_NULL, index = SL_STR_NULL;
  double at;
  int mode = -1;
  if (!want_obj(r, v, p) || !only(r, v, p, ok) || !num(r, v, "at_s", p, 0, 1e7, true, 0, &at) ||
      !str(r, v, "table", p, true, &table) || !str(r, v, "index", p, false, &index) ||
      !choice(r, v, "billing_mode", p, billing_modes, false, &mode) ||
      !throughput(r, v, p, &x->rcu, &x->wcu, &x->max_read, &x->max_write, &x->warm_read,
                  &x->warm_write, -2))
    return false;
  x->at_us = (int64_t)llround(at * 1e6);
  x->on_demand = (int8_t)mode;
  int ti = find_table(s, table);
  if (ti < 0)
    return fail(r, sub(r, p, "table"), "no table named '%.*s' in tables", SL_STR_FMT(table));
  x->table = (uint32_t)ti;
  x->index = -1;
  if (index.p) {
    int gi = find_gsi(&s->tables[ti], index);
    if (gi < 0)
      return fail(r, sub(r, p, "index"), "table '%.*s' has no GSI named '%.*s'", SL_STR_FMT(table),
                  SL_STR_FMT(index));
    if (mode >= 0)
      return fail(r, sub(r, p, "billing_mode"), "the billing mode is the table's, not an index's");
    x->index = gi;
  }
  if (v->obj.n <= (size_t)(2 + (index.p != NULL)))
    return fail(r, p,
                "changes nothing (give billing_mode, capacities, maximums or warm "
                "throughput)");
  return true;
}

static bool prices_of(rd *r, const sl_json *root, sl_sim_prices *pr) {
  /* The shared table (cap/price.h): us-east-1 Standard, current prices. */
  *pr = *sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR_NULL);
  const sl_json *v = sl_json_get(root, "prices");
  if (!v)
    return true;
  if (v->type == SL_JSON_STRING) {
    if (sl_str_eq_c(v->str, "before-2024-11-01")) {
      *pr = *sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR("2024-10-31"));
      return true;
    }
    if (sl_str_eq_c(v->str, "2024-11-01"))
      return true;
    return fail(r, "prices",
                "'%.*s' is not a price table: use \"2024-11-01\" (the default), "
                "\"before-2024-11-01\", or an object",
                SL_STR_FMT(v->str));
  }
  static const char *const ok[] = {
      "date", "write_request_per_million", "read_request_per_million", "wcu_hour", "rcu_hour",
      NULL};
  pr->date = SL_STR("user");
  pr->source = SL_STR("the scenario");
  return want_obj(r, v, "prices") && only(r, v, "prices", ok) &&
         str(r, v, "date", "prices", false, &pr->date) &&
         num(r, v, "write_request_per_million", "prices", 0, 1e6, false, pr->write_per_million,
             &pr->write_per_million) &&
         num(r, v, "read_request_per_million", "prices", 0, 1e6, false, pr->read_per_million,
             &pr->read_per_million) &&
         num(r, v, "wcu_hour", "prices", 0, 1e6, false, pr->wcu_hour, &pr->wcu_hour) &&
         num(r, v, "rcu_hour", "prices", 0, 1e6, false, pr->rcu_hour, &pr->rcu_hour);
}

/* Stable: actions at the same time run in file order. */
static void actions_sort(sl_sim_action *v, uint32_t n) {
  for (uint32_t i = 1; i < n; i++) {
    sl_sim_action x = v[i];
    uint32_t j = i;
    for (; j > 0 && v[j - 1].at_us > x.at_us; j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

/* mode "aggregate" (docs/simulate.md, "Aggregate mode"): it counts every
 * operation and client the per-request mode does. */
static bool aggregate_of(rd *r, const sl_json *root, sl_scenario *s) {
  static const char *const modes[] = {"requests", "aggregate", NULL};
  int mode = 0;
  double d;
  if (!choice(r, root, "mode", "", modes, false, &mode) ||
      !num(r, root, "aggregate_step_ms", "", 1, 60000, false, 100, &d))
    return false;
  s->aggregate = mode == 1;
  s->aggregate_step_us = (int64_t)llround(d * 1000);
  if (!s->aggregate && sl_json_get(root, "aggregate_step_ms"))
    return fail(r, "aggregate_step_ms", "only with \"mode\": \"aggregate\"");
  return true;
}

bool sl_scenario_parse(sl_arena *a, const char *text, size_t len, sl_scenario *s, char *err,
                       size_t err_len) {
  rd r = {a, err, err_len};
  memset(s, 0, sizeof(*s));
  sl_json *root;
  sl_json_error je;
  if (sl_json_parse(a, text, len, &root, &je) != 0) {
    snprintf(err, err_len, "invalid JSON at byte %zu: %s", je.offset, je.msg);
    return false;
  }
  static const char *const ok[] = {"name",      "seed",    "duration_s", "step_s",
                                   "start",     "params",  "prices",     "tables",
                                   "workloads", "actions", "mode",       "aggregate_step_ms",
                                   NULL};
  if (!want_obj(&r, root, "scenario") || !only(&r, root, "", ok))
    return false;
  s->name = SL_STR("scenario");
  double d;
  sl_str start = SL_STR_NULL;
  if (!str(&r, root, "name", "", false, &s->name) ||
      !num(&r, root, "seed", "", 0, 9007199254740991.0, false, 1, &d))
    return false;
  s->seed = (uint64_t)d;
  if (!num(&r, root, "duration_s", "", 0.001, 1e7, true, 0, &d))
    return false;
  s->duration_us = (int64_t)llround(d * 1e6);
  if (!num(&r, root, "step_s", "", 0.001, 86400, false, 1, &d))
    return false;
  s->step_us = (int64_t)llround(d * 1e6);
  if (s->duration_us / s->step_us > 100000)
    return fail(&r, "step_s", "too small for duration_s (more than 100,000 steps)");
  s->start_ms = 1796040000000LL; /* 2026-11-30T12:00:00Z */
  if (!str(&r, root, "start", "", false, &start))
    return false;
  if (start.p && !sl_time_parse_iso(start, &s->start_ms))
    return fail(&r, "start", "expected an ISO 8601 time such as 2026-08-27T12:00:00Z");
  const sl_json *params = sl_json_get(root, "params");
  if (params) {
    if (!want_obj(&r, params, "params"))
      return false;
    s->n_params = (uint32_t)params->obj.n;
    s->param_names = SL_NEW_ARRAY(a, sl_str, s->n_params + 1);
    s->param_values = SL_NEW_ARRAY(a, sl_str, s->n_params + 1);
    for (uint32_t i = 0; i < s->n_params; i++) {
      const sl_json *pv = params->obj.members[i].value;
      s->param_names[i] = params->obj.members[i].key;
      if (pv->type == SL_JSON_NUMBER || pv->type == SL_JSON_STRING)
        s->param_values[i] = pv->str;
      else if (pv->type == SL_JSON_TRUE || pv->type == SL_JSON_FALSE)
        s->param_values[i] = pv->type == SL_JSON_TRUE ? SL_STR("1") : SL_STR("0");
      else
        return fail(&r, sub(&r, "params", sl_arena_strdup(a, s->param_names[i]).p),
                    "expected a number");
    }
  }
  if (!prices_of(&r, root, &s->prices))
    return false;
  const sl_json *tables = sl_json_get(root, "tables");
  if (!tables || tables->type != SL_JSON_ARRAY || !tables->arr.n ||
      tables->arr.n > SL_SIM_MAX_TABLES)
    return fail(&r, "tables", "expected a list of 1 to %d tables", SL_SIM_MAX_TABLES);
  for (size_t i = 0; i < tables->arr.n; i++) {
    if (!table_of(&r, tables->arr.items[i], idx(&r, "tables", i), &s->tables[s->n_tables]))
      return false;
    if (find_table(s, s->tables[s->n_tables].name) >= 0)
      return fail(&r, idx(&r, "tables", i), "duplicate table name '%.*s'",
                  SL_STR_FMT(s->tables[s->n_tables].name));
    s->n_tables++;
  }
  const sl_json *wls = sl_json_get(root, "workloads");
  if (!wls || wls->type != SL_JSON_ARRAY || !wls->arr.n || wls->arr.n > SL_SIM_MAX_WORKLOADS)
    return fail(&r, "workloads", "expected a list of 1 to %d workloads", SL_SIM_MAX_WORKLOADS);
  for (size_t i = 0; i < wls->arr.n; i++)
    if (!workload_of(&r, wls->arr.items[i], idx(&r, "workloads", i), s,
                     &s->workloads[s->n_workloads++]))
      return false;
  const sl_json *acts = sl_json_get(root, "actions");
  if (acts) {
    if (acts->type != SL_JSON_ARRAY || acts->arr.n > 10000)
      return fail(&r, "actions", "expected a list of at most 10000 actions");
    s->actions = SL_NEW_ARRAY(a, sl_sim_action, acts->arr.n + 1);
    for (size_t i = 0; i < acts->arr.n; i++)
      if (!action_of(&r, acts->arr.items[i], idx(&r, "actions", i), s, &s->actions[s->n_actions++]))
        return false;
    actions_sort(s->actions, s->n_actions);
  }
  return aggregate_of(&r, root, s);
}
