/* libFuzzer target for base/num (and base/base64, which shares the input).
 *
 * The whole input is parsed as one number; on success its canonical text must
 * parse back to the same number, its order encoding must decode back to it,
 * and it must compare equal to itself. The input is also split in two (at the
 * first '|', or in the middle) and, when both halves parse, the order
 * encoding must agree with sl_num_cmp and the arithmetic must be exact:
 * (a + b) - b == a, a - b == -(b - a), and a + b moves a in b's direction.
 * The raw bytes are also fed to the order decoder (anything it accepts must
 * re-encode to exactly the bytes it consumed) and to the base64 decoder
 * (anything it accepts must re-encode to the input). Any violation aborts.
 */
#include "base/base64.h"
#include "base/num.h"

#include <stdlib.h>

#define REQUIRE(cond)                                                                              \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      abort();                                                                                     \
  } while (0)

static int sign_of(int v) { return (v > 0) - (v < 0); }

static void check_one(const sl_num *a) {
  char text[SL_NUM_MAX_TEXT];
  size_t len = sl_num_format(a, text);
  REQUIRE(len > 0 && len <= 170);
  REQUIRE(memchr(text, 'e', len) == NULL && memchr(text, 'E', len) == NULL);
  sl_num back;
  REQUIRE(sl_num_parse(sl_str_make(text, len), &back) == SL_NUM_OK);
  REQUIRE(memcmp(&back, a, sizeof(back)) == 0);

  uint8_t enc[SL_NUM_MAX_ORDERED];
  size_t elen = sl_num_encode_ordered(a, enc);
  REQUIRE(elen >= 2 && elen <= 22);
  REQUIRE(sl_num_decode_ordered(enc, elen, &back) == elen);
  REQUIRE(memcmp(&back, a, sizeof(back)) == 0);

  REQUIRE(sl_num_cmp(a, a) == 0);
  size_t size = sl_num_size(a);
  REQUIRE(size >= 1 && size <= 21);

  int64_t v;
  if (sl_num_to_i64(a, &v)) {
    sl_num n;
    sl_num_from_i64(v, &n);
    REQUIRE(memcmp(&n, a, sizeof(n)) == 0);
  }
}

static void check_pair(const sl_num *a, const sl_num *b) {
  uint8_t ea[SL_NUM_MAX_ORDERED], eb[SL_NUM_MAX_ORDERED];
  size_t la = sl_num_encode_ordered(a, ea), lb = sl_num_encode_ordered(b, eb);
  int by_bytes = sl_str_cmp(sl_str_make((const char *)ea, la), sl_str_make((const char *)eb, lb));
  int by_value = sl_num_cmp(a, b);
  REQUIRE(sign_of(by_bytes) == by_value);
  REQUIRE(sl_num_cmp(b, a) == -by_value);

  sl_num sum, back, d1, d2;
  sl_num_status st = sl_num_add(a, b, &sum);
  if (st == SL_NUM_OK) {
    REQUIRE(sl_num_sub(&sum, b, &back) == SL_NUM_OK);
    REQUIRE(memcmp(&back, a, sizeof(back)) == 0);
    int want = sl_num_is_zero(b) ? 0 : b->neg ? -1 : 1;
    REQUIRE(sl_num_cmp(&sum, a) == want);
    check_one(&sum);
  } else {
    REQUIRE(sl_num_is_zero(&sum));
  }
  sl_num_status s1 = sl_num_sub(a, b, &d1), s2 = sl_num_sub(b, a, &d2);
  REQUIRE(s1 == s2);
  if (s1 == SL_NUM_OK) {
    if (!sl_num_is_zero(&d2))
      d2.neg = !d2.neg;
    REQUIRE(memcmp(&d1, &d2, sizeof(d1)) == 0);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sl_str all = sl_str_make((const char *)data, size);
  sl_num a, b;
  if (sl_num_parse(all, &a) == SL_NUM_OK)
    check_one(&a);

  const uint8_t *bar = memchr(data, '|', size);
  size_t cut = bar ? (size_t)(bar - data) : size / 2;
  size_t rest = bar ? cut + 1 : cut;
  if (sl_num_parse(sl_str_make((const char *)data, cut), &a) == SL_NUM_OK &&
      sl_num_parse(sl_str_make((const char *)data + rest, size - rest), &b) == SL_NUM_OK) {
    check_one(&a);
    check_one(&b);
    check_pair(&a, &b);
  }

  sl_num d;
  size_t used = sl_num_decode_ordered(data, size, &d);
  if (used) {
    uint8_t enc[SL_NUM_MAX_ORDERED];
    REQUIRE(sl_num_encode_ordered(&d, enc) == used);
    REQUIRE(memcmp(enc, data, used) == 0);
    check_one(&d);
  }

  if (size <= 4096) {
    static char dec[4096], re[4100];
    size_t bad_at = 0;
    sl_base64_status bst = sl_base64_check(all, &bad_at);
    size_t n = sl_base64_decode(all, dec);
    REQUIRE((bst == SL_BASE64_OK) == (n != (size_t)-1));
    if (bst == SL_BASE64_BAD_CHAR)
      REQUIRE(bad_at < size);
    if (n != (size_t)-1) {
      REQUIRE(n <= sl_base64_decoded_max(size));
      size_t m = sl_base64_encode(dec, n, re);
      REQUIRE(m == size && memcmp(re, data, size) == 0);
    }
  }
  return 0;
}
