/*
 * Control-plane rules of the capacity model: the provisioned decrease budget
 * (spec §5) and the provisioned -> on-demand switch limit (spec §6), as pure
 * functions over a resource's sl_throughput history, and the account's
 * control-plane request rate (spec §7). The messages are the
 * action layer's (actions/update_table.c); the rules live here so that the
 * simulator and the unit tests share them. Days are UTC days of the clock.
 */
#include "cap/cap_int.h"

#define DAY_MS 86400000LL

uint32_t sl_cap_decreases_today(const sl_throughput *tp, int64_t now_ms) {
  return tp->decrease_day == now_ms / DAY_MS ? tp->decreases_today : 0;
}

sl_cap_decrease sl_cap_decrease_allowed(const sl_cap_params *p, const sl_throughput *tp,
                                        int64_t now_ms) {
  sl_cap_decrease d = {0};
  uint32_t today = sl_cap_decreases_today(tp, now_ms);
  d.decreases_today = today;
  d.last_ms = (int64_t)tp->last_decrease_ms;
  int64_t day_end = (now_ms / DAY_MS + 1) * DAY_MS;
  if (today < (uint32_t)p->decreases_free) {
    d.allowed = true;
    d.next_ms = now_ms;
    return d;
  }
  if (today >= (uint32_t)p->decreases_max) {
    d.next_ms = day_end; /* the budget is spent until the next UTC day */
    return d;
  }
  /* After the free ones: one more per interval, provided there was no
   * decrease in the preceding interval. */
  int64_t next = d.last_ms + p->decrease_interval_ms;
  d.allowed = now_ms >= next;
  d.next_ms = next < day_end ? next : day_end;
  return d;
}

void sl_cap_decrease_record(sl_throughput *tp, int64_t now_ms) {
  int64_t day = now_ms / DAY_MS;
  if (tp->decrease_day != day) {
    tp->decrease_day = day;
    tp->decreases_today = 0;
  }
  tp->decreases_today++;
  tp->last_decrease_ms = (uint64_t)now_ms;
}

bool sl_cap_ppr_switch_allowed(const sl_cap_params *p, const sl_throughput *tp, int64_t now_ms,
                               int64_t *next_ms) {
  int64_t n = p->ppr_switches_per_day;
  if (n <= 0) {
    *next_ms = INT64_MAX;
    return false;
  }
  if (n > 4)
    n = 4; /* the history keeps the last four switches */
  /* The oldest of the last n switches must have left the rolling 24 h. */
  uint64_t oldest = tp->ppr_switch_ms[n - 1];
  *next_ms = oldest ? (int64_t)oldest + DAY_MS : now_ms;
  return oldest == 0 || (int64_t)oldest + DAY_MS <= now_ms;
}

void sl_cap_ppr_switch_record(sl_throughput *tp, int64_t now_ms) {
  memmove(&tp->ppr_switch_ms[1], &tp->ppr_switch_ms[0],
          sizeof(tp->ppr_switch_ms) - sizeof(tp->ppr_switch_ms[0]));
  tp->ppr_switch_ms[0] = (uint64_t)now_ms;
  tp->last_ppr_update_ms = (uint64_t)now_ms;
}

/* The account's control-plane request rate (spec §7): one bucket of the
 * engine, in requests (milli-units), created by sl_cap_new. */
bool sl_cap_control_admit(sl_cap *c) {
  if (c->p.unlimited || c->p.control_plane_rate <= 0)
    return true;
  sl__bucket_refill(&c->control, sl_clock_now_us(c->clock));
  if (c->control.level <= 0)
    return false;
  c->control.level -= 1000;
  return true;
}
