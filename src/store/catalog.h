/*
 * catalog.h — the set of tables: an in-memory index over sl_table versions,
 * persisted in the LMDB "catalog" database.
 *
 * Design: the catalog maps a table name to its current sl_table. Tables are
 * kept in a sorted array (ListTables needs name order; there are at most a few
 * thousand tables). A control-plane change is made on a clone, written with
 * sl_catalog_save() inside the request's write transaction, and only after the
 * transaction commits installed with sl_catalog_install(), which frees the
 * previous version. An aborted request therefore leaves the catalog exactly as
 * it was.
 *
 * Record format (value of key = table name): a JSON document with a
 * "format":1 member; fields named like DescribeTable's where one exists. JSON
 * keeps the catalog readable with mdb_dump and tolerant of new fields.
 * Item counts and sizes are not persisted: sl_catalog_load recomputes them
 * by walking the items.
 *
 * Ownership: the catalog owns every installed sl_table.
 * Threads: the loop thread only.
 */
#ifndef SL_STORE_CATALOG_H
#define SL_STORE_CATALOG_H

#include "store/schema.h"
#include "store/store.h"

typedef struct sl_catalog sl_catalog;

sl_catalog *sl_catalog_new(void);
void sl_catalog_free(sl_catalog *c);

/* Reads every table record (and recomputes runtime counts). */
sl_err sl_catalog_load(sl_catalog *c, sl_store *st, sl_failure *f);

sl_table *sl_catalog_get(const sl_catalog *c, sl_str name);
size_t sl_catalog_count(const sl_catalog *c);
/* The i-th table in name order. */
sl_table *sl_catalog_at(const sl_catalog *c, size_t i);
/* Index of the first table whose name is > 'name' (bytewise). */
size_t sl_catalog_upper_bound(const sl_catalog *c, sl_str name);

/* The record of 't' (the format above), and a new table read from one (NULL
 * when it does not parse); backups keep a table's definition this way
 * (store/backups.h). */
void sl_catalog_encode(sl_buf *b, const sl_table *t);
sl_table *sl_catalog_decode(sl_str record);

/* Writes the record of 't' in 'txn'. */
sl_err sl_catalog_save(sl_txn *txn, const sl_table *t, sl_failure *f);
/* Deletes the record of 'name' in 'txn'. */
sl_err sl_catalog_erase(sl_txn *txn, sl_str name, sl_failure *f);

/* After commit: makes 't' the current version of its name (freeing the old
 * one), or removes the table. */
void sl_catalog_install(sl_catalog *c, sl_table *t);
void sl_catalog_remove(sl_catalog *c, sl_str name);
/* Removes the table without freeing it: the caller owns it (NULL if none). */
sl_table *sl_catalog_take(sl_catalog *c, sl_str name);

#endif
