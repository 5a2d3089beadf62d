/*
 * redo.h — the redo log of durable mode (store/store.h, "Modes"): what makes
 * a group of writes durable with one short fsync of a contiguous append,
 * instead of an fsync of the LMDB file's pages scattered over the map.
 *
 * Design: the store records every change its write transactions make as
 * an op (a put, a delete, a range delete, a database emptied) in the group
 * being built (sl_redo_op; a write transaction that aborts rewinds to the
 * mark taken at its begin). When a sync begins, the group is written to the
 * log as one record (sl_redo_write: a pwrite, no fsync), numbered one more
 * than the last; the sync that acknowledges the group is the fdatasync of
 * the log file (sl_redo_sync). The LMDB file is written as before (its
 * commits with MDB_NOSYNC) and fsynced only by a checkpoint (store.c), after
 * which the log records it holds are no longer needed.
 *
 * Every op is a blind write: it sets keys to values, or removes them,
 * whatever they held. So replaying, in order, every group after one that
 * the LMDB file is known to hold gives the state the log describes, even on
 * a file that holds some later changes too (each key ends as the last op on
 * it says). The store keeps the number of the last group it committed in
 * the LMDB file (meta "redo"), and at open replays the groups after it.
 *
 * Files: two, "redo.0" and "redo.1" in the data directory, taking turns. A
 * group is appended to the current file; once it is past 'limit' bytes the
 * store fsyncs it, switches (sl_redo_switch: later groups go to the other
 * file from its start) and begins a checkpoint. The other file is switched
 * to only when the checkpoint that followed its last use has ended, so its
 * records are all in the synced LMDB file and may be overwritten. The files
 * are kept written with zeros ahead of their records (at least 256 KB, 1 MB
 * at a time, by the group that comes near the end), so that a group
 * overwrites blocks its file already has, and the fdatasync that
 * acknowledges it writes no change of the file's size (an inode write on
 * top of the data): bench/README.md, "The log written ahead". A zero, like
 * a torn record, ends a file's chain at replay.
 *
 * Record: u32 magic "SLRD", u32 payload length, u64 group number, u32
 * CRC-32 of the number, the length and the payload, u32 0; then the
 * payload, the group's ops, each u8 kind, u8 database, u32 length + bytes
 * of its first operand (the key, or a range's first key), u32 length +
 * bytes of its second (the value, or the range's end). A file's records
 * are read from its start while each is whole, its CRC right and its
 * number one more than the one before: records of an earlier turn beyond
 * (lower numbers) and a torn last write end the file there.
 *
 * Ownership: sl_redo_open's caller owns the log (sl_redo_close). Threads:
 * the loop thread, but for sl_redo_sync (any thread).
 * Pinned by tests/unit/store/test_store.c (test_redo_*).
 */
#ifndef SL_STORE_REDO_H
#define SL_STORE_REDO_H

#include "base/str.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  SL_REDO_PUT = 1,
  SL_REDO_DEL = 2,
  SL_REDO_DEL_RANGE = 3, /* keys in [a, b) */
  SL_REDO_EMPTY = 4,
} sl_redo_kind;

typedef struct sl_redo sl_redo;

/* Opens (creating them when missing) the two files of 'dir'; 0 or an errno. */
int sl_redo_open(const char *dir, uint64_t limit, sl_redo **out);
void sl_redo_close(sl_redo *r);

/* Replays the groups numbered after 'after', in order, calling 'fn' for each
 * op (its slices are valid during the call; a non-zero return stops the
 * replay and is returned). *last becomes the last group replayed ('after'
 * when none). EBADMSG when groups after 'after' are in the files but the
 * next one is not (the log is not whole: refuse to open). Afterwards the
 * log writes to the start of "redo.0", numbering from *last + 1. */
int sl_redo_replay(sl_redo *r, uint64_t after,
                   int (*fn)(void *ctx, sl_redo_kind kind, uint8_t db, sl_str a, sl_str b),
                   void *ctx, uint64_t *last);

/* The group being built. */
void sl_redo_op(sl_redo *r, sl_redo_kind kind, uint8_t db, sl_str a, sl_str b);
size_t sl_redo_mark(const sl_redo *r);
void sl_redo_rewind(sl_redo *r, size_t mark);
/* The number the group being built will have when written. */
uint64_t sl_redo_next(const sl_redo *r);

/* Writes the group built (even empty) as the next record of the current
 * file and starts a new one; 0 or an errno. */
int sl_redo_write(sl_redo *r);
/* The fdatasync of the current file: every group written before the call
 * is durable when it returns 0 (else an errno). */
int sl_redo_sync(sl_redo *r);
/* The current file is past the limit. */
bool sl_redo_full(const sl_redo *r);
/* fsyncs the current file, then makes the other one current, from its
 * start; 0 or an errno (the current file stays). */
int sl_redo_switch(sl_redo *r);

#endif
