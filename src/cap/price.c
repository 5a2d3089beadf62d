/* The price table; see price.h. */
#include "cap/price.h"

#include <string.h>

#define FACTS "dynamodb-facts.md §13 (AWS pricing page, us-east-1)"
#define FACTS_IA                                                                                   \
  "dynamodb-facts.md §13 (Standard-IA: pricing write-ups; not confirmed on the AWS page)"

/* Sorted by region, class, then date. */
static const sl_price rows[] = {
    {SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR("2018-11-28"), SL_STR(FACTS), 1.25, 0.25,
     0.00065, 0.00013},
    {SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR(SL_PRICE_ONDEMAND_CUT), SL_STR(FACTS), 0.625,
     0.125, 0.00065, 0.00013},
    {SL_STR("us-east-1"), SL_PRICE_STANDARD_IA, SL_STR("2021-12-01"), SL_STR(FACTS_IA), 1.5625,
     0.3125, 0.00081, 0.00016},
    {SL_STR("us-east-1"), SL_PRICE_STANDARD_IA, SL_STR(SL_PRICE_ONDEMAND_CUT), SL_STR(FACTS_IA),
     0.78125, 0.15625, 0.00081, 0.00016},
};
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

/* ISO dates compare as strings. */
static int date_cmp(sl_str a, sl_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = memcmp(a.p, b.p, n);
  return c ? c : (a.len > b.len) - (a.len < b.len);
}

const sl_price *sl_price_find(sl_str region, sl_price_class cls, sl_str date) {
  const sl_price *best = NULL;
  for (size_t i = 0; i < N_ROWS; i++) {
    const sl_price *r = &rows[i];
    if (r->table_class != cls || !sl_str_eq(r->region, region))
      continue;
    if (date.len && date_cmp(r->date, date) > 0)
      continue;
    if (!best || date_cmp(r->date, best->date) > 0)
      best = r;
  }
  return best;
}

const sl_price *sl_price_find_or_default(sl_str region, sl_price_class cls, sl_str date,
                                         bool *fell_back) {
  const sl_price *p = sl_price_find(region, cls, date);
  *fell_back = p == NULL;
  return p ? p : sl_price_find(SL_STR("us-east-1"), cls, date);
}

bool sl_price_class_parse(sl_str s, sl_price_class *out) {
  if (sl_str_eq_c(s, "standard") || sl_str_eq_c(s, "STANDARD")) {
    *out = SL_PRICE_STANDARD;
    return true;
  }
  if (sl_str_eq_c(s, "standard-ia") || sl_str_eq_c(s, "STANDARD_INFREQUENT_ACCESS")) {
    *out = SL_PRICE_STANDARD_IA;
    return true;
  }
  return false;
}

const char *sl_price_class_name(sl_price_class c) {
  return c == SL_PRICE_STANDARD_IA ? "STANDARD_INFREQUENT_ACCESS" : "STANDARD";
}

double sl_price_on_demand(const sl_price *p, double read_units, double write_units) {
  return read_units / 1e6 * p->read_per_million + write_units / 1e6 * p->write_per_million;
}

double sl_price_provisioned(const sl_price *p, double rcu_hours, double wcu_hours) {
  return rcu_hours * p->rcu_hour + wcu_hours * p->wcu_hour;
}

double sl_price_dollars(const sl_price *p, double read_units, double write_units, double rcu_hours,
                        double wcu_hours) {
  return sl_price_on_demand(p, read_units, write_units) +
         sl_price_provisioned(p, rcu_hours, wcu_hours);
}

const sl_price *sl_price_rows(size_t *n) {
  *n = N_ROWS;
  return rows;
}
