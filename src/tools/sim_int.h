/*
 * sim_int.h — the simulator's state, shared by its files (simulate.c: the
 * engine and the command; sim_report.c: what the run found, as text, JSON,
 * CSV; sim_html.c: the HTML report). Not a public interface: see
 * simulate.h.
 */
#ifndef SL_TOOLS_SIM_INT_H
#define SL_TOOLS_SIM_INT_H

#include "tools/simulate.h"
#include "cap/cap.h"

#define SEC 1000000LL
#define LAT_BUCKETS 1201 /* 0..119,999 ms in 100 ms buckets (and the first 100 ms by ms) */
#define MAX_ITEMS 100
#define MAX_CHARGES (MAX_ITEMS * (1 + SL_SIM_MAX_GSIS))
#define TOP_KEYS 10
#define MAX_TRACKED_KEYS 1000000

typedef struct {
  uint64_t s;
} rng;

typedef enum { OUT_OK, OUT_THROTTLING, OUT_PTEE, OUT_RLE, OUT_TXN_CANCELED } outcome;

/* Per resource and direction, per step. */
typedef struct {
  int64_t *offered_mu, *accepted_mu;
  uint32_t *accepted, *throttled[4]; /* events; throttles by sl_cap_limit */
  int64_t total_offered_mu, total_accepted_mu;
  uint64_t total_accepted, total_throttled[4];
  int64_t first_throttle_us; /* -1: none */
  int64_t *provisioned;      /* units, per step */
} dir_series;

typedef struct {
  sl_cap_res *res;
  sl_throughput tp;
  bool is_index;
  uint32_t table;
  int32_t gsi;
  sl_str name, arn, label; /* label: "table T" or "GSI I of T" */
  dir_series d[2];
  uint16_t *partitions; /* per step */
  uint32_t parts_added; /* partitions added: splits for heat or size, more capacity */
  double provisioned_unit_hours[2];
  /* auto scaling: consumed units per clock minute since the start, and the
   * policy's state (cap/scaling.h) */
  double *minute_units[2];
  int64_t last_out_ms[2], last_in_ms[2];
  uint32_t scale_outs[2], scale_ins[2], scale_ins_refused[2];
  /* the scalable target's bounds as its scheduled actions set them, and
   * each action's next firing (epoch ms; INT64_MAX when done) */
  int64_t bound_min[2], bound_max[2];
  int64_t *sched_next[2];
  /* a GSI is UPDATING until this time (epoch ms) after a change of its own
   * (a table's status is sl_sim's updating_until_ms) */
  int64_t updating_until_ms;
} res_state;

/* A control-plane change: a scenario action or an auto-scaling activity,
 * done or refused with the service's message. */
typedef struct {
  int64_t at_us; /* since the start */
  uint32_t res;
  int8_t dir; /* auto scaling: 0 read, 1 write; -1 an action */
  bool ok;
  int64_t from, to; /* auto scaling: provisioned units */
  char *what;       /* what was asked ("UpdateTable WriteCapacityUnits 200 -> 100") */
  char *error;      /* refused: "LimitExceededException: ..." */
} cp_event;

typedef struct {
  const sl_sim_workload *w;
  uint32_t phase;
  int64_t phase_start;
  uint64_t in_phase; /* arrivals so far in this phase */
  int64_t next_t;    /* INT64_MAX: done */
  uint64_t seq;      /* requests issued */
  uint64_t item_seq; /* items issued (sequential keys) */
  uint64_t scan_page;
  rng jitter;
  int64_t quota; /* retry quota tokens (standard modes) */
  /* adaptive mode: botocore's ClientRateLimiter, RateClocker, TokenBucket, CubicCalculator */
  bool ad_enabled;
  double ad_fill, ad_cap, ad_tokens, ad_last;
  double ad_measured, ad_bucket;
  uint64_t ad_count;
  double cubic_wmax, cubic_k, cubic_last_fail;
  /* per-request mode: the sends waiting for a token, first come first
   * served (botocore's TokenBucket.acquire blocks without going into debt
   * and re-checks when the rate changes) */
  struct sl__sim_ev *ad_q;
  size_t ad_q_head, ad_q_n, ad_q_cap;
  /* statistics */
  uint64_t requests, attempts, succeeded, failed, throttled_attempts, resends, in_flight_end;
  uint64_t outcomes[5];
  uint64_t *key_req, *key_thr; /* per key index, when the key space is small */
  uint64_t n_keys;
  uint64_t lat_hist[LAT_BUCKETS];
  double lat_sum_ms;
  int64_t lat_max_us;
  uint32_t *s_requests, *s_attempts, *s_throttled, *s_succeeded, *s_failed;
  /* aggregate mode: the key space's probability mass in hash order */
  struct sl__sim_mass *mass; /* NULL: keys spread evenly over the hash space */
  uint64_t n_mass;
  double agg_due; /* arrivals due but not yet counted (fractions) */
  double agg_mu;  /* the mean cost of one request on its resource (milli-units) */
  double agg_gsi_mu[SL_SIM_MAX_GSIS]; /* writes: the mean cost of its entry on each GSI */
  double *s_rate_limit; /* adaptive: the client's send rate limit at each step (0: off) */
  /* aggregate mode: retries, resends and transactions in flight */
  struct sl__sim_group *pend;
  size_t n_pend, pend_cap;
} wl_state;

typedef struct sl__sim_ev {
  int64_t t;
  uint64_t order;
  uint32_t wl;
  uint32_t attempt; /* attempts made so far */
  uint32_t resends;
  bool token_held; /* adaptive: the token for this send was taken when it was queued */
  int64_t first_t;
  uint64_t req_seed;
  uint64_t item_base;  /* the request's first item number (sequential keys) */
  uint64_t pending[2]; /* items still to do (batches), bit i = item i */
  uint32_t quota_held; /* retry quota taken for this request */
} ev;

struct sl_sim {
  const sl_scenario *s;
  sl_cap_params params;
  sl_clock clock;
  sl_cap *cap;
  int64_t t0, end;
  size_t n_steps;
  uint32_t n_res;
  res_state *res;
  uint32_t *table_res; /* the resource of each table */
  uint32_t gsi_res[SL_SIM_MAX_TABLES][SL_SIM_MAX_GSIS];
  wl_state wl[SL_SIM_MAX_WORKLOADS];
  ev *heap;
  size_t n_heap, heap_cap;
  uint64_t order;
  size_t next_sample; /* the next step whose partitions are sampled */
  uint32_t next_action;
  int64_t first_minute, n_minutes; /* the clock minutes the run covers */
  int64_t next_eval_minute;        /* auto scaling: the next datapoint to evaluate */
  /* a table is UPDATING until this time (epoch ms) after a change, for what
   * (SL_UPDATE_* of store/schema.h; 0: a change the server admits others
   * beside, warm throughput or an on-demand maximum) */
  int64_t updating_until_ms[SL_SIM_MAX_TABLES];
  uint8_t updating_cause[SL_SIM_MAX_TABLES];
  /* the next pending throughput change to take effect (a resource's
   * UPDATING ends); INT64_MAX: none */
  int64_t next_status_ms;
  int64_t next_warm_ms; /* the next warm throughput to become ACTIVE; INT64_MAX: none */
  bool any_scaling;
  cp_event *cp;
  size_t n_cp, cp_cap;
  double wall_s, cpu_s;
  uint64_t total_attempts;
  /* aggregate mode: one step's sends and their shares of partitions */
  struct sl__sim_group *send;
  size_t n_send, send_cap;
  struct sl__sim_share *shares;
  size_t shares_cap;
  struct sl__sim_slot *slots; /* a step's chunks, by instant */
  size_t slots_cap;
  /* one attempt's charges */
  sl_cap_charge charges[MAX_CHARGES];
  uint32_t charge_res[MAX_CHARGES];
  uint8_t charge_item[MAX_CHARGES];
};

extern const char *const sl__sim_outcome_names[5];

/* The key of index 'idx' (its text, in 'buf' of 96 bytes unless named) and
 * its partition key hash; the size of a key space. */
sl_str sl__sim_key_text(const sl_sim_keys *k, uint64_t idx, char *buf);
uint64_t sl__sim_key_hash(const sl_sim_keys *k, uint64_t idx);
uint64_t sl__sim_keys_space(const sl_sim_keys *k);

/* What the run found (sim_report.c). */
extern const char *const sl__sim_limit_names[4];
bool sl__sim_on_demand(const res_state *r);
const char *sl__sim_unit_name(const res_state *r, int dir);
uint64_t sl__sim_throttles(const dir_series *d);
double sl__sim_peak_rate(const sl_sim *m, const int64_t *v);

typedef struct {
  uint32_t wl;
  uint64_t idx;
  uint64_t requests, throttled;
} sl__sim_hot_key;
size_t sl__sim_hottest_keys(const sl_sim *m, sl__sim_hot_key *out);

typedef struct {
  double read_units, write_units; /* billed request units (on demand) */
  double rcu_hours, wcu_hours;    /* provisioned */
  double dollars;
} sl__sim_cost;
sl__sim_cost sl__sim_cost_of(const sl_sim *m, const res_state *r);
double sl__sim_latency_quantile(const wl_state *w, double q);
/* The diagnosis: up to 'max' findings, their text in 'b' (heap-owned). */
void sl__sim_diagnose(sl_sim *m, sl_buf *b, size_t *n_out, sl_str *lines, size_t max);
void sl__sim_fmt_num(sl_buf *b, double x);
/* In an aggregate-mode report: how far that mode departs from the
 * per-request one (measured in docs/simulate.md, pinned by
 * tests/conformance/test_simulate_tool.py); its step in ms. */
void sl__sim_aggregate_note(const sl_sim *m, sl_buf *b);

#endif
