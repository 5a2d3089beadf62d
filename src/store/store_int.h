/*
 * store_int.h — what the store's files share and nobody else sees: the
 * change-capture hook kept on the environment (store/items.h).
 */
#ifndef SL_STORE_STORE_INT_H
#define SL_STORE_STORE_INT_H

#include "store/items.h"

typedef struct {
  sl_store_capture_fn fn;
  void *ctx;
} sl__store_capture_hook;

sl__store_capture_hook *sl__store_capture(sl_store *st);
sl_store *sl__store_of(sl_txn *txn);

#endif
