/* Unit tests of tools/size (`sluice size`): the developer guide's worked
 * examples of item size and units (facts §2.1-2.2), plain JSON's mapping,
 * index entries and their write costs against a table description, and the
 * limit warnings. Linked without LMDB (Makefile LAYERS_tools). */
#include "harness.h"
#include "tools/size.h"

#include <stdlib.h>

static sl_arena A;

static sl_json *parse(const char *text) {
  sl_json *j = NULL;
  sl_json_error e;
  CHECK(sl_json_parse(&A, text, strlen(text), &j, &e) == 0);
  return j;
}

static sl_size_report analyse(const char *item, bool plain, const char *old, const char *table) {
  sl_failure f;
  sl_failure_init(&f, &A);
  sl_item it, o;
  sl_table t;
  CHECK((plain ? sl_size_plain_item(&f, &A, parse(item), &it)
               : sl_size_item(&f, &A, parse(item), &it)) == SL_OK);
  if (old)
    CHECK(sl_size_item(&f, &A, parse(old), &o) == SL_OK);
  if (table)
    CHECK(sl_size_table(&f, &A, parse(table), &t) == SL_OK);
  sl_size_report r;
  sl_size_analyse(&A, &it, old ? &o : NULL, table ? &t : NULL, &r);
  return r;
}

/* facts §2.1: {"shirt-color":"R","shirt-size":"M"} is 23 bytes, the
 * developer guide's example; 1 WCU, 0.5 / 1 / 2 RCU. */
static void test_guide_example(void) {
  sl_size_report r =
      analyse("{\"shirt-color\":{\"S\":\"R\"},\"shirt-size\":{\"S\":\"M\"}}", false, NULL, NULL);
  CHECK_INT(r.bytes, 23);
  CHECK_INT(r.n_attrs, 2);
  CHECK_INT(r.attrs[0].name_bytes, 11);
  CHECK_INT(r.attrs[0].value_bytes, 1);
  CHECK_INT(r.read_mu[0], 500);
  CHECK_INT(r.read_mu[1], 1000);
  CHECK_INT(r.read_mu[2], 2000);
  CHECK_INT(r.write_mu, 1000);
  CHECK_INT(r.txn_write_mu, 2000);
  CHECK_INT(r.n_warnings, 0);
  /* The same in plain JSON, and wrapped as GetItem answers. */
  CHECK_INT(analyse("{\"shirt-color\":\"R\",\"shirt-size\":\"M\"}", true, NULL, NULL).bytes, 23);
  CHECK_INT(analyse("{\"Item\":{\"shirt-color\":{\"S\":\"R\"},\"shirt-size\":{\"S\":\"M\"}}}",
                    false, NULL, NULL)
                .bytes,
            23);
}

/* Lists and maps: 3 bytes plus 1 per element (facts §2.1); numbers about 1
 * byte per two significant digits plus 1; BOOL and NULL 1 byte. */
static void test_nested_and_numbers(void) {
  sl_size_report r =
      analyse("{\"a\":[1,2,{\"b\":\"cc\"}],\"n\":123.45,\"z\":null,\"t\":true}", true, NULL, NULL);
  /* a: L 3 + (2+1) + (2+1) + (M 3 + (1+2+1) + 1) = 17; n: 4; z, t: 1. */
  CHECK_INT(r.bytes, 1 + 17 + 1 + 4 + 1 + 1 + 1 + 1);
  CHECK_INT(r.attrs[0].overhead_bytes, 10);
  CHECK_INT(r.depth, 2);
  CHECK_INT(analyse("{\"e\":{\"L\":[]}}", false, NULL, NULL).bytes, 1 + 3);
}

/* Write units in 1 KB steps, reads in 4 KB steps (facts §2.2): a 1,025-byte
 * item is 2 WCU and 1 RCU; 400 KB is 400 WCU and 100 RCU. */
static void test_steps(void) {
  char *item = malloc(450 * 1024);
  snprintf(item, 64, "{\"p\":{\"S\":\"");
  size_t n = strlen(item);
  memset(item + n, 'x', 1024);
  strcpy(item + n + 1024, "\"}}");
  sl_size_report r = analyse(item, false, NULL, NULL);
  CHECK_INT(r.bytes, 1025);
  CHECK_INT(r.write_mu, 2000);
  CHECK_INT(r.read_mu[1], 1000);
  memset(item + n, 'x', 400 * 1024 - 1);
  strcpy(item + n + 400 * 1024 - 1, "\"}}");
  r = analyse(item, false, NULL, NULL);
  CHECK_INT(r.bytes, 400 * 1024);
  CHECK_INT(r.write_mu, 400000);
  CHECK_INT(r.read_mu[1], 100000);
  CHECK_INT(r.n_warnings, 0);
  /* One byte over: the service's message. */
  memset(item + n, 'x', 400 * 1024);
  strcpy(item + n + 400 * 1024, "\"}}");
  r = analyse(item, false, NULL, NULL);
  CHECK_INT(r.n_warnings, 1);
  CHECK(sl_str_eq_c(r.warnings[0], "Item size has exceeded the maximum allowed size"));
  free(item);
}

static const char table[] =
    "{\"Table\":{\"TableName\":\"Orders\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"status\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"at\",\"AttributeType\":\"N\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"byAt\",\"KeySchema\":["
    "{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"at\",\"KeyType\":"
    "\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byStatus\",\"KeySchema\":["
    "{\"AttributeName\":\"status\",\"KeyType\":\"HASH\"}],"
    "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"total\"]}}]}}";

/* facts §2.2 index writes: a new item in a GSI is 1 write of the entry's
 * size; absent from an index, 0; an update changing the GSI key is a delete
 * plus a put; an LSI's write is charged to the table. */
static void test_indexes(void) {
  sl_size_report r = analyse("{\"pk\":\"a\",\"sk\":1,\"status\":\"NEW\",\"total\":5,\"x\":\"yy\"}",
                             true, NULL, table);
  CHECK_INT(r.n_indexes, 2);
  CHECK(sl_str_eq_c(r.indexes[0].name, "byAt"));
  CHECK(!r.indexes[0].in_index); /* no 'at': sparse */
  CHECK_INT(r.indexes[0].writes, 0);
  CHECK(r.indexes[1].in_index);
  /* entry: pk (2+1) + sk (2+2) + status (6+3) + total (5+2) = 23 bytes */
  CHECK_INT(r.indexes[1].entry_bytes, 23);
  CHECK_INT(r.indexes[1].writes, 1);
  CHECK_INT(r.indexes[1].write_mu, 1000);
  CHECK_INT(r.indexes[1].txn_write_mu, 2000);
  CHECK_INT(r.total_mu, 2000);
  CHECK_INT(r.table_charged_mu, 1000);
  CHECK_INT(r.n_warnings, 0);
  /* An update moving the GSI key and adding the LSI key. */
  r = analyse("{\"pk\":\"a\",\"sk\":1,\"status\":\"PAID\",\"at\":7}", true,
              "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"status\":{\"S\":\"NEW\"}}", table);
  CHECK_INT(r.indexes[0].writes, 1);
  CHECK_INT(r.indexes[1].writes, 2);
  CHECK_INT(r.indexes[1].write_mu, 2000);
  CHECK_INT(r.table_charged_mu, 2000);
  CHECK_INT(r.total_mu, 4000);
}

/* The key checks a PutItem makes, worded as the service words them. */
static void test_key_warnings(void) {
  sl_size_report r = analyse("{\"pk\":\"a\",\"sk\":\"one\"}", true, NULL, table);
  CHECK_INT(r.n_warnings, 1);
  CHECK(sl_str_eq_c(r.warnings[0], "One or more parameter values were invalid: Type mismatch for "
                                   "key sk expected: N actual: S"));
  r = analyse("{\"sk\":1}", true, NULL, table);
  CHECK(sl_str_eq_c(r.warnings[0],
                    "One or more parameter values were invalid: Missing the key pk in the item"));
}

/* Bad input: the service's item rules and messages; a table description
 * that lacks a member names it. */
static void test_bad_input(void) {
  sl_failure f;
  sl_failure_init(&f, &A);
  sl_item it;
  CHECK(sl_size_item(&f, &A, parse("{\"a\":{\"N\":\"x1\"}}"), &it) != SL_OK);
  sl_failure_init(&f, &A);
  CHECK(sl_size_item(&f, &A, parse("{\"a\":\"plain\"}"), &it) != SL_OK);
  CHECK(strstr(f.message.p, "--plain") != NULL);
  sl_failure_init(&f, &A);
  sl_table t;
  CHECK(sl_size_table(&f, &A, parse("{\"Table\":{\"KeySchema\":[]}}"), &t) != SL_OK);
  CHECK(strstr(f.message.p, "AttributeDefinitions") != NULL);
}

int main(void) {
  sl_arena_init(&A);
  RUN(test_guide_example);
  RUN(test_nested_and_numbers);
  RUN(test_steps);
  RUN(test_indexes);
  RUN(test_key_warnings);
  RUN(test_bad_input);
  sl_arena_destroy(&A);
  return DONE();
}
