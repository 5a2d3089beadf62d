/*
 * update_table.h — UpdateTable's core, typed: the action
 * (actions/update_table.c) reads the request into sl_update_table_in; the
 * core checks what needs only the request (before the lookup, as the service
 * does), looks the table up, checks the request against it in the service's
 * order and builds the changed clone of the installed table (throughput and
 * billing rules of ops/throughput.h, GSI updates of ops/indexes.h, deletion
 * protection, table class, stream settings), then commits it.
 *
 * The request carries one kind of change: SSESpecification, TableClass,
 * DeletionProtectionEnabled and WarmThroughput each alone, OnDemandThroughput
 * only beside BillingMode (the service's texts, ACKQ DDB-TABLE-433).
 *
 * A changed table is UPDATING for table_update_delay_ms (its new provisioned
 * units pending until then, ops/throughput.h), and records why
 * (sl_table.update_cause): a second change meanwhile is refused with the
 * service's ResourceInUseException text for that cause, or admitted where
 * the service admits it (deletion protection, warm throughput and SSE beside
 * a throughput change). A GSI being created
 * or deleted keeps it UPDATING while the index's resources are allocated or
 * released (index_create_delay_ms / table_update_delay_ms, DDB-TABLE-148;
 * drawn from their realistic ranges under --delays realistic, jobs/env.h
 * sl_env_delay_ms).
 * Created indexes get their storage ids, the new version is saved and
 * installed, the created indexes get their capacity resources (and the
 * deleted one gives its back), and every resource takes its new settings.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_UPDATE_TABLE_H
#define SL_OPS_UPDATE_TABLE_H

#include "ops/indexes.h"

/* UpdateTable as the request states it (strings point into the request;
 * an empty slice with a NULL pointer is an absent member). */
typedef struct {
  sl_str table;   /* TableName: a name or an ARN */
  sl_str billing; /* BillingMode */
  sl_units_in pt; /* ProvisionedThroughput */
  sl_units_in od; /* OnDemandThroughput */
  sl_units_in warm;
  bool has_deletion_protection, deletion_protection;
  sl_str table_class; /* TableClass */
  struct {
    bool present, enabled;
    sl_str view_type;
  } stream;     /* StreamSpecification */
  bool has_sse; /* SSESpecification (a KMS key is refused by the action) */
  sl_gsi_updates_in gsi;
  sl_attr_defs_in defs; /* AttributeDefinitions (for a GSI Create) */
} sl_update_table_in;

typedef struct {
  sl_table *before; /* a copy of the table before the change (the reply's units); the caller
                       frees it with sl_table_free */
  sl_table *table;  /* the installed new version (the catalog owns it; req->table) */
} sl_update_table_result;

sl_err sl_update_table(sl_req *req, const sl_update_table_in *in, sl_update_table_result *out);

#endif
