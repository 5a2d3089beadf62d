/* libFuzzer target for streams/streams.h's parsers of client bytes: a
 * ShardIterator (GetRecords) and a SequenceNumber (GetShardIterator).
 *
 * Whatever the input, parsing must not crash; an iterator it accepts must
 * format back to exactly the input (one text per iterator, so a changed byte
 * is always refused), and a sequence number it accepts must format back to
 * the same number. Any violation aborts.
 */
#include "streams/streams.h"

#include <stdlib.h>

#define REQUIRE(cond)                                                                              \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      abort();                                                                                     \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sl_str in = sl_str_make((const char *)data, size);
  static sl_arena a;
  static bool init;
  if (!init) {
    sl_arena_init(&a);
    init = true;
  }
  sl_stream_iter it;
  if (sl_streams_iter_parse(in, &it)) {
    sl_str back = sl_streams_iter_format(&a, &it);
    REQUIRE(sl_str_eq(back, in));
  }
  uint64_t seq;
  if (sl_streams_seq_parse(in, &seq)) {
    char text[32];
    sl_streams_seq_format(seq, text);
    uint64_t again;
    REQUIRE(sl_streams_seq_parse(sl_str_c(text), &again) && again == seq);
  }
  sl_arena_reset(&a);
  return 0;
}
