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
#define SL_TABLE_MAX_TAGS 50

/* The tag rules that come before the model's constraints, with their live
 * texts (ack-api-quirks DDB-TABLE-110 and its TagResource sibling): key 1..128
 * and value 0..256 characters of the allowed set, no "aws:" prefix, no key
 * twice in one request. */
sl_err sl_tables_check_tags(sl_failure *f, const sl_json *tags);
/* UntagResource's TagKeys by the same rules: present, at most 50, each a
 * valid key. */
sl_err sl_tables_check_tag_keys(sl_failure *f, const sl_json *keys);
/* Merges a Tags list that passed sl_tables_check_tags into 't' (replacing
 * same keys); more than 50 in all is the service's error. */
sl_err sl_tables_parse_tags(sl_req *req, sl_table *t, const sl_json *tags);

/* SSESpecification asking for a KMS key (Enabled true) is refused with a
 * ValidationException naming it: sluice has no KMS, and a table reported
 * as encrypted with a key that does not exist would mislead. Enabled false
 * (the service's default, an AWS owned key) is accepted. */
sl_err sl_tables_refuse_kms(sl_req *req, const sl_json *body);

/* Fresh storage ids and identity for a new table (inside 'txn'). */
sl_err sl_tables_identity(sl_req *req, sl_txn *txn, sl_table *t);

/* The table named by the ResourceArn member (tagging operations), with the
 * service's errors for malformed and unknown ARNs. */
sl_err sl_tables_by_arn(sl_req *req, sl_table **out);
/* Saves and installs 't', a changed clone of 'old'. On failure 't' is the
 * caller's to free. */
sl_err sl_tables_commit_version(sl_req *req, sl_table *old, sl_table *t);

#endif
