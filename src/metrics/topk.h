/*
 * topk.h — a bounded top-k of weighted keys: the space-saving algorithm
 * (Metwally, Agrawal, El Abbadi, "Efficient computation of frequent and top-k
 * elements in data streams", 2005), used by Contributor Insights.
 *
 * A sketch keeps at most 'cap' counters. A key already counted adds its
 * weight; a new key takes a free counter, or replaces the counter with the
 * smallest count and inherits that count as its possible overestimate
 * ('error'). Guarantees, for a stream of total weight W: every key whose true
 * weight exceeds W / cap has a counter; a counter's count is at most 'error'
 * above the key's true weight (and never below it). Keys longer than
 * SL_TOPK_KEY_MAX bytes are cut to that length (they then share a counter).
 *
 * Ownership: the sketch owns its counters and key copies (heap); the caller
 * owns the sl_topk and calls sl_topk_free.
 * Threads: none (plain data).
 */
#ifndef SL_METRICS_TOPK_H
#define SL_METRICS_TOPK_H

#include "base/str.h"

#define SL_TOPK_KEY_MAX 512

typedef struct {
  char *key;
  uint32_t len;
  uint32_t hash;
  int64_t count;
  int64_t error;
} sl_topk_entry;

typedef struct {
  sl_topk_entry *e;
  uint32_t n, cap;
  int64_t total; /* weight of everything added */
} sl_topk;

void sl_topk_init(sl_topk *t, uint32_t cap);
void sl_topk_free(sl_topk *t);
void sl_topk_add(sl_topk *t, sl_str key, int64_t weight);
/* The counted keys by count, largest first (ties: shorter key, then bytes),
 * at most 'n', copied into 'out' (keys point into the sketch). Returns how
 * many were written. */
size_t sl_topk_top(const sl_topk *t, sl_topk_entry *out, size_t n);

#endif
