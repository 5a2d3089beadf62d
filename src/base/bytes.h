/*
 * bytes.h — integers in byte buffers. Little-endian for the on-disk layouts
 * (store/redo.h, streams/streams.h, ops/txn.c's tokens); big-endian for key
 * parts, whose byte order is their numeric order, as LMDB compares keys
 * (store/key.h, the streams' and the tokens' keys).
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

static inline void sl_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}
static inline void sl_be64(uint8_t *p, uint64_t v) {
  sl_be32(p, (uint32_t)(v >> 32));
  sl_be32(p + 4, (uint32_t)v);
}
static inline uint32_t sl_rd32be(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline uint64_t sl_rd64be(const uint8_t *p) {
  return (uint64_t)sl_rd32be(p) << 32 | sl_rd32be(p + 4);
}

#endif
