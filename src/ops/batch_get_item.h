/*
 * batch_get_item.h — BatchGetItem's core, typed (the JSON side and the
 * request checks are actions/batch_get_item.c).
 *
 * In the request's snapshot, keys in request order: each item is read,
 * priced like a GetItem (its own size rounded up to 4 KB, half when
 * eventually consistent, the minimum when absent: facts §2.2) and admitted
 * on its own (capacity-model.md §3); throttled keys are left unprocessed.
 * Once the items read would exceed 16 MB, that key and every later one are
 * left unprocessed without being charged. Only when every key is throttled
 * does the call fail, with the exception of the first throttle.
 *
 * The response size limit, 16 MB, is counted in stored item sizes (a
 * projection does not change it) and inclusive: DynamoDB Local returns 64
 * items of 262,144 bytes and 63 of 262,145, whatever the projection. (The API
 * reference's example, 52 items of 300 KB, fits no reading of "16 MB";
 * DynamoDB Local returns 54.)
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_BATCH_GET_ITEM_H
#define SL_OPS_BATCH_GET_ITEM_H

#include "ops/reads.h"

#define SL_BATCH_GET_MAX 100
#define SL_BATCH_GET_MAX_BYTES (16u * 1024 * 1024)

typedef struct {
  sl_str given;        /* the RequestItems key: a name or an ARN */
  const sl_json *spec; /* its KeysAndAttributes (the reply echoes members) */
  sl_table *t;
  bool consistent;
  sl_read_exprs ex;
  bool any_unprocessed; /* core */
  sl_consumed consumed; /* core */
} sl_bg_table;

typedef enum { SL_BG_PENDING = 0, SL_BG_READ, SL_BG_UNPROCESSED } sl_bg_state;

typedef struct {
  const sl_json *json; /* the key as sent */
  uint32_t table;
  sl_item key;
  sl_keyvals kv;
  sl_str skey; /* storage key: duplicates across name and ARN */
  /* the core; items valid until the request ends */
  uint8_t state; /* sl_bg_state */
  bool found;
  sl_item item; /* projected, when found and read */
} sl_bg_key;

sl_err sl_batch_get_item(sl_req *req, sl_bg_table *tables, uint32_t n_tables, sl_bg_key *keys,
                         uint32_t n);

#endif
