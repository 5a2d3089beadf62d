/*
 * get_item.h — GetItem's core: one item by its full key, typed (the JSON
 * request and reply are actions/get_item.c).
 *
 * read → price → admit: the item is read in the request's snapshot
 * (sl_req_snapshot), priced like every single read (facts §2.2: its size
 * rounded up to 4 KB, one unit per 4 KB strongly consistent, half eventually
 * consistent, the minimum for a missing item), admitted on the table's
 * resource at the item's partition, and projected.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_GET_ITEM_H
#define SL_OPS_GET_ITEM_H

#include "ops/reads.h"

typedef struct {
  sl_table *t;
  sl_keyvals kv; /* checked against the table's key schema */
  bool consistent;
  const sl_read_exprs *ex; /* the projection (ops/reads.h) */
  bool preview;            /* priced, not admitted (the cost preview) */
} sl_get_item_in;

typedef struct {
  bool found;
  sl_item item;    /* projected; valid until the request ends */
  int64_t read_mu; /* the table's read units */
  size_t size;     /* the item's size in bytes (0: none) */
} sl_get_item_out;

sl_err sl_get_item(sl_req *req, const sl_get_item_in *in, sl_get_item_out *out);

#endif
