/*
 * update_table.h — UpdateTable's core, typed: the action
 * (actions/update_table.c) checks the request in the service's order and
 * builds 't', the changed clone of the installed table 'old' (throughput and
 * billing rules of ops/throughput.h, GSI updates of ops/indexes.h, deletion
 * protection, table class, stream settings); the core commits it.
 *
 * A changed table is UPDATING for table_update_delay_ms; a GSI being created
 * or deleted keeps it UPDATING while the index's resources are allocated or
 * released (index_create_delay_ms / table_update_delay_ms, DDB-TABLE-148).
 * Created indexes get their storage ids, the new version is saved and
 * installed, the created indexes get their capacity resources (and the
 * deleted one gives its back), and every resource takes its new settings.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_UPDATE_TABLE_H
#define SL_OPS_UPDATE_TABLE_H

#include "ops/indexes.h"

/* Takes 't': on success the catalog owns it (and req->table is it), on
 * failure it is freed. 'changed': a table-level setting changed. */
sl_err sl_update_table(sl_req *req, sl_table *old, sl_table *t, sl_index_updates *gsi,
                       bool changed);

#endif
