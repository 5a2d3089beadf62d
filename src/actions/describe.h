/*
 * describe.h — TableDescription, the shape DescribeTable, CreateTable and
 * UpdateTable return (botocore's TableDescription), and DeleteTable's shorter
 * one, written from the table (store/schema.h).
 */
#ifndef SL_ACTIONS_DESCRIBE_H
#define SL_ACTIONS_DESCRIBE_H

#include "ops/req.h"

/* Writes a TableDescription object. 'status' overrides the table's state in
 * replies that describe the request's own effect (CreateTable: CREATING);
 * pass -1 to use the table's. */
void sl_describe_table(sl_req *req, const sl_table *t, int status);
/* UpdateTable's TableDescription of 't', the new version of 'old': the
 * provisioned units are still those of 'old' (table and indexes), as the
 * service's reply shows them before the change takes effect (botocore's
 * UpdateTable example: 10/10 requested, 1/1 and UPDATING answered). */
void sl_describe_updated_table(sl_req *req, const sl_table *old, const sl_table *t);
/* DeleteTable's TableDescription: the service returns only the table's
 * name, status (DELETING), throughput, size, count and identity, billing and
 * class summaries and deletion protection, not its schema, indexes or
 * stream (live outputs in tests/conformance/test_delete_table.py). */
void sl_describe_deleted_table(sl_req *req, const sl_table *t);
/* A KeySchema list and a Projection object (backups reuse them). */
void sl_describe_key_schema(sl_jw *w, const sl_key_schema *k);
void sl_describe_projection(sl_jw *w, const sl_index *x);

#endif
