/*
 * size.h — `sluice size`: an item's DynamoDB size and what reading and
 * writing it costs, before a table exists or without touching one.
 *
 * Design
 * ------
 * The numbers come from the server's own code, never a copy of its rules:
 * the size of every value from store/item.h (sl_av_size, sl_item_size, facts
 * §2.1), the units from cap/cost.h (facts §2.2), and, given a table's
 * description, the entry the item projects into each index and what a write
 * does to it from store/project.h — the functions the write funnel and
 * ops/write.c price a PutItem with. So `sluice size` equals the server's
 * ConsumedCapacity for the same item and table, which
 * tests/conformance/test_size_tool.py checks on random items.
 *
 * Input: an item in DynamoDB JSON ({"pk":{"S":"a"},...}, or wrapped as
 * {"Item":{...}} the way GetItem answers), or plain JSON with --plain
 * (strings S, numbers N, booleans BOOL, null NULL, arrays L, objects M: what
 * the SDKs' document clients write). Both are checked with the service's
 * item rules and messages (sl_item_from_json). A table description is
 * DescribeTable's reply ({"Table":{...}}), a TableDescription, or a
 * CreateTable request: KeySchema, AttributeDefinitions, LocalSecondaryIndexes
 * and GlobalSecondaryIndexes with their Projection are read.
 *
 * The report (sl_size_report): the size and a per-attribute breakdown (name
 * bytes, value bytes, and the part of the value that is list/map overhead:
 * 3 bytes per container and 1 per element); the read units of GetItem for
 * eventual, strong and transactional reads; the write units of a standard and
 * a transactional write of the table part (with --old, an update from the old
 * image: the larger of the two); per index whether the item lands in it, its
 * entry's size and its write cost (GSIs charge the index, LSIs the table);
 * for an LSI without projection ALL, the read units a Query of it pays per
 * item to fetch unprojected attributes from the table (cap/cost.h's
 * sl_cost_lsi_fetch_mu); and warnings for the limits a PutItem would hit (400 KB, with LSI
 * projections on a table with LSIs; key attribute missing, of the wrong type
 * or too long), worded as the service words its ValidationException.
 *
 * Memory: everything lives in the caller's arena. Threads: any.
 */
#ifndef SL_TOOLS_SIZE_H
#define SL_TOOLS_SIZE_H

#include "base/err.h"
#include "store/project.h"

typedef struct {
  sl_str name;
  const char *type; /* "S", "N", "M", ... */
  size_t name_bytes, value_bytes, overhead_bytes;
} sl_size_attr;

typedef struct {
  sl_str name;
  bool global;
  bool in_index;        /* the new item has an entry */
  size_t entry_bytes;   /* its size (index keys + projected attributes) */
  uint32_t writes;      /* 0, 1 or 2 (a key change: delete + put) */
  int64_t write_mu;     /* standard */
  int64_t txn_write_mu; /* transactional */
  /* an LSI that does not project every attribute: what a Query of it pays
   * per item to fetch this item's unprojected attributes from the table
   * (eventual, strong; -1: none applies) */
  int64_t fetch_mu[2];
} sl_size_index;

#define SL_SIZE_MAX_WARNINGS 8

typedef struct {
  size_t bytes;     /* the item's size */
  size_t old_bytes; /* the old image's (an update), 0 if none */
  uint32_t depth;   /* deepest nesting of lists and maps (0: scalars only) */
  uint32_t n_attrs;
  sl_size_attr *attrs;
  int64_t read_mu[3];   /* sl_cost_read: eventual, strong, transactional */
  int64_t write_mu;     /* the table part, standard */
  int64_t txn_write_mu; /* the table part, transactional */
  bool has_table;
  uint32_t n_indexes;
  sl_size_index *indexes;
  int64_t table_charged_mu; /* what the table is charged: its part + LSIs */
  int64_t total_mu;         /* table + every index */
  int64_t total_txn_mu;
  size_t lsi_bytes; /* item + its LSI entries (the 400 KB rule with LSIs) */
  uint32_t n_warnings;
  sl_str warnings[SL_SIZE_MAX_WARNINGS];
} sl_size_report;

/* Plain JSON (an object) -> item, with the service's item rules. */
sl_err sl_size_plain_item(sl_failure *f, sl_arena *a, const sl_json *j, sl_item *out);
/* DynamoDB JSON, or {"Item":{...}} -> item. */
sl_err sl_size_item(sl_failure *f, sl_arena *a, const sl_json *j, sl_item *out);
/* A table description (see above) -> the schema 't' needs for pricing
 * (keys, attribute types, indexes and projections); a missing or malformed
 * member fails with a message naming it. */
sl_err sl_size_table(sl_failure *f, sl_arena *a, const sl_json *j, sl_table *out);

/* The report for 'item' ('old': the image it replaces, or NULL; 't': the
 * table, or NULL). */
void sl_size_analyse(sl_arena *a, const sl_item *item, const sl_item *old, const sl_table *t,
                     sl_size_report *out);

void sl_size_write_json(sl_jw *w, const sl_size_report *r);
void sl_size_write_text(sl_buf *b, const sl_size_report *r);

#endif
