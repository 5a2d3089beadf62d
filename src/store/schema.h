/*
 * schema.h — what a table is: key schema, indexes, throughput settings,
 * state. Plain data, no LMDB: the catalog (store/catalog.h) persists it, the
 * capacity engine (cap/) and the simulator read it.
 *
 * Ownership: every sl_table owns one arena ('mem') holding all its strings
 * and arrays. A table is never edited in place by a control-plane operation:
 * UpdateTable builds a new version with sl_table_clone(), changes it, and the
 * catalog swaps versions only after the change is committed, so a failed
 * request leaves nothing half-written. Runtime fields (marked "runtime") are
 * the exception: they are updated in place by the loop thread and are not
 * persisted (recomputed or reset at start).
 *
 * Threads: owned by the loop thread.
 */
#ifndef SL_STORE_SCHEMA_H
#define SL_STORE_SCHEMA_H

#include "base/arena.h"

struct sl_cap_res;     /* cap/cap.h: a resource's capacity state */
struct sl_metrics_res; /* metrics/: a resource's metrics */

/* Most attributes of a GSI's partition key, and of its sort key
 * (multi-attribute keys, dynamodb-facts §14). */
#define SL_KEY_MAX_PARTS 4

typedef struct {
  sl_str name;
  uint8_t type; /* SL_AV_S, SL_AV_N or SL_AV_B */
} sl_key_attr;

/* A key schema. 'hash' and 'range' are the first partition-key and the first
 * sort-key attribute, all a table or an LSI has; a GSI may have up to
 * SL_KEY_MAX_PARTS of each (multi-attribute keys), all listed in 'attrs': the
 * n_hash partition-key attributes, then the n_range sort-key attributes, in
 * KeySchema order. Build a schema with sl_key_schema_add, which keeps both
 * views; a schema written by hand with only hash/range (n_hash 0) is read as
 * the single-attribute schema it is by the accessors below. */
typedef struct {
  sl_str hash;
  uint8_t hash_type; /* SL_AV_S, SL_AV_N or SL_AV_B */
  sl_str range;      /* empty: no sort key */
  uint8_t range_type;
  uint8_t n_hash, n_range;
  sl_key_attr attrs[2 * SL_KEY_MAX_PARTS];
} sl_key_schema;

static inline bool sl_key_has_range(const sl_key_schema *k) { return k->range.len > 0; }
/* More than one attribute in the partition key or in the sort key. */
static inline bool sl_key_is_tuple(const sl_key_schema *k) {
  return k->n_hash > 1 || k->n_range > 1;
}
static inline uint32_t sl_key_n_hash(const sl_key_schema *k) { return k->n_hash ? k->n_hash : 1; }
static inline uint32_t sl_key_n_range(const sl_key_schema *k) {
  return k->n_hash ? k->n_range : (sl_key_has_range(k) ? 1 : 0);
}
/* Key attribute i of n_hash + n_range (partition-key attributes first). */
static inline sl_key_attr sl_key_part(const sl_key_schema *k, uint32_t i) {
  if (k->n_hash)
    return k->attrs[i];
  return i == 0 ? (sl_key_attr){k->hash, k->hash_type} : (sl_key_attr){k->range, k->range_type};
}
/* Appends one attribute (HASH ones before RANGE ones). */
void sl_key_schema_add(sl_key_schema *k, bool hash, sl_str name, uint8_t type);
/* True when 'name' is one of the schema's key attributes. */
bool sl_key_schema_uses(const sl_key_schema *k, sl_str name);

typedef struct {
  sl_str name;
  uint8_t type; /* SL_AV_S, SL_AV_N, SL_AV_B */
} sl_attr_def;

typedef struct {
  sl_str key;
  sl_str value;
} sl_tag;

typedef enum {
  SL_BILLING_PROVISIONED = 0,
  SL_BILLING_PAY_PER_REQUEST = 1,
} sl_billing;

typedef enum {
  SL_STATUS_ACTIVE = 0,
  SL_STATUS_CREATING,
  SL_STATUS_UPDATING,
  SL_STATUS_DELETING,
} sl_status;

const char *sl_status_name(sl_status s);

typedef enum {
  SL_PROJ_ALL = 0,
  SL_PROJ_KEYS_ONLY,
  SL_PROJ_INCLUDE,
} sl_projection;

/* Why a table is UPDATING (bits of sl_table.update_cause): the service
 * refuses a second change with a text naming the first (ops/update_table.c). */
enum {
  SL_UPDATE_IOPS = 1,    /* provisioned throughput or billing mode */
  SL_UPDATE_BILLING = 2, /* a billing-mode switch (with SL_UPDATE_IOPS) */
  SL_UPDATE_STREAM = 4,  /* stream enabled or disabled */
  SL_UPDATE_CLASS = 8,   /* table class */
};

/* Throughput settings and their history, per resource (table or GSI). The
 * history fields serve the control-plane rules of capacity-model.md §5–6. */
typedef struct {
  uint8_t billing;  /* sl_billing (a GSI has its table's mode) */
  int64_t rcu, wcu; /* provisioned units in effect; 0 when on-demand */
  /* Units an UpdateTable asked for, in effect (rcu, wcu) only once the table
   * or index is ACTIVE again (cap/cap.h sl_cap_pending_apply); 0: none. */
  int64_t pending_rcu, pending_wcu;
  int64_t max_read_ru;  /* OnDemandThroughput.MaxReadRequestUnits, -1: none */
  int64_t max_write_ru; /* -1: none */
  int64_t warm_read;    /* WarmThroughput requested/current, 0: default */
  int64_t warm_write;
  int64_t warm_prev_read; /* while UPDATING: the warm values in effect before (reported) */
  int64_t warm_prev_write;
  uint8_t warm_status;                         /* sl_status: UPDATING or ACTIVE */
  uint64_t warm_ready_ms;                      /* when an UPDATING warm throughput becomes ACTIVE */
  uint64_t last_increase_ms, last_decrease_ms; /* 0: never */
  uint32_t decreases_today;
  int64_t decrease_day;             /* UTC day number (ms / 86400000) of decreases_today */
  int64_t decrease_tokens_milli;    /* decrease_bucket: the bucket's tokens (x 1000) left by
                                       the last decrease */
  int64_t decrease_tokens_ms;       /* when that decrease applied (last_decrease_ms is stamped
                                       again by a request pending: cap.h); 0: last_decrease_ms */
  int64_t highest_rcu, highest_wcu; /* highest provisioned ever (on-demand switch) */
  uint64_t ppr_switch_ms[4];        /* last switches provisioned -> on-demand, newest first */
  uint64_t last_ppr_update_ms;      /* BillingModeSummary.LastUpdateToPayPerRequestDateTime */
} sl_throughput;

/* Most indexes a table has: 5 LSIs and 20 GSIs (facts §3). */
#define SL_MAX_INDEXES 25

/* Longest storage key a cursor may hold (LMDB keys are at most 511 bytes). */
#define SL_CURSOR_KEY_MAX 512

typedef struct {
  sl_str name;
  sl_str arn;
  uint32_t id; /* storage id (key prefix) */
  bool global;
  sl_key_schema key;
  uint8_t projection; /* sl_projection */
  sl_str *non_key;    /* INCLUDE attributes */
  uint32_t n_non_key;
  uint8_t status; /* sl_status */
  bool backfilling;
  uint64_t status_until_ms; /* when CREATING/UPDATING/DELETING ends */
  sl_throughput tp;         /* GSI only */
  /* Online creation (a GSI added by UpdateTable, jobs/backfill.h): while
   * 'online' the index stays CREATING until its backfill has read every
   * item, and no sooner than backfill_until_ms (status_until_ms is then
   * unused). The backfill fields below are the
   * exception to "never edited in place": the backfill updates them on the
   * installed version and saves the record in the same transaction as the
   * entries it writes, so a restart resumes where it stopped. */
  bool online;
  uint64_t alloc_until_ms;    /* end of the resource-allocation phase (Backfilling false) */
  uint64_t backfill_until_ms; /* the backfill ends no sooner (--delays realistic; 0: once
                               * every item is copied) */
  uint64_t backfill_scanned;  /* table items read so far */
  uint16_t backfill_key_len;  /* 0: nothing read yet */
  uint8_t backfill_key[SL_CURSOR_KEY_MAX]; /* storage key of the last item read */
  /* runtime */
  uint64_t item_count, size_bytes;
  uint64_t backfill_step_ms; /* when the backfill last ran (backfill_rate budget) */
  struct sl_cap_res *cap;
  struct sl_metrics_res *metrics;
} sl_index;

typedef struct sl_table sl_table;
struct sl_table {
  sl_arena mem;
  uint32_t version; /* bumped by every committed change */
  sl_str name;
  sl_str arn;
  char uuid[40]; /* TableId */
  uint32_t id;   /* storage id (key prefix) */
  sl_key_schema key;
  sl_attr_def *defs;
  uint32_t n_defs;
  sl_index *indexes; /* LSIs and GSIs, in creation order */
  uint32_t n_indexes;
  sl_throughput tp;
  uint8_t status; /* sl_status */
  uint64_t status_until_ms;
  uint8_t update_cause; /* while UPDATING: what UpdateTable changed (SL_UPDATE_*), 0: none */
  uint64_t created_ms;
  sl_tag *tags;
  uint32_t n_tags;
  bool deletion_protection;
  uint8_t table_class; /* 0 STANDARD, 1 STANDARD_INFREQUENT_ACCESS */
  bool stream_enabled;
  sl_str stream_view_type;
  sl_str stream_label;
  sl_str ttl_attr;    /* empty: TTL disabled */
  uint8_t ttl_status; /* 0 DISABLED, 1 ENABLING, 2 ENABLED, 3 DISABLING */
  uint64_t ttl_changed_ms;
  /* Point-in-time recovery (UpdateContinuousBackups): the setting and when it
   * was last turned on; sluice stores and reports it, it does not restore to
   * a point in time (ops/backups.h). */
  bool pitr_enabled;
  uint64_t pitr_enabled_ms;
  uint32_t pitr_days; /* RecoveryPeriodInDays, 1..35 */
  /* A table made by RestoreTableFromBackup: its RestoreSummary (empty
   * restore_backup_arn: not restored). */
  sl_str restore_backup_arn;
  sl_str restore_source_arn;
  uint64_t restore_ms;
  /* runtime */
  uint64_t item_count, size_bytes;
  /* The TTL sweep (jobs/ttl.h): a pass walks the items in key order from
   * ttl_cursor, a bounded number per tick. */
  bool ttl_sweeping;
  uint64_t ttl_pass_ms; /* when the current or last pass started; 0: never */
  uint64_t ttl_step_ms; /* when the sweep last read items (its budget grows with the clock) */
  uint16_t ttl_cursor_len;
  uint8_t ttl_cursor[SL_CURSOR_KEY_MAX];
  struct sl_cap_res *cap;
  struct sl_metrics_res *metrics;
  void *user; /* owned by higher layers (e.g. idempotency tokens); never persisted */
};

/* A new empty table owning its arena. */
sl_table *sl_table_new(void);
/* A deep copy (new arena) with the same runtime pointers. */
sl_table *sl_table_clone(const sl_table *t);
void sl_table_free(sl_table *t);

/* Copies 's' into the table's arena. */
sl_str sl_table_str(sl_table *t, sl_str s);

const sl_index *sl_table_index(const sl_table *t, sl_str name);
/* True when the table has a local secondary index (item collections). */
bool sl_table_has_lsi(const sl_table *t);
/* The type of a defined attribute, or 0. */
uint8_t sl_table_attr_type(const sl_table *t, sl_str name);

#endif
