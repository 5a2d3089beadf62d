/*
 * base64.h — standard base64 (RFC 4648 §4, with '=' padding), the encoding of
 * B, BS and binary keys on the DynamoDB wire.
 *
 * Decoding follows the service: the input length must be a multiple of 4,
 * padding only at the end, characters only from the standard alphabet.
 */
#ifndef SL_BASE_BASE64_H
#define SL_BASE_BASE64_H

#include "base/str.h"

static inline size_t sl_base64_encoded_len(size_t n) { return (n + 2) / 3 * 4; }
static inline size_t sl_base64_decoded_max(size_t n) { return n / 4 * 3; }

/* Encodes 'len' bytes into 'out' (sl_base64_encoded_len(len) bytes). */
size_t sl_base64_encode(const void *in, size_t len, char *out);
/* Decodes into 'out' (sl_base64_decoded_max(in.len) bytes); returns the decoded
 * length, or (size_t)-1 if 'in' is not valid base64. */
size_t sl_base64_decode(sl_str in, char *out);

#endif
