/*
 * cap.h — the capacity engine: DynamoDB's throttling model
 * (../shared/spec/capacity-model.md, "the spec" below; docs/capacity.md for
 * users).
 *
 * The engine knows nothing of HTTP or LMDB: the server, the simulator
 * (tools/simulate) and the unit tests drive the same code through this
 * interface, on any sl_clock. Every number is a parameter (cap/params.def).
 *
 * Resources (spec §1): one sl_cap_res per table and per GSI. LSIs consume
 * their table's capacity. A resource holds a copy of its settings (the
 * catalog's sl_throughput), its table-level buckets, its partition map and
 * the history the on-demand rules need.
 *
 * Buckets: token buckets in integer milli-units (1 unit = 1000, so 0.5 RCU
 * is exact) with a rate, a cap, and lazy refill on the clock. Levels may go
 * negative: debt is repaid by refill, so no single large request is
 * impossible (spec §3). Every bucket of a new table starts full.
 *
 * Burst and retained capacity (spec §5; docs/capacity.md "A new table"): a
 * provisioned table bucket holds burst_seconds (300 s) of its rate, the
 * developer guide's retained unused capacity. Partition buckets and the
 * on-demand ceiling have a short burst (partition_burst_ms,
 * ondemand_ceiling_burst_ms: what sets the first throttle under sustained
 * overload, spec §9) and, beyond it, retained capacity of burst_seconds of
 * their rate, filled by refill that overflows the burst. Ordinary requests
 * spend the burst only. The *spike rule*: a request whose total cost on one
 * such bucket exceeds spike_share of the burst, on a quiet bucket (its burst
 * holds that share, and it used less than half its rate over the last
 * minute), pays the burst only that share and the rest from retained
 * capacity. So a new table takes a test suite's seeding — a multi-MB
 * transaction, 400 KB items in a row — as the service does, while a stream
 * of requests of any size above the rate is held to it.
 *
 * Admission (spec §3): an operation describes its work as charges —
 * (resource, direction, partition key hash, encoded sort key, cost) — and
 * asks sl_cap_admit. "Admit if every bucket involved is positive, then debit
 * the actual cost." Checks run in the spec's order for each charge:
 *   1 MaxOnDemandThroughput   configured OnDemandThroughput maximum (on-demand)
 *   2 AccountLimit            per-table quota (on-demand)
 *   3 ProvisionedThroughput   table bucket: rate + 300 s burst (provisioned)
 *   4 KeyRange                on-demand ceiling: 2 x previous peak (on-demand)
 *   5 KeyRange                the partition's bucket (both)
 * Every failing check of every charge becomes one reason (duplicates merged);
 * nothing is debited unless all charges pass, so a write with its GSIs and a
 * transaction are all-or-nothing. One call is one request to the spike rule
 * (its charges on one bucket are summed). Batches call sl_cap_admit once per
 * item; Query/Scan call sl_cap_check before a page and sl_cap_debit with the
 * page's actual cost after reading it; a transaction debits all its actions
 * in one call.
 *
 * Partitions (spec §4): each resource splits the 64-bit hash space of its
 * partition key into ranges; a range boundary is (hash, encoded sort key
 * prefix), so an item collection can be split by sort key when the table has
 * no LSI. Partitions split by size (partition_max_bytes) and for heat: a
 * resource whose hottest partition stays hot for split_first_after splits it
 * at the median of its recent accesses, then one more every split_interval
 * while heat persists. A split point must separate distinct keys: one hot item
 * never splits away and throttles forever. Each partition has an id
 * (sl_cap_part_ref, below) so that DynamoDB Streams' shards can follow
 * partitions and their splits.
 *
 * Ownership: sl_cap_new's caller owns the engine; resources belong to the
 * engine and are freed by sl_cap_res_free or sl_cap_free.
 * Threads: the loop thread (or the simulator's own). Deterministic on a manual
 * clock: no randomness anywhere.
 */
#ifndef SL_CAP_CAP_H
#define SL_CAP_CAP_H

#include "base/json.h"
#include "base/clock.h"
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

/* "TableWriteKeyRangeThroughputExceeded" etc. (facts §1.2). */
const char *sl_cap_reason_name(bool index, sl_cap_dir dir, sl_cap_limit limit);
/* "KeyRangeThroughputExceeded" etc. */
const char *sl_cap_limit_name(sl_cap_limit limit);

/* ---- parameters ---- */

typedef struct sl_cap_params {
#define X(name, def, unit, doc) int64_t name;
#include "cap/params.def"
#undef X
} sl_cap_params;

/* The defaults of a profile: "aws" or "unlimited". */
void sl_cap_params_default(sl_cap_params *p, const char *profile);
/* Sets one parameter by name; false if the name is unknown or the value is
 * not an integer (ratios may be given as "3.25%"). */
bool sl_cap_params_set(sl_cap_params *p, sl_str name, sl_str value);
/* Reads "name = value" lines ('#' comments). On error returns false with a
 * message in 'err'. */
bool sl_cap_params_load(sl_cap_params *p, const char *path, char *err, size_t err_len);
/* Writes the parameter list (name, value, unit, description), one per line. */
void sl_cap_params_describe(const sl_cap_params *p, sl_buf *out);
/* As a JSON object. */
void sl_cap_params_write_json(const sl_cap_params *p, sl_jw *w);

/* ---- engine ---- */

sl_cap *sl_cap_new(const sl_cap_params *p, const sl_clock *clock);
void sl_cap_free(sl_cap *c);
const sl_cap_params *sl_cap_params_of(const sl_cap *c);
bool sl_cap_unlimited(const sl_cap *c);

/* ---- resources ---- */

typedef struct {
  bool is_index;
  sl_str name;  /* table or index name (copied) */
  sl_str table; /* an index's table name (copied); ignored for a table */
  sl_str arn;   /* copied */
  const sl_throughput *tp;
  bool has_lsi;          /* item collections of a table with LSIs never split by sort key */
  uint64_t stored_bytes; /* data already present (restart, GSI backfill) */
  uint64_t epoch;        /* its partition layout's (below); opaque to the engine */
} sl_cap_res_init;

sl_cap_res *sl_cap_res_new(sl_cap *c, const sl_cap_res_init *init);
void sl_cap_res_free(sl_cap *c, sl_cap_res *r);
/* New settings after a committed UpdateTable or a state change (raises the
 * partition count as needed, applies warm throughput, switches modes). */
void sl_cap_res_configure(sl_cap *c, sl_cap_res *r, const sl_throughput *tp);
/* Spends a resource's unused capacity now, as the service's background work
 * may "without prior notice" (seed 000): the table buckets and every partition
 * bucket keep at most an empty level, and no retained capacity; refill goes
 * on at their rates. Fault injection's drain_burst (server/faults.h). */
void sl_cap_res_drain_burst(sl_cap *c, sl_cap_res *r);
/* Splits partition 'i' now, as the service's background work may (fault
 * injection's force_split): at the median of its recent accesses when they
 * hold two distinct keys (counted as a split for heat), else at the middle
 * of its hash range (counted as a split by size). False when i is out of
 * range or its range is a single hash. */
bool sl_cap_res_force_split(sl_cap *c, sl_cap_res *r, size_t i);
/* Sets the on-demand previous peak of direction 'dir' (sl_cap_dir) to
 * 'units' per second; the ceiling (2 x peak) follows at once (fault
 * injection's set_previous_peak). A later higher peak raises it again. */
void sl_cap_res_set_peak(sl_cap *c, sl_cap_res *r, int dir, int64_t units);
sl_str sl_cap_res_arn(const sl_cap_res *r);
sl_str sl_cap_res_name(const sl_cap_res *r);
/* The table a resource belongs to: its own name for a table, its table's for
 * a GSI (metrics dimensions, throttle events). */
sl_str sl_cap_res_table_name(const sl_cap_res *r);
bool sl_cap_res_is_index(const sl_cap_res *r);
bool sl_cap_res_on_demand(const sl_cap_res *r);
size_t sl_cap_res_partitions(const sl_cap_res *r);
/* What the resource can serve now, in units/s (DescribeTable WarmThroughput). */
void sl_cap_res_serves(const sl_cap_res *r, int64_t *read_ups, int64_t *write_ups);
/* Stored bytes moved by a committed write (drives split by size). */
void sl_cap_note_bytes(sl_cap *c, sl_cap_res *r, uint64_t hash, sl_str sort, int64_t delta);

/* ---- admission ---- */

typedef struct {
  sl_cap_res *res;
  uint8_t dir;   /* sl_cap_dir */
  uint64_t hash; /* partition key hash (store/key.h) */
  sl_str sort;   /* encoded sort key component, may be empty */
  int64_t cost_mu;
  /* The key values the charge is for (NULL when unknown: a page's placement
   * before it is read), read by metrics, Contributor Insights and throttle
   * events; the engine itself uses hash and sort only. Build charges with
   * cap/charge.h. */
  const struct sl_av *pk, *sk;
} sl_cap_charge;

#define SL_CAP_MAX_REASONS 16

typedef struct {
  sl_cap_res *res;
  uint8_t dir;   /* sl_cap_dir */
  uint8_t limit; /* sl_cap_limit */
} sl_cap_reason;

typedef struct {
  bool admitted;
  uint32_t n_reasons; /* failing checks, in check order, merged */
  sl_cap_reason reasons[SL_CAP_MAX_REASONS];
  int32_t first_failed; /* index of the first charge that failed, -1 if none */
  uint64_t failed_mask; /* bit i: charge i failed (first 64 charges) */
  int32_t partition;    /* partition index of the first failed charge, -1 if none */
} sl_cap_verdict;

bool sl_cap_admit(sl_cap *c, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out);
/* Checks without debiting (and without recording throttles). */
bool sl_cap_check(sl_cap *c, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out);
/* Debits unconditionally (the actual cost of a page that was admitted). */
void sl_cap_debit(sl_cap *c, const sl_cap_charge *charges, size_t n);
/* Records a throttle of these charges (after sl_cap_check failed) so that heat
 * and statistics see it; sl_cap_admit does this itself. */
void sl_cap_record_throttle(sl_cap *c, const sl_cap_charge *charges, size_t n,
                            const sl_cap_verdict *v);

/* ---- control plane (cap/control.c): pure rules over sl_throughput ---- */

/* One control-plane request against the account's control_plane_rate
 * (spec §7); false: throttle it ("Rate exceeded"). */
bool sl_cap_control_admit(sl_cap *c);

typedef struct {
  bool allowed;
  uint32_t decreases_today; /* including the requested one */
  int64_t last_ms;          /* the last decrease */
  int64_t next_ms;          /* when the next decrease becomes possible */
} sl_cap_decrease;

/* May 'tp' be decreased now (spec §5)? */
sl_cap_decrease sl_cap_decrease_allowed(const sl_cap_params *p, const sl_throughput *tp,
                                        int64_t now_ms);
/* Records a decrease in 'tp' (with decrease_bucket, the token it took). */
void sl_cap_decrease_record(const sl_cap_params *p, sl_throughput *tp, int64_t now_ms);
/* The decrease count for today as DescribeTable reports it. */
uint32_t sl_cap_decreases_today(const sl_throughput *tp, int64_t now_ms);
/* A provisioned-throughput change takes effect when its UPDATING ends (facts
 * §5): sl_cap_pending_set records the requested units in 'tp' (stamping
 * LastIncreaseDateTime / LastDecreaseDateTime at the request, as the
 * service's UpdateTable reply shows them) and sl_cap_pending_apply, at 'at_ms'
 * when the resource becomes ACTIVE, makes them the units in effect, stamps
 * the dates again and counts a decrease (taking its decrease_bucket token,
 * p's rule). Returns true if there was one. */
void sl_cap_pending_set(sl_throughput *tp, int64_t rcu, int64_t wcu, int64_t now_ms);
bool sl_cap_pending_apply(const sl_cap_params *p, sl_throughput *tp, int64_t at_ms);
/* Makes rcu/wcu the units in effect, raising the highest ever set (half of
 * which a switch to on-demand keeps as its previous peak, cap/res.c). */
void sl_cap_units_set(sl_throughput *tp, int64_t rcu, int64_t wcu);
/* May the table switch to on-demand now (spec §6)? *next_ms: when it can. */
bool sl_cap_ppr_switch_allowed(const sl_cap_params *p, const sl_throughput *tp, int64_t now_ms,
                               int64_t *next_ms);
void sl_cap_ppr_switch_record(sl_throughput *tp, int64_t now_ms);

/* The service's messages for these refusals (LimitExceededException), so
 * that UpdateTable (ops/throughput.c) and `sluice simulate`'s actions and
 * auto scaling say the same; each writes at most 'n' bytes to 'buf'. */
void sl_cap_decrease_message(const sl_cap_params *p, const sl_cap_decrease *d, char *buf, size_t n);
void sl_cap_ppr_switch_message(const sl_cap_params *p, const sl_throughput *old, int64_t next_ms,
                               char *buf, size_t n);
/* "Sunday, March 24, 2019 9:07:28 AM UTC", the service's long date form. */
void sl_cap_long_date(int64_t epoch_ms, char *buf, size_t n);

/* The per-table and account quotas on provisioned units (spec §5). The
 * units are a table's own plus its GSIs': 'r', 'w' of the new version,
 * 'old_r', 'old_w' of the version it replaces (0 at creation, where the
 * per-table maximum applies too), 'others_r', 'others_w' of every other
 * table of the account. An increase may not take the account past its
 * quota; a decrease always may. */
typedef enum {
  SL_QUOTA_OK = 0,
  SL_QUOTA_TABLE_READ,
  SL_QUOTA_TABLE_WRITE,
  SL_QUOTA_ACCOUNT_READ,
  SL_QUOTA_ACCOUNT_WRITE,
} sl_cap_quota;
typedef struct {
  bool creating;
  int64_t r, w, old_r, old_w, others_r, others_w;
} sl_cap_quota_units;
sl_cap_quota sl_cap_quota_check(const sl_cap_params *p, const sl_cap_quota_units *u);
void sl_cap_quota_message(const sl_cap_params *p, const sl_cap_quota_units *u, sl_cap_quota q,
                          const char *region, char *buf, size_t n);
/* OnDemandThroughput and WarmThroughput settings of a table ('what'
 * "table") or GSI ("index") against the per-table quotas (spec §6): the
 * new maximum request units 'r', 'w' (-1: none) or warm units per second
 * (the warm ones named 'name'; <= 0: not asked for), checked read first,
 * then write, then their own rule: a maximum is at least 1 or -1; warm
 * throughput is never below the current one, sl_cap_warm_current of 'tp'
 * and its resource 'res' (NULL: none yet) — at creation ('creating') what a
 * new on-demand resource serves or the provisioned units. The service's
 * three texts ("... is lower than current WarmThroughput, decreasing
 * WarmThroughput is not supported", "... lower than initial throughput for
 * OnDemand. See: ...", "... lower than ReadCapacityUnits of
 * ProvisionedThroughput"; the ack-api-quirks catalogue, docs/capacity.md).
 * SL_UNITS_LIMIT: LimitExceededException, SL_UNITS_INVALID:
 * ValidationException, the message in 'buf'. Shared by UpdateTable and
 * CreateTable (ops/throughput.c) and `sluice simulate`. */
typedef enum { SL_UNITS_OK = 0, SL_UNITS_LIMIT, SL_UNITS_INVALID } sl_cap_units_check;
sl_cap_units_check sl_cap_on_demand_check(const sl_cap_params *p, const char *what, int64_t r,
                                          int64_t w, const char *region, char *buf, size_t n);
sl_cap_units_check sl_cap_warm_check(const sl_cap_params *p, const char *what, sl_str name,
                                     const sl_throughput *tp, const sl_cap_res *res, bool creating,
                                     int64_t r, int64_t w, const char *region, char *buf, size_t n);
/* The warm throughput a resource reports (DescribeTable's WarmThroughput,
 * spec §6): on demand, what a new resource's partitions serve (12,000 /
 * 4,000), or all its partitions once use has split it further; when
 * provisioned, the most it was ever provisioned (facts §4); at least the
 * warm values asked for, those in effect before while an increase is
 * UPDATING. */
void sl_cap_warm_current(const sl_cap_params *p, const sl_throughput *tp, const sl_cap_res *res,
                         int64_t *read_ups, int64_t *write_ups);
/* Initial partition count (spec §4) of a resource with these settings. */
int64_t sl_cap_initial_partitions(const sl_cap_params *p, const sl_throughput *tp,
                                  uint64_t stored_bytes);

/* ---- introspection (admin API, dashboard, simulator) ---- */

/* How far back a partition's throttle counts go: per second, then per
 * minute (the metrics rings' spans, metrics/metrics.h). */
#define SL_CAP_THROTTLE_SECONDS 300
#define SL_CAP_THROTTLE_MINUTES 1440

/* {"kind":..,"name":..,"arn":..,"mode":..,"settings":{..},"previous_peak":{..},
 *  "previous_peak_pending":{"read":[{"units":..,"base_from_ms":..}],"write":[..]},
 *  "buckets":{..},"partitions":[..],"split":{..}}. 'window_s' > 0 adds, per
 * partition and direction, "throttles_in_window": its throttles over the
 * last window_s seconds of the clock (sl_cap_part_throttles_since). */
void sl_cap_res_write_json(sl_cap *c, sl_cap_res *r, sl_jw *w, int64_t window_s);

/* Throttles of partition i of 'r' in direction 'dir' from clock time
 * 'since_ms' to now: counted per second when since_ms is within the last
 * SL_CAP_THROTTLE_SECONDS, else per minute (whole minutes, so the minute
 * holding since_ms counts entirely), and at most SL_CAP_THROTTLE_MINUTES
 * back. A split partition's history stays with its left half. */
uint64_t sl_cap_part_throttles_since(sl_cap *c, sl_cap_res *r, size_t i, int dir, int64_t since_ms);

typedef struct {
  uint64_t lo_hash, hi_hash; /* hi exclusive; hi_hash == 0 means 2^64 */
  uint64_t bytes;
  int64_t level_mu[2], rate_mu[2], cap_mu[2], retained_mu[2];
  int64_t consumed_minute_mu[2]; /* over the last minute */
  uint64_t throttles[2];         /* since the partition came to be (split or created) */
  int64_t last_throttle_ms[2];   /* the clock second of the last one, ms; -1 if none */
  bool hot;
} sl_cap_partition_info;

bool sl_cap_res_partition(sl_cap *c, sl_cap_res *r, size_t i, sl_cap_partition_info *out);

/* Partitions' identities, which DynamoDB Streams' shards follow: a partition
 * has an id never reused in its resource's life (ids start at 0 for each
 * resource, so they mean nothing across a restart); a split ends its
 * partition and gives both halves new ids whose parent is the split one's.
 * The partitions a resource starts with have no parent. */
#define SL_CAP_NO_PART UINT32_MAX
typedef struct {
  uint32_t id, parent; /* parent: SL_CAP_NO_PART when none */
  uint64_t lo_hash;    /* the first partition-key hash it holds */
} sl_cap_part_ref;

/* The partition holding the key (hash, encoded sort key component). */
sl_cap_part_ref sl_cap_res_part_at(const sl_cap_res *r, uint64_t hash, sl_str sort);
/* Every partition in key order, at most 'cap'; returns how many there are. */
size_t sl_cap_res_part_refs(const sl_cap_res *r, sl_cap_part_ref *out, size_t cap);

/* ---- the partition layout across a restart ----
 *
 * A resource's partitions (their start points and ids) are what a restart
 * would otherwise lose: a new resource starts evenly spread, so splits for
 * heat and by size, and the ids Streams' shards follow, would be gone. The
 * engine stores nothing itself; its owner saves a layout whenever it changed
 * (jobs/tables.h, in the store) and restores it into the fresh resource made
 * for the same table or GSI. A layout belongs to an epoch, an opaque number
 * the owner gives a resource (sl_cap_res_init.epoch) and restores with its
 * layout: partition ids mean something only within one epoch. */
typedef struct {
  uint64_t hash; /* the partition's first key point: hash, then ... */
  uint8_t sort_len;
  uint8_t sort[32]; /* ... the encoded sort key prefix (may be empty) */
  uint32_t id, parent;
} sl_cap_part_start;

/* Every partition's start in key order, at most 'cap'; returns how many
 * there are; *next_id: the id the next partition would get. */
size_t sl_cap_res_layout(const sl_cap_res *r, sl_cap_part_start *out, size_t cap,
                         uint32_t *next_id);
/* Replaces the partitions of 'r' by a saved layout of epoch 'epoch': fresh
 * buckets, the stored bytes spread evenly, then as many more partitions as
 * the settings need (sl_cap_res_configure's rule). False, and nothing
 * changed, when the layout is not one the engine could have made (no
 * partitions, the first not starting at the lowest point, starts not
 * increasing, an id not below next_id). */
bool sl_cap_res_layout_restore(sl_cap *c, sl_cap_res *r, const sl_cap_part_start *v, size_t n,
                               uint32_t next_id, uint64_t epoch);
uint64_t sl_cap_res_epoch(const sl_cap_res *r);
/* Whether a resource's layout changed (it was made, or split) since the
 * last sl_cap_res_layout_saved; the engine's flag says whether any did. */
bool sl_cap_res_layout_dirty(const sl_cap_res *r);
void sl_cap_res_layout_saved(sl_cap_res *r);
bool sl_cap_layouts_dirty(const sl_cap *c);
void sl_cap_layouts_saved(sl_cap *c);

#endif
