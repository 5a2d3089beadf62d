/* Unit tests of cap/cost: the read and write cost rules of facts §2.2, with
 * the developer guide's worked examples pinned as numbers (milli-units: 1000
 * = 1 unit). */
#include "harness.h"
#include "cap/cost.h"

#define KB 1024

/* GetItem: one 4 KB step per started 4 KB; a missing item costs the
 * minimum; eventually consistent is half, transactional double. */
static void test_read_item(void) {
  CHECK_INT(sl_cost_read_units_mu(1, SL_COST_STRONG), 1000);
  CHECK_INT(sl_cost_read_units_mu(4 * KB, SL_COST_STRONG), 1000);
  CHECK_INT(sl_cost_read_units_mu(4 * KB + 1, SL_COST_STRONG), 2000);
  CHECK_INT(sl_cost_read_units_mu(4 * KB + 1, SL_COST_EVENTUAL), 1000);
  CHECK_INT(sl_cost_read_units_mu(4 * KB + 1, SL_COST_TRANSACTIONAL), 4000);
  CHECK_INT(sl_cost_read_units_mu(0, SL_COST_STRONG), 1000);
  CHECK_INT(sl_cost_read_units_mu(0, SL_COST_EVENTUAL), 500);
  CHECK_INT(sl_cost_read_units_mu(0, SL_COST_TRANSACTIONAL), 2000);
  CHECK_INT(sl_cost_read_units_mu(400 * KB, SL_COST_STRONG), 100000);
}

/* The developer guide: BatchGetItem of a 1.5 KB and a 6.5 KB item rounds
 * each separately, 4 KB + 8 KB = 12 KB = 3 RCU (not the 2 RCU of 8 KB
 * summed). */
static void test_batch_get(void) {
  size_t sizes[] = {1536, 6656};
  CHECK_INT(sl_cost_batch_read_mu(sizes, 2, SL_COST_STRONG), 3000);
  CHECK_INT(sl_cost_batch_read_mu(sizes, 2, SL_COST_EVENTUAL), 1500);
  CHECK_INT(sl_cost_page_mu(sizes, 2, SL_COST_STRONG), 2000);
  CHECK_INT(sl_cost_batch_read_mu(NULL, 0, SL_COST_STRONG), 0);
}

/* The developer guide: a Query reading 10 items of 40.8 KB in all sums, then
 * rounds once: 44 KB = 11 RCU strongly consistent, 5.5 eventually (per item
 * it would be 20). */
static void test_query_page(void) {
  size_t sizes[10];
  for (int i = 0; i < 9; i++)
    sizes[i] = 4178;
  sizes[9] = 4177; /* 41,779 bytes = 40.8 KB */
  CHECK_INT(sl_cost_page_mu(sizes, 10, SL_COST_STRONG), 11000);
  CHECK_INT(sl_cost_page_mu(sizes, 10, SL_COST_EVENTUAL), 5500);
  CHECK_INT(sl_cost_batch_read_mu(sizes, 10, SL_COST_STRONG), 20000);
}

/* An empty Query or Scan page still costs the minimum: 1 (0.5 eventually). */
static void test_empty_page(void) {
  CHECK_INT(sl_cost_page_mu(NULL, 0, SL_COST_STRONG), 1000);
  CHECK_INT(sl_cost_page_mu(NULL, 0, SL_COST_EVENTUAL), 500);
  size_t zero[] = {0, 0};
  CHECK_INT(sl_cost_page_mu(zero, 2, SL_COST_EVENTUAL), 500);
}

/* An LSI query fetching non-projected attributes pays each base item
 * rounded on its own; no base item, nothing. */
static void test_lsi_fetch(void) {
  CHECK_INT(sl_cost_lsi_fetch_mu(0, SL_COST_STRONG), 0);
  CHECK_INT(sl_cost_lsi_fetch_mu(100, SL_COST_STRONG), 1000);
  CHECK_INT(sl_cost_lsi_fetch_mu(5000, SL_COST_STRONG), 2000);
  CHECK_INT(sl_cost_lsi_fetch_mu(5000, SL_COST_EVENTUAL), 1000);
  /* Two base items of 5,000 bytes on a page of entries of 1 KB in all:
   * 1 for the page, 2 + 2 for the items. */
  size_t entries[] = {512, 512};
  CHECK_INT(sl_cost_page_mu(entries, 2, SL_COST_STRONG) +
                sl_cost_lsi_fetch_mu(5000, SL_COST_STRONG) +
                sl_cost_lsi_fetch_mu(5000, SL_COST_STRONG),
            5000);
}

/* Writes: one unit per started 1 KB, at least one; the developer guide's
 * BatchWriteItem of 500 B and 3.5 KB is 1 + 4 = 5 WCU. */
static void test_write_units(void) {
  CHECK_INT(sl_cost_write_units_mu(0, false), 1000);
  CHECK_INT(sl_cost_write_units_mu(1 * KB, false), 1000);
  CHECK_INT(sl_cost_write_units_mu(1 * KB + 1, false), 2000);
  CHECK_INT(sl_cost_write_units_mu(500, false) + sl_cost_write_units_mu(3584, false), 5000);
  CHECK_INT(sl_cost_write_units_mu(400 * KB, false), 400000);
}

/* PutItem and UpdateItem pay the larger of the old and new item; DeleteItem
 * the deleted item; a write where nothing was pays 1 unit at least. */
static void test_table_write(void) {
  CHECK_INT(sl_cost_table_write_mu(2048, 1000, false, false), 2000);
  CHECK_INT(sl_cost_table_write_mu(1000, 2049, false, false), 3000);
  CHECK_INT(sl_cost_table_write_mu(0, 1500, false, false), 2000);
  CHECK_INT(sl_cost_table_write_mu(3000, 0, false, false), 3000);
  CHECK_INT(sl_cost_table_write_mu(0, 0, false, false), 1000);
}

/* The developer guide: a failed conditional write still consumes: the new
 * item's size when an item existed (1 KB -> 1 WCU, 2 KB -> 2 WCU, however
 * large the old one), else 1 WCU; a failed conditional delete pays the
 * existing item. */
static void test_failed_condition(void) {
  CHECK_INT(sl_cost_table_write_mu(10 * KB, 1 * KB, true, false), 1000);
  CHECK_INT(sl_cost_table_write_mu(10 * KB, 2 * KB, true, false), 2000);
  CHECK_INT(sl_cost_table_write_mu(0, 10 * KB, true, false), 1000);
  CHECK_INT(sl_cost_table_write_mu(3000, 0, true, false), 3000);
  CHECK_INT(sl_cost_table_write_mu(0, 0, true, false), 1000);
  CHECK_INT(sl_cost_table_write_mu(0, 10 * KB, true, true), 2000);
}

/* Index writes: a new entry is 1 put; a key change A -> B is a delete of
 * the old entry plus a put of the new; a removal 1 delete; a change of
 * projected attributes only 1 put; an item outside the index, or an
 * unchanged entry, 0. Each sized by its entry, rounded to 1 KB. */
static void test_index_writes(void) {
  sl_cost_index_change none = {0};
  CHECK_INT(sl_cost_index_writes(&none), 0);
  CHECK_INT(sl_cost_index_write_mu(&none, false), 0);

  sl_cost_index_change put = {.has = true, .new_size = 300};
  CHECK_INT(sl_cost_index_writes(&put), 1);
  CHECK_INT(sl_cost_index_write_mu(&put, false), 1000);

  sl_cost_index_change move = {.had = true,
                               .has = true,
                               .key_changed = true,
                               .changed = true,
                               .old_size = 300,
                               .new_size = 1500};
  CHECK_INT(sl_cost_index_writes(&move), 2);
  CHECK_INT(sl_cost_index_write_mu(&move, false), 3000);

  sl_cost_index_change removal = {.had = true, .old_size = 2100};
  CHECK_INT(sl_cost_index_writes(&removal), 1);
  CHECK_INT(sl_cost_index_write_mu(&removal, false), 3000);

  sl_cost_index_change projected = {
      .had = true, .has = true, .changed = true, .old_size = 100, .new_size = 1100};
  CHECK_INT(sl_cost_index_writes(&projected), 1);
  CHECK_INT(sl_cost_index_write_mu(&projected, false), 2000);

  sl_cost_index_change same = {.had = true, .has = true, .old_size = 900, .new_size = 900};
  CHECK_INT(sl_cost_index_writes(&same), 0);
  CHECK_INT(sl_cost_index_write_mu(&same, false), 0);
}

/* Transactional reads and writes cost double, index writes included. */
static void test_transactional(void) {
  CHECK_INT(sl_cost_read_units_mu(6656, SL_COST_TRANSACTIONAL), 4000);
  CHECK_INT(sl_cost_write_units_mu(1500, true), 4000);
  CHECK_INT(sl_cost_table_write_mu(2048, 1000, false, true), 4000);
  sl_cost_index_change move = {
      .had = true, .has = true, .key_changed = true, .old_size = 300, .new_size = 1500};
  CHECK_INT(sl_cost_index_write_mu(&move, true), 6000);
  sl_cost_index_change put = {.has = true, .new_size = 10};
  CHECK_INT(sl_cost_index_write_mu(&put, true), 2000);
}

int main(void) {
  RUN(test_read_item);
  RUN(test_batch_get);
  RUN(test_query_page);
  RUN(test_empty_page);
  RUN(test_lsi_fetch);
  RUN(test_write_units);
  RUN(test_table_write);
  RUN(test_failed_condition);
  RUN(test_index_writes);
  RUN(test_transactional);
  return DONE();
}
