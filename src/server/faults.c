/* Fault injection; see faults.h. Pinned by tests/conformance/test_faults.py. */
#include "server/faults.h"
#include "base/log.h"
#include "base/rng.h"
#include "cap/cap.h"
#include "metrics/metrics.h"
#include "ops/txn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  uint64_t id;
  sl_str operation, table, index, key_prefix; /* owned; empty: any */
  double probability;                         /* used when count < 0 */
  int64_t count;                              /* requests left to fail; < 0: by probability */
  /* what it does: one of */
  bool throttle;
  bool throttle_index;
  uint8_t dir, limit;  /* sl_cap_dir, sl_cap_limit */
  sl_str reason;       /* the ThrottlingReason string */
  sl_err code;         /* another exception */
  sl_str message;      /* its message; empty pointer: none */
  sl_str cancel;       /* CancellationReasons code of TransactionCanceledException */
  uint32_t latency_ms; /* > 0: the request runs, its answer is sent this much later */
  bool cut;            /* the connection is reset, nothing is answered */
  uint64_t hits;
} rule;

struct sl_faults {
  uint64_t seed, rng;
  uint64_t next_id;
  rule *rules;
  size_t n, cap;
};

static sl_str own(sl_str s) {
  if (!s.p)
    return SL_STR_NULL;
  char *p = malloc(s.len + 1);
  SL_ASSERT(p);
  memcpy(p, s.p, s.len);
  p[s.len] = 0;
  return sl_str_make(p, s.len);
}

static void rule_free(rule *r) {
  free((void *)r->operation.p);
  free((void *)r->table.p);
  free((void *)r->index.p);
  free((void *)r->key_prefix.p);
  free((void *)r->reason.p);
  free((void *)r->message.p);
  free((void *)r->cancel.p);
}

sl_faults *sl_faults_new(uint64_t seed) {
  sl_faults *f = calloc(1, sizeof(*f));
  SL_ASSERT(f);
  f->seed = seed;
  f->rng = seed ^ 0x9E3779B97F4A7C15ULL;
  if (!f->rng)
    f->rng = 1;
  f->next_id = 1;
  return f;
}

void sl_faults_clear(sl_faults *f) {
  for (size_t i = 0; i < f->n; i++)
    rule_free(&f->rules[i]);
  f->n = 0;
}

void sl_faults_free(sl_faults *f) {
  if (!f)
    return;
  sl_faults_clear(f);
  free(f->rules);
  free(f);
}

/* A double in [0, 1). */
static double draw(sl_faults *f) { return sl_rng_unit(&f->rng); }

/* ---- reading rules ---- */

static sl_str member(const sl_json *o, const char *k) {
  const sl_json *v = sl_json_get(o, k);
  return v && v->type == SL_JSON_STRING ? v->str : SL_STR_NULL;
}

/* "TableWriteProvisionedThroughputExceeded" -> its parts. */
static bool parse_reason(sl_str s, bool *index, uint8_t *dir, uint8_t *limit) {
  for (int ix = 0; ix < 2; ix++)
    for (int d = 0; d < 2; d++)
      for (int l = 0; l < 4; l++)
        if (sl_str_eq_c(s, sl_cap_reason_name(ix, (sl_cap_dir)d, (sl_cap_limit)l))) {
          *index = ix;
          *dir = (uint8_t)d;
          *limit = (uint8_t)l;
          return true;
        }
  return false;
}

static bool parse_rule(const sl_json *o, rule *r, char *err, size_t err_len) {
  memset(r, 0, sizeof(*r));
  if (!o || o->type != SL_JSON_OBJECT)
    return snprintf(err, err_len, "a rule is a JSON object"), false;
  static const char *const known[] = {
      "operation", "table",  "index",     "key_prefix", "probability",
      "count",     "reason", "error",     "message",    "cancellation_reason",
      "id",        "hits",   "remaining", "latency_ms", "cut_connection"};
  for (size_t i = 0; i < o->obj.n; i++) {
    bool ok = false;
    for (size_t k = 0; k < SL_ARRAY_LEN(known); k++)
      ok = ok || sl_str_eq_c(o->obj.members[i].key, known[k]);
    if (!ok)
      return snprintf(err, err_len, "unknown member '%.*s' in a fault rule",
                      SL_STR_FMT(o->obj.members[i].key)),
             false;
  }
  r->operation = member(o, "operation");
  r->table = member(o, "table");
  r->index = member(o, "index");
  r->key_prefix = member(o, "key_prefix");
  const sl_json *p = sl_json_get(o, "probability"), *c = sl_json_get(o, "count");
  if ((p != NULL) == (c != NULL))
    return snprintf(err, err_len, "a rule has either 'probability' (0 to 1) or 'count'"), false;
  r->count = -1;
  if (p) {
    char tmp[64];
    size_t n = p->type == SL_JSON_NUMBER && p->str.len < 63 ? p->str.len : 0;
    memcpy(tmp, p->str.p, n);
    tmp[n] = 0;
    r->probability = n ? strtod(tmp, NULL) : -1;
    if (!(r->probability >= 0 && r->probability <= 1))
      return snprintf(err, err_len, "'probability' must be a number from 0 to 1"), false;
  } else {
    char tmp[32];
    size_t n = c->type == SL_JSON_NUMBER && c->str.len < 31 ? c->str.len : 0;
    memcpy(tmp, c->str.p, n);
    tmp[n] = 0;
    char *end = tmp;
    long long v = n ? strtoll(tmp, &end, 10) : -1;
    if (v < 1 || *end)
      return snprintf(err, err_len, "'count' must be a positive integer"), false;
    r->count = v;
  }
  sl_str reason = member(o, "reason"), error = member(o, "error");
  sl_str cancel = member(o, "cancellation_reason");
  const sl_json *lat = sl_json_get(o, "latency_ms"), *cut = sl_json_get(o, "cut_connection");
  if ((reason.p != NULL) + (error.p != NULL) + (cancel.p != NULL) + (lat != NULL) + (cut != NULL) !=
      1)
    return snprintf(err, err_len,
                    "a rule has one of 'reason' (a ThrottlingReason), 'error' (an exception "
                    "name), 'cancellation_reason', 'latency_ms' or 'cut_connection'"),
           false;
  if (lat) {
    char tmp[16];
    size_t n = lat->type == SL_JSON_NUMBER && lat->str.len < 15 ? lat->str.len : 0;
    memcpy(tmp, lat->str.p, n);
    tmp[n] = 0;
    char *end = tmp;
    long v = n ? strtol(tmp, &end, 10) : -1;
    /* Below the server's request timeout (30 s), so that a pipelined
     * request waiting behind a delayed answer is not refused with 408. */
    if (v < 1 || v > SL_FAULT_MAX_LATENCY_MS || *end)
      return snprintf(err, err_len, "'latency_ms' must be an integer from 1 to %d",
                      SL_FAULT_MAX_LATENCY_MS),
             false;
    r->latency_ms = (uint32_t)v;
  } else if (cut) {
    if (cut->type != SL_JSON_TRUE)
      return snprintf(err, err_len, "'cut_connection' takes true"), false;
    r->cut = true;
  } else if (reason.p) {
    if (!parse_reason(reason, &r->throttle_index, &r->dir, &r->limit))
      return snprintf(err, err_len,
                      "unknown reason '%.*s' (one of the 16 ThrottlingReason strings, e.g. "
                      "TableWriteProvisionedThroughputExceeded)",
                      SL_STR_FMT(reason)),
             false;
    if (r->throttle_index && !r->index.len)
      return snprintf(err, err_len, "an Index... reason needs the rule's 'index'"), false;
    r->throttle = true;
    r->reason = reason;
  } else if (error.p) {
    r->code = SL_OK;
    for (int e = 1; e < SL_E__COUNT; e++) {
      const char *svc = sl_err_service((sl_err)e);
      if ((strcmp(svc, "DYNAMODB") == 0 || strcmp(svc, "ANY") == 0) &&
          sl_str_eq_c(error, sl_err_name((sl_err)e)))
        r->code = (sl_err)e;
    }
    if (r->code == SL_OK || r->code == SL_E_TRANSACTION_CANCELED)
      return snprintf(err, err_len,
                      "unknown error '%.*s' (a DynamoDB exception name; throttles take 'reason', "
                      "TransactionCanceledException 'cancellation_reason')",
                      SL_STR_FMT(error)),
             false;
  } else {
    r->cancel = cancel;
  }
  r->message = member(o, "message");
  return true;
}

static void write_rule(sl_jw *w, const rule *r) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "id");
  sl_jw_uint(w, r->id);
  const struct {
    const char *k;
    sl_str v;
  } strs[] = {{"operation", r->operation}, {"table", r->table},
              {"index", r->index},         {"key_prefix", r->key_prefix},
              {"reason", r->reason},       {"cancellation_reason", r->cancel},
              {"message", r->message}};
  for (size_t i = 0; i < SL_ARRAY_LEN(strs); i++)
    if (strs[i].v.p) {
      sl_jw_key_c(w, strs[i].k);
      sl_jw_str(w, strs[i].v);
    }
  if (r->latency_ms) {
    sl_jw_key_c(w, "latency_ms");
    sl_jw_uint(w, r->latency_ms);
  } else if (r->cut) {
    sl_jw_key_c(w, "cut_connection");
    sl_jw_bool(w, true);
  } else if (!r->throttle && !r->cancel.p) {
    sl_jw_key_c(w, "error");
    sl_jw_str_c(w, sl_err_name(r->code));
  }
  if (r->count >= 0) {
    sl_jw_key_c(w, "remaining");
    sl_jw_int(w, r->count);
  } else {
    sl_jw_key_c(w, "probability");
    sl_jw_double(w, r->probability);
  }
  sl_jw_key_c(w, "hits");
  sl_jw_uint(w, r->hits);
  sl_jw_obj_end(w);
}

/* Actions on the model, applied once when added (faults.h):
 *   {"action": "drain_burst", "table": T[, "index": I]}
 *   {"action": "force_split", "table": T[, "index": I][, "partition": N]}
 *   {"action": "set_previous_peak", "table": T[, "index": I][, "read": R][, "write": W]} */
static bool is_action(const sl_json *o) { return o && member(o, "action").p; }

/* A non-negative integer member; -1 when absent, -2 when not one. */
static int64_t int_member(const sl_json *o, const char *k) {
  const sl_json *v = sl_json_get(o, k);
  if (!v)
    return -1;
  char tmp[24];
  size_t n = v->type == SL_JSON_NUMBER && v->str.len < 20 ? v->str.len : 0;
  memcpy(tmp, v->str.p, n);
  tmp[n] = 0;
  char *end = tmp;
  long long x = n ? strtoll(tmp, &end, 10) : -2;
  return x < 0 || *end ? -2 : x;
}

/* The resource an action names, or NULL with a message. */
static sl_cap_res *action_res(const sl_json *o, sl_env *env, char *err, size_t err_len) {
  sl_str action = member(o, "action");
  sl_str table = member(o, "table"), index = member(o, "index");
  const sl_table *t = table.p ? sl_catalog_get(env->catalog, table) : NULL;
  if (!t)
    return snprintf(err, err_len, "%.*s: no table '%.*s'", SL_STR_FMT(action), SL_STR_FMT(table)),
           NULL;
  if (!index.p) {
    if (!t->cap)
      snprintf(err, err_len, "%.*s: table '%.*s' has no capacity state (not ACTIVE)",
               SL_STR_FMT(action), SL_STR_FMT(table));
    return t->cap;
  }
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (t->indexes[i].global && sl_str_eq(t->indexes[i].name, index)) {
      if (!t->indexes[i].cap)
        snprintf(err, err_len, "%.*s: index '%.*s' has no capacity state (not ACTIVE)",
                 SL_STR_FMT(action), SL_STR_FMT(index));
      return t->indexes[i].cap;
    }
  snprintf(err, err_len, "%.*s: no global secondary index '%.*s' on '%.*s'", SL_STR_FMT(action),
           SL_STR_FMT(index), SL_STR_FMT(table));
  return NULL;
}

static bool check_action(const sl_json *o, sl_env *env, char *err, size_t err_len) {
  sl_str action = member(o, "action");
  const char *const *extra;
  static const char *const none[] = {NULL};
  static const char *const split[] = {"partition", NULL};
  static const char *const peak[] = {"read", "write", NULL};
  if (sl_str_eq_c(action, "drain_burst"))
    extra = none;
  else if (sl_str_eq_c(action, "force_split"))
    extra = split;
  else if (sl_str_eq_c(action, "set_previous_peak"))
    extra = peak;
  else
    return snprintf(err, err_len,
                    "unknown action '%.*s' (drain_burst, force_split, set_previous_peak)",
                    SL_STR_FMT(action)),
           false;
  for (size_t i = 0; i < o->obj.n; i++) {
    sl_str k = o->obj.members[i].key;
    bool ok = sl_str_eq_c(k, "action") || sl_str_eq_c(k, "table") || sl_str_eq_c(k, "index");
    for (size_t e = 0; extra[e]; e++)
      ok = ok || sl_str_eq_c(k, extra[e]);
    if (!ok)
      return snprintf(err, err_len, "unknown member '%.*s' in a %.*s action", SL_STR_FMT(k),
                      SL_STR_FMT(action)),
             false;
  }
  sl_cap_res *res = action_res(o, env, err, err_len);
  if (!res)
    return false;
  if (extra == split) {
    int64_t p = int_member(o, "partition");
    if (p == -2 || p >= (int64_t)sl_cap_res_partitions(res))
      return snprintf(err, err_len,
                      "force_split: 'partition' must be an index from 0 to %zu (the "
                      "partitions of GET /_sluice/tables/T/capacity)",
                      sl_cap_res_partitions(res) - 1),
             false;
  } else if (extra == peak) {
    int64_t r = int_member(o, "read"), w = int_member(o, "write");
    if (r == -2 || w == -2 || r == 0 || w == 0 || (r < 0 && w < 0))
      return snprintf(err, err_len,
                      "set_previous_peak: 'read' and/or 'write' (units per second, positive "
                      "integers)"),
             false;
    if (!sl_cap_res_on_demand(res))
      return snprintf(err, err_len,
                      "set_previous_peak: '%.*s' is not on-demand (the previous peak is an "
                      "on-demand rule)",
                      SL_STR_FMT(sl_cap_res_name(res))),
             false;
  }
  return true;
}

static void run_action(const sl_json *o, sl_env *env, sl_jw *w) {
  sl_str action = member(o, "action");
  char unused[8];
  sl_cap_res *res = action_res(o, env, unused, sizeof(unused));
  bool applied = true;
  if (sl_str_eq_c(action, "drain_burst")) {
    sl_cap_res_drain_burst(env->cap, res);
  } else if (sl_str_eq_c(action, "force_split")) {
    int64_t p = int_member(o, "partition");
    applied = sl_cap_res_force_split(env->cap, res, p < 0 ? 0 : (size_t)p);
  } else {
    int64_t r = int_member(o, "read"), wr = int_member(o, "write");
    if (r > 0)
      sl_cap_res_set_peak(env->cap, res, SL_CAP_READ, r);
    if (wr > 0)
      sl_cap_res_set_peak(env->cap, res, SL_CAP_WRITE, wr);
  }
  sl_jw_obj_begin(w);
  for (size_t i = 0; i < o->obj.n; i++) {
    sl_jw_key(w, o->obj.members[i].key);
    sl_jw_value(w, o->obj.members[i].value);
  }
  sl_jw_key_c(w, "applied");
  sl_jw_bool(w, applied);
  if (sl_str_eq_c(action, "force_split")) {
    sl_jw_key_c(w, "partitions");
    sl_jw_uint(w, sl_cap_res_partitions(res));
  }
  sl_jw_obj_end(w);
}

bool sl_faults_add(sl_faults *f, sl_env *env, const sl_json *v, sl_jw *w, char *err,
                   size_t err_len) {
  size_t n = v && v->type == SL_JSON_ARRAY ? v->arr.n : 1;
  rule *tmp = calloc(n ? n : 1, sizeof(rule));
  SL_ASSERT(tmp);
  for (size_t i = 0; i < n; i++) {
    const sl_json *o = v && v->type == SL_JSON_ARRAY ? v->arr.items[i] : v;
    if (is_action(o) ? !check_action(o, env, err, err_len)
                     : !parse_rule(o, &tmp[i], err, err_len)) {
      free(tmp); /* nothing is owned yet */
      return false;
    }
  }
  if (f->n + n > f->cap) {
    f->cap = (f->n + n) * 2;
    f->rules = realloc(f->rules, f->cap * sizeof(rule));
    SL_ASSERT(f->rules);
  }
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < n; i++) {
    const sl_json *o = v && v->type == SL_JSON_ARRAY ? v->arr.items[i] : v;
    if (is_action(o)) {
      run_action(o, env, w);
      continue;
    }
    rule *r = &tmp[i];
    r->operation = own(r->operation);
    r->table = own(r->table);
    r->index = own(r->index);
    r->key_prefix = own(r->key_prefix);
    r->reason = own(r->reason);
    r->message = own(r->message);
    r->cancel = own(r->cancel);
    r->id = f->next_id++;
    f->rules[f->n++] = *r;
    write_rule(w, r);
  }
  sl_jw_arr_end(w);
  free(tmp);
  return true;
}

bool sl_faults_load(sl_faults *f, sl_env *env, const char *path, char *err, size_t err_len) {
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return snprintf(err, err_len, "--faults %s: cannot open", path), false;
  sl_arena a;
  sl_arena_init(&a);
  sl_buf text, out;
  sl_buf_init(&text, &a);
  sl_buf_init(&out, &a);
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof(chunk), fp)) > 0)
    sl_buf_append(&text, chunk, got);
  fclose(fp);
  sl_json *v = NULL;
  sl_json_error jerr;
  bool ok = false;
  if (sl_json_parse(&a, text.p, text.len, &v, &jerr) != 0) {
    snprintf(err, err_len, "--faults %s: not JSON at byte %zu: %s", path, jerr.offset, jerr.msg);
  } else {
    sl_jw w;
    sl_jw_init(&w, &out);
    char inner[256];
    ok = sl_faults_add(f, env, v, &w, inner, sizeof(inner));
    if (!ok)
      snprintf(err, err_len, "--faults %s: %s", path, inner);
  }
  sl_arena_destroy(&a);
  return ok;
}

bool sl_faults_delete(sl_faults *f, uint64_t id) {
  for (size_t i = 0; i < f->n; i++)
    if (f->rules[i].id == id) {
      rule_free(&f->rules[i]);
      memmove(&f->rules[i], &f->rules[i + 1], (f->n - i - 1) * sizeof(rule));
      f->n--;
      return true;
    }
  return false;
}

void sl_faults_write(const sl_faults *f, sl_jw *w) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "seed");
  sl_jw_uint(w, f->seed);
  sl_jw_key_c(w, "rules");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < f->n; i++)
    write_rule(w, &f->rules[i]);
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
}

/* ---- matching ---- */

/* One item a request touches: its table (as named and as found) and the
 * partition key's value as text (empty pointer: none or not S/N). */
typedef struct {
  sl_str name;
  sl_table *t;
  sl_str pk;
} target;

/* The partition key's value as text, from a key or item map. */
static sl_str pk_of(const sl_json *map, const sl_table *t) {
  const sl_json *av =
      map && t && map->type == SL_JSON_OBJECT ? sl_json_get_str(map, t->key.hash) : NULL;
  if (!av || av->type != SL_JSON_OBJECT || av->obj.n != 1)
    return SL_STR_NULL;
  const sl_json *v = av->obj.members[0].value;
  return v->type == SL_JSON_STRING || v->type == SL_JSON_NUMBER ? v->str : SL_STR_NULL;
}

static const sl_json *key_or_item(const sl_json *o) {
  const sl_json *k = o ? sl_json_get(o, "Key") : NULL;
  return k ? k : o ? sl_json_get(o, "Item") : NULL;
}

typedef struct {
  target *v;
  size_t n, cap;
  sl_req *req;
} targets;

static void push(targets *ts, sl_str given, const sl_json *map) {
  if (ts->n == ts->cap) {
    size_t cap = ts->cap ? ts->cap * 2 : 8;
    target *v = SL_NEW_ARRAY(ts->req->arena, target, cap);
    if (ts->n)
      memcpy(v, ts->v, ts->n * sizeof(target));
    ts->v = v;
    ts->cap = cap;
  }
  target *x = &ts->v[ts->n++];
  sl_str n = given.p ? sl_req_arn_table_name(ts->req, given) : SL_STR_NULL;
  x->name = n.len ? n : given;
  x->t = x->name.len ? sl_catalog_get(ts->req->env->catalog, x->name) : NULL;
  x->pk = pk_of(map, x->t);
}

/* Every item a request names: its Key or Item (single-item operations,
 * Query and Scan with none), each key of a BatchGetItem table, each put or
 * delete of a BatchWriteItem table, each action of a transaction. */
static void request_targets(sl_req *req, targets *ts) {
  const sl_json *body = req->body;
  sl_str t = member(body, "TableName");
  if (t.p) {
    push(ts, t, key_or_item(body));
    return;
  }
  const sl_json *ri = sl_json_get(body, "RequestItems");
  if (ri && ri->type == SL_JSON_OBJECT) {
    for (size_t i = 0; i < ri->obj.n; i++) {
      sl_str name = ri->obj.members[i].key;
      const sl_json *v = ri->obj.members[i].value;
      size_t before = ts->n;
      const sl_json *keys = v && v->type == SL_JSON_OBJECT ? sl_json_get(v, "Keys") : NULL;
      if (keys && keys->type == SL_JSON_ARRAY)
        for (size_t k = 0; k < keys->arr.n; k++)
          push(ts, name, keys->arr.items[k]);
      if (v && v->type == SL_JSON_ARRAY)
        for (size_t k = 0; k < v->arr.n; k++) {
          const sl_json *w = v->arr.items[k];
          const sl_json *put = sl_json_get(w, "PutRequest"), *del = sl_json_get(w, "DeleteRequest");
          push(ts, name, key_or_item(put ? put : del));
        }
      if (ts->n == before)
        push(ts, name, NULL);
    }
    return;
  }
  const sl_json *ti = sl_json_get(body, "TransactItems");
  if (ti && ti->type == SL_JSON_ARRAY)
    for (size_t i = 0; i < ti->arr.n; i++) {
      const sl_json *o = ti->arr.items[i];
      if (o && o->type == SL_JSON_OBJECT && o->obj.n) {
        const sl_json *action = o->obj.members[0].value;
        push(ts, member(action, "TableName"), key_or_item(action));
      }
    }
  if (!ts->n)
    push(ts, SL_STR_NULL, NULL);
}

/* Returns whether the rule answers the request (false: it only delays). */
static bool fire(sl_faults *f, rule *r, sl_req *req, sl_table *t, sl_fault_effect *out) {
  (void)f;
  r->hits++;
  if (r->count > 0)
    r->count--;
  if (r->latency_ms) {
    out->delay_ms = r->latency_ms;
    return false;
  }
  if (r->cut) {
    /* Nothing is sent; the metrics count it as the server error a client
     * sees in its place. */
    out->reset = true;
    req->table = t;
    sl_failf(&req->fail, SL_E_INTERNAL_SERVER_ERROR, "connection cut by a fault rule");
    return true;
  }
  if (r->throttle) {
    sl_cap_res *res = t ? t->cap : NULL;
    if (t && r->throttle_index)
      for (uint32_t i = 0; i < t->n_indexes; i++)
        if (t->indexes[i].global && sl_str_eq(t->indexes[i].name, r->index))
          res = t->indexes[i].cap;
    if (!res) {
      /* No resource to name (the table is gone or on another index):
       * the exception without reasons. */
      sl_fail(req,
              r->limit == SL_LIMIT_PROVISIONED ? SL_E_PROVISIONED_THROUGHPUT_EXCEEDED
                                               : SL_E_THROTTLING,
              "%.*s", SL_STR_FMT(r->reason));
      return true;
    }
    sl_cap_verdict v = {.n_reasons = 1, .first_failed = 0, .failed_mask = 1, .partition = -1};
    v.reasons[0] = (sl_cap_reason){.res = res, .dir = r->dir, .limit = r->limit};
    sl_req_fail_throttled(req, &v);
    req->metrics.throttled = true;
    req->table = t;
    sl_metrics_throttle_event(req->env->metrics, t->name,
                              r->throttle_index ? r->index : SL_STR_NULL, r->dir == SL_CAP_WRITE,
                              1u << r->limit, req->op_name, sl_err_name(req->fail.code),
                              SL_STR_NULL, SL_STR_NULL, -1);
    return true;
  }
  if (r->cancel.p) {
    const sl_json *ti = sl_json_get(req->body, "TransactItems");
    size_t n = ti && ti->type == SL_JSON_ARRAY && ti->arr.n ? ti->arr.n : 1;
    sl_transact_reason *rs = SL_NEW_ARRAY(req->arena, sl_transact_reason, n);
    rs[0].code = sl_arena_strdup(req->arena, r->cancel).p;
    /* The service's text for a conflict (facts §1.5); the rule's own otherwise. */
    rs[0].message = r->message.p ? r->message
                    : sl_str_eq_c(r->cancel, "TransactionConflict")
                        ? SL_STR("Transaction is ongoing for the item.")
                        : SL_STR_NULL;
    req->table = t;
    sl_transact_cancel(req, rs, n);
    return true;
  }
  req->table = t;
  if (r->message.p)
    sl_failf(&req->fail, r->code, "%.*s", SL_STR_FMT(r->message));
  else
    sl_failf(&req->fail, r->code, NULL);
  return true;
}

bool sl_faults_apply(sl_faults *f, sl_req *req, sl_fault_effect *out) {
  out->delay_ms = 0;
  out->reset = false;
  if (!f || f->n == 0)
    return false;
  targets ts = {.req = req};
  request_targets(req, &ts);
  sl_str index = member(req->body, "IndexName");
  for (size_t i = 0; i < f->n; i++) {
    rule *r = &f->rules[i];
    if (r->count == 0)
      continue;
    if (r->operation.p && !sl_str_eq_c(r->operation, req->op_name))
      continue;
    if (r->index.p && !r->throttle_index && !sl_str_eq(r->index, index))
      continue;
    /* The first item on the rule's table whose key has the prefix. */
    const target *hit = NULL;
    for (size_t k = 0; k < ts.n && !hit; k++) {
      const target *x = &ts.v[k];
      if (r->table.p && !sl_str_eq(r->table, x->name))
        continue;
      if (r->key_prefix.p && (!x->pk.p || !sl_str_starts_with(x->pk, r->key_prefix)))
        continue;
      hit = x;
    }
    if (!hit)
      continue;
    if (r->count < 0 && !(draw(f) < r->probability))
      continue;
    return fire(f, r, req, hit->t, out);
  }
  return false;
}
