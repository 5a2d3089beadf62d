/*
 * reply.h — the reply members several actions share, written from the typed
 * results of their cores (ops/).
 *
 *  - sl_reply_single_write: the reply of PutItem, UpdateItem and DeleteItem:
 *    {Attributes (when the result has any), ConsumedCapacity (when asked),
 *    ItemCollectionMetrics (when asked with SIZE and the table has LSIs)};
 *  - sl_reply_page: the reply of a Query or Scan page: {Items (unless Select
 *    COUNT), Count, ScannedCount, LastEvaluatedKey (the table's and the
 *    index's keys of the last item read, when the page stopped early),
 *    ConsumedCapacity}.
 *  - the members several replies and the error writer share:
 *    ConsumedCapacity (one table; a transaction's list), ItemCollectionMetrics,
 *    timestamps, ThrottlingReasons, and an error's typed detail
 *    (ThrottlingReasons, Item, CancellationReasons; ops/req.h
 *    sl_fail_detail).
 *
 * Threads: the loop thread.
 */
#ifndef SL_ACTIONS_REPLY_H
#define SL_ACTIONS_REPLY_H

#include "ops/reads.h"
#include "ops/write.h"
#include "ops/txn.h"

void sl_reply_single_write(sl_req *req, const sl_write_plan *plan, const sl_write_result *res);
void sl_reply_page(sl_req *req, const sl_table *t, const sl_index *x, const sl_read_exprs *ex,
                   const sl_page_result *page);

/* One ConsumedCapacity object (the member name is the caller's). */
void sl_reply_consumed(sl_jw *w, const sl_consumed *c, sl_rcc mode);
/* "ConsumedCapacity":[...] of a transaction, one entry per table in order of
 * first use (nothing when mode is NONE); the read/write split is shown per
 * direction used, as the service reports transactions. */
void sl_reply_transact_consumed(sl_jw *w, const sl_transact_tables *tt, sl_rcc mode);
/* ItemCollectionMetrics {ItemCollectionKey, SizeEstimateRangeGB}. */
void sl_reply_collection(sl_jw *w, const sl_write_plan *p);
/* Epoch milliseconds as the service's JSON timestamp (seconds). */
void sl_reply_time(sl_jw *w, int64_t epoch_ms);
/* The reasons as a JSON array: [{"reason":...,"resource":...},...]. */
void sl_reply_throttle_reasons(sl_jw *w, const sl_cap_verdict *v);
/* The members of a failure's detail, written inside the error object. */
void sl_reply_error_detail(sl_jw *w, const sl_failure *f);

#endif
