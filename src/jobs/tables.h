/*
 * tables.h — the lifecycle of tables and indexes on the capacity clock, and
 * their capacity resources.
 *
 *  - sl_tables_attach_capacity / detach: the capacity engine's resources of a
 *    table and its GSIs (created after a table is committed or loaded,
 *    released when it goes);
 *  - sl_tables_save_layouts / load: the capacity engine's partition layouts
 *    (cap.h) of every table and GSI, saved with --data-dir whenever one
 *    changed (a new resource, a split; the jobs tick, before the streams
 *    tick, so a stream's shards never follow a layout that is not saved) and
 *    restored at start, so partitions, their splits and the ids DynamoDB
 *    Streams' shards follow survive a restart. Key "pl" | u32 BE resource id
 *    (table or GSI id) of the store's "meta" database, deleted with its table
 *    or index; value (integers little-endian):
 *      0  u8   format (1), 3 bytes 0
 *      4  u32  the next partition id
 *      8  u64  the layout's epoch
 *     16  u32  partitions n, then n times, in key order:
 *              u64 first hash, u32 id, u32 parent id (0xffffffff: none),
 *              u8 sort key prefix length, the prefix (at most 32 bytes)
 *    A resource without a saved layout (a directory of an earlier sluice)
 *    starts evenly spread with a new epoch;
 *  - sl_tables_drop: a table and all its items and index entries removed in
 *    one write transaction;
 *  - sl_tables_advance: timed state changes due by 'now' (CREATING/UPDATING
 *    -> ACTIVE for tables and indexes, warm throughput UPDATING -> ACTIVE,
 *    which re-configures the resource: capacity-model.md §6-7); a pending
 *    provisioned-throughput change (ops/throughput.h) takes effect, dated,
 *    and re-configures the resource, as its table or index becomes ACTIVE
 *    (until then DescribeTable and the capacity engine have the old units);
 *  - sl_indexes_advance: the end of a GSI deletion (ops/indexes.h starts it):
 *    once its DELETING delay has passed, its entries and catalog entry go in
 *    one transaction, its resource is freed, and the attribute definitions no
 *    key uses any more are pruned, as the service prunes them.
 *
 * Threads: the loop thread.
 */
#ifndef SL_JOBS_TABLES_H
#define SL_JOBS_TABLES_H

#include "jobs/env.h"

void sl_tables_attach_capacity(sl_env *env, sl_table *t);
void sl_tables_detach_capacity(sl_env *env, sl_table *t);
sl_err sl_tables_drop(sl_env *env, sl_table *t, sl_failure *f);
/* Saves the layouts that changed (one write transaction; none in memory). */
sl_err sl_tables_save_layouts(sl_env *env, sl_failure *f);
/* Restores the saved layouts into the resources of the loaded tables. */
sl_err sl_tables_load_layouts(sl_env *env, sl_failure *f);
/* Returns true if anything changed. */
bool sl_tables_advance(sl_env *env, int64_t now_ms);
bool sl_indexes_advance(sl_env *env, int64_t now_ms);

#endif
