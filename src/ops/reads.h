/*
 * reads.h — the read-side request members shared by GetItem, Query, Scan,
 * BatchGetItem and TransactGetItems: IndexName, Select, projections
 * (ProjectionExpression / AttributesToGet), filters (FilterExpression /
 * QueryFilter / ScanFilter), and writing a page's reply (Items, Count,
 * ScannedCount, LastEvaluatedKey, ConsumedCapacity: actions/reply.h).
 *
 * The expression language itself is src/expr/; this module turns a request's
 * members into expr calls and page options, so that each action stays a
 * straight line.
 */
#ifndef SL_OPS_READS_H
#define SL_OPS_READS_H

#include "ops/pages.h"

typedef enum { SL_READS_GET, SL_READS_QUERY, SL_READS_SCAN } sl_reads_kind;

typedef enum {
  SL_SELECT_ALL_ATTRIBUTES = 0,
  SL_SELECT_ALL_PROJECTED_ATTRIBUTES,
  SL_SELECT_SPECIFIC_ATTRIBUTES,
  SL_SELECT_COUNT,
} sl_select;

typedef struct {
  sl_select select;
  void *projection; /* expr's projection, or NULL: whole items */
  void *filter;     /* expr's condition, or NULL */
  void *ctx;        /* expr's resolved names/values */
  bool fetch_base;  /* LSI read of non-projected attributes */
} sl_read_exprs;

/* The IndexName member: NULL when absent; the service's error when the
 * table has no such index. */
sl_err sl_reads_index(sl_req *req, const sl_table *t, const sl_index **out);
/* Parses Select, projection and filter members (expression or legacy) and
 * checks their combinations, before the table is looked up (the service
 * validates a request whole before it looks for its table): 'indexed' says
 * whether the request names an index (IndexName present). */
sl_err sl_reads_parse(sl_req *req, bool indexed, sl_reads_kind kind, sl_read_exprs *out);
/* The same for the members of another object (a BatchGetItem table entry, a
 * TransactGetItems Get). */
sl_err sl_reads_parse_of(sl_req *req, const sl_json *obj, bool indexed, sl_reads_kind kind,
                         sl_read_exprs *out);
/* Once the table and index are known ('x' NULL for the table): the checks
 * that need the key schema (a projected path into a key attribute is an
 * error) and the index's projection (Select ALL_ATTRIBUTES on a GSI that
 * does not project all; an LSI read of attributes outside its projection
 * fetches the base item). */
sl_err sl_reads_bind(sl_req *req, const sl_table *t, const sl_index *x, sl_read_exprs *ex);
/* Fills the filter, count and fetch options of a page. */
void sl_reads_page_opts(sl_read_exprs *ex, sl_page_opts *o);
/* Applies the projection (if any) to an item. */
sl_item sl_reads_project(sl_req *req, const sl_read_exprs *ex, const sl_item *it);

#endif
