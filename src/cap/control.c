/*
 * Control-plane rules of the capacity model: the provisioned decrease budget
 * (spec §5), the provisioned -> on-demand switch limit (spec §6) and the
 * per-table and account quotas, as pure functions over a resource's
 * sl_throughput history, with the service's messages for each refusal, the
 * per-table quotas on OnDemandThroughput and WarmThroughput; and
 * the account's control-plane request rate (spec §7). They live here so
 * that UpdateTable and CreateTable (ops/throughput.c), `sluice simulate`
 * (tools/simulate.c) and the unit tests share them. Days are UTC days of
 * the clock.
 */
#include "cap/cap_int.h"

#include <stdio.h>
#include <time.h>

#define DAY_MS 86400000LL

uint32_t sl_cap_decreases_today(const sl_throughput *tp, int64_t now_ms) {
  return tp->decrease_day == now_ms / DAY_MS ? tp->decreases_today : 0;
}

/* When the last decrease applied: the bucket's tokens are counted from
 * then. Not last_decrease_ms, which a request whose change is pending stamps
 * already (sl_cap_pending_set), so that at its apply no time would have
 * passed since (tests/conformance/test_capacity_http.py
 * test_decrease_bucket_edges); records older than the field use it. */
static int64_t tokens_from_ms(const sl_throughput *tp) {
  return tp->decrease_tokens_ms ? tp->decrease_tokens_ms : (int64_t)tp->last_decrease_ms;
}

/* decrease_bucket: the tokens (x 1000) available at 'now_ms': full at the
 * start of a UTC day, else what the last decrease left plus one token per
 * interval since, at most decreases_free. */
static int64_t bucket_milli(const sl_cap_params *p, const sl_throughput *tp, int64_t now_ms) {
  int64_t cap = p->decreases_free * 1000;
  if (sl_cap_decreases_today(tp, now_ms) == 0 || p->decrease_interval_ms <= 0)
    return cap;
  int64_t since = now_ms - tokens_from_ms(tp);
  if (since < 0)
    since = 0;
  int64_t earned = since / p->decrease_interval_ms * 1000 +
                   since % p->decrease_interval_ms * 1000 / p->decrease_interval_ms;
  int64_t level = tp->decrease_tokens_milli + earned;
  return level < cap ? level : cap;
}

sl_cap_decrease sl_cap_decrease_allowed(const sl_cap_params *p, const sl_throughput *tp,
                                        int64_t now_ms) {
  sl_cap_decrease d = {0};
  uint32_t today = sl_cap_decreases_today(tp, now_ms);
  d.decreases_today = today;
  d.last_ms = (int64_t)tp->last_decrease_ms;
  int64_t day_end = (now_ms / DAY_MS + 1) * DAY_MS;
  if (today >= (uint32_t)p->decreases_max) {
    d.next_ms = day_end; /* the budget is spent until the next UTC day */
    return d;
  }
  if (p->decrease_bucket) {
    int64_t level = bucket_milli(p, tp, now_ms);
    d.allowed = level >= 1000;
    int64_t next = now_ms;
    if (!d.allowed) {
      /* When the bucket holds a whole token again, counted from the last
       * decrease (what it left plus one token per interval since), not from
       * now: the level is in whole milli-tokens, and a fraction of one
       * (3.6 s of an hour) must not move the time the message names. */
      int64_t owed = 1000 - tp->decrease_tokens_milli;
      next = tokens_from_ms(tp) + (owed * p->decrease_interval_ms + 999) / 1000;
      if (next <= now_ms)
        next = now_ms + 1;
    }
    d.next_ms = next < day_end ? next : day_end;
    return d;
  }
  if (today < (uint32_t)p->decreases_free) {
    d.allowed = true;
    d.next_ms = now_ms;
    return d;
  }
  /* After the free ones: one more per interval, provided there was no
   * decrease in the preceding interval. */
  int64_t next = d.last_ms + p->decrease_interval_ms;
  d.allowed = now_ms >= next;
  d.next_ms = next < day_end ? next : day_end;
  return d;
}

void sl_cap_decrease_record(const sl_cap_params *p, sl_throughput *tp, int64_t now_ms) {
  tp->decrease_tokens_milli = bucket_milli(p, tp, now_ms) - 1000;
  tp->decrease_tokens_ms = now_ms;
  int64_t day = now_ms / DAY_MS;
  if (tp->decrease_day != day) {
    tp->decrease_day = day;
    tp->decreases_today = 0;
  }
  tp->decreases_today++;
  tp->last_decrease_ms = (uint64_t)now_ms;
}

void sl_cap_pending_set(sl_throughput *tp, int64_t rcu, int64_t wcu, int64_t now_ms) {
  /* Against the units in effect: an UPDATING resource takes no other change. */
  if (rcu > tp->rcu || wcu > tp->wcu)
    tp->last_increase_ms = (uint64_t)now_ms;
  if (rcu < tp->rcu || wcu < tp->wcu)
    tp->last_decrease_ms = (uint64_t)now_ms;
  tp->pending_rcu = rcu;
  tp->pending_wcu = wcu;
}

bool sl_cap_pending_apply(const sl_cap_params *p, sl_throughput *tp, int64_t at_ms) {
  if (tp->pending_rcu <= 0 || tp->pending_wcu <= 0)
    return false;
  int64_t rcu = tp->pending_rcu, wcu = tp->pending_wcu;
  tp->pending_rcu = tp->pending_wcu = 0;
  if (tp->billing != SL_BILLING_PROVISIONED)
    return true; /* switched to on-demand meanwhile: nothing to apply */
  /* A call that raises one dimension and lowers the other is a decrease
   * (spec §5); it stamps both dates. */
  if (rcu > tp->rcu || wcu > tp->wcu)
    tp->last_increase_ms = (uint64_t)at_ms;
  if (rcu < tp->rcu || wcu < tp->wcu)
    sl_cap_decrease_record(p, tp, at_ms);
  sl_cap_units_set(tp, rcu, wcu);
  return true;
}

void sl_cap_units_set(sl_throughput *tp, int64_t rcu, int64_t wcu) {
  tp->rcu = rcu;
  tp->wcu = wcu;
  if (rcu > tp->highest_rcu)
    tp->highest_rcu = rcu;
  if (wcu > tp->highest_wcu)
    tp->highest_wcu = wcu;
}

bool sl_cap_ppr_switch_allowed(const sl_cap_params *p, const sl_throughput *tp, int64_t now_ms,
                               int64_t *next_ms) {
  int64_t n = p->ppr_switches_per_day;
  if (n <= 0) {
    *next_ms = INT64_MAX;
    return false;
  }
  if (n > 4)
    n = 4; /* the history keeps the last four switches */
  /* The oldest of the last n switches must have left the rolling 24 h. */
  uint64_t oldest = tp->ppr_switch_ms[n - 1];
  *next_ms = oldest ? (int64_t)oldest + DAY_MS : now_ms;
  return oldest == 0 || (int64_t)oldest + DAY_MS <= now_ms;
}

void sl_cap_ppr_switch_record(sl_throughput *tp, int64_t now_ms) {
  memmove(&tp->ppr_switch_ms[1], &tp->ppr_switch_ms[0],
          sizeof(tp->ppr_switch_ms) - sizeof(tp->ppr_switch_ms[0]));
  tp->ppr_switch_ms[0] = (uint64_t)now_ms;
  tp->last_ppr_update_ms = (uint64_t)now_ms;
}

/* The account's control-plane request rate (spec §7): one bucket of the
 * engine, in requests (milli-units), created by sl_cap_new. */
bool sl_cap_control_admit(sl_cap *c) {
  if (c->p.unlimited || c->p.control_plane_rate <= 0)
    return true;
  sl__bucket_refill(&c->control, sl_clock_now_us(c->clock));
  if (c->control.level <= 0)
    return false;
  c->control.level -= 1000;
  return true;
}

void sl_cap_long_date(int64_t epoch_ms, char *buf, size_t n) {
  static const char *const days[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                     "Thursday", "Friday", "Saturday"};
  static const char *const months[] = {"January",   "February", "March",    "April",
                                       "May",       "June",     "July",     "August",
                                       "September", "October",  "November", "December"};
  time_t secs = (time_t)(epoch_ms / 1000);
  struct tm tm;
  gmtime_r(&secs, &tm);
  int hour12 = tm.tm_hour % 12 == 0 ? 12 : tm.tm_hour % 12;
  snprintf(buf, n, "%s, %s %d, %d %d:%02d:%02d %s UTC", days[tm.tm_wday], months[tm.tm_mon],
           tm.tm_mday, tm.tm_year + 1900, hour12, tm.tm_min, tm.tm_sec,
           tm.tm_hour < 12 ? "AM" : "PM");
}

void sl_cap_decrease_message(const sl_cap_params *p, const sl_cap_decrease *d, char *buf,
                             size_t n) {
  char last[64], next[64];
  sl_cap_long_date(d->last_ms, last, sizeof(last));
  sl_cap_long_date(d->next_ms, next, sizeof(next));
  snprintf(buf, n,
           "Subscriber limit exceeded: Provisioned throughput decreases are limited within a "
           "given UTC day. After the first %lld decreases, each subsequent decrease in the same "
           "UTC day can be performed at most once every %lld seconds. Number of decreases today: "
           "%u. Last decrease at %s. Next decrease can be made at %s",
           (long long)p->decreases_free, (long long)(p->decrease_interval_ms / 1000),
           d->decreases_today, last, next);
}

void sl_cap_ppr_switch_message(const sl_cap_params *p, const sl_throughput *old, int64_t next_ms,
                               char *buf, size_t n) {
  char last[64], next[64];
  sl_cap_long_date((int64_t)old->ppr_switch_ms[0], last, sizeof(last));
  sl_cap_long_date(next_ms, next, sizeof(next));
  /* The old once-a-day rule's observed text ("Update to PayPerRequest mode
   * are limited to once in 1 day(s)"), with today's count of 4. */
  snprintf(buf, n,
           "Subscriber limit exceeded: Update to PayPerRequest mode are limited to %lld times in "
           "1 day(s). Last update at %s. Next update can be made at %s",
           (long long)p->ppr_switches_per_day, last, next);
}

sl_cap_quota sl_cap_quota_check(const sl_cap_params *p, const sl_cap_quota_units *u) {
  if (u->creating && u->r > p->table_quota_read)
    return SL_QUOTA_TABLE_READ;
  if (u->creating && u->w > p->table_quota_write)
    return SL_QUOTA_TABLE_WRITE;
  if (u->r > u->old_r && u->others_r + u->r > p->account_quota_read)
    return SL_QUOTA_ACCOUNT_READ;
  if (u->w > u->old_w && u->others_w + u->w > p->account_quota_write)
    return SL_QUOTA_ACCOUNT_WRITE;
  return SL_QUOTA_OK;
}

void sl_cap_quota_message(const sl_cap_params *p, const sl_cap_quota_units *u, sl_cap_quota q,
                          const char *region, char *buf, size_t n) {
  bool read = q == SL_QUOTA_TABLE_READ || q == SL_QUOTA_ACCOUNT_READ;
  const char *unit = read ? "ReadCapacityUnits" : "WriteCapacityUnits";
  if (q == SL_QUOTA_TABLE_READ || q == SL_QUOTA_TABLE_WRITE) {
    snprintf(buf, n,
             "The requested %s, %lld, is above the per table maximum for the account in %s. Per "
             "table maximum: %lld. Refer to the Amazon DynamoDB Developer Guide for current "
             "limits and how to request higher limits.",
             unit, (long long)(read ? u->r : u->w), region,
             (long long)(read ? p->table_quota_read : p->table_quota_write));
    return;
  }
  if (q == SL_QUOTA_ACCOUNT_READ || q == SL_QUOTA_ACCOUNT_WRITE) {
    snprintf(buf, n,
             "This request would have caused the %s limit to be exceeded for the account in %s. "
             "Current %s reserved by the account: %lld. Limit: %lld. Requested: %lld. Refer to "
             "the Amazon DynamoDB Developer Guide for current limits and how to request higher "
             "limits.",
             unit, region, unit,
             (long long)(read ? u->others_r + u->old_r : u->others_w + u->old_w),
             (long long)(read ? p->account_quota_read : p->account_quota_write),
             (long long)(read ? u->r : u->w));
    return;
  }
  snprintf(buf, n, "%s", "");
}

sl_cap_units_check sl_cap_on_demand_check(const sl_cap_params *p, const char *what, int64_t r,
                                          int64_t w, const char *region, char *buf, size_t n) {
  if (r > p->table_quota_read || w > p->table_quota_write) {
    bool read = r > p->table_quota_read;
    snprintf(buf, n,
             "Subscriber limit exceeded: Requested %s for OnDemandThroughput for %s exceeds "
             "%s of the account in region %s",
             read ? "MaxReadRequestUnits" : "MaxWriteRequestUnits", what,
             read ? "TableMaxReadCapacityUnits" : "TableMaxWriteCapacityUnits", region);
    return SL_UNITS_LIMIT;
  }
  if ((r < 1 && r != -1) || (w < 1 && w != -1)) {
    snprintf(buf, n, "%s",
             "One or more parameter values were invalid: MaxReadRequestUnits and "
             "MaxWriteRequestUnits must be at least 1, or -1 to remove the maximum");
    return SL_UNITS_INVALID;
  }
  snprintf(buf, n, "%s", "");
  return SL_UNITS_OK;
}

void sl_cap_warm_current(const sl_cap_params *p, const sl_throughput *tp, const sl_cap_res *res,
                         int64_t *read_ups, int64_t *write_ups) {
  int64_t r, w;
  if (tp->billing == SL_BILLING_PAY_PER_REQUEST) {
    /* A new table's partitions, or more once use has grown it (splits for
     * heat or size: the service raises warm throughput "as your usage
     * increases"); partitions made only to pre-warm count as the values
     * asked for, as the service reports them (ACKQ DDB-TABLE-459: 14,000 /
     * 6,000 asked, 14,000 / 6,000 reported, not the 18,000 reads six
     * partitions serve). */
    int64_t n = p->ondemand_initial_partitions;
    if (res && (int64_t)sl_cap_res_partitions(res) > sl_cap_initial_partitions(p, tp, 0))
      n = (int64_t)sl_cap_res_partitions(res);
    r = n * p->partition_read_rate;
    w = n * p->partition_write_rate;
  } else {
    r = tp->highest_rcu > tp->rcu ? tp->highest_rcu : tp->rcu;
    w = tp->highest_wcu > tp->wcu ? tp->highest_wcu : tp->wcu;
  }
  /* While an increase is UPDATING the values in effect before are the
   * current ones (ACKQ DDB-TABLE-179: "DescribeTable kept the OLD values with
   * Status=UPDATING until completion"; -066: the old values asked again are
   * accepted). */
  bool updating = tp->warm_status == SL_STATUS_UPDATING;
  int64_t ar = updating ? tp->warm_prev_read : tp->warm_read;
  int64_t aw = updating ? tp->warm_prev_write : tp->warm_write;
  *read_ups = ar > r ? ar : r;
  *write_ups = aw > w ? aw : w;
}

sl_cap_units_check sl_cap_warm_check(const sl_cap_params *p, const char *what, sl_str name,
                                     const sl_throughput *tp, const sl_cap_res *res, bool creating,
                                     int64_t r, int64_t w, const char *region, char *buf,
                                     size_t n) {
  if (r > p->table_quota_read || w > p->table_quota_write) {
    bool read = r > p->table_quota_read;
    snprintf(buf, n,
             "Subscriber limit exceeded: Requested %s for WarmThroughput for %s %.*s exceeds "
             "%s of the account in region %s",
             read ? "ReadUnitsPerSecond" : "WriteUnitsPerSecond", what, SL_STR_FMT(name),
             read ? "TableMaxReadCapacityUnits" : "TableMaxWriteCapacityUnits", region);
    return SL_UNITS_LIMIT;
  }
  /* Warm throughput can never be decreased (capacity-model.md §6), from
   * what the resource reports: a new on-demand table's 12,000 / 4,000
   * included, not only from a value asked for before. */
  int64_t cur_r, cur_w;
  sl_cap_warm_current(p, tp, res, &cur_r, &cur_w);
  bool low_r = r > 0 && r < cur_r, low_w = !low_r && w > 0 && w < cur_w;
  if (low_r || low_w) {
    const char *unit = low_r ? "ReadUnitsPerSecond" : "WriteUnitsPerSecond";
    char of[160];
    if (strcmp(what, "index") == 0)
      snprintf(of, sizeof(of), "index %.*s", SL_STR_FMT(name));
    else
      snprintf(of, sizeof(of), "%s", what);
    if (!creating)
      snprintf(buf, n,
               "One or more parameter values were invalid: Requested %s for WarmThroughput for "
               "%s is lower than current WarmThroughput, decreasing WarmThroughput is not "
               "supported",
               unit, of);
    else if (tp->billing == SL_BILLING_PAY_PER_REQUEST)
      snprintf(buf, n,
               "One or more parameter values were invalid: Requested %s for WarmThroughput for "
               "%s is lower than initial throughput for OnDemand. See: "
               "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
               "on-demand-capacity-mode.html#on-demand-capacity-mode-initial",
               unit, of);
    else
      snprintf(buf, n,
               "One or more parameter values were invalid: Requested %s for WarmThroughput for "
               "%s is lower than %s of ProvisionedThroughput",
               unit, of, low_r ? "ReadCapacityUnits" : "WriteCapacityUnits");
    return SL_UNITS_INVALID;
  }
  snprintf(buf, n, "%s", "");
  return SL_UNITS_OK;
}
