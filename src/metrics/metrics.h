/*
 * metrics.h — CloudWatch-named metrics, throttle events and Contributor
 * Insights, recorded on the capacity clock.
 *
 * What is recorded (facts §7 of ../shared/spec/dynamodb-facts.md, with
 * CloudWatch's names, dimensions and counting rules; the full list with
 * units and Prometheus names is metrics/metrics.def):
 *
 *   metric                                   dimensions                  recorded by
 *   ConsumedReadCapacityUnits                TableName[,GSI]             sl_metrics_consumed
 *   ConsumedWriteCapacityUnits               TableName[,GSI]             sl_metrics_consumed
 *   ReadThrottleEvents / WriteThrottleEvents TableName[,GSI]             sl_metrics_throttle_event
 *   Read|Write{KeyRangeThroughput,ProvisionedThroughput,AccountLimit,
 *     MaxOnDemandThroughput}ThrottleEvents   TableName[,GSI]             sl_metrics_throttle_event
 *   ThrottledRequests                        TableName,Operation[,Verb]  sl_metrics_request
 *   SuccessfulRequestLatency (ms)            TableName,Operation[,Verb]  sl_metrics_request
 *   SystemErrors                             TableName,Operation[,Verb]  sl_metrics_request
 *   UserErrors                               (account)                   sl_metrics_request
 *   ConditionalCheckFailedRequests           TableName                   sl_metrics_request
 *   TransactionConflict                      TableName                   sl_metrics_request
 *   ReturnedItemCount                        TableName,Operation[,Verb]  sl_metrics_request
 *   OnlineIndexConsumedWriteCapacity,
 *   OnlineIndexThrottleEvents,
 *   OnlineIndexPercentageProgress            TableName,GSI               sl_metrics_backfill
 *   TimeToLiveDeletedItemCount               TableName                   sl_metrics_ttl_deleted
 *   ProvisionedRead/WriteCapacityUnits       TableName[,GSI]             sl_metrics_provisioned
 *   ReturnedRecordsCount, ReturnedBytes      TableName,Operation         sl_metrics_stream_read
 *
 * [,Verb]: the PartiQL operations' extra dimension (facts §7): Verb for
 * ExecuteStatement (PartiQLSelect, PartiQLInsert, PartiQLUpdate,
 * PartiQLDelete), OperationType for BatchExecuteStatement and
 * ExecuteTransaction (Read, Write); sl_metrics_request_verb records it.
 *
 * Counting rules the callers rely on:
 *  - ConsumedXCapacityUnits: Sum = units, SampleCount = requests (even 0-unit
 *    ones): the caller adds up one request's units per resource and calls
 *    sl_metrics_consumed once per (request, resource, direction).
 *  - ThrottleEvents: one per throttled event (a PutItem on a table with 3 GSIs
 *    throttled by one GSI is 1 event on that GSI); a throttled request is one
 *    ThrottledRequests whatever its number of events; a batch counts as a
 *    throttled request only if every item was throttled (the caller passes
 *    SL_OUTCOME_THROTTLED accordingly), partial batches only add events. An
 *    event throttled for several reasons adds one to each reason's metric.
 *  - Throttles are not UserErrors; ConditionalCheckFailed is not a UserError.
 *  - Index empty means the table itself: TableName alone excludes the GSIs,
 *    as in CloudWatch.
 *
 * Storage: a series per (metric, table, index, operation), created on first
 * use, holding a running total (for Prometheus counters; the last value for
 * gauges) and two bounded rings of {sum, count, min, max} cells: per second
 * (SL_METRICS_SECONDS) and per minute (SL_METRICS_MINUTES), indexed by the
 * capacity clock. Rings are made of 60-cell chunks allocated when a cell in
 * them is first written, so an idle series costs a few hundred bytes and a
 * busy one at most ~56 KB; at most SL_METRICS_MAX_SERIES series exist (later
 * ones are counted as dropped, not recorded). Recent throttle events are kept
 * in a bounded ring (SL_METRICS_EVENTS), allocated at the first event.
 * Contributor Insights keeps, per enabled resource and per minute (the last
 * SL_CI_MINUTES minutes), a bounded top-k (space-saving, metrics/topk.h) of
 * partition keys and of partition+sort keys, by consumed throughput units
 * (3 x write units + read units) and by throttle count. Contributor Insights
 * settings live in memory only: they do not survive a restart (a
 * --data-dir table comes back with Contributor Insights DISABLED).
 *
 * Incarnations: tables are referred to by name, so dropping a table is
 * sl_metrics_forget_table. Its series and events then belong to its deleted
 * incarnation: a table created again under the name starts at zero, and
 * /metrics no longer shows them, but the readers below can still be asked
 * for them ('deleted' true) — the dashboard shows what a deleted table did.
 * Only the last deleted incarnation of a name is kept (deleting the name
 * again frees the older one's series), and of at most
 * SL_METRICS_DELETED_TABLES names (the oldest deletion is freed first), so
 * memory stays flat however often tables are recreated. Contributor
 * Insights of a dropped table is freed at once.
 *
 * Ownership: sl_metrics_new's caller owns the registry (sl_app) and frees it
 * with sl_metrics_free. Table, index and key slices are copied; 'operation'
 * and 'exception' strings must be static (sl_op_name, sl_err_name).
 * Threads: the loop thread.
 */
#ifndef SL_METRICS_METRICS_H
#define SL_METRICS_METRICS_H

#include "base/json.h"
#include "base/clock.h"

#define SL_METRICS_SECONDS 300
#define SL_METRICS_MINUTES 1440
#define SL_METRICS_EVENTS 1000
#define SL_METRICS_MAX_SERIES 8192
#define SL_METRICS_TOPK 20
#define SL_CI_MINUTES 60
#define SL_METRICS_DELETED_TABLES 8

typedef enum {
#define X(id, cw, prom, kind, dims, unit, scale, help) SL_M_##id,
#include "metrics/metrics.def"
#undef X
  SL_M__COUNT
} sl_metric;

typedef struct sl_metrics sl_metrics;

sl_metrics *sl_metrics_new(const sl_clock *clock);
void sl_metrics_free(sl_metrics *m);
/* 'pk_name' and 'sk_name' (may be empty) are the table's key attribute
 * names, kept with its deleted incarnation to name its keys. */
void sl_metrics_forget_table(sl_metrics *m, sl_str table, sl_str pk_name, sl_str sk_name);

/* The metric named 'cloudwatch' ("ConsumedReadCapacityUnits"), or -1. */
int sl_metrics_find(sl_str cloudwatch);
const char *sl_metrics_name(sl_metric id);

/* How a request ended, for the request-level metrics. */
typedef enum {
  SL_OUTCOME_OK = 0,
  SL_OUTCOME_USER_ERROR,       /* 400 other than the kinds below */
  SL_OUTCOME_SYSTEM_ERROR,     /* 500 */
  SL_OUTCOME_THROTTLED,        /* counted in ThrottledRequests */
  SL_OUTCOME_CONDITION_FAILED, /* ConditionalCheckFailedRequests */
  SL_OUTCOME_TRANSACTION_CONFLICT,
} sl_outcome;

/* One API request. 'table' may be empty (account-level operations: then
 * only UserErrors can count); 'latency_us' counts only for SL_OUTCOME_OK;
 * 'returned_items' >= 0 records ReturnedItemCount (Query, Scan, batch reads;
 * 0 is a sample), < 0 records nothing. */
void sl_metrics_request(sl_metrics *m, sl_str table, const char *operation, sl_outcome outcome,
                        int64_t latency_us, int64_t returned_items);
/* The same with the operation's Verb or OperationType value ('verb', static;
 * NULL or "": none), a dimension of its own series. */
void sl_metrics_request_verb(sl_metrics *m, sl_str table, const char *operation, const char *verb,
                             sl_outcome outcome, int64_t latency_us, int64_t returned_items);
/* "Verb" for ExecuteStatement, "OperationType" for BatchExecuteStatement and
 * ExecuteTransaction, else NULL: the dimension a verb value is recorded as. */
const char *sl_metrics_verb_dimension(const char *operation);

/* Units consumed by one request on one resource ('index' empty: the table),
 * in milli-units. */
void sl_metrics_consumed(sl_metrics *m, sl_str table, sl_str index, bool write, int64_t mu);

/* Limits, numbered as cap/cap.h's sl_cap_limit (ops/admit.c checks it). */
enum {
  SL_METRICS_LIMIT_MAX_ON_DEMAND = 0,
  SL_METRICS_LIMIT_ACCOUNT = 1,
  SL_METRICS_LIMIT_PROVISIONED = 2,
  SL_METRICS_LIMIT_KEY_RANGE = 3,
};

/* One throttled event, with the limits that refused it ('limits' bit
 * 1 << limit). 'pk'/'sk' are printable key values (may be empty);
 * 'partition' the index of the partition in the resource (-1 unknown). Also
 * appended to the recent events ring with 'operation' and 'exception' (e.g.
 * "ProvisionedThroughputExceededException"). */
void sl_metrics_throttle_event(sl_metrics *m, sl_str table, sl_str index, bool write,
                               unsigned limits, const char *operation, const char *exception,
                               sl_str pk, sl_str sk, int partition);

/* Provisioned capacity gauges (provisioned tables and GSIs only). */
void sl_metrics_provisioned(sl_metrics *m, sl_str table, sl_str index, int64_t rcu, int64_t wcu);

/* GSI backfill progress (percent) and cost of one step. */
void sl_metrics_backfill(sl_metrics *m, sl_str table, sl_str index, int64_t consumed_mu,
                         int64_t throttle_events, double percent);

void sl_metrics_ttl_deleted(sl_metrics *m, sl_str table, int64_t n);

/* One successful GetRecords of a stream of 'table': records and their
 * SizeBytes (0 records is a sample). Its latency is the request's
 * SuccessfulRequestLatency (Operation GetRecords). */
void sl_metrics_stream_read(sl_metrics *m, sl_str table, int64_t records, int64_t bytes);

/* Series that could not be created (SL_METRICS_MAX_SERIES reached). */
uint64_t sl_metrics_dropped(const sl_metrics *m);

/* ---- Contributor Insights ---- */

typedef enum {
  SL_CI_DISABLED = 0,
  SL_CI_ACCESSED_AND_THROTTLED = 1,
  SL_CI_THROTTLED_ONLY = 2
} sl_ci_mode;

typedef struct {
  sl_ci_mode mode;    /* SL_CI_DISABLED: never enabled, or disabled */
  int64_t created_ms; /* when it was last enabled (rule names) */
  int64_t updated_ms; /* LastUpdateDateTime; 0 if never changed */
} sl_ci_state;

/* Enables (mode != DISABLED) or disables Contributor Insights on a table
 * or GSI at the current clock time. 'table_id' is the table's TableId: a
 * state recorded for a dropped table of the same name reads as never
 * enabled. Disabling drops the top-k data. */
void sl_metrics_ci_set(sl_metrics *m, sl_str table, sl_str index, sl_str table_id, sl_ci_mode mode);
sl_ci_state sl_metrics_ci_get(const sl_metrics *m, sl_str table, sl_str index, sl_str table_id);
/* True when any resource has Contributor Insights enabled (a fast check for
 * the request path). */
bool sl_metrics_ci_any(const sl_metrics *m);
/* The mode recorded for a resource (whatever its generation). */
sl_ci_mode sl_metrics_ci_mode(const sl_metrics *m, sl_str table, sl_str index);
/* An access to a key (consumed units) or a throttle of it, for the top-k of
 * an enabled resource. 'pk' and 'sk' are printable key values ('sk' empty if
 * none). Consumed throughput units are 3 x write units + read units. */
void sl_metrics_ci_key(sl_metrics *m, sl_str table, sl_str index, sl_str pk, sl_str sk, bool write,
                       int64_t mu, bool throttled);

/* ---- exposition ---- */

/* Prometheus text format (version 0.0.4): counters and gauges named after
 * the CloudWatch metrics (sluice_dynamodb_<snake_case>[_total]), labels
 * table_name, global_secondary_index_name, operation, verb and
 * operation_type for the dimensions, and the latency histogram. */
void sl_metrics_write_prometheus(sl_metrics *m, sl_buf *out);

/* CloudWatch-style datapoints for one metric:
 * {"Label":..,"Datapoints":[{"Timestamp":..,"SampleCount":..,"Sum":..,
 *  "Average":..,"Minimum":..,"Maximum":..,"Unit":..}]}, oldest first, one per
 * period that has samples. 'period_s' is 1, 5, 10, 30 (second ring) or a
 * multiple of 60 (minute ring); [start_ms, end_ms) is cut to whole periods.
 * 'index' empty: the table itself; 'operation' empty: all operations
 * together; 'verb' empty: all verbs (Verb or OperationType values) together;
 * 'deleted': the table's last deleted incarnation instead of the live one.
 * Returns false with a message in 'err' for a bad request (unknown metric,
 * period, range of more than 1440 datapoints). */
bool sl_metrics_write_datapoints(sl_metrics *m, sl_jw *w, sl_str table, bool deleted, sl_str index,
                                 sl_str operation, sl_str verb, sl_metric metric, int64_t period_s,
                                 int64_t start_ms, int64_t end_ms, const char **err);

/* The recorded sum of 'metric' over [start_ms, end_ms) on 'table' (all
 * operations together), read from the per-second ring when the window lies
 * in it, else from the per-minute ring (whole minutes). 'index' empty: the
 * table itself; 'all_indexes': the table and every index. *last_ms (may be
 * NULL) is the start of the latest second or minute with a sample, -1 if
 * none. Counted in the metric's recorded unit (1 per throttle event). */
int64_t sl_metrics_window_sum(sl_metrics *m, sl_metric metric, sl_str table, bool deleted,
                              sl_str index, bool all_indexes, int64_t start_ms, int64_t end_ms,
                              int64_t *last_ms);

/* The Sum of 'metric' over clock minute 'minute' (epoch ms / 60000) for a
 * table ('index' empty) or a GSI, all operations together, in the metric's
 * unit (consumed capacity in units); 0 when nothing was recorded or the
 * minute has left the ring. Auto scaling's alarms read their datapoints
 * here (ops/autoscaling.h). */
double sl_metrics_minute_sum(sl_metrics *m, sl_metric metric, sl_str table, sl_str index,
                             int64_t minute);

/* The most recent throttle events of a table (all tables if empty; the
 * last deleted incarnations' when 'deleted'), newest first, at most
 * 'limit', as a JSON array. */
void sl_metrics_write_events(sl_metrics *m, sl_jw *w, sl_str table, bool deleted, size_t limit);

/* The deleted tables whose last incarnation is kept, most recently deleted
 * first, as a JSON array of {"name","deleted_ms","throttle_events",
 * "last_throttle_ms","indexes":[GSI names with series]}, throttles (table and
 * GSIs, reads and writes) counted over [start_ms, end_ms), and the key
 * attribute names ("partition_key", "sort_key": null when none). */
void sl_metrics_write_deleted(sl_metrics *m, sl_jw *w, int64_t start_ms, int64_t end_ms);

/* Contributor Insights top keys of a table and its GSIs over the last
 * 'minutes' minutes (1..SL_CI_MINUTES), as a JSON array of resources. */
void sl_metrics_write_insights(sl_metrics *m, sl_jw *w, sl_str table, int minutes);

#endif
