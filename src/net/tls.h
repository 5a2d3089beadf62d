/*
 * tls.h — TLS for the tools' connections (sluice bench, the HTTP client), a
 * thin layer over OpenSSL.
 *
 * A context verifies the server: its certificate must chain to the system's
 * trusted roots (or to the certificates of 'ca_file' when one is given) and
 * name the host the connection was opened for (SNI is sent with it). TLS 1.2
 * is the minimum. One sl_tls is one connection over a connected socket the
 * caller owns; it works on blocking sockets (the calls block, bounded by the
 * socket's timeouts) and on non-blocking ones (a call that must wait answers
 * SL_TLS_WANT_READ or SL_TLS_WANT_WRITE: poll for that and call it again).
 *
 * Ownership: the caller owns contexts and connections (their _free); freeing
 * a connection does not close its socket. Threads: a context may be shared by
 * the connections of one thread; nothing else is shared.
 */
#ifndef SL_NET_TLS_H
#define SL_NET_TLS_H

#include <stddef.h>
#include <sys/types.h>

typedef struct sl_tls_ctx sl_tls_ctx;
typedef struct sl_tls sl_tls;

enum { SL_TLS_WANT_READ = -1000, SL_TLS_WANT_WRITE = -1001 };

/* A client context. Returns NULL with a message in err. */
sl_tls_ctx *sl_tls_ctx_new(const char *ca_file, char *err, size_t err_cap);
void sl_tls_ctx_free(sl_tls_ctx *ctx);

/* A connection over the connected socket 'fd' to 'host'. */
sl_tls *sl_tls_new(sl_tls_ctx *ctx, int fd, const char *host);
void sl_tls_free(sl_tls *t);

/* The handshake: 0 when done, SL_TLS_WANT_*, or -EPROTO (a failed
 * handshake: sl_tls_last_error says why, e.g. the certificate). */
int sl_tls_handshake(sl_tls *t);
/* Bytes written (> 0), SL_TLS_WANT_*, or a negative errno-style code. */
ssize_t sl_tls_write(sl_tls *t, const void *p, size_t len);
/* Bytes read (> 0), 0 at the end of the stream, SL_TLS_WANT_*, or a
 * negative errno-style code. */
ssize_t sl_tls_read(sl_tls *t, void *p, size_t len);
/* The reason of the last failure on this thread ("" if none). */
const char *sl_tls_last_error(void);

#endif
