/*
 * delete_table.h — DeleteTable's core, typed (the JSON side is
 * actions/delete_table.c).
 *
 * A table still CREATING or already DELETING is ResourceInUseException
 * ("Attempt to change a resource which is still in use: Table is being
 * created: <name>"); so is one whose indexes are being created, updated or
 * deleted (ops/indexes.h); one with deletion protection enabled is a
 * ValidationException. Otherwise its items, index entries and catalog
 * record go in one write transaction, its capacity resources are released
 * and it leaves the catalog: the data is gone when the call returns.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_DELETE_TABLE_H
#define SL_OPS_DELETE_TABLE_H

#include "ops/req.h"

/* On success *out is the deleted table, out of the catalog and owned by the
 * caller (the reply describes it; then sl_table_free). */
sl_err sl_delete_table(sl_req *req, sl_table *t, sl_table **out);

#endif
