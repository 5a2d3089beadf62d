/*
 * tables.h — control-plane helpers shared by CreateTable, UpdateTable,
 * DeleteTable, the tagging operations and the admin API: committing a new
 * table version, table identity, tags, tables by ARN. (Capacity resources
 * and dropping a table are jobs/tables.h.)
 */
#ifndef SL_OPS_TABLES_H
#define SL_OPS_TABLES_H

#include "jobs/tables.h"
#include "ops/req.h"

/* Tags a table may carry (facts: "Number of Tags exceed the current limit"). */
#ifndef SL_TABLE_MAX_TAGS
#define SL_TABLE_MAX_TAGS 50
#endif

/* Merges checked tags (actions/members.h sl_in_check_tags) into 't'
 * (replacing same keys); more than 50 in all is the service's error. */
sl_err sl_tables_merge_tags(sl_req *req, sl_table *t, const sl_tag *tags, uint32_t n);

/* Fresh storage ids and identity for a new table (inside 'txn'). */
sl_err sl_tables_identity(sl_req *req, sl_txn *txn, sl_table *t);

/* A stream named by its table's name and its label. */
typedef struct {
  sl_str table;
  sl_str label;
} sl_stream_ref;

/* The table a ResourceArn names (tagging operations), with the service's
 * errors for malformed and unknown ARNs: the ARN is checked (prefix, service,
 * account, region; index and backup ARNs refused) before the lookup. A
 * stream's ARN sets *out NULL and 'stream' (not looked up: the caller reads
 * the streams database). */
sl_err sl_tables_by_arn(sl_req *req, sl_str arn, sl_table **out, sl_stream_ref *stream);
/* ResourceNotFoundException for a ResourceArn. */
sl_err sl_tables_resource_not_found(sl_req *req, sl_str arn);
/* The service's prefix of every ResourceInUseException about a change. */
#define SL_IN_USE "Attempt to change a resource which is still in use: "
/* Refuses a change to a table being created or deleted (UpdateTable,
 * DeleteTable, TagResource): ResourceInUseException "Table is being
 * created|deleted: <T>". */
sl_err sl_tables_check_settled(sl_req *req, const sl_table *t);
/* Saves and installs 't', a changed clone of 'old'. On failure 't' is the
 * caller's to free. */
sl_err sl_tables_commit_version(sl_req *req, sl_table *old, sl_table *t);

#endif
