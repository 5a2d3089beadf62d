/*
 * batch.h — helpers shared by the multi-table item operations
 * (BatchGetItem, BatchWriteItem; later TransactGetItems and
 * TransactWriteItems), whose requests name their tables as map keys
 * (RequestItems) or per action instead of in a TableName member.
 *
 * Design: a batch request is checked in the service's order — values first
 * (no table needed), then every table is looked up, then each key against its
 * table's schema — and then processed item by item, each item admitted on its
 * own by the capacity engine (capacity-model.md §3). This header only holds
 * what both batch actions need; each action keeps its own request walk.
 *
 * Memory: everything in the request arena. Threads: the loop thread.
 */
#ifndef SL_OPS_BATCH_H
#define SL_OPS_BATCH_H

#include "ops/req.h"

/* Resolves a table named by 'given' (a table name or a table ARN of this
 * server, as a RequestItems map key) to an existing table, with the
 * data-plane semantics and message of sl_req_table: unknown tables and tables
 * that are not usable yet (CREATING) or any more (DELETING) are
 * ResourceNotFoundException "Requested resource not found". The map keys were
 * checked against the model (length, pattern) by the request validator. */
sl_err sl_batch_table(sl_req *req, sl_str given, sl_table **out);

/* The storage key of 'kv' in table 't' (table id included), for detecting two
 * requests on one item even when the table is named once by name and once by
 * ARN. */
sl_str sl_batch_item_key(sl_req *req, const sl_table *t, const sl_keyvals *kv);

#endif
