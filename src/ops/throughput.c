/* Control-plane throughput rules with the service's messages; see throughput.h. */
#include "ops/throughput.h"
#include "cap/cap.h"

static const sl_cap_params *params(sl_req *req) { return sl_cap_params_of(req->env->cap); }

sl_err sl_tp_set_provisioned(sl_req *req, const sl_throughput *old, sl_throughput *tp, int64_t rcu,
                             int64_t wcu) {
  if (old->billing == SL_BILLING_PROVISIONED) {
    /* A decrease of either dimension is a decrease (capacity-model.md §5);
     * the budget is checked now, the decrease counted when it applies. */
    if (rcu < old->rcu || wcu < old->wcu) {
      sl_cap_decrease d = sl_cap_decrease_allowed(params(req), old, req->now_ms);
      if (!d.allowed) {
        char msg[1024];
        sl_cap_decrease_message(params(req), &d, msg, sizeof(msg));
        return sl_fail(req, SL_E_LIMIT_EXCEEDED, "%s", msg);
      }
    }
    /* The units in effect stay until the resource is ACTIVE again: the
     * service's DescribeTable shows the old ones while it is UPDATING
     * (ACKQ DDB-TABLE-063/-165/-370; tests/conformance/test_update_table.py). */
    sl_cap_pending_set(tp, rcu, wcu, req->now_ms);
    return SL_OK;
  }
  /* A switch from on-demand: the units are there at once (ACKQ DDB-TABLE-165:
   * the reply of a PAY_PER_REQUEST -> PROVISIONED switch shows them). */
  sl_cap_units_set(tp, rcu, wcu);
  return SL_OK;
}

sl_err sl_tp_set_billing(sl_req *req, sl_str table, const sl_throughput *old, sl_throughput *tp,
                         uint8_t mode) {
  if (mode == old->billing)
    return SL_OK;
  if (mode == SL_BILLING_PAY_PER_REQUEST) {
    int64_t next;
    if (!sl_cap_ppr_switch_allowed(params(req), old, req->now_ms, &next)) {
      char msg[1024];
      sl_cap_ppr_switch_message(params(req), old, next, msg, sizeof(msg));
      return sl_fail(req, SL_E_LIMIT_EXCEEDED, "%s", msg);
    }
    sl_cap_ppr_switch_record(tp, req->now_ms);
    tp->rcu = tp->wcu = 0;
    tp->pending_rcu = tp->pending_wcu = 0;
  }
  (void)table;
  tp->billing = mode;
  return SL_OK;
}

sl_err sl_tp_set_on_demand(sl_req *req, const char *what, sl_throughput *tp,
                           const sl_units_in *od) {
  if (!od->present)
    return SL_OK;
  int64_t r = od->has_read ? od->read : tp->max_read_ru;
  int64_t w = od->has_write ? od->write : tp->max_write_ru;
  char msg[512];
  sl_cap_units_check c =
      sl_cap_on_demand_check(params(req), what, r, w, req->env->region, msg, sizeof(msg));
  if (c != SL_UNITS_OK)
    return sl_fail(req, c == SL_UNITS_LIMIT ? SL_E_LIMIT_EXCEEDED : SL_E_VALIDATION, "%s", msg);
  tp->max_read_ru = r < 0 ? -1 : r;
  tp->max_write_ru = w < 0 ? -1 : w;
  return SL_OK;
}

sl_err sl_tp_set_warm(sl_req *req, const char *what, sl_str name, sl_throughput *tp,
                      const struct sl_cap_res *res, const sl_units_in *wt, bool creating) {
  if (!wt->present)
    return SL_OK;
  const sl_cap_params *p = params(req);
  int64_t r = wt->has_read ? wt->read : 0, w = wt->has_write ? wt->write : 0;
  char msg[1024];
  sl_cap_units_check c =
      sl_cap_warm_check(p, what, name, tp, res, creating, r, w, req->env->region, msg, sizeof(msg));
  if (c != SL_UNITS_OK)
    return sl_fail(req, c == SL_UNITS_LIMIT ? SL_E_LIMIT_EXCEEDED : SL_E_VALIDATION, "%s", msg);
  /* A change while one is UPDATING replaces its values and keeps its end
   * (ACKQ DDB-TABLE-459: last writer wins, "no write resets its Status");
   * until then the values in effect before are reported. */
  bool updating = tp->warm_status == SL_STATUS_UPDATING;
  if (!creating && !updating) {
    tp->warm_prev_read = tp->warm_read;
    tp->warm_prev_write = tp->warm_write;
  }
  if (wt->has_read)
    tp->warm_read = r;
  if (wt->has_write)
    tp->warm_write = w;
  if (creating) {
    tp->warm_status = SL_STATUS_ACTIVE;
  } else if (!updating) {
    tp->warm_status = SL_STATUS_UPDATING;
    tp->warm_ready_ms = (uint64_t)(req->now_ms + sl_env_delay_ms(req->env, SL_DELAY_WARM));
  }
  return SL_OK;
}

/* The units a resource will have: a pending change's, or those in effect. */
static void target_units(const sl_throughput *tp, int64_t *r, int64_t *w) {
  bool pending = tp->pending_rcu > 0 && tp->pending_wcu > 0;
  *r = pending ? tp->pending_rcu : tp->rcu;
  *w = pending ? tp->pending_wcu : tp->wcu;
}

/* Provisioned units of a table and its GSIs (pending changes counted). */
static void table_units(const sl_table *t, int64_t *r, int64_t *w) {
  *r = *w = 0;
  if (t->tp.billing != SL_BILLING_PROVISIONED)
    return;
  target_units(&t->tp, r, w);
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    if (!t->indexes[i].global)
      continue;
    int64_t xr, xw;
    target_units(&t->indexes[i].tp, &xr, &xw);
    *r += xr;
    *w += xw;
  }
}

sl_err sl_tp_check_quotas(sl_req *req, const sl_table *t, const sl_table *old) {
  const sl_cap_params *p = params(req);
  sl_cap_quota_units u = {.creating = old == NULL};
  table_units(t, &u.r, &u.w);
  if (old)
    table_units(old, &u.old_r, &u.old_w);
  /* Account quota: every provisioned table and GSI, with this table's new
   * version in place of the old one. */
  sl_catalog *cat = req->env->catalog;
  for (size_t i = 0; i < sl_catalog_count(cat); i++) {
    const sl_table *x = sl_catalog_at(cat, i);
    if (old && x == old)
      continue;
    int64_t xr, xw;
    table_units(x, &xr, &xw);
    u.others_r += xr;
    u.others_w += xw;
  }
  sl_cap_quota q = sl_cap_quota_check(p, &u);
  if (q == SL_QUOTA_OK)
    return SL_OK;
  char msg[1024];
  sl_cap_quota_message(p, &u, q, req->env->region, msg, sizeof(msg));
  return sl_fail(req, SL_E_LIMIT_EXCEEDED, "%s", msg);
}
