/*
 * scan.h — Scan's core, typed (the JSON side is actions/scan.c): one page of
 * a table or an index in hash order.
 *
 * Order and pages (ops/pages.h): items come in partition-key hash order, as
 * the service's do; a parallel scan's segment s of N is the hash range
 * [s * 2^64 / N, (s + 1) * 2^64 / N), so the segments cover every item
 * exactly once. An ExclusiveStartKey outside the segment is the service's
 * ValidationException. Cost: the bytes *read* (not returned) per page,
 * rounded up to 4 KB once.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_SCAN_H
#define SL_OPS_SCAN_H

#include "ops/reads.h"

typedef struct {
  sl_table *t;
  const sl_index *x; /* NULL: the table */
  const sl_read_exprs *ex;
  bool consistent;
  int64_t limit;          /* 0: none */
  int64_t segment, total; /* parallel scan; 0 of 1 when not */
  const sl_item *start;   /* ExclusiveStartKey (values parsed), or NULL */
  bool preview;           /* priced, not admitted (ops/pages.h) */
} sl_scan_in;

/* Items valid until the request ends. */
sl_err sl_scan(sl_req *req, const sl_scan_in *in, sl_page_result *out);

#endif
