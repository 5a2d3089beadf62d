/*
 * scenario.h — the scenario file of `sluice simulate`: a table design and
 * a workload over time, read and checked into plain structs.
 *
 * Design
 * ------
 * One JSON document (docs/simulate.md documents every member, with
 * examples in examples/): the run (seed, duration, series step, start
 * time), capacity parameters (any name of cap/params.def), a price table,
 * tables with their GSIs, workloads (one client each: an operation, item
 * sizes, a key distribution, phases of offered load, a retry policy) and
 * control-plane actions at given times. sl_scenario_parse checks the whole
 * document before anything runs: every error names the member by its path
 * ("workloads[0].phases[1].rate") and says what is wrong; unknown members
 * are errors too, so a misspelt name never silently falls back to a
 * default. Nothing here runs the engine (tools/simulate.c does).
 *
 * Memory: the scenario lives in the arena given to sl_scenario_parse (its
 * strings point into the JSON text, which must outlive it).
 * Threads: any.
 */
#ifndef SL_TOOLS_SCENARIO_H
#define SL_TOOLS_SCENARIO_H

#include "base/err.h"
#include "base/json.h"
#include "cap/price.h"
#include "cap/scaling.h"

#define SL_SIM_MAX_TABLES 16
#define SL_SIM_MAX_GSIS 20
#define SL_SIM_MAX_WORKLOADS 32
#define SL_SIM_MAX_PHASES 64
#define SL_SIM_MAX_LSIS 5

typedef enum {
  SL_KEYS_UNIFORM,    /* one of 'count' keys, each as likely */
  SL_KEYS_ZIPF,       /* rank k with probability ~ 1/k^exponent */
  SL_KEYS_HOT,        /* 'hot_share' of requests on 'hot_keys' keys, the rest uniform */
  SL_KEYS_SEQUENTIAL, /* a new key every time, in order (new items, scan order) */
  SL_KEYS_NAMED,      /* the given keys, with weights */
} sl_keys_kind;

typedef struct {
  uint8_t kind; /* sl_keys_kind */
  uint64_t count;
  double exponent;
  double hot_share;
  uint32_t hot_keys;
  sl_str prefix; /* key text: prefix + number (default "k"; hot keys "hot") */
  sl_str *names;
  double *weights; /* cumulative, normalised to 1 */
  uint32_t n_names;
} sl_sim_keys;

typedef enum {
  SL_SIZE_FIXED,     /* min (= max) */
  SL_SIZE_UNIFORM,   /* min..max, each as likely */
  SL_SIZE_NORMAL,    /* mean, sd; drawn again outside min..max */
  SL_SIZE_LOGNORMAL, /* median, sigma (of the log); drawn again outside min..max */
  SL_SIZE_WEIGHTED,  /* one of 'values' with 'weights' */
} sl_sim_size_kind;

typedef struct {
  uint8_t kind;      /* sl_sim_size_kind */
  uint32_t min, max; /* bytes: the bounds (max 0 for a GSI entry: the item's size) */
  double mean, sd;   /* normal: mean and sd; lognormal: median and sigma */
  uint32_t n_values;
  uint32_t *values;
  double *weights; /* cumulative, normalised to 1 */
} sl_sim_size;

/* A scheduled action on a scalable target (PutScheduledAction's members;
 * the schedule parsed by cap/scaling.h). */
typedef struct {
  sl_schedule sched;
  char tz[64]; /* "" = UTC */
  bool has_min, has_max, has_start, has_end;
  int64_t min, max, start_ms, end_ms;
} sl_sim_scheduled;

/* A target-tracking policy (PutScalingPolicy's configuration). */
typedef struct {
  double target_pct;
  int64_t scale_in_cooldown_ms, scale_out_cooldown_ms;
  bool disable_scale_in;
} sl_sim_policy;

#define SL_SIM_MAX_POLICIES 16

/* One direction of a table or GSI as a scalable target (Application Auto
 * Scaling's, cap/scaling.h): its bounds, its target-tracking policies
 * (several are combined as the server combines them, sl_scaling_combine)
 * and its scheduled actions. */
typedef struct {
  bool on;
  int64_t min, max;
  uint32_t n_policies;
  sl_sim_policy policies[SL_SIM_MAX_POLICIES];
  uint32_t n_scheduled;
  sl_sim_scheduled *scheduled;
} sl_sim_scaling;

typedef struct {
  sl_str name;
  int64_t rcu, wcu;            /* provisioned (the table's mode) */
  int64_t max_read, max_write; /* OnDemandThroughput, -1: none */
  int64_t warm_read, warm_write;
  sl_sim_keys keys;          /* the index's partition key values */
  double share;              /* share of the table's items that have an entry */
  bool keys_change;          /* an UpdateItem moves the entry: a delete plus a put */
  sl_sim_size entry;         /* entry size; max 0: the item's size (projection ALL) */
  sl_sim_scaling scaling[2]; /* read, write */
} sl_sim_gsi;

typedef struct {
  sl_str name;
  bool on_demand;
  int64_t rcu, wcu;
  int64_t max_read, max_write;
  int64_t warm_read, warm_write;
  uint32_t n_lsis;
  uint32_t lsi_entry_bytes[SL_SIM_MAX_LSIS];
  uint32_t n_gsis;
  sl_sim_gsi gsis[SL_SIM_MAX_GSIS];
  sl_sim_scaling scaling[2]; /* read, write */
} sl_sim_table;

typedef enum {
  SL_OP_GET,
  SL_OP_PUT,
  SL_OP_UPDATE,
  SL_OP_DELETE,
  SL_OP_QUERY,
  SL_OP_SCAN,
  SL_OP_BATCH_GET,
  SL_OP_BATCH_WRITE,
  SL_OP_TRANSACT_GET,
  SL_OP_TRANSACT_WRITE,
} sl_sim_op;

const char *sl_sim_op_name(sl_sim_op op);
bool sl_sim_op_writes(sl_sim_op op);

typedef enum {
  SL_RETRY_NONE,      /* one attempt */
  SL_RETRY_LEGACY,    /* botocore legacy, DynamoDB: 10 attempts, 50 ms x 2^n, no jitter */
  SL_RETRY_STANDARD,  /* botocore standard before 2026: 3 attempts, U(0,1) x 2^n s, quota */
  SL_RETRY_ADAPTIVE,  /* standard plus the client-side CUBIC rate limiter */
  SL_RETRY_2026,      /* the 2026 default: 4 attempts for DynamoDB, throttles U(0,1 s) x 2^n */
  SL_RETRY_IMMEDIATE, /* an application loop: retry after delay_ms, any error */
} sl_sim_retry;

const char *sl_sim_retry_name(sl_sim_retry r);

typedef struct {
  uint8_t retry; /* sl_sim_retry */
  uint32_t max_attempts;
  uint32_t delay_ms;       /* SL_RETRY_IMMEDIATE */
  bool resend_unprocessed; /* batches: resend UnprocessedItems/Keys with backoff */
  uint32_t resend_max;     /* resends of one batch's leftovers */
  uint32_t resend_base_ms; /* backoff base: U(0,1) x base x 2^n */
} sl_sim_client;

typedef struct {
  int64_t duration_us;
  double rate_from, rate_to; /* requests per second, linear over the phase */
} sl_sim_phase;

typedef struct {
  sl_str name;
  uint32_t table;
  int32_t index; /* reads of a GSI (its number), -1: the table */
  int32_t lsi;   /* Query of an LSI (its number), -1: none */
  bool fetch;    /* the LSI Query asks for attributes the LSI does not project */
  uint8_t op;    /* sl_sim_op */
  bool consistent;
  sl_sim_size item;
  uint32_t items; /* per request: batch items, transaction actions, query page items */
  bool per_ms;    /* arrivals: each millisecond's requests at its start */
  sl_sim_keys keys;
  uint32_t n_phases;
  sl_sim_phase phases[SL_SIM_MAX_PHASES];
  sl_sim_client client;
} sl_sim_workload;

typedef struct {
  int64_t at_us;
  uint32_t table;
  int32_t index; /* GSI number, -1: the table */
  /* what changes; -2: unchanged */
  int8_t on_demand; /* -1 unchanged, 0 provisioned, 1 on demand */
  int64_t rcu, wcu, max_read, max_write, warm_read, warm_write;
} sl_sim_action;

/* A row of the shared price table (cap/price.h), or the scenario's own. */
typedef sl_price sl_sim_prices;

typedef struct {
  sl_str name;
  uint64_t seed;
  int64_t duration_us, step_us;
  int64_t start_ms;
  sl_str *param_names, *param_values;
  uint32_t n_params;
  sl_sim_prices prices;
  uint32_t n_tables;
  sl_sim_table tables[SL_SIM_MAX_TABLES];
  uint32_t n_workloads;
  sl_sim_workload workloads[SL_SIM_MAX_WORKLOADS];
  uint32_t n_actions;
  sl_sim_action *actions; /* sorted by time */
  /* mode "aggregate": requests counted per partition and time step of
   * aggregate_step_us instead of one by one (tools/simulate.c) */
  bool aggregate;
  int64_t aggregate_step_us;
} sl_scenario;

/* Reads and checks a scenario; on error returns false with the message
 * ("<path>: <problem>") in 'err'. */
bool sl_scenario_parse(sl_arena *a, const char *text, size_t len, sl_scenario *out, char *err,
                       size_t err_len);

#endif
