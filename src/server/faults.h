/*
 * faults.h — fault injection: rules that make chosen DynamoDB requests fail
 * on purpose, for testing retry and fallback code (README, "Fault
 * injection", has the JSON schema).
 *
 * A rule matches a request by operation, table, index (the IndexName
 * member) and partition-key prefix (the string or number value of the
 * table's partition key in Key or Item; every key of a batch and every
 * action of a transaction, table and prefix holding for the same item),
 * each optional, and fires with a
 * probability drawn from the server's seeded generator (--seed) or on the
 * next N matching requests. Firing answers the request with:
 *  - a throttle named by one of the 16 ThrottlingReason strings
 *    ("TableWriteProvisionedThroughputExceeded", ...): the exception and
 *    message the capacity engine would send for it (ops/admit.c), its
 *    ThrottlingReasons with the table's or index's ARN, and the throttle
 *    counted in the metrics (ThrottledRequests, the reason's ThrottleEvents);
 *  - TransactionCanceledException with one cancellation reason
 *    ("TransactionConflict", ...) on the first action, None on the others;
 *  - any other exception of errors.def by its name (InternalServerError,
 *    ServiceUnavailableException, ...) with the rule's message;
 *  - a cut connection: a TCP reset, nothing answered (counted in the metrics
 *    as an InternalServerError);
 *  - added latency: the request runs, its answer leaves latency_ms later
 *    (net/server.h sl_http_response.delay_ms).
 * Rules are checked after the request validated, before it runs; the first
 * matching rule that fires wins; but for latency, nothing of the request
 * happens.
 *
 * Actions on the model are applied once when added, never kept:
 * drain_burst, force_split and set_previous_peak (cap/cap.h).
 *
 * Ownership: sl_app owns the set (sl_faults_new / sl_faults_free).
 * Threads: the loop thread.
 */
#ifndef SL_SERVER_FAULTS_H
#define SL_SERVER_FAULTS_H

#include "ops/req.h"

typedef struct sl_faults sl_faults;

sl_faults *sl_faults_new(uint64_t seed);
void sl_faults_free(sl_faults *f);

/* Adds one rule (an object) or several (an array); all or none. An element
 * with "action" is not kept: drain_burst spends the resource's unused
 * capacity at once (cap/cap.h sl_cap_res_drain_burst; seed 000's "burst
 * consumed without prior notice"), force_split splits one of its partitions
 * (sl_cap_res_force_split), set_previous_peak sets its on-demand previous
 * peak (sl_cap_res_set_peak). Writes the added rules and applied actions as
 * a JSON array into 'w'. Returns false with a message. */
bool sl_faults_add(sl_faults *f, sl_env *env, const sl_json *v, sl_jw *w, char *err,
                   size_t err_len);
/* Reads a file holding the same JSON (`--faults FILE`). */
bool sl_faults_load(sl_faults *f, sl_env *env, const char *path, char *err, size_t err_len);
bool sl_faults_delete(sl_faults *f, uint64_t id);
void sl_faults_clear(sl_faults *f);
/* {"seed":N,"rules":[...]} with each rule's hits and remaining count. */
void sl_faults_write(const sl_faults *f, sl_jw *w);

/* What a firing rule does beside an error: the answer's delay, or a cut
 * connection (net/server.h sl_http_response delay_ms, reset). */
typedef struct {
  uint32_t delay_ms;
  bool reset;
} sl_fault_effect;

#define SL_FAULT_MAX_LATENCY_MS 20000

/* Fires the first matching rule on a validated request: true when it
 * answers the request — req->fail set (and the throttle recorded), or
 * out->reset — false when none fired or a latency rule did (out->delay_ms;
 * the request runs). */
bool sl_faults_apply(sl_faults *f, sl_req *req, sl_fault_effect *out);

#endif
