/* Unit tests of store/item.h's binary item encoding (format version 1) and
 * item sizes: every type round-trips, items and sets come out canonical,
 * sizes follow facts §2.1 (the developer guide's 23-byte example), the
 * bytes are those of the format table (tag 0x0C for strings that need no
 * JSON escaping), and a truncated or corrupt value is refused. */
#include "harness.h"
#include "base/json.h"
#include "store/item.h"

static sl_arena A;
static sl_failure F;

/* DynamoDB JSON -> canonical item (as a request's Item is read). */
static sl_item item(const char *text) {
  sl_json *j;
  sl_json_error e;
  sl_item it = {0};
  sl_failure_init(&F, &A);
  if (sl_json_parse(&A, text, strlen(text), &j, &e) != 0 ||
      sl_item_from_json(&F, &A, j, &it) != SL_OK)
    fprintf(stderr, "bad test item: %s (%.*s)\n", text, SL_STR_FMT(F.message));
  return it;
}

static sl_str encode(const sl_item *it) {
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_item_encode(&b, it);
  return sl_buf_str(&b);
}

static const char *to_json(const sl_item *it) {
  sl_buf b;
  sl_jw w;
  sl_buf_init(&b, &A);
  sl_jw_init(&w, &b);
  sl_item_write_json(&w, it);
  sl_buf_putc(&b, 0);
  return b.p;
}

static size_t size_of(const char *text) {
  sl_item it = item(text);
  return sl_item_size(&it);
}

/* Every one of the ten types (and nesting) decodes to an equal item, with
 * the stored size equal to the item's size. */
static void test_round_trip(void) {
  const char *text =
      "{\"s\":{\"S\":\"hi\"},\"n\":{\"N\":\"-12.50\"},\"b\":{\"B\":\"AAEC/w==\"},"
      "\"t\":{\"BOOL\":true},\"f\":{\"BOOL\":false},\"z\":{\"NULL\":true},"
      "\"ss\":{\"SS\":[\"b\",\"a\"]},\"ns\":{\"NS\":[\"10\",\"2\",\"-1\"]},"
      "\"bs\":{\"BS\":[\"AQ==\",\"AA==\"]},"
      "\"l\":{\"L\":[{\"S\":\"x\"},{\"N\":\"1\"},{\"L\":[]},{\"M\":{}},{\"L\":[{\"NULL\":true}]}]},"
      "\"m\":{\"M\":{\"k\":{\"S\":\"v\"},\"a\":{\"M\":{\"deep\":{\"SS\":[\"q\"]}}}}},"
      "\"e\":{\"S\":\"\"},\"q\":{\"S\":\"say \\\"hi\\\"\\n\"}}";
  sl_item it = item(text);
  CHECK_INT(it.n, 13);
  sl_str enc = encode(&it);
  sl_item back;
  size_t stored = 0;
  CHECK(sl_item_decode(&A, enc.p, enc.len, &back, &stored));
  CHECK_INT(stored, sl_item_size(&it));
  CHECK_INT(sl_item_size(&back), sl_item_size(&it));
  CHECK_INT(back.n, it.n);
  for (uint32_t i = 0; i < it.n && i < back.n; i++) {
    CHECK(sl_str_eq(back.attrs[i].name, it.attrs[i].name));
    CHECK(sl_av_eq(&back.attrs[i].v, &it.attrs[i].v));
    CHECK_INT(back.attrs[i].v.type, it.attrs[i].v.type);
  }
  CHECK(strcmp(to_json(&back), to_json(&it)) == 0);
  size_t quick = 0;
  CHECK(sl_item_encoded_size(enc.p, enc.len, &quick));
  CHECK_INT(quick, stored);
  /* Encoding the decoded item gives the same bytes. */
  sl_str again = encode(&back);
  CHECK(again.len == enc.len && memcmp(again.p, enc.p, enc.len) == 0);
}

/* Attributes, map entries and set members come out sorted and unique, N
 * values in canonical text; the same item spelled in two orders encodes to
 * the same bytes. */
static void test_canonical_order(void) {
  sl_item it = item("{\"zeta\":{\"N\":\"1.50\"},\"alpha\":{\"SS\":[\"c\",\"a\",\"b\"]},"
                    "\"Mid\":{\"M\":{\"y\":{\"N\":\"2\"},\"x\":{\"N\":\"1\"}}},"
                    "\"ns\":{\"NS\":[\"10\",\"9\",\"100\"]}}");
  sl_str enc = encode(&it);
  sl_item back;
  CHECK(sl_item_decode(&A, enc.p, enc.len, &back, NULL));
  CHECK_INT(back.n, 4);
  if (back.n == 4) {
    CHECK_STR(back.attrs[0].name, "Mid"); /* bytewise: upper case first */
    CHECK_STR(back.attrs[1].name, "alpha");
    CHECK_STR(back.attrs[2].name, "ns");
    CHECK_STR(back.attrs[3].name, "zeta");
    CHECK_STR(back.attrs[3].v.s, "1.5");
    const sl_av *ss = &back.attrs[1].v;
    CHECK_INT(ss->n, 3);
    if (ss->n == 3) {
      CHECK_STR(ss->set[0], "a");
      CHECK_STR(ss->set[1], "b");
      CHECK_STR(ss->set[2], "c");
    }
    const sl_av *ns = &back.attrs[2].v; /* numeric order, canonical text */
    CHECK_INT(ns->n, 3);
    if (ns->n == 3) {
      CHECK_STR(ns->set[0], "9");
      CHECK_STR(ns->set[1], "10");
      CHECK_STR(ns->set[2], "100");
    }
    const sl_av *m = &back.attrs[0].v;
    CHECK_INT(m->n, 2);
    if (m->n == 2) {
      CHECK_STR(m->map[0].name, "x");
      CHECK_STR(m->map[1].name, "y");
    }
  }
  sl_item other =
      item("{\"ns\":{\"NS\":[\"9\",\"1e2\",\"10\"]},\"alpha\":{\"SS\":[\"b\",\"c\",\"a\"]},"
           "\"zeta\":{\"N\":\"1.5\"},"
           "\"Mid\":{\"M\":{\"x\":{\"N\":\"1.0\"},\"y\":{\"N\":\"2\"}}}}");
  sl_str enc2 = encode(&other);
  CHECK(enc2.len == enc.len && memcmp(enc2.p, enc.p, enc.len) == 0);
  /* Members equal once canonical are duplicates ("10" and "1e1"). */
  sl_json *j;
  sl_json_error e;
  const char *twice = "{\"ns\":{\"NS\":[\"10\",\"1e1\"]}}";
  sl_failure_init(&F, &A);
  CHECK(sl_json_parse(&A, twice, strlen(twice), &j, &e) == 0);
  CHECK(sl_item_from_json(&F, &A, j, &other) == SL_E_VALIDATION);
  /* Duplicate names in JSON: the last one wins, as on the service. */
  sl_item dup = item("{\"a\":{\"S\":\"first\"},\"a\":{\"S\":\"last\"}}");
  CHECK_INT(dup.n, 1);
  if (dup.n == 1)
    CHECK_STR(dup.attrs[0].v.s, "last");
}

/* facts §2.1: names count their UTF-8 bytes; S its UTF-8 bytes, B its
 * decoded bytes, BOOL and NULL 1, sets the sum of their members, L and M 3
 * plus each element's size plus 1; N by sl_num_size (test_num pins it). */
static void test_sizes(void) {
  CHECK_INT(size_of("{\"shirt-color\":{\"S\":\"R\"},\"shirt-size\":{\"S\":\"M\"}}"), 23);
  CHECK_INT(size_of("{\"a\":{\"S\":\"\\u00e9t\\u00e9\"}}"), 1 + 5); /* "été": 5 UTF-8 bytes */
  CHECK_INT(size_of("{\"\\u00e9\":{\"NULL\":true}}"), 2 + 1);
  CHECK_INT(size_of("{\"b\":{\"B\":\"AAEC/w==\"}}"), 1 + 4);
  CHECK_INT(size_of("{\"t\":{\"BOOL\":false}}"), 2);
  CHECK_INT(size_of("{\"n\":{\"N\":\"12345\"}}"), 1 + 4);
  CHECK_INT(size_of("{\"n\":{\"N\":\"0\"}}"), 1 + 1);
  CHECK_INT(size_of("{\"ss\":{\"SS\":[\"ab\",\"c\"]}}"), 2 + 3);
  CHECK_INT(size_of("{\"bs\":{\"BS\":[\"AQ==\",\"AAE=\"]}}"), 2 + 3);
  CHECK_INT(size_of("{\"ns\":{\"NS\":[\"1\",\"100\"]}}"), 2 + 2 + 2);
  CHECK_INT(size_of("{\"l\":{\"L\":[]}}"), 1 + 3);
  CHECK_INT(size_of("{\"m\":{\"M\":{}}}"), 1 + 3);
  CHECK_INT(size_of("{\"l\":{\"L\":[{\"S\":\"ab\"},{\"NULL\":true}]}}"), 1 + 3 + (2 + 1) + (1 + 1));
  CHECK_INT(size_of("{\"m\":{\"M\":{\"a\":{\"S\":\"xy\"}}}}"), 1 + 3 + (1 + 2 + 1));
  CHECK_INT(size_of("{\"m\":{\"M\":{\"a\":{\"L\":[]}}}}"), 1 + 3 + (1 + 3 + 1));
  sl_item empty = {0};
  CHECK_INT(sl_item_size(&empty), 0);
}

/* The bytes of the format table: version, size, count, then per attribute
 * its name and a tagged value. A string that JSON need not escape is tag
 * 0x0C (and decodes as safe); one with a quote, backslash or control byte
 * is tag 0x01. Tags are never renumbered: stored data depends on them. */
static void test_bytes(void) {
  sl_str enc = encode(&(sl_item){0});
  CHECK_INT(enc.len, 3);
  CHECK(enc.len == 3 && memcmp(enc.p, "\x01\x00\x00", 3) == 0);

  sl_item plain = item("{\"a\":{\"S\":\"x\"}}");
  enc = encode(&plain);
  CHECK(enc.len == 8 && memcmp(enc.p,
                               "\x01\x02\x01\x01"
                               "a\x0c\x01"
                               "x",
                               8) == 0);
  sl_item back;
  CHECK(sl_item_decode(&A, enc.p, enc.len, &back, NULL));
  CHECK(back.n == 1 && back.attrs[0].v.safe);

  sl_item quoted = item("{\"a\":{\"S\":\"\\\"\"}}");
  enc = encode(&quoted);
  CHECK(enc.len == 8 && memcmp(enc.p,
                               "\x01\x02\x01\x01"
                               "a\x01\x01\"",
                               8) == 0);
  CHECK(sl_item_decode(&A, enc.p, enc.len, &back, NULL));
  CHECK(back.n == 1 && !back.attrs[0].v.safe);
  sl_item ctrl = item("{\"a\":{\"S\":\"\\n\"}}");
  enc = encode(&ctrl);
  CHECK(enc.len == 8 && (uint8_t)enc.p[5] == 0x01);

  static const struct {
    const char *json;
    uint8_t tag;
  } tags[] = {
      {"{\"a\":{\"N\":\"1\"}}", 0x02},    {"{\"a\":{\"B\":\"AA==\"}}", 0x03},
      {"{\"a\":{\"BOOL\":false}}", 0x04}, {"{\"a\":{\"BOOL\":true}}", 0x05},
      {"{\"a\":{\"NULL\":true}}", 0x06},  {"{\"a\":{\"SS\":[\"x\"]}}", 0x07},
      {"{\"a\":{\"NS\":[\"1\"]}}", 0x08}, {"{\"a\":{\"BS\":[\"AA==\"]}}", 0x09},
      {"{\"a\":{\"L\":[]}}", 0x0A},       {"{\"a\":{\"M\":{}}}", 0x0B},
      {"{\"a\":{\"S\":\"\\\\\"}}", 0x01}, {"{\"a\":{\"S\":\"ok\"}}", 0x0C},
  };
  for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
    sl_item it = item(tags[i].json);
    enc = encode(&it);
    /* 01 | size | 01 | 01 'a' | tag */
    CHECK(enc.len > 5 && (uint8_t)enc.p[5] == tags[i].tag);
  }

  /* Lengths of 128 bytes and more take a second varint byte. */
  char big[300];
  memset(big, 'y', 200);
  big[200] = 0;
  sl_item it = item(sl_arena_printf(&A, "{\"a\":{\"S\":\"%s\"}}", big).p);
  enc = encode(&it);
  /* 01 | size 201 (2 bytes) | 01 | 01 'a' | 0x0C | len 200 (C8 01) | bytes */
  CHECK_INT(enc.len, 1 + 2 + 1 + 2 + 1 + 2 + 200);
  CHECK(enc.len > 9 && (uint8_t)enc.p[6] == 0x0C && (uint8_t)enc.p[7] == 0xC8 &&
        (uint8_t)enc.p[8] == 0x01);
  CHECK(sl_item_decode(&A, enc.p, enc.len, &back, NULL));
  CHECK(back.n == 1 && back.attrs[0].v.s.len == 200);
}

/* Truncated at any byte, with a byte too many, an unknown version or an
 * unknown tag: refused, never misread. */
static void test_corrupt(void) {
  sl_item it = item("{\"s\":{\"S\":\"hi\"},\"l\":{\"L\":[{\"M\":{\"k\":{\"NS\":[\"1\",\"2\"]}}}]},"
                    "\"b\":{\"BOOL\":true}}");
  sl_str enc = encode(&it);
  sl_item back;
  int accepted = 0;
  for (size_t len = 0; len < enc.len; len++)
    accepted += sl_item_decode(&A, enc.p, len, &back, NULL);
  CHECK_INT(accepted, 0);
  char *longer = sl_arena_alloc(&A, enc.len + 1);
  memcpy(longer, enc.p, enc.len);
  longer[enc.len] = 0;
  CHECK(!sl_item_decode(&A, longer, enc.len + 1, &back, NULL));
  char *copy = sl_arena_alloc(&A, enc.len);
  memcpy(copy, enc.p, enc.len);
  copy[0] = 2; /* a version this build does not know */
  CHECK(!sl_item_decode(&A, copy, enc.len, &back, NULL));
  size_t size;
  CHECK(!sl_item_encoded_size(copy, enc.len, &size));
  sl_item one = item("{\"a\":{\"NULL\":true}}");
  sl_str e1 = encode(&one);
  copy = sl_arena_alloc(&A, e1.len);
  memcpy(copy, e1.p, e1.len);
  for (int tag = 0; tag < 256; tag++) {
    copy[5] = (char)tag;
    bool ok = sl_item_decode(&A, copy, e1.len, &back, NULL);
    /* Only the tags without payload decode from a 6-byte value. */
    CHECK(ok == (tag == 0x04 || tag == 0x05 || tag == 0x06));
  }
}

int main(void) {
  sl_arena_init(&A);
  RUN(test_round_trip);
  RUN(test_canonical_order);
  RUN(test_sizes);
  RUN(test_bytes);
  RUN(test_corrupt);
  sl_arena_destroy(&A);
  return DONE();
}
