/* libFuzzer target for net/http's reply-head parser (sl_http_parse_reply_head,
 * which sluice bench reads every endpoint's replies with). Beyond memory
 * safety (the input sits in an exact-size heap copy) it checks: a complete
 * head's length lies inside the input and ends with a line feed; the status
 * is 100..999 and the version 0 or 1; a result other than INCOMPLETE stays
 * the same when more bytes follow; a complete head is INCOMPLETE one byte
 * short of its end. Seeds: tests/fuzz/corpus/http_reply/. */
#include "net/http.h"

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_ASSERT(e)                                                                             \
  do {                                                                                             \
    if (!(e)) {                                                                                    \
      fprintf(stderr, "fuzz_http_reply: %s:%d: %s\n", __FILE__, __LINE__, #e);                     \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *a = malloc(size ? size : 1);
  memcpy(a, data, size);
  sl_http_reply_head h;
  size_t head_len = 0;
  sl_http_status st = sl_http_parse_reply_head(a, size, &h, &head_len);
  FUZZ_ASSERT(st == SL_HTTP_OK || st == SL_HTTP_INCOMPLETE || st == SL_HTTP_BAD);
  if (st == SL_HTTP_OK) {
    FUZZ_ASSERT(head_len >= 14 && head_len <= size && a[head_len - 1] == '\n');
    FUZZ_ASSERT(h.status >= 100 && h.status <= 999);
    FUZZ_ASSERT(h.minor_version == 0 || h.minor_version == 1);
    FUZZ_ASSERT(!(h.chunked && h.content_length >= 0));
    sl_http_reply_head h2;
    size_t len2 = 0;
    FUZZ_ASSERT(sl_http_parse_reply_head(a, head_len - 1, &h2, &len2) == SL_HTTP_INCOMPLETE);
  }
  if (st != SL_HTTP_INCOMPLETE) {
    /* More bytes after the input change nothing. */
    char *b = malloc(size + 4);
    memcpy(b, data, size);
    memcpy(b + size, "\r\n\r\n", 4);
    sl_http_reply_head h3;
    size_t len3 = 0;
    sl_http_status st3 = sl_http_parse_reply_head(b, size + 4, &h3, &len3);
    FUZZ_ASSERT(st3 == st);
    if (st == SL_HTTP_OK)
      FUZZ_ASSERT(len3 == head_len && h3.status == h.status && h3.chunked == h.chunked &&
                  h3.content_length == h.content_length && h3.keep_alive == h.keep_alive);
    free(b);
  }
  free(a);
  return 0;
}
