/* Fault injection; see faults.h. Pinned by tests/conformance/test_faults.py. */
#include "server/faults.h"
#include "base/log.h"
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
  uint8_t dir, limit; /* sl_cap_dir, sl_cap_limit */
  sl_str reason;      /* the ThrottlingReason string */
  sl_err code;        /* another exception */
  sl_str message;     /* its message; empty pointer: none */
  sl_str cancel;      /* CancellationReasons code of TransactionCanceledException */
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

/* xorshift64*: a double in [0, 1). */
static double draw(sl_faults *f) {
  uint64_t x = f->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  f->rng = x;
  return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-53;
}

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
      "operation", "table",  "index",    "key_prefix", "probability",
      "count",     "reason", "error",    "message",    "cancellation_reason",
      "id",        "hits",   "remaining"};
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
  if ((reason.p != NULL) + (error.p != NULL) + (cancel.p != NULL) != 1)
    return snprintf(err, err_len,
                    "a rule has one of 'reason' (a ThrottlingReason), 'error' (an exception "
                    "name) or 'cancellation_reason'"),
           false;
  if (reason.p) {
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
  if (!r->throttle && !r->cancel.p) {
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

/* {"action": "drain_burst", "table": T[, "index": I]}: the resource's unused
 * capacity is spent now (cap/cap.h sl_cap_res_drain_burst). */
static bool is_action(const sl_json *o) { return o && member(o, "action").p; }

static bool check_action(const sl_json *o, sl_env *env, char *err, size_t err_len) {
  if (!sl_str_eq_c(member(o, "action"), "drain_burst"))
    return snprintf(err, err_len, "unknown action '%.*s' (drain_burst)",
                    SL_STR_FMT(member(o, "action"))),
           false;
  for (size_t i = 0; i < o->obj.n; i++) {
    sl_str k = o->obj.members[i].key;
    if (!sl_str_eq_c(k, "action") && !sl_str_eq_c(k, "table") && !sl_str_eq_c(k, "index"))
      return snprintf(err, err_len, "unknown member '%.*s' in an action", SL_STR_FMT(k)), false;
  }
  sl_str table = member(o, "table"), index = member(o, "index");
  const sl_table *t = table.p ? sl_catalog_get(env->catalog, table) : NULL;
  if (!t)
    return snprintf(err, err_len, "drain_burst: no table '%.*s'", SL_STR_FMT(table)), false;
  if (index.p) {
    bool found = false;
    for (uint32_t i = 0; i < t->n_indexes; i++)
      found = found || (t->indexes[i].global && sl_str_eq(t->indexes[i].name, index));
    if (!found)
      return snprintf(err, err_len, "drain_burst: no global secondary index '%.*s' on '%.*s'",
                      SL_STR_FMT(index), SL_STR_FMT(table)),
             false;
  }
  return true;
}

static void run_action(const sl_json *o, sl_env *env, sl_jw *w) {
  sl_str table = member(o, "table"), index = member(o, "index");
  const sl_table *t = sl_catalog_get(env->catalog, table);
  struct sl_cap_res *res = t->cap;
  if (index.p)
    for (uint32_t i = 0; i < t->n_indexes; i++)
      if (t->indexes[i].global && sl_str_eq(t->indexes[i].name, index))
        res = t->indexes[i].cap;
  if (res)
    sl_cap_res_drain_burst(env->cap, res);
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "action");
  sl_jw_str_c(w, "drain_burst");
  sl_jw_key_c(w, "table");
  sl_jw_str(w, table);
  if (index.p) {
    sl_jw_key_c(w, "index");
    sl_jw_str(w, index);
  }
  sl_jw_key_c(w, "applied");
  sl_jw_bool(w, res != NULL);
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

/* The table a request names: TableName, else the first of RequestItems
 * (batches) or TransactItems. */
static sl_str request_table(const sl_json *body, const sl_json **item_out) {
  *item_out = NULL;
  sl_str t = member(body, "TableName");
  if (t.p)
    return t;
  const sl_json *ri = sl_json_get(body, "RequestItems");
  if (ri && ri->type == SL_JSON_OBJECT && ri->obj.n)
    return ri->obj.members[0].key;
  const sl_json *ti = sl_json_get(body, "TransactItems");
  if (ti && ti->type == SL_JSON_ARRAY && ti->arr.n && ti->arr.items[0]->type == SL_JSON_OBJECT &&
      ti->arr.items[0]->obj.n) {
    const sl_json *action = ti->arr.items[0]->obj.members[0].value;
    *item_out = action;
    return member(action, "TableName");
  }
  return SL_STR_NULL;
}

/* The partition key's value as text, from Key or Item. */
static sl_str partition_key(const sl_json *obj, const sl_table *t) {
  if (!obj || !t)
    return SL_STR_NULL;
  const sl_json *k = sl_json_get(obj, "Key");
  if (!k)
    k = sl_json_get(obj, "Item");
  const sl_json *av = k ? sl_json_get_str(k, t->key.hash) : NULL;
  if (!av || av->type != SL_JSON_OBJECT || av->obj.n != 1)
    return SL_STR_NULL;
  const sl_json *v = av->obj.members[0].value;
  return v->type == SL_JSON_STRING || v->type == SL_JSON_NUMBER ? v->str : SL_STR_NULL;
}

static sl_str table_name_of(sl_req *req, sl_str given) {
  sl_str n = sl_req_arn_table_name(req, given);
  return n.len ? n : given;
}

static void fire(sl_faults *f, rule *r, sl_req *req, sl_table *t) {
  r->hits++;
  if (r->count > 0)
    r->count--;
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
      return;
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
    return;
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
    return;
  }
  req->table = t;
  if (r->message.p)
    sl_failf(&req->fail, r->code, "%.*s", SL_STR_FMT(r->message));
  else
    sl_failf(&req->fail, r->code, NULL);
}

bool sl_faults_apply(sl_faults *f, sl_req *req) {
  if (!f || f->n == 0)
    return false;
  const sl_json *first = NULL;
  sl_str given = request_table(req->body, &first);
  sl_str name = given.p ? table_name_of(req, given) : SL_STR_NULL;
  sl_table *t = name.len ? sl_catalog_get(req->env->catalog, name) : NULL;
  sl_str index = member(req->body, "IndexName");
  for (size_t i = 0; i < f->n; i++) {
    rule *r = &f->rules[i];
    if (r->count == 0)
      continue;
    if (r->operation.p && !sl_str_eq_c(r->operation, req->op_name))
      continue;
    if (r->table.p && !sl_str_eq(r->table, name))
      continue;
    if (r->index.p && !r->throttle_index && !sl_str_eq(r->index, index))
      continue;
    if (r->key_prefix.p) {
      sl_str pk = partition_key(first ? first : req->body, t);
      if (!pk.p || !sl_str_starts_with(pk, r->key_prefix))
        continue;
    }
    if (r->count < 0 && !(draw(f) < r->probability))
      continue;
    fire(f, r, req, t);
    return true;
  }
  return false;
}
