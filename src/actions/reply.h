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
 *
 * Threads: the loop thread.
 */
#ifndef SL_ACTIONS_REPLY_H
#define SL_ACTIONS_REPLY_H

#include "ops/reads.h"
#include "ops/write.h"

void sl_reply_single_write(sl_req *req, const sl_write_plan *plan, const sl_write_result *res);
void sl_reply_page(sl_req *req, const sl_table *t, const sl_index *x, const sl_read_exprs *ex,
                   const sl_page_result *page);

#endif
