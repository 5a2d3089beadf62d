/*
 * project.h — what an item is to a table's indexes, as pure functions of the
 * item and the schema: its key values, the entry it projects into an index
 * (or none: a sparse index), and what a write from one image to another does
 * to each index's entry (the facts §2.2 index write costs follow from it,
 * cap/cost.h). No LMDB: the write funnel (store/items.h) writes the entries
 * these functions describe, and the tools (`sluice size`) price an item
 * against a table's description with the same code.
 *
 * Threads: none; results live in the caller's arena or borrow the item.
 */
#ifndef SL_STORE_PROJECT_H
#define SL_STORE_PROJECT_H

#include "store/item.h"
#include "store/key.h"
#include "store/schema.h"

typedef struct {
  const sl_av *hash;
  const sl_av *range; /* NULL when the schema has no sort key */
  /* Every key value, as tuples (store/key.h): filled by sl_item_keyvals;
   * keys built by hand from 'hash' and 'range' leave hashes.n 0, and
   * sl_keyvals_tuples reads them as one-value tuples. */
  sl_key_tuple hashes, ranges;
} sl_keyvals;

/* The key attribute values of 'it' under schema 'k'; false when one is
 * missing or has another type than the schema's (no entry for an index). */
bool sl_item_keyvals(const sl_item *it, const sl_key_schema *k, sl_keyvals *out);
/* The partition and sort tuples of 'kv' (ranges.n 0: no sort key). */
void sl_keyvals_tuples(const sl_keyvals *kv, sl_key_tuple *hashes, sl_key_tuple *ranges);
/* True when two keys of one schema are equal. */
bool sl_keyvals_eq(const sl_keyvals *a, const sl_keyvals *b);

/* The entry 'it' projects into index 'x', or false when the item is not in
 * the index (sparse). */
bool sl_index_project(sl_arena *a, const sl_table *t, const sl_index *x, const sl_item *it,
                      sl_item *out);

/* What a write does to one index: the facts §2 index write costs follow from
 * it (new entry: 1 put; key change: delete + put; removal: 1 delete; a
 * projected attribute change: 1 put; nothing: 0). */
typedef struct {
  bool had;                  /* an entry existed before */
  bool has;                  /* an entry exists after */
  bool key_changed;          /* both exist but under different keys */
  bool changed;              /* both exist and the entry's content differs */
  size_t old_size, new_size; /* entry sizes (index keys + projection) */
  sl_keyvals new_key;        /* index key of the new entry (for partition lookup) */
  sl_keyvals old_key;
} sl_index_change;

/* Fills one sl_index_change per index of 't' (out[i] for t->indexes[i]). */
void sl_store_index_changes(sl_arena *a, const sl_table *t, const sl_item *old, const sl_item *item,
                            sl_index_change *out);

#endif
