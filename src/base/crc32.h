/*
 * crc32.h — CRC-32 (IEEE 802.3, zlib's crc32) of response bodies, for the
 * x-amz-crc32 header every DynamoDB response carries (facts §1.1).
 *
 * zlib's table-driven crc32 costs about 4 instructions a byte, which for a
 * 100-item Query reply was a third of the request. On x86-64 CPUs with
 * PCLMULQDQ (every one since 2010) blocks of 16 bytes are folded with
 * carry-less multiplication (Intel, "Fast CRC Computation for Generic
 * Polynomials Using PCLMULQDQ", 2009), and zlib finishes the tail. The
 * result is bit-identical to zlib's crc32 (pinned by tests/unit/base/test_crc32.c).
 */
#ifndef SL_BASE_CRC32_H
#define SL_BASE_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continues 'crc' (0 to start) over 'len' bytes at 'p', like zlib's crc32. */
uint32_t sl_crc32(uint32_t crc, const void *p, size_t len);

#endif
