/*
 * query.h — Query's core, typed (the JSON side is actions/query.c): the
 * items of one partition key of a table or an index, in sort-key order, one
 * page.
 *
 * The key condition becomes one LMDB key range (store/key.h: a partition's
 * items are contiguous and sorted by their sort-key component), read
 * forwards or backwards by ops/pages.h in the request's read snapshot, after
 * an ExclusiveStartKey is checked against the range ("The provided starting
 * key is outside query boundaries based on provided conditions", "... does
 * not match the range key predicate"). Items are re-checked against the key
 * condition because sort keys longer than their key budget are stored cut
 * (store/key.h): a bound longer than the exact part of the sort field is
 * widened to that part, and runs of entries sharing it are put in their
 * values' order by ops/pages.h.
 *
 * Multi-attribute GSI keys (sl_expr_keycond.n_hash > 0): the range is the
 * partition tuple's field, then the components of the sort-key attributes
 * under equality, then the last condition's bound on the next component;
 * every equality is re-checked too, and a start key is checked against the
 * whole condition.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_QUERY_H
#define SL_OPS_QUERY_H

#include "expr/expr.h"
#include "ops/reads.h"

typedef struct {
  sl_table *t;
  const sl_index *x; /* NULL: the table */
  sl_expr_keycond kc;
  const sl_read_exprs *ex; /* filter, projection, Select */
  bool consistent;
  bool forward;         /* ScanIndexForward */
  int64_t limit;        /* 0: none */
  const sl_item *start; /* ExclusiveStartKey (values parsed), or NULL */
  bool preview;         /* priced, not admitted (ops/pages.h) */
} sl_query_in;

/* Items valid until the request ends. */
sl_err sl_query(sl_req *req, const sl_query_in *in, sl_page_result *out);

#endif
