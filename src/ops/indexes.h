/*
 * indexes.h — the lifecycle of global secondary indexes after CreateTable:
 * UpdateTable's GlobalSecondaryIndexUpdates (Create, Update, Delete) with the
 * service's rules and messages, and the end of a deletion on the clock.
 *
 * What the service does (facts §10, capacity-model.md §7; the texts are the
 * live service's, as the ack-api-quirks probes recorded them):
 *  - one Create or Delete per UpdateTable and per table at a time: two in one
 *    request, or one while another index is CREATING or DELETING, is
 *    LimitExceededException "Subscriber limit exceeded: Only 1 online index can
 *    be created or deleted simultaneously per table"; any number of Updates may
 *    accompany it;
 *  - a Create cannot share the request with table ProvisionedThroughput,
 *    StreamSpecification, SSE, TableClass, DeletionProtectionEnabled or
 *    WarmThroughput (ValidationException); a BillingMode switch may;
 *  - a created index is CREATING (Backfilling false while its resources are
 *    allocated, index_create_delay_ms, then true while jobs/backfill.h copies the
 *    table's items into it) and then ACTIVE; it may be deleted while
 *    Backfilling is true, not before;
 *  - a deleted index is DELETING for table_update_delay_ms; then its entries,
 *    capacity resource and catalog entry go (jobs/tables.h sl_indexes_advance), and the
 *    attribute definitions no key uses any more are pruned, as the service
 *    prunes them;
 *  - an Update changes ProvisionedThroughput (with the index's own decrease
 *    budget), OnDemandThroughput or WarmThroughput; the index is UPDATING for
 *    table_update_delay_ms (the table stays ACTIVE).
 *
 * Usage (ops/update_table.c): sl_indexes_check_updates before the table is
 * looked up; sl_indexes_check_table_update before the
 * table-level throughput changes; sl_indexes_update on the clone after them;
 * sl_indexes_assign_ids before committing the new version;
 * sl_indexes_committed after it is installed. The updates arrive typed, as
 * the request states them (actions/update_table.c reads them).
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_INDEXES_H
#define SL_OPS_INDEXES_H

#include "ops/req.h"
#include "ops/schema.h"

/* One GlobalSecondaryIndexUpdate as sent. */
typedef enum { SL_GSI_NONE, SL_GSI_CREATE, SL_GSI_UPDATE, SL_GSI_DELETE } sl_gsi_action;
typedef struct {
  uint8_t n_actions;           /* how many of Create, Update, Delete the entry holds */
  sl_gsi_action kind;          /* the first of them present (Create, Update, Delete) */
  sl_str name;                 /* its IndexName */
  sl_key_schema_in key;        /* Create */
  sl_projection_in projection; /* Create */
  sl_units_in pt, od, warm;    /* ProvisionedThroughput, OnDemandThroughput, WarmThroughput */
} sl_gsi_update_in;

typedef struct {
  bool present; /* GlobalSecondaryIndexUpdates was sent (perhaps empty) */
  const sl_gsi_update_in *e;
  uint32_t n;
} sl_gsi_updates_in;

/* The table-level members of the same UpdateTable request a Create or Delete
 * may not accompany (sl_indexes_check_updates' combination rule). */
enum {
  SL_UT_PROVISIONED = 1,
  SL_UT_STREAM = 2,
  SL_UT_WARM = 4,
};

/* What a request's GlobalSecondaryIndexUpdates did to the clone. */
typedef struct {
  bool any;                   /* at least one action */
  bool created;               /* a Create */
  bool deleted;               /* a Delete */
  bool throughput;            /* a provisioned throughput changed (table quotas to re-check) */
  struct sl_cap_res *release; /* capacity of the deleted index, freed after commit */
  int64_t delay_ms;           /* a Create's allocation or a Delete's time: the table's UPDATING */
} sl_index_updates;

/* ResourceInUseException for table-level changes while an index is being
 * created (resource allocation) or deleted: 'throughput' for a
 * ProvisionedThroughput change or billing switch, 'on_demand' for an
 * OnDemandThroughput change, 'stream' for a StreamSpecification change. */
sl_err sl_indexes_check_table_update(sl_req *req, const sl_table *old, bool throughput,
                                     bool on_demand, bool stream);

/* The checks of GlobalSecondaryIndexUpdates that need only the request, made
 * before the table is looked up: an empty list, one action per entry and one
 * entry per index, one Create or Delete in all, AttributeDefinitions beside
 * a Create, and the table-level members
 * ('also', SL_UT_*) a Create or Delete may not accompany. */
sl_err sl_indexes_check_updates(sl_req *req, const sl_gsi_updates_in *in,
                                const sl_attr_defs_in *defs, unsigned also);

/* Checks GlobalSecondaryIndexUpdates, already passed through
 * sl_indexes_check_updates (and, for a Create, the new AttributeDefinitions)
 * against 'old' and applies them to 't', the clone with the table-level changes already made (so
 * t->tp.billing is the new mode). Also requires throughput for every GSI when the table switches to
 * PROVISIONED. On failure 't' is half-changed: the caller frees it. */
sl_err sl_indexes_update(sl_req *req, const sl_gsi_updates_in *in, const sl_attr_defs_in *defs,
                         const sl_table *old, sl_table *t, sl_index_updates *out);

/* Gives created indexes their storage ids (in their own write transaction; an
 * id lost to a later failure is never reused, which is harmless). */
sl_err sl_indexes_assign_ids(sl_req *req, sl_table *t);

/* After 't' is committed and installed: capacity resources of created
 * indexes, release of the deleted one. */
void sl_indexes_committed(sl_req *req, sl_table *t, sl_index_updates *u);

/* DeleteTable while an index is CREATING, UPDATING or DELETING:
 * ResourceInUseException "Attempt to change a resource which is still in use:
 * Cannot delete table while indexes are being created, updated, or deleted." */
sl_err sl_indexes_check_delete_table(sl_req *req, const sl_table *t);

#endif
