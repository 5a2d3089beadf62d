/*
 * bytes.h — little-endian integers in byte buffers, for the on-disk layouts
 * (store/redo.h, streams/streams.h, ops/txn.c's tokens). Big-endian key
 * parts, which keep LMDB's order, are store/key.h's sl_be64.
 */
#ifndef SL_BASE_BYTES_H
#define SL_BASE_BYTES_H

#include <stdint.h>

static inline void sl_le32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static inline void sl_le64(uint8_t *p, uint64_t v) {
  sl_le32(p, (uint32_t)v);
  sl_le32(p + 4, (uint32_t)(v >> 32));
}
static inline uint16_t sl_rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t sl_rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t sl_rd64(const uint8_t *p) {
  return (uint64_t)sl_rd32(p) | (uint64_t)sl_rd32(p + 4) << 32;
}

#endif
