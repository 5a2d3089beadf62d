/*
 * cap.h — the capacity engine: DynamoDB's throttling model
 * (../shared/spec/capacity-model.md, here "the spec").
 *
 * The engine knows nothing of HTTP or LMDB: the server, the simulator
 * (tools/simulate) and the unit tests drive the same code through this
 * interface, on any sl_clock.
 *
 * Resources (spec §1): one sl_cap_res per table and per GSI. LSIs consume
 * their table's capacity. A resource holds its settings (a copy of the
 * catalog's sl_throughput), its table-level buckets, its partition map and
 * the history the on-demand rules need.
 *
 * Admission (spec §3): an operation describes its work as charges — (resource,
 * direction, partition key hash, sort key bytes, cost in milli-units) — and
 * asks sl_cap_admit. The rule is "admit if every bucket involved is positive,
 * then debit the actual cost"; levels may go negative. Checks run in the
 * spec's order (on-demand maximum, per-table quota, provisioned table bucket,
 * on-demand ceiling, partition) and every failing check of every charge
 * becomes one reason; nothing is debited unless all charges pass
 * (transactions and a write with its GSIs are all-or-nothing). Batches call
 * sl_cap_admit once per item; Query/Scan call sl_cap_check before a page and
 * sl_cap_debit with the page's actual cost after reading it.
 *
 * Units are integer milli-units (1 unit = 1000): 0.5 RCU is exact.
 *
 * Ownership: sl_cap_new's caller owns the engine; resources belong to the
 * engine and are freed by sl_cap_res_free or sl_cap_free.
 * Threads: the loop thread (or the simulator's own).
 */
#ifndef SL_CAP_CAP_H
#define SL_CAP_CAP_H

#include "cap/clock.h"
#include "store/schema.h"

typedef struct sl_cap sl_cap;
typedef struct sl_cap_res sl_cap_res;

typedef enum { SL_CAP_READ = 0, SL_CAP_WRITE = 1 } sl_cap_dir;

/* Limit types, in the spec's check order. The on-demand table ceiling (check
 * 4) and partitions (check 5) both report KeyRange. */
typedef enum {
  SL_LIMIT_MAX_ON_DEMAND = 0,
  SL_LIMIT_ACCOUNT = 1,
  SL_LIMIT_PROVISIONED = 2,
  SL_LIMIT_KEY_RANGE = 3,
} sl_cap_limit;

/* "TableWriteKeyRangeThroughputExceeded" etc. */
const char *sl_cap_reason_name(bool index, sl_cap_dir dir, sl_cap_limit limit);

typedef struct {
  sl_cap_res *res;
  uint8_t dir;   /* sl_cap_dir */
  uint64_t hash; /* partition key hash (store/key.h) */
  sl_str sort;   /* encoded sort key component, may be empty */
  int64_t cost_mu;
} sl_cap_charge;

#define SL_CAP_MAX_REASONS 16

typedef struct {
  sl_cap_res *res;
  uint8_t dir;   /* sl_cap_dir */
  uint8_t limit; /* sl_cap_limit */
} sl_cap_reason;

typedef struct {
  bool admitted;
  uint32_t n_reasons; /* failing checks, in check order per charge */
  sl_cap_reason reasons[SL_CAP_MAX_REASONS];
  int32_t first_failed; /* index of the first charge that failed, -1 if none */
  uint64_t failed_mask; /* bit i set: charge i failed (first 64 charges) */
} sl_cap_verdict;

bool sl_cap_admit(sl_cap *c, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out);
bool sl_cap_check(sl_cap *c, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out);
void sl_cap_debit(sl_cap *c, const sl_cap_charge *charges, size_t n);

/* ---- engine ---- */

typedef struct sl_cap_params sl_cap_params;

sl_cap *sl_cap_new(const sl_cap_params *p, const sl_clock *clock);
void sl_cap_free(sl_cap *c);
const sl_cap_params *sl_cap_params_of(const sl_cap *c);
bool sl_cap_unlimited(const sl_cap *c);

/* ---- resources ---- */

typedef struct {
  bool is_index;
  sl_str name; /* table or index name (copied) */
  sl_str arn;  /* copied */
  const sl_throughput *tp;
  bool has_lsi;          /* item collections of a table with LSIs never split by sort key */
  uint64_t stored_bytes; /* data already present (restart, GSI backfill) */
} sl_cap_res_init;

sl_cap_res *sl_cap_res_new(sl_cap *c, const sl_cap_res_init *init);
void sl_cap_res_free(sl_cap *c, sl_cap_res *r);
/* New settings after a committed UpdateTable (raises partitions as needed). */
void sl_cap_res_configure(sl_cap *c, sl_cap_res *r, const sl_throughput *tp);
sl_str sl_cap_res_arn(const sl_cap_res *r);
bool sl_cap_res_is_index(const sl_cap_res *r);
bool sl_cap_res_on_demand(const sl_cap_res *r);
/* Stored bytes moved by a committed write (drives split by size). */
void sl_cap_note_bytes(sl_cap *c, sl_cap_res *r, uint64_t hash, sl_str sort, int64_t delta);

#endif
