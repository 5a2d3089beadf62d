/* Unit tests of base/crc32: bit-identical to zlib's crc32 for every length
 * and alignment around the folding thresholds, incremental use, and the
 * known check value of "123456789". */
#include "harness.h"
#include "base/crc32.h"

#include <stdlib.h>
#include <zlib.h>

static void test_check_value(void) {
  CHECK_INT(sl_crc32(0, "123456789", 9), 0xCBF43926u);
  CHECK_INT(sl_crc32(0, "", 0), 0);
}

static void test_matches_zlib(void) {
  enum { N = 5000 };
  unsigned char *buf = malloc(N + 16);
  uint64_t r = 88172645463325252ull;
  for (int i = 0; i < N + 16; i++) {
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    buf[i] = (unsigned char)r;
  }
  int bad = 0;
  for (size_t off = 0; off < 16; off++) {
    for (size_t len = 0; len <= 600; len++)
      bad += sl_crc32(0, buf + off, len) != (uint32_t)crc32(0, buf + off, (uInt)len);
    bad += sl_crc32(0, buf + off, N) != (uint32_t)crc32(0, buf + off, N);
  }
  CHECK_INT(bad, 0);
  /* Continuing a CRC gives the CRC of the concatenation. */
  uint32_t a = sl_crc32(0, buf, 1000);
  CHECK_INT(sl_crc32(a, buf + 1000, 3000), (uint32_t)crc32(0, buf, 4000));
  free(buf);
}

int main(void) {
  RUN(test_check_value);
  RUN(test_matches_zlib);
  return DONE();
}
