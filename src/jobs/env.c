/* The running state; see env.h. */
#include "jobs/env.h"
#include "base/rng.h"
#include "cap/cap.h"

uint64_t sl_env_random(sl_env *env) { return sl_rng_next(&env->rng); }

int64_t sl_env_index_with_table_ms(sl_env *env, int64_t table_ms) {
  return env->delays_realistic ? table_ms : sl_cap_params_of(env->cap)->index_create_delay_ms;
}

int64_t sl_env_delay_ms(sl_env *env, sl_delay_kind kind) {
  const sl_cap_params *p = sl_cap_params_of(env->cap);
  int64_t instant = 0, lo = 0, hi = 0;
  switch (kind) {
  case SL_DELAY_TABLE_CREATE:
    instant = p->table_create_delay_ms;
    lo = p->realistic_table_create_min_ms;
    hi = p->realistic_table_create_max_ms;
    break;
  case SL_DELAY_TABLE_UPDATE:
    instant = p->table_update_delay_ms;
    lo = p->realistic_table_update_min_ms;
    hi = p->realistic_table_update_max_ms;
    break;
  case SL_DELAY_BILLING_SWITCH:
    instant = p->table_update_delay_ms;
    lo = p->realistic_billing_switch_min_ms;
    hi = p->realistic_billing_switch_max_ms;
    break;
  case SL_DELAY_INDEX_CREATE:
    instant = p->index_create_delay_ms;
    lo = p->realistic_index_create_min_ms;
    hi = p->realistic_index_create_max_ms;
    break;
  case SL_DELAY_INDEX_BACKFILL:
    lo = p->realistic_index_backfill_min_ms;
    hi = p->realistic_index_backfill_max_ms;
    break;
  case SL_DELAY_WARM:
    instant = p->warm_delay_ms;
    lo = p->realistic_warm_min_ms;
    hi = p->realistic_warm_max_ms;
    break;
  }
  if (!env->delays_realistic)
    return instant;
  if (lo < 0)
    lo = 0;
  if (hi < lo)
    hi = lo;
  /* Its own stream: the high bits, uniform over [lo, hi] ms. */
  uint64_t r = sl_rng_next(&env->delay_rng) >> 11;
  return lo + (int64_t)(r % (uint64_t)(hi - lo + 1));
}
