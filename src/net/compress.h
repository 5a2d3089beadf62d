/*
 * compress.h — HTTP content codings (RFC 9110 §8.4): gzip and deflate, both
 * ways, with zlib.
 *
 * Requests: the server (net/server.c) decodes a body sent with
 * "Content-Encoding: gzip" or "deflate" before the handler sees it. The
 * decoded size is bounded while it streams out of zlib: sl_compress_inflate()
 * stops as soon as the output would pass 'max_out', so a small body that
 * expands to gigabytes (a decompression bomb) costs at most 'max_out' bytes
 * of memory and is refused, never buffered whole. "deflate" is the zlib
 * format (RFC 1950) as the RFC says; a raw deflate stream (RFC 1951, which
 * some clients send under that name) is accepted too. Several gzip members
 * one after another decode as one body (RFC 1952 §2.2). An empty body decodes
 * to an empty body whatever its coding.
 *
 * Responses: sl_compress_accept() reads Accept-Encoding with its q-values
 * (RFC 9110 §12.5.3) and picks gzip or deflate, or identity; the server
 * compresses replies of at least SL_COMPRESS_MIN_BYTES with it.
 *
 * Ownership: the caller owns every buffer; nothing here keeps state between
 * calls. Threads: reentrant.
 */
#ifndef SL_NET_COMPRESS_H
#define SL_NET_COMPRESS_H

#include "base/arena.h"

/* Responses smaller than this are sent as they are: below about a kilobyte
 * the gzip header and the CPU cost outweigh the bytes saved (a GetItem reply
 * of a few hundred bytes shrinks by tens of bytes at best). The service's own
 * threshold is not documented. */
#define SL_COMPRESS_MIN_BYTES 1024

typedef enum {
  SL_CODING_IDENTITY = 0,
  SL_CODING_GZIP,
  SL_CODING_DEFLATE,
  SL_CODING_UNKNOWN, /* a coding sluice does not decode */
} sl_coding;

/* The coding of a Content-Encoding value: empty or "identity" is identity;
 * "gzip", "x-gzip" and "deflate" (case-insensitive) are themselves; anything
 * else, including a list of several codings, is SL_CODING_UNKNOWN. */
sl_coding sl_compress_coding(sl_str content_encoding);

/* The name sent in Content-Encoding for 'c' ("gzip", "deflate"). */
sl_str sl_compress_coding_name(sl_coding c);

typedef enum {
  SL_INFLATE_OK = 0,
  SL_INFLATE_TOO_LARGE = -1, /* the decoded body would exceed max_out */
  SL_INFLATE_CORRUPT = -2,   /* not a valid stream of that coding, or bytes after it */
  SL_INFLATE_TRUNCATED = -3, /* the stream ends before its end marker */
} sl_inflate_status;

/* Decodes in[0..len) of coding 'c' (gzip or deflate) into 'out', which is
 * emptied first. On any status other than OK, out holds no more than max_out
 * bytes and its contents are meaningless. */
sl_inflate_status sl_compress_inflate(sl_coding c, const void *in, size_t len, uint64_t max_out,
                                      sl_buf *out);

/* The coding to answer with, from an Accept-Encoding value: the one of gzip
 * and deflate with the highest non-zero q-value ("*" stands for both when
 * they are not listed; x-gzip counts as gzip); gzip wins a tie. No header, or
 * neither acceptable: identity. */
sl_coding sl_compress_accept(sl_str accept_encoding);

/* Encodes in[0..len) with 'c' (gzip or deflate, zlib format) into 'out',
 * which is emptied first. */
void sl_compress_deflate(sl_coding c, const void *in, size_t len, sl_buf *out);

#endif
