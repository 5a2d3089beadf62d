/*
 * tls.c — TLS connections for the tools over OpenSSL; see tls.h.
 */
#include "net/tls.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[256];

static void remember(const char *what) {
  unsigned long e = ERR_get_error();
  char buf[200] = "";
  if (e)
    ERR_error_string_n(e, buf, sizeof(buf));
  snprintf(last_error, sizeof(last_error), "%s%s%s", what, *buf ? ": " : "", buf);
  ERR_clear_error();
}

const char *sl_tls_last_error(void) { return last_error; }

sl_tls_ctx *sl_tls_ctx_new(const char *ca_file, char *err, size_t err_cap) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  if (!ctx) {
    snprintf(err, err_cap, "TLS: cannot create a context");
    return NULL;
  }
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  int ok = ca_file ? SSL_CTX_load_verify_locations(ctx, ca_file, NULL)
                   : SSL_CTX_set_default_verify_paths(ctx);
  if (ok != 1) {
    remember("TLS: cannot load the trusted certificates");
    snprintf(err, err_cap, "%s%s%s", last_error, ca_file ? " from " : "", ca_file ? ca_file : "");
    SSL_CTX_free(ctx);
    return NULL;
  }
  return (sl_tls_ctx *)ctx;
}

void sl_tls_ctx_free(sl_tls_ctx *ctx) { SSL_CTX_free((SSL_CTX *)ctx); }

sl_tls *sl_tls_new(sl_tls_ctx *ctx, int fd, const char *host) {
  SSL *ssl = SSL_new((SSL_CTX *)ctx);
  if (!ssl)
    return NULL;
  SSL_set_fd(ssl, fd);
  SSL_set_tlsext_host_name(ssl, host);
  /* An IP address is checked against the certificate's IP names, a name
   * against its DNS names. */
  X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
  if (X509_VERIFY_PARAM_set1_ip_asc(param, host) != 1)
    SSL_set1_host(ssl, host);
  SSL_set_connect_state(ssl);
  return (sl_tls *)ssl;
}

void sl_tls_free(sl_tls *t) {
  if (t)
    SSL_free((SSL *)t);
}

/* Maps an OpenSSL result of 'n' to this module's codes. */
static int status_of(SSL *ssl, int n, const char *what) {
  switch (SSL_get_error(ssl, n)) {
  case SSL_ERROR_WANT_READ:
    return SL_TLS_WANT_READ;
  case SSL_ERROR_WANT_WRITE:
    return SL_TLS_WANT_WRITE;
  case SSL_ERROR_ZERO_RETURN:
    return 0;
  case SSL_ERROR_SYSCALL:
    if (errno == EAGAIN || errno == EWOULDBLOCK)
      return -ETIMEDOUT;
    remember(what);
    return errno ? -errno : -ECONNRESET;
  default: {
    long v = SSL_get_verify_result(ssl);
    if (v != X509_V_OK) {
      snprintf(last_error, sizeof(last_error), "%s: certificate: %s", what,
               X509_verify_cert_error_string(v));
      ERR_clear_error();
    } else {
      remember(what);
    }
    return -EPROTO;
  }
  }
}

int sl_tls_handshake(sl_tls *t) {
  SSL *ssl = (SSL *)t;
  int n = SSL_do_handshake(ssl);
  if (n == 1)
    return 0;
  int rc = status_of(ssl, n, "TLS handshake");
  return rc == 0 ? -EPROTO : rc;
}

ssize_t sl_tls_write(sl_tls *t, const void *p, size_t len) {
  SSL *ssl = (SSL *)t;
  int n = SSL_write(ssl, p, len > 1 << 30 ? 1 << 30 : (int)len);
  if (n > 0)
    return n;
  int rc = status_of(ssl, n, "TLS write");
  return rc == 0 ? -ECONNRESET : rc;
}

ssize_t sl_tls_read(sl_tls *t, void *p, size_t len) {
  SSL *ssl = (SSL *)t;
  int n = SSL_read(ssl, p, len > 1 << 30 ? 1 << 30 : (int)len);
  if (n > 0)
    return n;
  return status_of(ssl, n, "TLS read");
}
