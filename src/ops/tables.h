/*
 * tables.h — control-plane helpers shared by CreateTable, UpdateTable,
 * DeleteTable and the admin API: resource lifecycle in the capacity engine,
 * committing a new table version, tags.
 */
#ifndef SL_API_TABLES_H
#define SL_API_TABLES_H

#include "ops/req.h"

/* Creates the capacity resources of a table and its GSIs (after commit). */
void sl_tables_attach_capacity(sl_app *app, sl_table *t);
/* Releases them (table deleted, or replaced by a version without them). */
void sl_tables_detach_capacity(sl_app *app, sl_table *t);
/* Removes a table and all its items in one write transaction. */
sl_err sl_tables_drop(sl_app *app, sl_table *t, sl_failure *f);

/* The tag rules that come before the model's constraints, with their live
 * texts: key length 1..128, value length 0..256, no "aws:" prefix. */
sl_err sl_tables_check_tags(sl_failure *f, const sl_json *tags);
/* Parses a Tags list into 't' (replacing same keys), with TagResource's
 * rules and messages. */
sl_err sl_tables_parse_tags(sl_req *req, sl_table *t, const sl_json *tags);

/* Fresh storage ids and identity for a new table (inside 'txn'). */
sl_err sl_tables_identity(sl_req *req, sl_txn *txn, sl_table *t);

/* The table named by the ResourceArn member (tagging operations), with the
 * service's errors for malformed and unknown ARNs. */
sl_err sl_tables_by_arn(sl_req *req, sl_table **out);
/* Saves and installs 't', a changed clone of 'old'. On failure 't' is the
 * caller's to free. */
sl_err sl_tables_commit_version(sl_req *req, sl_table *old, sl_table *t);

#endif
