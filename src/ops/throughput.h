/*
 * throughput.h — the control-plane throughput rules of the capacity model as
 * the API enforces them, with the service's messages: the decrease budget,
 * the on-demand switch limit, per-table and account quotas, OnDemandThroughput
 * and WarmThroughput settings. Used by CreateTable, UpdateTable (table and
 * GSI updates) and DescribeLimits. The rules and the refusals' messages
 * themselves are cap/control.c's (shared with `sluice simulate`).
 */
#ifndef SL_OPS_THROUGHPUT_H
#define SL_OPS_THROUGHPUT_H

#include "ops/req.h"
#include "ops/schema.h"

/* New provisioned units for 'tp' (old settings in 'old'), enforcing the
 * decrease budget. On a provisioned resource they are pending: in effect
 * (and a decrease counted) only when its UPDATING ends, which
 * jobs/tables.h applies; on one switching from on-demand, at once. */
sl_err sl_tp_set_provisioned(sl_req *req, const sl_throughput *old, sl_throughput *tp, int64_t rcu,
                             int64_t wcu);
/* Switches the billing mode (limit on switches to on-demand). */
sl_err sl_tp_set_billing(sl_req *req, sl_str table, const sl_throughput *old, sl_throughput *tp,
                         uint8_t mode);
/* OnDemandThroughput {MaxReadRequestUnits, MaxWriteRequestUnits}. */
sl_err sl_tp_set_on_demand(sl_req *req, const char *what, sl_throughput *tp, const sl_units_in *od);
/* WarmThroughput {ReadUnitsPerSecond, WriteUnitsPerSecond}: never below
 * what the resource reports ('res' its capacity resource, NULL while it has
 * none: cap/cap.h sl_cap_warm_check); becomes ACTIVE after warm_delay_ms
 * (immediately when 'creating'). */
struct sl_cap_res;
sl_err sl_tp_set_warm(sl_req *req, const char *what, sl_str name, sl_throughput *tp,
                      const struct sl_cap_res *res, const sl_units_in *wt, bool creating);
/* Per-table and account quotas for the provisioned units of a new table
 * version ('old' NULL at creation). */
sl_err sl_tp_check_quotas(sl_req *req, const sl_table *t, const sl_table *old);

#endif
