/* Unit tests of streams/streams.h's codecs: iterators round-trip and refuse
 * anything sluice did not write (a changed byte, a truncation), sequence
 * numbers are written with 21 digits and parsed back, view type names. */
#include "harness.h"
#include "base/crc32.h"
#include "streams/streams.h"

static sl_arena A;

static void test_iterator_roundtrip(void) {
  sl_stream_iter it = {.stream_id = 7,
                       .shard = 3,
                       .pos = 123456789012ULL,
                       .issued_ms = 1796170000000,
                       .reader = 9,
                       .chained = true};
  sl_str s = sl_streams_iter_format(&A, &it);
  sl_stream_iter back;
  CHECK(sl_streams_iter_parse(s, &back));
  CHECK_INT(back.stream_id, 7);
  CHECK_INT(back.shard, 3);
  CHECK_INT(back.pos, 123456789012LL);
  CHECK_INT(back.issued_ms, 1796170000000LL);
  CHECK_INT(back.reader, 9);
  CHECK(back.chained);
}

static void test_iterator_refused(void) {
  sl_stream_iter it = {.stream_id = 1, .shard = 0, .pos = 1, .issued_ms = 5};
  sl_str s = sl_streams_iter_format(&A, &it);
  sl_stream_iter back;
  /* Every truncation, and every single changed byte, is refused. */
  for (size_t n = 0; n < s.len; n++)
    CHECK(!sl_streams_iter_parse(sl_str_make(s.p, n), &back));
  for (size_t i = 0; i < s.len; i++) {
    char *c = (char *)sl_arena_strdup(&A, s).p;
    c[i] = c[i] == '9' ? '8' : '9';
    CHECK(!sl_streams_iter_parse(sl_str_make(c, s.len), &back));
  }
  CHECK(!sl_streams_iter_parse(SL_STR("garbage"), &back));
  /* A leading zero is another text of the same iterator: refused even with its CRC. */
  char body[64], text[80];
  snprintf(body, sizeof(body), "v2|01|0|1|5|1");
  snprintf(text, sizeof(text), "%s|%08x", body, sl_crc32(0, body, strlen(body)));
  CHECK(!sl_streams_iter_parse(sl_str_c(text), &back));
}

static void test_sequence_numbers(void) {
  char out[32];
  sl_streams_seq_format(42, out);
  CHECK(strcmp(out, "000000000000000000042") == 0);
  uint64_t v;
  CHECK(sl_streams_seq_parse(sl_str_c(out), &v));
  CHECK_INT(v, 42);
  CHECK(!sl_streams_seq_parse(SL_STR("12a"), &v));
  CHECK(!sl_streams_seq_parse(SL_STR(""), &v));
  CHECK(!sl_streams_seq_parse(SL_STR("99999999999999999999999"), &v)); /* past 64 bits */
}

static void test_view_names(void) {
  CHECK_INT(sl_stream_view_parse(SL_STR("KEYS_ONLY")), SL_STREAM_KEYS_ONLY);
  CHECK_INT(sl_stream_view_parse(SL_STR("NEW_AND_OLD_IMAGES")), SL_STREAM_NEW_AND_OLD_IMAGES);
  CHECK_INT(sl_stream_view_parse(SL_STR("nope")), -1);
  CHECK(strcmp(sl_stream_view_name(SL_STREAM_OLD_IMAGE), "OLD_IMAGE") == 0);
}

int main(void) {
  sl_arena_init(&A);
  RUN(test_iterator_roundtrip);
  RUN(test_iterator_refused);
  RUN(test_sequence_numbers);
  RUN(test_view_names);
  sl_arena_destroy(&A);
  return DONE();
}
