/*
 * reads.h — the read-side options shared by GetItem, Query, Scan,
 * BatchGetItem and TransactGetItems: the index read, Select, the compiled
 * projection and filter (actions/exprs.h reads them from the request), bound
 * to the table and index they read and turned into page options.
 *
 * The expression language itself is src/expr/.
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

/* The index a request names ('name' NULL when IndexName is absent: 'out'
 * NULL); the service's error when the table has no such index or it is
 * still backfilling. */
sl_err sl_reads_index(sl_req *req, const sl_table *t, sl_str name, const sl_index **out);
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
