/*
 * faults.h — fault injection: rules that make chosen DynamoDB requests fail
 * on purpose, for testing retry and fallback code (README, "Fault
 * injection", has the JSON schema).
 *
 * A rule matches a request by operation, table, index (the IndexName
 * member) and partition-key prefix (the string or number value of the
 * table's partition key in Key or Item), each optional, and fires with a
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
 *    ServiceUnavailableException, ...) with the rule's message.
 * Rules are checked after the request validated, before it runs; the first
 * matching rule that fires wins; nothing of the request happens.
 *
 * Not done: added latency, cut connections, and the model actions "force a
 * partition split" and "set the previous peak" — README: Not supported.
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
 * {"action": "drain_burst", "table": T[, "index": I]} is not kept: it spends
 * the resource's unused capacity at once (cap/cap.h sl_cap_res_drain_burst;
 * seed 000's "burst consumed without prior notice"). Writes the added rules
 * and applied actions as a JSON array into 'w'. Returns false with a message. */
bool sl_faults_add(sl_faults *f, sl_env *env, const sl_json *v, sl_jw *w, char *err,
                   size_t err_len);
/* Reads a file holding the same JSON (`--faults FILE`). */
bool sl_faults_load(sl_faults *f, sl_env *env, const char *path, char *err, size_t err_len);
bool sl_faults_delete(sl_faults *f, uint64_t id);
void sl_faults_clear(sl_faults *f);
/* {"seed":N,"rules":[...]} with each rule's hits and remaining count. */
void sl_faults_write(const sl_faults *f, sl_jw *w);

/* Fires the first matching rule on a validated request: true with
 * req->fail set (and the throttle recorded). */
bool sl_faults_apply(sl_faults *f, sl_req *req);

#endif
