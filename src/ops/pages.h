/*
 * pages.h — reading one page of a Query or a Scan, the way DynamoDB does.
 *
 * A page walks one key range of one resource (a table, or an index's
 * entries) in key order, forwards or backwards, starting strictly after an
 * exclusive start key. It stops when:
 *   - Limit items have been *evaluated* (read), before any filter;
 *   - the items read reach 1 MB (the item that reaches it is included), the
 *     service's page size, applied before the filter;
 *   - the range ends.
 * When it stops early the last evaluated item's key becomes
 * LastEvaluatedKey. A filter (FilterExpression) then decides which read items
 * are returned; Count counts returned items, ScannedCount evaluated ones.
 *
 * Cost (facts §2.2): the sizes of all items read are summed and rounded up
 * to 4 KB once per page — filters and projections do not reduce it, an empty
 * page costs the minimum; eventually consistent reads cost half. Admission
 * (capacity-model.md §3): the page is checked against the capacity engine
 * before it is read (a throttled Query returns the exception, never a partial
 * page) and its actual cost is debited after.
 *
 * Index entries hold the projected item; for an LSI read of attributes
 * outside the projection the base item is fetched and each such fetch costs
 * one more read of the base item's size rounded up to 4 KB (facts §2.2).
 */
#ifndef SL_OPS_PAGES_H
#define SL_OPS_PAGES_H

#include "ops/req.h"

#define SL_PAGE_MAX_BYTES (1024 * 1024)

/* Decides whether a read item is returned. Returns SL_OK and sets *keep, or
 * an error recorded on the request (a filter that fails on a request operand). */
typedef sl_err (*sl_page_filter)(sl_req *req, void *ctx, const sl_item *it, bool *keep);

typedef struct {
  sl_table *t;
  const sl_index *x; /* NULL: the table itself */
  bool consistent;
  bool forward;
  int64_t limit;          /* 0: none */
  sl_str lo, hi;          /* LMDB key range [lo, hi) */
  sl_str exclusive_start; /* LMDB key to start strictly after (before, backwards); may be empty */
  sl_page_filter filter;
  void *filter_ctx;
  bool fetch_base; /* LSI: fetch the base item of each entry (non-projected attributes) */
  bool count_only; /* Select COUNT: items are counted, not kept */
  /* Where the page's reads land in the capacity engine: a Query's partition
   * key hash (and the sort key of the first item decides the partition); a
   * Scan is spread over the partitions of the items it reads. */
  bool is_query;
  /* Runs (Query): sort keys longer than their key budget are stored cut
   * (store/key.h), so entries whose keys share their first 'run_at' bytes
   * (the query's partition prefix plus the exact part of the sort field) may
   * be out of order among themselves. Such a run is read whole and handed
   * out in the true order of run_ks's sort-key attributes (then the storage
   * key); a start key inside a run resumes after 'start_item' in that
   * order. run_at 0: key order is used as is (Scan, no sort key). */
  size_t run_at;
  const sl_key_schema *run_ks;
  const sl_item *start_item; /* the ExclusiveStartKey's values, or NULL */
  /* The cost preview (partiql/partiql.h sl_pql_explain): the page is read
   * and priced exactly, but neither checked nor debited. */
  bool preview;
} sl_page_opts;

typedef struct {
  sl_item *items; /* returned items (after the filter), in page order */
  size_t n;
  int64_t scanned;  /* items evaluated */
  bool more;        /* stopped before the end of the range */
  sl_item last;     /* the last evaluated item (LastEvaluatedKey source) when 'more' */
  int64_t table_mu; /* units charged to the table resource (reads of base items too) */
  int64_t index_mu; /* units charged to a GSI / reported for an LSI */
  uint64_t bytes;   /* the sizes of the items read, summed (what the page is priced by) */
} sl_page_result;

/* Reads one page in 'txn' (a read transaction), admitting and pricing it. */
sl_err sl_page_read(sl_req *req, sl_txn *txn, const sl_page_opts *o, sl_page_result *out);

/* Appends to 'dst' the attributes of 'src' that key schema 'k' names (the
 * caller sizes dst->attrs). LastEvaluatedKey is the table's and the index's
 * keys of the last item read. */
void sl_page_copy_key_attrs(sl_item *dst, const sl_item *src, const sl_key_schema *k);

/* Encodes an ExclusiveStartKey (its values already parsed) into the LMDB key
 * to start after, checking it against the resource's key schema with the
 * service's messages. */
sl_err sl_page_start_key(sl_req *req, const sl_table *t, const sl_index *x, const sl_item *esk,
                         sl_buf *out);

#endif
