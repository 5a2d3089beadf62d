/*
 * reply.h — the reply members several actions share, written from the typed
 * results of their cores (ops/).
 *
 *  - sl_reply_single_write: the reply of PutItem, UpdateItem and DeleteItem:
 *    {Attributes (when the result has any), ConsumedCapacity (when asked),
 *    ItemCollectionMetrics (when asked with SIZE and the table has LSIs)}.
 *
 * Threads: the loop thread.
 */
#ifndef SL_ACTIONS_REPLY_H
#define SL_ACTIONS_REPLY_H

#include "ops/write.h"

void sl_reply_single_write(sl_req *req, const sl_write_plan *plan, const sl_write_result *res);

#endif
