/* Control-plane throughput rules with the service's messages; see throughput.h. */
#include "ops/throughput.h"
#include "cap/cap.h"

#include <time.h>

sl_str sl_tp_long_date(sl_arena *a, int64_t epoch_ms) {
  static const char *const days[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                     "Thursday", "Friday", "Saturday"};
  static const char *const months[] = {"January",   "February", "March",    "April",
                                       "May",       "June",     "July",     "August",
                                       "September", "October",  "November", "December"};
  time_t secs = (time_t)(epoch_ms / 1000);
  struct tm tm;
  gmtime_r(&secs, &tm);
  int hour12 = tm.tm_hour % 12 == 0 ? 12 : tm.tm_hour % 12;
  return sl_arena_printf(a, "%s, %s %d, %d %d:%02d:%02d %s UTC", days[tm.tm_wday],
                         months[tm.tm_mon], tm.tm_mday, tm.tm_year + 1900, hour12, tm.tm_min,
                         tm.tm_sec, tm.tm_hour < 12 ? "AM" : "PM");
}

static const sl_cap_params *params(sl_req *req) { return sl_cap_params_of(req->env->cap); }

sl_err sl_tp_set_provisioned(sl_req *req, const sl_throughput *old, sl_throughput *tp, int64_t rcu,
                             int64_t wcu) {
  bool was_provisioned = old->billing == SL_BILLING_PROVISIONED;
  /* A decrease of either dimension is a decrease (capacity-model.md §5). */
  if (was_provisioned && (rcu < old->rcu || wcu < old->wcu)) {
    sl_cap_decrease d = sl_cap_decrease_allowed(params(req), old, req->now_ms);
    if (!d.allowed)
      return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                     "Subscriber limit exceeded: Provisioned throughput decreases are limited "
                     "within a given UTC day. After the first %lld decreases, each subsequent "
                     "decrease in the same UTC day can be performed at most once every %lld "
                     "seconds. Number of decreases today: %u. Last decrease at %.*s. Next "
                     "decrease can be made at %.*s",
                     (long long)params(req)->decreases_free,
                     (long long)(params(req)->decrease_interval_ms / 1000), d.decreases_today,
                     SL_STR_FMT(sl_tp_long_date(req->arena, d.last_ms)),
                     SL_STR_FMT(sl_tp_long_date(req->arena, d.next_ms)));
    sl_cap_decrease_record(tp, req->now_ms);
  }
  if (was_provisioned && (rcu > old->rcu || wcu > old->wcu))
    tp->last_increase_ms = (uint64_t)req->now_ms;
  tp->rcu = rcu;
  tp->wcu = wcu;
  if (rcu > tp->highest_rcu)
    tp->highest_rcu = rcu;
  if (wcu > tp->highest_wcu)
    tp->highest_wcu = wcu;
  return SL_OK;
}

sl_err sl_tp_set_billing(sl_req *req, sl_str table, const sl_throughput *old, sl_throughput *tp,
                         uint8_t mode) {
  if (mode == old->billing)
    return SL_OK;
  if (mode == SL_BILLING_PAY_PER_REQUEST) {
    int64_t next;
    if (!sl_cap_ppr_switch_allowed(params(req), old, req->now_ms, &next))
      /* The old once-a-day rule's observed text ("Update to PayPerRequest mode
       * are limited to once in 1 day(s)"), with today's count of 4. */
      return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                     "Subscriber limit exceeded: Update to PayPerRequest mode are limited to %lld "
                     "times in 1 day(s). Last update at %.*s. Next update can be made at %.*s",
                     (long long)params(req)->ppr_switches_per_day,
                     SL_STR_FMT(sl_tp_long_date(req->arena, (int64_t)old->ppr_switch_ms[0])),
                     SL_STR_FMT(sl_tp_long_date(req->arena, next)));
    sl_cap_ppr_switch_record(tp, req->now_ms);
    tp->rcu = tp->wcu = 0;
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
  const sl_cap_params *p = params(req);
  if (r > p->table_quota_read)
    return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                   "Subscriber limit exceeded: Requested MaxReadRequestUnits for "
                   "OnDemandThroughput for %s exceeds TableMaxReadCapacityUnits of the account in "
                   "region %s",
                   what, req->env->region);
  if (w > p->table_quota_write)
    return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                   "Subscriber limit exceeded: Requested MaxWriteRequestUnits for "
                   "OnDemandThroughput for %s exceeds TableMaxWriteCapacityUnits of the account in "
                   "region %s",
                   what, req->env->region);
  if ((r < 1 && r != -1) || (w < 1 && w != -1))
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: MaxReadRequestUnits and "
                   "MaxWriteRequestUnits must be at least 1, or -1 to remove the maximum");
  tp->max_read_ru = r < 0 ? -1 : r;
  tp->max_write_ru = w < 0 ? -1 : w;
  return SL_OK;
}

sl_err sl_tp_set_warm(sl_req *req, const char *what, sl_str name, sl_throughput *tp,
                      const sl_units_in *wt, bool creating) {
  if (!wt->present)
    return SL_OK;
  const sl_cap_params *p = params(req);
  int64_t r = wt->has_read ? wt->read : tp->warm_read;
  int64_t w = wt->has_write ? wt->write : tp->warm_write;
  if (r > p->table_quota_read)
    return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                   "Subscriber limit exceeded: Requested ReadUnitsPerSecond for WarmThroughput for "
                   "%s %.*s exceeds TableMaxReadCapacityUnits of the account in region %s",
                   what, SL_STR_FMT(name), req->env->region);
  if (w > p->table_quota_write)
    return sl_fail(
        req, SL_E_LIMIT_EXCEEDED,
        "Subscriber limit exceeded: Requested WriteUnitsPerSecond for WarmThroughput for "
        "%s %.*s exceeds TableMaxWriteCapacityUnits of the account in region %s",
        what, SL_STR_FMT(name), req->env->region);
  /* Warm throughput can never be decreased (capacity-model.md §6). */
  if (r < tp->warm_read || w < tp->warm_write)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: WarmThroughput cannot be decreased. "
                   "Current ReadUnitsPerSecond: %lld, WriteUnitsPerSecond: %lld",
                   (long long)tp->warm_read, (long long)tp->warm_write);
  tp->warm_read = r;
  tp->warm_write = w;
  if (creating) {
    tp->warm_status = SL_STATUS_ACTIVE;
  } else {
    tp->warm_status = SL_STATUS_UPDATING;
    tp->warm_ready_ms = (uint64_t)(req->now_ms + p->warm_delay_ms);
  }
  return SL_OK;
}

/* Provisioned units of a table and its GSIs. */
static void table_units(const sl_table *t, int64_t *r, int64_t *w) {
  *r = *w = 0;
  if (t->tp.billing != SL_BILLING_PROVISIONED)
    return;
  *r = t->tp.rcu;
  *w = t->tp.wcu;
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    if (!t->indexes[i].global)
      continue;
    *r += t->indexes[i].tp.rcu;
    *w += t->indexes[i].tp.wcu;
  }
}

sl_err sl_tp_check_quotas(sl_req *req, const sl_table *t, const sl_table *old) {
  const sl_cap_params *p = params(req);
  int64_t r, w;
  table_units(t, &r, &w);
  if (!old) {
    if (r > p->table_quota_read)
      return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                     "The requested ReadCapacityUnits, %lld, is above the per table maximum for "
                     "the account in %s. Per table maximum: %lld. Refer to the Amazon DynamoDB "
                     "Developer Guide for current limits and how to request higher limits.",
                     (long long)r, req->env->region, (long long)p->table_quota_read);
    if (w > p->table_quota_write)
      return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                     "The requested WriteCapacityUnits, %lld, is above the per table maximum for "
                     "the account in %s. Per table maximum: %lld. Refer to the Amazon DynamoDB "
                     "Developer Guide for current limits and how to request higher limits.",
                     (long long)w, req->env->region, (long long)p->table_quota_write);
  }
  /* Account quota: every provisioned table and GSI, with this table's new
   * version in place of the old one. */
  int64_t ar = 0, aw = 0;
  sl_catalog *cat = req->env->catalog;
  for (size_t i = 0; i < sl_catalog_count(cat); i++) {
    const sl_table *x = sl_catalog_at(cat, i);
    if (old && x == old)
      continue;
    int64_t xr, xw;
    table_units(x, &xr, &xw);
    ar += xr;
    aw += xw;
  }
  int64_t old_r = 0, old_w = 0;
  if (old)
    table_units(old, &old_r, &old_w);
  if (r > old_r && ar + r > p->account_quota_read)
    return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                   "This request would have caused the ReadCapacityUnits limit to be exceeded for "
                   "the account in %s. Current ReadCapacityUnits reserved by the account: %lld. "
                   "Limit: %lld. Requested: %lld. Refer to the Amazon DynamoDB Developer Guide for "
                   "current limits and how to request higher limits.",
                   req->env->region, (long long)(ar + old_r), (long long)p->account_quota_read,
                   (long long)r);
  if (w > old_w && aw + w > p->account_quota_write)
    return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                   "This request would have caused the WriteCapacityUnits limit to be exceeded for "
                   "the account in %s. Current WriteCapacityUnits reserved by the account: %lld. "
                   "Limit: %lld. Requested: %lld. Refer to the Amazon DynamoDB Developer Guide for "
                   "current limits and how to request higher limits.",
                   req->env->region, (long long)(aw + old_w), (long long)p->account_quota_write,
                   (long long)w);
  return SL_OK;
}
