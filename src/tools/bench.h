/*
 * bench.h — `sluice bench`: an open-loop load generator for any DynamoDB
 * endpoint (sluice, DynamoDB Local, AWS).
 *
 * Design. The driver (tools/bench.c) reads the flags, creates the table (or
 * checks an existing one, which it never deletes), optionally prefills it,
 * then forks --executors processes that share one T0 (CLOCK_MONOTONIC, a
 * second after the fork). Each executor (tools/bench_run.c) plays its share
 * of one schedule of operations (tools/bench_plan.h: executor i of N sends
 * operations i, i + N, ... of the schedule) and writes what it counted to its
 * own results file; the driver sums those files, nothing is extrapolated.
 * The created table is deleted in the driver's finally, also after Ctrl-C
 * (the executors stop and write partial counts first), and the deletion is
 * printed.
 *
 * Open loop. An operation is sent at its scheduled time whatever happened to
 * earlier ones: an executor keeps up to --connections keep-alive connections,
 * each with one request in flight, and queues an operation that finds none
 * free. Latency runs from the scheduled time to the last byte of the reply,
 * so time spent queued behind a slow server counts (no coordinated
 * omission). Every request has a timeout (--timeout, default 8 s) after
 * which its connection is closed and the operation counted as a Timeout;
 * nothing is ever retried. An executor stops at its operation cap
 * (--max-ops), and its watchdog (--watchdog seconds after T0, default the
 * schedule's length + the timeout + 5 s) stops it with partial counts and a
 * snapshot of every operation still in flight or queued. The driver kills an
 * executor that outlives its watchdog by 5 s and reports it, as it reports
 * one killed by a signal: missing counts are never silent. An executor that
 * starts more than --late-tolerance after T0 refuses to run and says by how
 * much; its results file is created exclusively, so one that ran twice is an
 * error.
 *
 * Indexes. Written items carry every GSI key attribute of the table (a
 * created table's --gsis N indexes gsi0..gsiN-1 on attributes g0..gN-1, or
 * what DescribeTable lists for an existing one), so writes also write the
 * indexes; query-index queries one index (--index, default the first) by
 * its partition key. A GSI key value is the item key's modulo --gsi-keys.
 *
 * Counting. Offered, outcomes and latency are attributed to the second (and
 * window) of the operation's scheduled time; sent to the second it was sent.
 * An outcome is ok (HTTP 200), throttled (ProvisionedThroughputExceeded-
 * Exception, ThrottlingException, RequestLimitExceeded, or a
 * TransactionCanceledException with a ThrottlingError reason), or an error
 * (any other exception, Timeout, ConnectionError, BadReply), each counted by
 * name; throttles are also counted by each ThrottlingReason. Consumed units
 * come from ReturnConsumedCapacity TOTAL on every request.
 *
 * Scaled clock. Against a server run with --time-scale S (its clock S
 * times real time), --time-scale S reads the schedule in the server's time:
 * it is played S times the rate for 1/S of the time (sl_bench_schedule_
 * scale), so the server sees the offered rates the schedule names; the
 * windows are reported in the server's time (rates, lengths, first-throttle
 * times, ceilings), the per-second rows in real seconds.
 *
 * Prices. Estimates and bills come from the shared price table
 * (cap/price.h): the row of the signing region and --table-class; a region
 * without a row uses us-east-1's, and the report says so.
 *
 * Progress. Each executor also bumps its counters in memory shared with the
 * driver (sl_bench_progress), which prints a live line on a terminal
 * (--progress forces it); the results still come only from the files.
 *
 * Results file (text, one record a line, written when the executor ends):
 *   executor I N | status complete|capped|watchdog|interrupted|late|error MSG
 *   late_ms X | totals SENT
 *   sec S OFFERED SENT OK THROTTLED ERRORS UNPROCESSED READ_UNITS WRITE_UNITS
 *   name ID TEXT                (TEXT: exc:TYPE, reason:REASON, err:NAME)
 *   cnt S ID N | hist S INDEX N | hmax S US | first W SECONDS
 *   inflight OP KIND KEY AGE_MS STATE | end
 *
 * Threads: each executor is one thread in its own process; the driver is one.
 */
#ifndef SL_TOOLS_BENCH_H
#define SL_TOOLS_BENCH_H

#include "base/arena.h"
#include "cap/price.h"
#include "tools/bench_plan.h"

#define SL_BENCH_MAX_GATTRS 16

typedef enum {
  SL_BENCH_PUT,
  SL_BENCH_GET,
  SL_BENCH_GET_STRONG,
  SL_BENCH_UPDATE,
  SL_BENCH_QUERY,
  SL_BENCH_SCAN,
  SL_BENCH_BATCH_WRITE,
  SL_BENCH_BATCH_GET,
  SL_BENCH_TRANSACT_WRITE,
  SL_BENCH_QUERY_INDEX, /* Query on a global secondary index (--index) */
  SL_BENCH_N_KINDS,
} sl_bench_kind;

/* The workload names of --workload, in sl_bench_kind order. */
extern const char *const sl_bench_kind_names[SL_BENCH_N_KINDS];

/* Live counters of one executor, in memory shared with the driver, for the
 * progress line only: the results are the files. */
typedef struct {
  uint64_t sent, ok, throttled, errors;
} sl_bench_progress;

typedef struct {
  char host[256];
  int port;
  char host_header[300]; /* "HOST[:PORT]" as signed */
  bool https;
  const char *ca_file; /* NULL: the system's trusted roots */
  sl_bench_aws aws;
  char table[256];
  char pk[64], sk[64];   /* key attribute names; sk empty: no sort key */
  char pk_type, sk_type; /* 'S', 'N' or 'B' */
  /* GSI key attributes every written item carries besides the table's keys
   * (a created table's --gsis, or an existing table's indexes): attribute i
   * of item key k holds the value of key k mod gsi_keys. */
  unsigned n_gattrs;
  char gattr[SL_BENCH_MAX_GATTRS][64];
  char gattr_type[SL_BENCH_MAX_GATTRS];
  uint64_t gsi_keys;
  /* query-index: the index and its partition-key attributes (gattr numbers) */
  char index[256];
  unsigned index_hash[SL_BENCH_MAX_GATTRS], n_index_hash;
  sl_bench_schedule sched;
  char keys_spec[64];
  uint64_t n_keys;
  unsigned mix[SL_BENCH_N_KINDS]; /* weights */
  size_t item_size;               /* bytes, as DynamoDB sizes the item */
  unsigned batch;                 /* items per batch or transaction */
  unsigned page_size, pages;      /* Query/Scan Limit and pages followed */
  unsigned segments;              /* Scan TotalSegments (1: not parallel) */
  unsigned collection;            /* items per partition key (sort key values) */
  int timeout_ms;
  unsigned connections;
  uint64_t max_ops; /* per executor */
  double watchdog_s;
  double late_tolerance_s;
  unsigned executors;
  uint64_t seed;
  double time_scale;           /* the server's --time-scale (1: real time); sched is real */
  const sl_price *price;       /* cap/price.h: the region's row, for estimates and bills */
  bool price_fallback;         /* the region has no row: us-east-1's prices */
  int64_t t0_ns;               /* CLOCK_MONOTONIC */
  sl_bench_progress *progress; /* one per executor, or NULL */
} sl_bench_config;

/* Runs executor 'index' of cfg->executors and writes its results to 'path'
 * (created exclusively). Returns 0, or 1 when it could not run (the reason
 * is in the file when the file could be created, and on stderr). */
int sl_bench_executor_run(const sl_bench_config *cfg, unsigned index, const char *path);

/* Appends the JSON of the item (key, sort): the key attributes and a string
 * "data" that brings its size to about cfg->item_size bytes. */
void sl_bench_item_json(const sl_bench_config *cfg, uint64_t key, uint64_t sort, sl_buf *b);

/* Set from a signal handler: the executor stops, writing partial counts. */
extern volatile int sl_bench_interrupted;

/* `sluice bench` (tools/bench.c). */
int sl_tool_bench(int argc, char **argv);

#endif
