/*
 * describe.h — TableDescription, the shape DescribeTable, CreateTable,
 * UpdateTable return (botocore's TableDescription), DeleteTable's shorter
 * one, and the
 * key schema / index definitions parsed from requests (CreateTable,
 * UpdateTable's GlobalSecondaryIndexUpdates), with the service's messages.
 */
#ifndef SL_OPS_DESCRIBE_H
#define SL_OPS_DESCRIBE_H

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

/* Parses a KeySchema list into 'out' (names copied into the table's arena),
 * checking element order and types against 'defs' with the service's
 * messages. 'index_name' is NULL for the table's own schema. */
sl_err sl_describe_parse_key_schema(sl_req *req, sl_table *t, const sl_json *list,
                                    const char *index_name, sl_key_schema *out);
/* Every key attribute of an index's KeySchema must be defined; the service
 * lists all its keys and all definitions when one is not. */
sl_err sl_describe_check_keys_defined(sl_req *req, const sl_table *t, const sl_json *ks);
/* Parses a Projection member into the index. */
sl_err sl_describe_parse_projection(sl_req *req, sl_table *t, const sl_json *proj, sl_index *x);
/* The index ARN of this server. */
sl_str sl_describe_index_arn(sl_table *t, sl_str index);

#endif
