/* Unit tests of cap/control.c: the control plane's rules (decrease budget,
 * switches to on-demand, quotas, OnDemandThroughput and WarmThroughput
 * against the per-table quotas) and the service's messages for their
 * refusals, which UpdateTable and sluice simulate share. */
#include "harness.h"
#include "cap/cap.h"

#include <string.h>

#define HOUR 3600000LL
#define T0 1796040000000LL /* 2026-11-30T12:00:00Z, a Monday */

static sl_cap_params params(void) {
  sl_cap_params p;
  sl_cap_params_default(&p, "aws");
  return p;
}

static void test_decrease_budget(void) {
  sl_cap_params p = params();
  sl_throughput tp = {.billing = SL_BILLING_PROVISIONED, .rcu = 10, .wcu = 10};
  for (int i = 0; i < 4; i++) {
    CHECK(sl_cap_decrease_allowed(&p, &tp, T0 + i * 60000).allowed);
    sl_cap_decrease_record(&p, &tp, T0 + i * 60000);
  }
  sl_cap_decrease d = sl_cap_decrease_allowed(&p, &tp, T0 + 10 * 60000);
  CHECK(!d.allowed);
  CHECK_INT(d.decreases_today, 4);
  CHECK_INT(d.next_ms, T0 + 3 * 60000 + HOUR);
  char msg[1024];
  sl_cap_decrease_message(&p, &d, msg, sizeof(msg));
  CHECK_STR(sl_str_c(msg),
            "Subscriber limit exceeded: Provisioned throughput decreases are limited within a "
            "given UTC day. After the first 4 decreases, each subsequent decrease in the same "
            "UTC day can be performed at most once every 3600 seconds. Number of decreases "
            "today: 4. Last decrease at Monday, November 30, 2026 12:03:00 PM UTC. Next "
            "decrease can be made at Monday, November 30, 2026 1:03:00 PM UTC");
  CHECK(sl_cap_decrease_allowed(&p, &tp, T0 + 3 * 60000 + HOUR).allowed);
}

/* The developer guide's rule at its edges: after the 4 free ones, one an hour since the last,
 * however long the table went without one; 27 in all; a new UTC day starts again. */
static void test_decrease_guide_edges(void) {
  sl_cap_params p = params();
  sl_throughput tp = {.billing = SL_BILLING_PROVISIONED, .rcu = 10, .wcu = 10};
  int64_t t = T0 - 12 * HOUR; /* 00:00 UTC */
  for (int i = 0; i < 4; i++)
    sl_cap_decrease_record(&p, &tp, t);
  CHECK(!sl_cap_decrease_allowed(&p, &tp, t + HOUR - 1).allowed);
  /* Five idle hours buy one decrease, not five. */
  t += 5 * HOUR;
  CHECK(sl_cap_decrease_allowed(&p, &tp, t).allowed);
  sl_cap_decrease_record(&p, &tp, t);
  CHECK(!sl_cap_decrease_allowed(&p, &tp, t + 1).allowed);
  CHECK_INT(sl_cap_decrease_allowed(&p, &tp, t + 1).next_ms, t + HOUR);
  /* Up to 27: 4 + 23 hourly ones fill the day. */
  sl_throughput full = {.billing = SL_BILLING_PROVISIONED, .rcu = 10, .wcu = 10};
  int64_t u = T0 - 12 * HOUR;
  int n = 0;
  for (int64_t at = u; at < u + 24 * HOUR; at += 60000)
    if (sl_cap_decrease_allowed(&p, &full, at).allowed) {
      sl_cap_decrease_record(&p, &full, at);
      n++;
    }
  CHECK_INT(n, 27);
  CHECK(sl_cap_decrease_allowed(&p, &full, u + 24 * HOUR).allowed); /* the next UTC day */
}

/* Seed 002's bucket (decrease_bucket = 1): 4 tokens at the start of the UTC day, one more an
 * hour up to 4 at any time, so idle hours buy up to four decreases at once; still 27 a day. */
static void test_decrease_bucket_edges(void) {
  sl_cap_params p = params();
  p.decrease_bucket = 1;
  sl_throughput tp = {.billing = SL_BILLING_PROVISIONED, .rcu = 10, .wcu = 10};
  int64_t t = T0 - 12 * HOUR; /* 00:00 UTC */
  for (int i = 0; i < 4; i++) {
    CHECK(sl_cap_decrease_allowed(&p, &tp, t).allowed);
    sl_cap_decrease_record(&p, &tp, t);
  }
  sl_cap_decrease d = sl_cap_decrease_allowed(&p, &tp, t);
  CHECK(!d.allowed);
  CHECK_INT(d.next_ms, t + HOUR);
  CHECK(!sl_cap_decrease_allowed(&p, &tp, t + HOUR - 1).allowed);
  CHECK(sl_cap_decrease_allowed(&p, &tp, t + HOUR).allowed);
  /* Half an hour after using the hour's token: half a token, refused until the next whole. */
  sl_cap_decrease_record(&p, &tp, t + HOUR);
  d = sl_cap_decrease_allowed(&p, &tp, t + HOUR + HOUR / 2);
  CHECK(!d.allowed);
  CHECK_INT(d.next_ms, t + 2 * HOUR);
  /* Ten idle hours refill the bucket to 4, not 10: four at once, then none. */
  int64_t later = t + 12 * HOUR;
  for (int i = 0; i < 4; i++) {
    CHECK(sl_cap_decrease_allowed(&p, &tp, later).allowed);
    sl_cap_decrease_record(&p, &tp, later);
  }
  CHECK(!sl_cap_decrease_allowed(&p, &tp, later).allowed);
  /* 27 a day at most, and the bucket is full again at the next UTC day. */
  sl_throughput full = {.billing = SL_BILLING_PROVISIONED, .rcu = 10, .wcu = 10};
  int n = 0;
  for (int64_t at = t; at < t + 24 * HOUR; at += 60000)
    if (sl_cap_decrease_allowed(&p, &full, at).allowed) {
      sl_cap_decrease_record(&p, &full, at);
      n++;
    }
  CHECK_INT(n, 27);
  CHECK_INT(sl_cap_decrease_allowed(&p, &full, t + 24 * HOUR - 1).next_ms, t + 24 * HOUR);
  for (int i = 0; i < 4; i++) {
    CHECK(sl_cap_decrease_allowed(&p, &full, t + 24 * HOUR).allowed);
    sl_cap_decrease_record(&p, &full, t + 24 * HOUR);
  }
}

/* The bucket through UpdateTable's path: a request stamps last_decrease_ms
 * when its change becomes pending (sl_cap_pending_set), and the decrease is
 * counted when it applies; the tokens still count from the last applied
 * decrease, so ten idle hours buy four decreases, not none (the bug this
 * pins: counted from the stamp, no time had passed at the apply). */
static void test_decrease_bucket_pending(void) {
  sl_cap_params p = params();
  p.decrease_bucket = 1;
  sl_throughput tp = {.billing = SL_BILLING_PROVISIONED, .rcu = 100, .wcu = 100};
  int64_t t = T0 - 12 * HOUR; /* 00:00 UTC */
  int64_t units = 100;
  for (int i = 0; i < 5; i++) {
    int64_t at = i < 4 ? t + i * 1000 : t + 3000 + HOUR;
    CHECK(sl_cap_decrease_allowed(&p, &tp, at).allowed);
    units -= 5;
    sl_cap_pending_set(&tp, units, units, at);
    CHECK(sl_cap_pending_apply(&p, &tp, at));
  }
  CHECK_INT(sl_cap_decreases_today(&tp, t + 4 * HOUR), 5);
  CHECK(!sl_cap_decrease_allowed(&p, &tp, t + 3000 + 2 * HOUR - 1).allowed);
  int64_t later = t + 12 * HOUR;
  for (int i = 0; i < 4; i++) {
    CHECK(sl_cap_decrease_allowed(&p, &tp, later).allowed);
    units -= 5;
    sl_cap_pending_set(&tp, units, units, later);
    CHECK(sl_cap_pending_apply(&p, &tp, later));
  }
  sl_cap_decrease d = sl_cap_decrease_allowed(&p, &tp, later);
  CHECK(!d.allowed);
  CHECK_INT(d.next_ms, later + HOUR);
}

/* A provisioned change is pending until its UPDATING ends: the units in
 * effect stay, the dates are stamped at the request and again when it
 * applies, and a decrease counts only then (facts §5, ops/throughput.h). */
static void test_pending_units(void) {
  sl_cap_params p = params();
  sl_throughput tp = {.billing = SL_BILLING_PROVISIONED, .rcu = 5, .wcu = 5};
  sl_cap_pending_set(&tp, 10, 10, T0);
  CHECK_INT(tp.rcu, 5);
  CHECK_INT(tp.wcu, 5);
  CHECK_INT(tp.last_increase_ms, T0);
  CHECK_INT(tp.last_decrease_ms, 0);
  CHECK(sl_cap_pending_apply(&p, &tp, T0 + 5000));
  CHECK_INT(tp.rcu, 10);
  CHECK_INT(tp.wcu, 10);
  CHECK_INT(tp.highest_rcu, 10);
  CHECK_INT(tp.last_increase_ms, T0 + 5000);
  CHECK_INT(sl_cap_decreases_today(&tp, T0 + 5000), 0);
  CHECK(!sl_cap_pending_apply(&p, &tp, T0 + 6000)); /* nothing left */
  /* Raising one dimension and lowering the other: a decrease, both stamped. */
  sl_cap_pending_set(&tp, 20, 2, T0 + 10000);
  CHECK_INT(tp.last_decrease_ms, T0 + 10000);
  CHECK_INT(sl_cap_decreases_today(&tp, T0 + 10000), 0);
  CHECK(sl_cap_pending_apply(&p, &tp, T0 + 15000));
  CHECK_INT(tp.rcu, 20);
  CHECK_INT(tp.wcu, 2);
  CHECK_INT(tp.last_increase_ms, T0 + 15000);
  CHECK_INT(tp.last_decrease_ms, T0 + 15000);
  CHECK_INT(sl_cap_decreases_today(&tp, T0 + 15000), 1);
  /* Switched to on-demand meanwhile: the pending units are dropped. */
  sl_cap_pending_set(&tp, 30, 30, T0 + 20000);
  tp.billing = SL_BILLING_PAY_PER_REQUEST;
  tp.rcu = tp.wcu = 0;
  CHECK(sl_cap_pending_apply(&p, &tp, T0 + 25000));
  CHECK_INT(tp.rcu, 0);
  CHECK_INT(tp.pending_rcu, 0);
}

static void test_switch_limit(void) {
  sl_cap_params p = params();
  sl_throughput tp = {.billing = SL_BILLING_PROVISIONED};
  int64_t next;
  for (int i = 0; i < 4; i++) {
    CHECK(sl_cap_ppr_switch_allowed(&p, &tp, T0 + i * HOUR, &next));
    sl_cap_ppr_switch_record(&tp, T0 + i * HOUR);
  }
  CHECK(!sl_cap_ppr_switch_allowed(&p, &tp, T0 + 4 * HOUR, &next));
  CHECK_INT(next, T0 + 24 * HOUR);
  char msg[1024];
  sl_cap_ppr_switch_message(&p, &tp, next, msg, sizeof(msg));
  CHECK(strstr(msg,
               "Subscriber limit exceeded: Update to PayPerRequest mode are limited to 4 "
               "times in 1 day(s). Last update at Monday, November 30, 2026 3:00:00 PM "
               "UTC. Next update can be made at Tuesday, December 1, 2026 12:00:00 PM UTC") == msg);
}

static void test_quotas(void) {
  sl_cap_params p = params();
  sl_cap_quota_units u = {.creating = true, .r = 40001, .w = 5};
  CHECK_INT(sl_cap_quota_check(&p, &u), SL_QUOTA_TABLE_READ);
  char msg[1024];
  sl_cap_quota_message(&p, &u, SL_QUOTA_TABLE_READ, "us-east-1", msg, sizeof(msg));
  CHECK(strstr(msg, "The requested ReadCapacityUnits, 40001, is above the per table maximum for "
                    "the account in us-east-1. Per table maximum: 40000.") == msg);
  /* An update: no per-table maximum, but the account's quota for an increase. */
  u = (sl_cap_quota_units){.r = 50000, .w = 10, .old_r = 10, .old_w = 10, .others_r = 40000};
  CHECK_INT(sl_cap_quota_check(&p, &u), SL_QUOTA_ACCOUNT_READ);
  sl_cap_quota_message(&p, &u, SL_QUOTA_ACCOUNT_READ, "us-east-1", msg, sizeof(msg));
  CHECK(strstr(msg, "This request would have caused the ReadCapacityUnits limit to be exceeded "
                    "for the account in us-east-1. Current ReadCapacityUnits reserved by the "
                    "account: 40010. Limit: 80000. Requested: 50000.") == msg);
  /* A decrease is always allowed, even over the quota. */
  u = (sl_cap_quota_units){.r = 50000, .old_r = 60000, .others_r = 40000};
  CHECK_INT(sl_cap_quota_check(&p, &u), SL_QUOTA_OK);
}

static void test_on_demand_and_warm(void) {
  sl_cap_params p = params();
  char msg[512];
  CHECK_INT(sl_cap_on_demand_check(&p, "table", 40000, -1, "us-east-1", msg, sizeof(msg)),
            SL_UNITS_OK);
  CHECK_INT(sl_cap_on_demand_check(&p, "index", 10, 40001, "us-east-1", msg, sizeof(msg)),
            SL_UNITS_LIMIT);
  CHECK_STR(sl_str_c(msg), "Subscriber limit exceeded: Requested MaxWriteRequestUnits for "
                           "OnDemandThroughput for index exceeds TableMaxWriteCapacityUnits of "
                           "the account in region us-east-1");
  /* read first, then write, then the rule of at least 1 or -1 */
  CHECK_INT(sl_cap_on_demand_check(&p, "table", 40001, 0, "us-east-1", msg, sizeof(msg)),
            SL_UNITS_LIMIT);
  CHECK(strstr(msg, "Requested MaxReadRequestUnits for OnDemandThroughput for table exceeds "
                    "TableMaxReadCapacityUnits") != NULL);
  CHECK_INT(sl_cap_on_demand_check(&p, "table", 0, -1, "us-east-1", msg, sizeof(msg)),
            SL_UNITS_INVALID);
  CHECK_STR(sl_str_c(msg), "One or more parameter values were invalid: MaxReadRequestUnits and "
                           "MaxWriteRequestUnits must be at least 1, or -1 to remove the maximum");
  sl_throughput tp = {.billing = SL_BILLING_PAY_PER_REQUEST};
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &tp, NULL, false, 12000, 40000, "us-east-1",
                              msg, sizeof(msg)),
            SL_UNITS_OK);
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &tp, NULL, false, 50000, 4000, "us-east-1",
                              msg, sizeof(msg)),
            SL_UNITS_LIMIT);
  CHECK_STR(sl_str_c(msg), "Subscriber limit exceeded: Requested ReadUnitsPerSecond for "
                           "WarmThroughput for table t exceeds TableMaxReadCapacityUnits of the "
                           "account in region us-east-1");
  /* a raised quota (params table_quota_*) raises the limits */
  p.table_quota_write = 1000000;
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &tp, NULL, false, 12000, 500000,
                              "us-east-1", msg, sizeof(msg)),
            SL_UNITS_OK);
}

/* Warm throughput never decreases from what the resource reports
 * (sl_cap_warm_current): a new on-demand table's 12,000 / 4,000 although
 * nothing was ever asked for, the most ever provisioned, or a value asked for
 * before; equal is accepted, one unit less refused, read checked first, with
 * the service's texts (the ack-api-quirks catalogue: UpdateTable's "lower than
 * current", CreateTable's "lower than initial throughput for OnDemand" and
 * "lower than ReadCapacityUnits of ProvisionedThroughput"). */
static void test_warm_never_decreases(void) {
  sl_cap_params p = params();
  char msg[512];
  sl_throughput od = {.billing = SL_BILLING_PAY_PER_REQUEST};
  int64_t r, w;
  sl_cap_warm_current(&p, &od, NULL, &r, &w);
  CHECK_INT(r, 12000);
  CHECK_INT(w, 4000);
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &od, NULL, false, 12000, 4000, "us-east-1",
                              msg, sizeof(msg)),
            SL_UNITS_OK);
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &od, NULL, false, 11999, 3000, "us-east-1",
                              msg, sizeof(msg)),
            SL_UNITS_INVALID);
  CHECK_STR(sl_str_c(msg), "One or more parameter values were invalid: Requested "
                           "ReadUnitsPerSecond for WarmThroughput for table is lower than current "
                           "WarmThroughput, decreasing WarmThroughput is not supported");
  /* only the write asked for: the read is not checked */
  CHECK_INT(sl_cap_warm_check(&p, "index", SL_STR("g"), &od, NULL, false, 0, 3999, "us-east-1", msg,
                              sizeof(msg)),
            SL_UNITS_INVALID);
  CHECK_STR(sl_str_c(msg), "One or more parameter values were invalid: Requested "
                           "WriteUnitsPerSecond for WarmThroughput for index g is lower than "
                           "current WarmThroughput, decreasing WarmThroughput is not supported");
  /* a value asked for before is the current one above the default */
  od.warm_write = 6000;
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &od, NULL, false, 0, 5999, "us-east-1", msg,
                              sizeof(msg)),
            SL_UNITS_INVALID);
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &od, NULL, false, 0, 6000, "us-east-1", msg,
                              sizeof(msg)),
            SL_UNITS_OK);
  /* at creation, on demand: the initial throughput */
  sl_throughput fresh = {.billing = SL_BILLING_PAY_PER_REQUEST};
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &fresh, NULL, true, 1, 1, "us-east-1", msg,
                              sizeof(msg)),
            SL_UNITS_INVALID);
  CHECK_STR(sl_str_c(msg),
            "One or more parameter values were invalid: Requested "
            "ReadUnitsPerSecond for WarmThroughput for table is lower than initial "
            "throughput for OnDemand. See: https://docs.aws.amazon.com/amazondynamodb/"
            "latest/developerguide/on-demand-capacity-mode.html"
            "#on-demand-capacity-mode-initial");
  /* provisioned: the most ever provisioned (10 after 10 -> 5), at creation its units */
  sl_throughput pr = {
      .billing = SL_BILLING_PROVISIONED, .rcu = 5, .wcu = 5, .highest_rcu = 10, .highest_wcu = 10};
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &pr, NULL, false, 9, 50, "us-east-1", msg,
                              sizeof(msg)),
            SL_UNITS_INVALID);
  CHECK(strstr(msg, "Requested ReadUnitsPerSecond for WarmThroughput for table is lower than "
                    "current WarmThroughput") != NULL);
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &pr, NULL, false, 10, 10, "us-east-1", msg,
                              sizeof(msg)),
            SL_UNITS_OK);
  sl_throughput newp = {.billing = SL_BILLING_PROVISIONED, .rcu = 5, .wcu = 5};
  CHECK_INT(sl_cap_warm_check(&p, "table", SL_STR("t"), &newp, NULL, true, 5, 4, "us-east-1", msg,
                              sizeof(msg)),
            SL_UNITS_INVALID);
  CHECK_STR(sl_str_c(msg), "One or more parameter values were invalid: Requested "
                           "WriteUnitsPerSecond for WarmThroughput for table is lower than "
                           "WriteCapacityUnits of ProvisionedThroughput");
}

int main(void) {
  RUN(test_warm_never_decreases);
  RUN(test_on_demand_and_warm);
  RUN(test_decrease_budget);
  RUN(test_decrease_guide_edges);
  RUN(test_decrease_bucket_edges);
  RUN(test_decrease_bucket_pending);
  RUN(test_pending_units);
  RUN(test_switch_limit);
  RUN(test_quotas);
  return DONE();
}
