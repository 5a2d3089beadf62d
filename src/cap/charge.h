/*
 * charge.h — building capacity charges (cap/cap.h sl_cap_charge) from key
 * values: the one place that turns a partition key and a sort key into the
 * hash and encoded sort component the engine places a charge by, and keeps
 * the key values with the charge so that metrics, Contributor Insights and
 * throttle events can name the key without looking for it again.
 *
 * 'index' selects the sort-key budget of an index entry rather than of a
 * table item (store/key.h), which is how the engine's partitions of a GSI
 * are keyed. The encoded sort component is allocated in 'a' (when there is a
 * sort key); the key values are borrowed and must outlive the charge.
 *
 * Threads: none; pure functions over the arena.
 */
#ifndef SL_CAP_CHARGE_H
#define SL_CAP_CHARGE_H

#include "cap/cap.h"
#include "store/item.h"
#include "store/items.h"

sl_cap_charge sl_cap_charge_key(sl_arena *a, sl_cap_res *res, sl_cap_dir dir, const sl_av *pk,
                                const sl_av *sk, bool index, int64_t cost_mu);
/* The charge of an index entry's key, whose partition and sort keys may be
 * tuples (multi-attribute GSI keys, store/key.h): placed by the tuple's hash
 * and encoded sort tuple; a tuple's printable key (Contributor Insights,
 * throttle events) is its values' texts in KeySchema order, "[A, 1]".
 * 'ik' NULL or without values: a charge placed by nothing (hash 0). */
sl_cap_charge sl_cap_charge_index(sl_arena *a, sl_cap_res *res, sl_cap_dir dir,
                                  const sl_keyvals *ik, int64_t cost_mu);

/* The printable text of a key value: S and N as themselves, B as base64
 * (how a request spells it); allocated in 'a' for B. */
sl_str sl_cap_key_text(sl_arena *a, const sl_av *v);

#endif
