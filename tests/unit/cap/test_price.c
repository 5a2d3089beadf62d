/* Unit tests of cap/price: the shared price table of sluice simulate and
 * sluice bench (rows by region, table class and date; the arithmetic). */
#include "harness.h"
#include "cap/price.h"

#include <math.h>

#define NEAR(a, b) CHECK(fabs((a) - (b)) < 1e-12)

/* us-east-1 Standard: today's on-demand prices are the 2024-11-01 cut;
 * a day before it gives the old ones, which seed 003's bill matches:
 * 672,116 writes and 540,000 read units = $0.975. */
static void test_standard(void) {
  const sl_price *now = sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR_NULL);
  CHECK(now != NULL);
  CHECK_STR(now->date, "2024-11-01");
  NEAR(now->write_per_million, 0.625);
  NEAR(now->read_per_million, 0.125);
  NEAR(now->wcu_hour, 0.00065);
  NEAR(now->rcu_hour, 0.00013);
  CHECK(sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR("2024-11-01")) == now);
  CHECK(sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR("2030-01-01")) == now);
  const sl_price *old = sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR("2024-10-31"));
  CHECK(old != NULL && old != now);
  NEAR(old->write_per_million, 1.25);
  NEAR(old->read_per_million, 0.25);
  CHECK(fabs(sl_price_on_demand(old, 540000, 672116) - 0.975145) < 1e-6);
  NEAR(sl_price_on_demand(now, 1e6, 1e6), 0.75);
  /* Before on-demand existed: no row. */
  CHECK(sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR("2017-01-01")) == NULL);
}

/* Standard-IA costs more per request and per unit-hour. */
static void test_standard_ia(void) {
  const sl_price *s = sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR_NULL);
  const sl_price *ia = sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD_IA, SL_STR_NULL);
  CHECK(ia != NULL && ia->table_class == SL_PRICE_STANDARD_IA);
  NEAR(ia->write_per_million, s->write_per_million * 1.25);
  NEAR(ia->read_per_million, s->read_per_million * 1.25);
  CHECK(ia->wcu_hour > s->wcu_hour && ia->rcu_hour > s->rcu_hour);
  CHECK(ia->source.len > 0);
}

/* A region without rows has none, and the default names the fallback. */
static void test_regions(void) {
  CHECK(sl_price_find(SL_STR("eu-west-1"), SL_PRICE_STANDARD, SL_STR_NULL) == NULL);
  bool fell = false;
  const sl_price *p =
      sl_price_find_or_default(SL_STR("eu-west-1"), SL_PRICE_STANDARD, SL_STR_NULL, &fell);
  CHECK(fell && p != NULL);
  CHECK_STR(p->region, "us-east-1");
  p = sl_price_find_or_default(SL_STR("us-east-1"), SL_PRICE_STANDARD_IA, SL_STR_NULL, &fell);
  CHECK(!fell && p->table_class == SL_PRICE_STANDARD_IA);
  size_t n;
  const sl_price *rows = sl_price_rows(&n);
  CHECK(n >= 4);
  for (size_t i = 0; i < n; i++)
    CHECK(rows[i].date.len == 10 && rows[i].source.len > 0);
}

static void test_arithmetic_and_names(void) {
  const sl_price *p = sl_price_find(SL_STR("us-east-1"), SL_PRICE_STANDARD, SL_STR_NULL);
  NEAR(sl_price_provisioned(p, 10, 5), 10 * 0.00013 + 5 * 0.00065);
  NEAR(sl_price_dollars(p, 2e6, 1e6, 10, 5), 0.25 + 0.625 + 10 * 0.00013 + 5 * 0.00065);
  sl_price_class c;
  CHECK(sl_price_class_parse(SL_STR("standard-ia"), &c) && c == SL_PRICE_STANDARD_IA);
  CHECK(sl_price_class_parse(SL_STR("STANDARD_INFREQUENT_ACCESS"), &c) &&
        c == SL_PRICE_STANDARD_IA);
  CHECK(sl_price_class_parse(SL_STR("STANDARD"), &c) && c == SL_PRICE_STANDARD);
  CHECK(!sl_price_class_parse(SL_STR("glacier"), &c));
  CHECK(strcmp(sl_price_class_name(SL_PRICE_STANDARD_IA), "STANDARD_INFREQUENT_ACCESS") == 0);
}

int main(void) {
  RUN(test_standard);
  RUN(test_standard_ia);
  RUN(test_regions);
  RUN(test_arithmetic_and_names);
  return DONE();
}
