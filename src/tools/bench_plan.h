/*
 * bench_plan.h — the pure parts of `sluice bench` (tools/bench.h): the
 * schedule of offered rate, the key distributions, the latency histogram and
 * the AWS configuration (region and credentials) it signs with.
 *
 * Schedule. A schedule is a list of windows, each a constant rate
 * ("RATE@SECONDS") or a linear ramp ("FROM-TO@SECONDS"), played one after
 * the other from T0. Operation n (0-based, over all executors) is due at the
 * time the schedule's cumulative count first reaches n + 1: a constant window
 * of rate r sends its k-th operation at k / r, a ramp solves its quadratic.
 * The count of a window is floor(its integral), so a schedule names exactly
 * how many operations it offers; the executors split that one sequence
 * (executor i of N sends operations i, i + N, ...), which gives each 1/N of
 * the rate and makes the counted totals independent of N.
 *
 * Keys. A distribution picks a key index in [0, n_keys) from a seeded
 * generator (xoshiro256**, deterministic for a seed): uniform; Zipf with
 * exponent s (inverse CDF over a table of n_keys cumulative weights, so at
 * most SL_BENCH_MAX_ZIPF_KEYS keys); hot (key 0 with probability hot_share,
 * else uniform over the others); sequential (operation n writes key n mod
 * n_keys, so executors never collide).
 *
 * Histogram. Latencies are recorded in microseconds in an HDR-style
 * log-linear histogram: values below 64 exactly, above that 32 sub-buckets
 * per power of two (a relative error under 3.2 %), up to 2^40 µs. Histograms
 * add bucket by bucket, so executors' histograms sum exactly.
 *
 * AWS configuration. The credentials come, in the SDKs' order, from
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, else from
 * the profile (AWS_PROFILE, default "default") of the shared credentials file
 * (AWS_SHARED_CREDENTIALS_FILE, default ~/.aws/credentials), then of the
 * config file (AWS_CONFIG_FILE, default ~/.aws/config; section "[profile
 * NAME]", or "[default]"). The region: AWS_REGION, AWS_DEFAULT_REGION, the
 * profile's "region" in the config file, else us-east-1. No process,
 * SSO or instance-metadata credentials.
 *
 * Replies. A reply's body is classified without trusting it
 * (sl_bench_reply_classify, fuzzed by tests/fuzz/fuzz_bench_reply.c): HTTP
 * 200 is ok; otherwise the exception is the body's __type after its last '#'
 * (none: an error named by the status), throttled when it is
 * ProvisionedThroughputExceededException, ThrottlingException,
 * RequestLimitExceeded, or a TransactionCanceledException with a
 * ThrottlingError cancellation reason; every ThrottlingReasons (or
 * throttlingReasons) entry's "reason" is listed. Consumed units sum the
 * ConsumedCapacity entries' CapacityUnits; unprocessed items or keys are
 * counted for the run's table; LastEvaluatedKey is handed back for paging.
 * A body that is not a JSON object counts as no body.
 *
 * Ownership: sl_bench_keys and sl_bench_schedule own their tables (their
 * _free functions). Threads: none shared; every function is reentrant.
 */
#ifndef SL_TOOLS_BENCH_PLAN_H
#define SL_TOOLS_BENCH_PLAN_H

#include "base/arena.h"
#include "base/json.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SL_BENCH_MAX_WINDOWS 64
#define SL_BENCH_MAX_ZIPF_KEYS 50000000u

typedef struct {
  double from, to; /* operations per second at the start and the end */
  double seconds;
  uint64_t first_op; /* the schedule's index of the window's first operation */
  uint64_t n_ops;    /* floor of the window's integral */
  double start_s;    /* seconds after T0 */
} sl_bench_window;

typedef struct {
  sl_bench_window w[SL_BENCH_MAX_WINDOWS];
  size_t n;
  uint64_t n_ops; /* every window's operations */
  double seconds; /* the schedule's length */
} sl_bench_schedule;

/* Parses "RATE@SECONDS" and "FROM-TO@SECONDS" windows separated by commas
 * (a number may end in 'k': 8k = 8000; seconds may end in s or m). Returns
 * 0, or -1 with a message in err. */
int sl_bench_schedule_parse(const char *text, sl_bench_schedule *out, char *err, size_t err_cap);

/* Plays the schedule 'factor' times faster in operations per second and
 * 'factor' times shorter: every window's rates times factor, its length
 * divided by it; each window keeps its operations (n_ops, first_op). For a
 * server whose clock runs at --time-scale S, a schedule written in the
 * server's time is played in real time with factor S. */
void sl_bench_schedule_scale(sl_bench_schedule *s, double factor);

/* The time, in seconds after T0, at which operation 'op' (< n_ops) is due. */
double sl_bench_schedule_time(const sl_bench_schedule *s, uint64_t op);

/* The window of operation 'op'. */
size_t sl_bench_schedule_window(const sl_bench_schedule *s, uint64_t op);

/* Key distributions. */
typedef enum {
  SL_BENCH_KEYS_UNIFORM,
  SL_BENCH_KEYS_ZIPF,
  SL_BENCH_KEYS_HOT,
  SL_BENCH_KEYS_SEQUENTIAL,
} sl_bench_keys_kind;

typedef struct {
  uint64_t s[4];
} sl_bench_rng;

void sl_bench_rng_seed(sl_bench_rng *r, uint64_t seed);
uint64_t sl_bench_rng_next(sl_bench_rng *r);
/* Uniform in [0, 1). */
double sl_bench_rng_unit(sl_bench_rng *r);

typedef struct {
  sl_bench_keys_kind kind;
  uint64_t n_keys;
  double zipf_s;    /* the exponent */
  double hot_share; /* SL_BENCH_KEYS_HOT: share of operations on key 0 */
  double *cdf;      /* SL_BENCH_KEYS_ZIPF: n_keys cumulative weights, the last 1 */
} sl_bench_keys;

/* Parses "uniform", "zipf[:S]" (default S 1.0), "hot:SHARE" (0 < SHARE <= 1)
 * or "sequential" for n_keys keys. Returns 0, or -1 with a message. */
int sl_bench_keys_init(sl_bench_keys *k, const char *spec, uint64_t n_keys, char *err,
                       size_t err_cap);
void sl_bench_keys_free(sl_bench_keys *k);
/* The key of operation 'op' (sequential uses it; the others draw from 'r'). */
uint64_t sl_bench_keys_pick(const sl_bench_keys *k, sl_bench_rng *r, uint64_t op);

/* The latency histogram. */
#define SL_BENCH_HIST_SUB 32
#define SL_BENCH_HIST_N (64 + 35 * SL_BENCH_HIST_SUB)

typedef struct {
  uint64_t count[SL_BENCH_HIST_N];
  uint64_t n;
  uint64_t max_us;
} sl_bench_hist;

size_t sl_bench_hist_index(uint64_t us);
/* The highest value a bucket holds (what percentiles report: never low). */
uint64_t sl_bench_hist_value(size_t index);
void sl_bench_hist_add(sl_bench_hist *h, uint64_t us);
void sl_bench_hist_merge(sl_bench_hist *into, const sl_bench_hist *from);
/* The value at quantile q (0 < q <= 1), 0 when empty; q = 1 gives the max. */
uint64_t sl_bench_hist_quantile(const sl_bench_hist *h, double q);

/* AWS configuration. */
typedef struct {
  char access_key_id[128];
  char secret[128];
  char session_token[2048];
  char region[64];
  char source[1400]; /* where the credentials came from, for the report */
} sl_bench_aws;

/* Reads the configuration from an environment ('getenv'-like, so tests give
 * their own) and the files it names. 'home' is the home directory (for
 * ~/.aws). Returns 0, or -1 with a message when no credentials are found. */
int sl_bench_aws_load(sl_bench_aws *out, const char *(*env)(const char *name), const char *home,
                      char *err, size_t err_cap);

/* A classified reply. */
typedef enum { SL_BENCH_REPLY_OK, SL_BENCH_REPLY_THROTTLED, SL_BENCH_REPLY_ERROR } sl_bench_outcome;

/* What to count as unprocessed in an ok reply. */
typedef enum {
  SL_BENCH_UNPROCESSED_NONE,
  SL_BENCH_UNPROCESSED_ITEMS, /* BatchWriteItem: UnprocessedItems[table] */
  SL_BENCH_UNPROCESSED_KEYS,  /* BatchGetItem: UnprocessedKeys[table].Keys */
} sl_bench_unprocessed;

typedef struct {
  sl_bench_outcome outcome;
  sl_str type;     /* the exception without its namespace; empty: none (or ok) */
  sl_str *reasons; /* ThrottlingReasons' "reason" strings, in the arena */
  size_t n_reasons;
  double units;            /* ConsumedCapacity's CapacityUnits, summed */
  size_t unprocessed;      /* ok replies: unprocessed items or keys of the table */
  const sl_json *last_key; /* ok replies: LastEvaluatedKey, or NULL */
} sl_bench_reply;

/* Classifies a reply of HTTP 'status' with 'body' (any bytes). Everything it
 * returns lives in 'a' (or points into 'body'). */
void sl_bench_reply_classify(sl_arena *a, int status, sl_str body, const char *table,
                             sl_bench_unprocessed unprocessed, sl_bench_reply *out);

#endif
