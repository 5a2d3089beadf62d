/*
 * Pure pricing: the cost rules of facts §2.2 over item sizes; see cost.h.
 * tests/unit/cap/test_cost.c pins the developer guide's worked examples.
 */
#include "cap/cost.h"

#define READ_STEP 4096  /* bytes a read unit covers */
#define WRITE_STEP 1024 /* bytes a write unit covers */

/* Whole steps of 'step' bytes covering 'bytes', at least one. */
static int64_t steps(uint64_t bytes, uint64_t step) {
  uint64_t n = (bytes + step - 1) / step;
  return n < 1 ? 1 : (int64_t)n;
}

/* Milli-units of one 4 KB step read 'how'. */
static int64_t read_step_mu(sl_cost_read how) {
  switch (how) {
  case SL_COST_EVENTUAL:
    return 500;
  case SL_COST_TRANSACTIONAL:
    return 2000;
  case SL_COST_STRONG:
  default:
    return 1000;
  }
}

int64_t sl_cost_read_units_mu(size_t bytes, sl_cost_read how) {
  return steps(bytes, READ_STEP) * read_step_mu(how);
}

int64_t sl_cost_batch_read_mu(const size_t *sizes, size_t n, sl_cost_read how) {
  int64_t mu = 0;
  for (size_t i = 0; i < n; i++)
    mu += sl_cost_read_units_mu(sizes[i], how);
  return mu;
}

int64_t sl_cost_page_mu(const size_t *sizes, size_t n, sl_cost_read how) {
  uint64_t bytes = 0;
  for (size_t i = 0; i < n; i++)
    bytes += sizes[i];
  return steps(bytes, READ_STEP) * read_step_mu(how);
}

int64_t sl_cost_lsi_fetch_mu(size_t base_bytes, sl_cost_read how) {
  return base_bytes ? sl_cost_read_units_mu(base_bytes, how) : 0;
}

int64_t sl_cost_write_units_mu(size_t bytes, bool transactional) {
  return steps(bytes, WRITE_STEP) * (transactional ? 2000 : 1000);
}

int64_t sl_cost_table_write_mu(size_t old_bytes, size_t new_bytes, bool condition_failed,
                               bool transactional) {
  if (condition_failed) {
    /* facts §2.2: the new item's size when an item exists (a delete has
     * none: the existing one's), else 1 unit. */
    if (!old_bytes)
      return sl_cost_write_units_mu(0, transactional);
    return sl_cost_write_units_mu(new_bytes ? new_bytes : old_bytes, transactional);
  }
  return sl_cost_write_units_mu(old_bytes > new_bytes ? old_bytes : new_bytes, transactional);
}

uint32_t sl_cost_index_writes(const sl_cost_index_change *c) {
  if (c->had && c->has)
    return c->key_changed ? 2 : c->changed ? 1 : 0;
  return c->had || c->has ? 1 : 0;
}

int64_t sl_cost_index_write_mu(const sl_cost_index_change *c, bool transactional) {
  if (c->had && c->has) {
    if (c->key_changed)
      return sl_cost_write_units_mu(c->old_size, transactional) +
             sl_cost_write_units_mu(c->new_size, transactional);
    return c->changed ? sl_cost_write_units_mu(c->new_size, transactional) : 0;
  }
  if (c->had)
    return sl_cost_write_units_mu(c->old_size, transactional);
  if (c->has)
    return sl_cost_write_units_mu(c->new_size, transactional);
  return 0;
}
