/*
 * base64.h — standard base64 (RFC 4648 §4, with '=' padding), the encoding of
 * B, BS and binary keys on the DynamoDB wire.
 *
 * Decoding follows the service, which is strict (dynalite's tests, written
 * against it): the input length must be a multiple of 4; only the standard
 * alphabet (A-Z a-z 0-9 + /) and up to two '=' at the very end; no
 * whitespace or line breaks anywhere; the bits that the last non-pad
 * character carries beyond the data must be zero ("YR==" and "+/+=" are
 * rejected, "YQ==" is "a"). The empty string is valid and decodes to zero
 * bytes. The service answers each failure with a SerializationException
 * (HTTP 400) whose message names the value and the reason, which
 * sl_base64_check reports (tests/unit/base/test_base64.c lists the texts).
 *
 * DynamoDB Local is not a guide here: it answers every invalid value with a
 * 500 InternalFailure, and it accepts non-zero trailing bits ("ab==" stores
 * as "aQ=="), whitespace between 4-character groups (" YQ==", "YQ==\n") and
 * padding in the middle ("YQ==YQ==" stores as "YWE=").
 *
 * Ownership: the caller provides every buffer. Threads: pure functions.
 */
#ifndef SL_BASE_BASE64_H
#define SL_BASE_BASE64_H

#include "base/str.h"

static inline size_t sl_base64_encoded_len(size_t n) { return (n + 2) / 3 * 4; }
static inline size_t sl_base64_decoded_max(size_t n) { return n / 4 * 3; }

/* Encodes 'len' bytes into 'out' (sl_base64_encoded_len(len) bytes); returns
 * the encoded length. */
size_t sl_base64_encode(const void *in, size_t len, char *out);
/* Decodes into 'out' (sl_base64_decoded_max(in.len) bytes); returns the decoded
 * length, or (size_t)-1 if 'in' is not valid base64. */
size_t sl_base64_decode(sl_str in, char *out);

/* Why a value is not valid base64, in the order the service checks. */
typedef enum {
  SL_BASE64_OK = 0,
  SL_BASE64_BAD_LENGTH, /* length not a multiple of 4 */
  SL_BASE64_BAD_CHAR,   /* a byte outside the alphabet, or a misplaced '=' */
  SL_BASE64_BAD_LAST,   /* the last non-pad character has non-zero unused bits */
} sl_base64_status;

/* Validates 'in' without decoding. For SL_BASE64_BAD_CHAR '*bad_at' is the
 * offset of the first offending byte (for a multi-byte UTF-8 character, its
 * first byte); otherwise it is left alone. */
sl_base64_status sl_base64_check(sl_str in, size_t *bad_at);

#endif
