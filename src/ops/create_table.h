/*
 * create_table.h — CreateTable's core, typed (the JSON side, which builds the
 * new table from the request in the service's check order, is
 * actions/create_table.c).
 *
 * After the request checks: a table of that name already existing is
 * ResourceInUseException "Table already exists: <name>"; the account's table
 * count (max_tables) LimitExceededException; then the per-table and account
 * capacity quotas (ops/throughput.h). The table is saved CREATING (its
 * indexes too), with fresh storage ids and a TableId, in one write
 * transaction; on commit it gets its capacity resources and is installed in
 * the catalog, which owns it from then on. It becomes ACTIVE after the
 * configured delay (0 by default: the first DescribeTable sees ACTIVE).
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_CREATE_TABLE_H
#define SL_OPS_CREATE_TABLE_H

#include "ops/req.h"

/* Takes 't' (built by the action): on success the catalog owns it, on
 * failure it is freed. */
sl_err sl_create_table(sl_req *req, sl_table *t);

#endif
