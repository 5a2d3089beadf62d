/*
 * cost.h — pure pricing: what a read or a write costs, in capacity units,
 * from item sizes alone (../shared/spec/dynamodb-facts.md §2.2; sizes per
 * §2.1, as sl_item_size computes them).
 *
 * Design
 * ------
 * Every rule is a function of sizes in bytes and flags: no request, no
 * LMDB, no arena, no state. The server prices with it, and so can the tools
 * that never open a table (`sluice size`, `explain`, `simulate`). Results
 * are milli-units (1 unit = 1000, so an eventually consistent 0.5 RCU is
 * exact), the unit of the capacity engine's charges (cap.h).
 *
 * The rules:
 *  - read: 1 unit per 4 KB (1 KB = 1024 B) strongly consistent, 0.5
 *    eventually consistent, 2 transactional; at least one 4 KB step, so a
 *    missing item (size 0) and an empty page cost the minimum;
 *  - GetItem, BatchGetItem, TransactGetItems: each item rounded up
 *    separately (sl_cost_read_units_mu per item, or sl_cost_batch_read_mu);
 *  - Query and Scan: the sizes of all items read on a page (evaluated, not
 *    returned: filters and projections do not reduce it) summed, then
 *    rounded up once (sl_cost_page_mu); a GSI is read eventually
 *    consistently. An LSI query that fetches non-projected attributes pays,
 *    besides the index page, each base item rounded up on its own
 *    (sl_cost_lsi_fetch_mu);
 *  - write: 1 unit per 1 KB, 2 transactional, at least one step;
 *  - the table part of a write: the larger of the old and new item
 *    (sl_cost_table_write_mu); a write whose condition failed still costs:
 *    the new item's size when an item existed (a delete: the existing
 *    item's), else 1 unit;
 *  - an index part (sl_cost_index_write_mu): 0, 1 or 2 writes of the index
 *    entry's size, from what the write did to the entry (sl_cost_index_change):
 *    a new entry 1 put, a key change a delete plus a put, a removal 1
 *    delete, a change of projected content 1 put, nothing 0. A GSI's part
 *    is charged to the GSI, an LSI's to its table; a failed condition
 *    writes no index.
 *
 * Threads: any; every function is pure.
 */
#ifndef SL_CAP_COST_H
#define SL_CAP_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a read is made: the price of each 4 KB step. */
typedef enum {
  SL_COST_EVENTUAL = 0,      /* 0.5 unit */
  SL_COST_STRONG = 1,        /* 1 unit */
  SL_COST_TRANSACTIONAL = 2, /* 2 units */
} sl_cost_read;

/* One item of 'bytes' read (0: the item is missing, the minimum). */
int64_t sl_cost_read_units_mu(size_t bytes, sl_cost_read how);
/* 'n' items read one by one (BatchGetItem): each rounded up, then summed. */
int64_t sl_cost_batch_read_mu(const size_t *sizes, size_t n, sl_cost_read how);
/* A page of 'n' items read (Query, Scan): summed, then rounded up once. */
int64_t sl_cost_page_mu(const size_t *sizes, size_t n, sl_cost_read how);
/* The base item an LSI query fetches for non-projected attributes (0: none
 * found, nothing to pay): rounded up on its own, added to the page's cost. */
int64_t sl_cost_lsi_fetch_mu(size_t base_bytes, sl_cost_read how);

/* One write of 'bytes' (at least 1 unit; x2 transactional). */
int64_t sl_cost_write_units_mu(size_t bytes, bool transactional);
/* The table part of a write: 'old_bytes' the item before (0: none),
 * 'new_bytes' after (0: a delete). */
int64_t sl_cost_table_write_mu(size_t old_bytes, size_t new_bytes, bool condition_failed,
                               bool transactional);

/* What one write does to one index's entry for the item (store/items.h's
 * sl_index_change carries the same fields). */
typedef struct {
  bool had;                  /* an entry existed before */
  bool has;                  /* an entry exists after */
  bool key_changed;          /* both exist, under different index keys */
  bool changed;              /* both exist and the entry's content differs */
  size_t old_size, new_size; /* entry sizes (index keys + projection) */
} sl_cost_index_change;

/* How many index writes the change makes: 0, 1 or 2 (delete + put). */
uint32_t sl_cost_index_writes(const sl_cost_index_change *c);
/* Their cost: each write sized by its entry (the delete by the old one). */
int64_t sl_cost_index_write_mu(const sl_cost_index_change *c, bool transactional);

#endif
