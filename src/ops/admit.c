/*
 * Throttled requests on the wire: which exception, which message, which
 * reasons list (facts §1.2–1.4, spec §3). Pinned by
 * tests/conformance/test_capacity_http.py (the wire shapes) and
 * test_transaction_capacity.py.
 *
 * And what every request leaves in metrics/ (facts §7): admission is the one
 * place that sees every charge and verdict, so consumed units (summed per
 * request and resource, recorded once at the end: SampleCount counts
 * requests), throttle events (one per failed charge, with the reasons that
 * refused it, the partition and the printable key) and Contributor Insights
 * keys are noted here; sl_req_metrics_end records the request-level metrics
 * when dispatch has the outcome. Pinned by tests/unit/server/test_metrics.c.
 * Building with -DSL_METRICS_OFF makes all of it return at once (to measure
 * its cost).
 */
#include "ops/req.h"
#include "metrics/metrics.h"
#include "cap/charge.h"

#include <time.h>

static const char msg_provisioned_table[] = "The level of configured provisioned throughput for "
                                            "the table was exceeded. Consider increasing "
                                            "your provisioning level with the UpdateTable API.";
static const char msg_provisioned_index[] =
    "The level of configured provisioned throughput for one or more global secondary indexes of "
    "the "
    "table was exceeded. Consider increasing your provisioning level for the under-provisioned "
    "global secondary indexes with the UpdateTable API";
static const char msg_on_demand_table[] =
    "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically "
    "scaling your table or index so please try again shortly. If exceptions persist, check if you "
    "have a hot key: "
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
static const char msg_on_demand_index[] =
    "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is "
    "automatically scaling your index so please try again shortly.";
static const char msg_account[] =
    "Throughput exceeds the current throughput limit for your account. To request a limit "
    "increase, contact AWS Support at https://aws.amazon.com/support";

void sl_throttle_exception(const sl_cap_params *p, const sl_cap_verdict *v, sl_err *code,
                           const char **message) {
  const sl_cap_reason *r = &v->reasons[0];
  bool index = sl_cap_res_is_index(r->res);
  switch ((sl_cap_limit)r->limit) {
  case SL_LIMIT_MAX_ON_DEMAND:
    *code = SL_E_THROTTLING;
    *message = index ? msg_on_demand_index : msg_on_demand_table;
    return;
  case SL_LIMIT_ACCOUNT:
    /* Which of the two the service sends is unconfirmed (facts §1.2). */
    *code = p->account_limit_exception ? SL_E_THROTTLING : SL_E_REQUEST_LIMIT_EXCEEDED;
    *message = msg_account;
    return;
  case SL_LIMIT_PROVISIONED:
    *code = SL_E_PROVISIONED_THROUGHPUT_EXCEEDED;
    *message = index ? msg_provisioned_index : msg_provisioned_table;
    return;
  case SL_LIMIT_KEY_RANGE:
    if (sl_cap_res_on_demand(r->res)) {
      *code = SL_E_THROTTLING;
      *message = index ? msg_on_demand_index : msg_on_demand_table;
    } else {
      *code = SL_E_PROVISIONED_THROUGHPUT_EXCEEDED;
      *message = index ? msg_provisioned_index : msg_provisioned_table;
    }
    return;
  }
}

static sl_err fail_throttled(sl_req *req, const sl_cap_verdict *v) {
  sl_err code;
  const char *message;
  sl_throttle_exception(sl_cap_params_of(req->env->cap), v, &code, &message);
  sl_fail(req, code, "%s", message);
  if (req->fail.code == code && !req->fail.detail_kind) {
    sl_cap_verdict *copy = SL_NEW(req->arena, sl_cap_verdict);
    *copy = *v;
    req->fail.detail_kind = SL_DETAIL_THROTTLE;
    req->fail.detail = copy;
  }
  return code;
}

/* ---- metrics ---- */

_Static_assert((int)SL_METRICS_LIMIT_MAX_ON_DEMAND == (int)SL_LIMIT_MAX_ON_DEMAND &&
                   (int)SL_METRICS_LIMIT_ACCOUNT == (int)SL_LIMIT_ACCOUNT &&
                   (int)SL_METRICS_LIMIT_PROVISIONED == (int)SL_LIMIT_PROVISIONED &&
                   (int)SL_METRICS_LIMIT_KEY_RANGE == (int)SL_LIMIT_KEY_RANGE,
               "metrics and cap number limits alike");

static int64_t mono_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The table and index names of a resource (dimensions of its metrics). */
static void res_names(const sl_cap_res *r, sl_str *table, sl_str *index) {
  *table = sl_cap_res_table_name(r);
  *index = sl_cap_res_is_index(r) ? sl_cap_res_name(r) : SL_STR_NULL;
}

/* Printable key values of a charge (cap/charge.h keeps them with it); a
 * charge placed before its key is known (a page's admission) names the
 * hash. */
static void charge_keys(sl_req *req, const sl_cap_charge *ch, sl_str *pk, sl_str *sk) {
  *pk = ch->pk ? sl_cap_key_text(req->arena, ch->pk)
               : sl_arena_printf(req->arena, "hash:%016llx", (unsigned long long)ch->hash);
  *sk = ch->sk ? sl_cap_key_text(req->arena, ch->sk) : SL_STR_NULL;
}

/* Contributor Insights: one access or throttle of a charge's key, if the
 * resource has it on. A GSI's write throttles caused by its insufficient
 * capacity (provisioned, on-demand maximum, account limit: 'limits' a mask
 * of sl_cap_limit bits) are not measured, as in the service (DG
 * contributorinsights_HowItWorks excludes only those); its own key-range
 * throttles, a hot key of the index, are. */
static void note_ci(sl_req *req, const sl_cap_charge *ch, sl_str table, sl_str index,
                    bool throttled, unsigned limits, const sl_str *pk, const sl_str *sk) {
  sl_metrics *m = req->env->metrics;
  if (sl_metrics_ci_mode(m, table, index) == SL_CI_DISABLED)
    return;
  if (throttled && index.len && ch->dir == SL_CAP_WRITE &&
      (limits & ~(1u << SL_LIMIT_KEY_RANGE)) != 0)
    return;
  sl_str p, s;
  if (pk) {
    p = *pk;
    s = *sk;
  } else {
    charge_keys(req, ch, &p, &s);
  }
  sl_metrics_ci_key(m, table, index, p, s, ch->dir == SL_CAP_WRITE, ch->cost_mu, throttled);
}

static void note_consumed(sl_req *req, const sl_cap_charge *charges, size_t n) {
#ifdef SL_METRICS_OFF
  return;
#endif
  sl_metrics *m = req->env->metrics;
  if (!m)
    return;
  sl_req_metrics *rm = &req->metrics;
  bool ci = sl_metrics_ci_any(m);
  for (size_t i = 0; i < n; i++) {
    const sl_cap_charge *ch = &charges[i];
    if (!ch->res)
      continue;
    uint32_t j = 0;
    while (j < rm->n_used && (rm->used[j].res != ch->res || rm->used[j].dir != ch->dir))
      j++;
    if (j == rm->n_used) {
      if (j == SL_REQ_MAX_USED) {
        /* More resources than the request keeps: record the oldest now. */
        sl_str t, x;
        res_names(rm->used[0].res, &t, &x);
        sl_metrics_consumed(m, t, x, rm->used[0].dir == SL_CAP_WRITE, rm->used[0].mu);
        memmove(&rm->used[0], &rm->used[1], (SL_REQ_MAX_USED - 1) * sizeof(rm->used[0]));
        j = --rm->n_used;
      }
      rm->used[j].res = ch->res;
      rm->used[j].dir = ch->dir;
      rm->used[j].mu = 0;
      rm->n_used++;
    }
    rm->used[j].mu += ch->cost_mu;
    if (ci) {
      sl_str t, x;
      res_names(ch->res, &t, &x);
      note_ci(req, ch, t, x, false, 0, NULL, NULL);
    }
  }
}

/* One throttle event per failed charge, with the reasons of its resource
 * and direction (the verdict merges reasons across charges). */
static void note_throttled(sl_req *req, const sl_cap_charge *charges, size_t n,
                           const sl_cap_verdict *v) {
#ifdef SL_METRICS_OFF
  return;
#endif
  sl_metrics *m = req->env->metrics;
  if (!m)
    return;
  sl_err code;
  const char *message;
  sl_throttle_exception(sl_cap_params_of(req->env->cap), v, &code, &message);
  for (size_t i = 0; i < n && i < 64; i++) {
    const sl_cap_charge *ch = &charges[i];
    if (!(v->failed_mask & (1ull << i)) || !ch->res)
      continue;
    unsigned limits = 0;
    for (uint32_t r = 0; r < v->n_reasons; r++)
      if (v->reasons[r].res == ch->res && v->reasons[r].dir == ch->dir)
        limits |= 1u << v->reasons[r].limit;
    sl_str table, index, pk, sk;
    res_names(ch->res, &table, &index);
    charge_keys(req, ch, &pk, &sk);
    sl_metrics_throttle_event(m, table, index, ch->dir == SL_CAP_WRITE, limits, req->op_name,
                              sl_err_name(code), pk, sk,
                              (int32_t)i == v->first_failed ? v->partition : -1);
    note_ci(req, ch, table, index, true, limits, &pk, &sk);
  }
}

sl_err sl_req_admit(sl_req *req, const sl_cap_charge *charges, size_t n) {
  sl_cap_verdict v;
  if (sl_cap_admit(req->env->cap, charges, n, &v)) {
    note_consumed(req, charges, n);
    return SL_OK;
  }
  note_throttled(req, charges, n, &v);
  return fail_throttled(req, &v);
}

bool sl_req_admit_item(sl_req *req, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out) {
  if (sl_cap_admit(req->env->cap, charges, n, out)) {
    note_consumed(req, charges, n);
    return true;
  }
  note_throttled(req, charges, n, out);
  return false;
}

sl_err sl_req_fail_throttled(sl_req *req, const sl_cap_verdict *v) {
  return fail_throttled(req, v);
}

sl_err sl_req_check(sl_req *req, const sl_cap_charge *charges, size_t n) {
  sl_cap_verdict v;
  if (sl_cap_check(req->env->cap, charges, n, &v))
    return SL_OK;
  sl_cap_record_throttle(req->env->cap, charges, n, &v);
  note_throttled(req, charges, n, &v);
  return fail_throttled(req, &v);
}

void sl_req_debit(sl_req *req, const sl_cap_charge *charges, size_t n) {
  sl_cap_debit(req->env->cap, charges, n);
  note_consumed(req, charges, n);
}

void sl_req_record_returned(sl_req *req, int64_t n) { req->metrics.returned_items = n; }

void sl_req_metrics_begin(sl_req *req) {
#ifdef SL_METRICS_OFF
  return;
#endif
  req->metrics.start_us = mono_us();
  req->metrics.returned_items = -1;
}

static sl_outcome outcome_of(sl_err code) {
  switch (code) {
  case SL_OK:
    return SL_OUTCOME_OK;
  case SL_E_PROVISIONED_THROUGHPUT_EXCEEDED:
  case SL_E_THROTTLING:
  case SL_E_REQUEST_LIMIT_EXCEEDED:
    return SL_OUTCOME_THROTTLED;
  case SL_E_CONDITIONAL_CHECK_FAILED:
    return SL_OUTCOME_CONDITION_FAILED;
  case SL_E_TRANSACTION_CONFLICT:
    return SL_OUTCOME_TRANSACTION_CONFLICT;
  default:
    return sl_err_status(code) >= 500 ? SL_OUTCOME_SYSTEM_ERROR : SL_OUTCOME_USER_ERROR;
  }
}

void sl_req_metrics_end(sl_req *req) {
#ifdef SL_METRICS_OFF
  return;
#endif
  sl_metrics *m = req->env->metrics;
  if (!m)
    return;
  sl_req_metrics *rm = &req->metrics;
  for (uint32_t i = 0; i < rm->n_used; i++) {
    sl_str t, x;
    res_names(rm->used[i].res, &t, &x);
    sl_metrics_consumed(m, t, x, rm->used[i].dir == SL_CAP_WRITE, rm->used[i].mu);
  }
  rm->n_used = 0;
  /* Table-level metrics are the data plane's (CloudWatch's Operation
   * dimension lists data operations only); before the operation is known
   * req->op_name is NULL and op_flags 0. */
  bool data = req->op_name && !(req->op_flags & SL_OPF_CONTROL);
  sl_str table = data && req->table ? req->table->name : SL_STR_NULL;
  sl_outcome outcome = rm->throttled ? SL_OUTCOME_THROTTLED : outcome_of(req->fail.code);
  sl_metrics_request_verb(m, table, req->op_name ? req->op_name : "", req->op_verb, outcome,
                          mono_us() - rm->start_us, rm->returned_items);
}
