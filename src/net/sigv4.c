/*
 * sigv4.c — AWS Signature Version 4 checking and signing; see sigv4.h.
 *
 * One function builds the canonical request for both directions: the check
 * feeds it the request's own headers and its SignedHeaders list, the signer
 * a sorted copy of the headers it signs. Scratch strings of a check live in
 * the failure's arena (the request arena), so a check allocates nothing of
 * its own; the derived signing key is cached per key and scope, so a steady
 * stream of requests costs two SHA-256 hashes and one HMAC each.
 */
#include "net/sigv4.h"

#include "base/log.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ALGORITHM "AWS4-HMAC-SHA256"
#define SKEW_S (15 * 60)
#define EQ_LIT(s, lit) sl_str_eq_nocase((s), SL_STR(lit))

/* ---- primitives ---------------------------------------------------------- */

/* SHA-256 from OpenSSL, fetched once: an implicit fetch (EVP_sha256() in a
 * one-shot call) or OpenSSL's HMAC() costs more than the hashing itself on
 * inputs this small. HMAC is written out over the digest (RFC 2104). */
static EVP_MD *md;
static pthread_once_t md_once = PTHREAD_ONCE_INIT;

static void md_fetch(void) {
  md = EVP_MD_fetch(NULL, "SHA256", NULL);
  if (!md)
    sl_panic("SHA-256 is not available from OpenSSL");
}

/* A digest context for the calling thread's work; 'own' is freed by the caller. */
static EVP_MD_CTX *ctx_new(void) {
  pthread_once(&md_once, md_fetch);
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  if (!c)
    sl_panic("out of memory");
  return c;
}

static void sha256_2(EVP_MD_CTX *c, const void *a, size_t a_len, const void *b, size_t b_len,
                     unsigned char out[32]) {
  unsigned int n = 32;
  if (!EVP_DigestInit_ex(c, md, NULL) || !EVP_DigestUpdate(c, a, a_len) ||
      (b_len && !EVP_DigestUpdate(c, b, b_len)) || !EVP_DigestFinal_ex(c, out, &n))
    sl_panic("SHA-256 failed");
}

static void sha256(EVP_MD_CTX *c, const void *p, size_t len, unsigned char out[32]) {
  sha256_2(c, p, len, NULL, 0, out);
}

static void hmac(EVP_MD_CTX *c, const void *key, size_t key_len, const void *p, size_t len,
                 unsigned char out[32]) {
  unsigned char k[64] = {0}, pad[64], inner[32];
  if (key_len > 64)
    sha256(c, key, key_len, k);
  else
    memcpy(k, key, key_len);
  for (int i = 0; i < 64; i++)
    pad[i] = k[i] ^ 0x36;
  sha256_2(c, pad, 64, p, len, inner);
  for (int i = 0; i < 64; i++)
    pad[i] = k[i] ^ 0x5c;
  sha256_2(c, pad, 64, inner, 32, out);
}

static void hex(const unsigned char *p, size_t len, char *out) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < len; i++) {
    out[2 * i] = digits[p[i] >> 4];
    out[2 * i + 1] = digits[p[i] & 15];
  }
}

static bool unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
}

/* Appends 's' URI-encoded (RFC 3986 unreserved bytes kept, the rest %XX);
 * '/' is kept when 'keep_slash'. */
static void uri_encode(sl_buf *b, sl_str s, bool keep_slash) {
  static const char digits[] = "0123456789ABCDEF";
  if (s.len == 0)
    return; /* b->p may still be NULL: no pointer arithmetic on it */
  sl_buf_reserve(b, s.len * 3);
  char *w = b->p + b->len;
  for (size_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.p[i];
    if (unreserved(c) || (keep_slash && c == '/')) {
      *w++ = (char)c;
    } else {
      *w++ = '%';
      *w++ = digits[c >> 4];
      *w++ = digits[c & 15];
    }
  }
  b->len = (size_t)(w - b->p);
}

static int hexval(unsigned char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if ((c | 32) >= 'a' && (c | 32) <= 'f')
    return (c | 32) - 'a' + 10;
  return -1;
}

/* Appends 's' with its %XX escapes decoded (a '%' not followed by two hex
 * digits stays as it is). */
static void uri_decode(sl_buf *b, sl_str s) {
  if (s.len == 0)
    return; /* b->p may still be NULL: no pointer arithmetic on it */
  sl_buf_reserve(b, s.len);
  char *w = b->p + b->len;
  for (size_t i = 0; i < s.len; i++) {
    int hi, lo;
    if (s.p[i] == '%' && i + 2 < s.len && (hi = hexval((unsigned char)s.p[i + 1])) >= 0 &&
        (lo = hexval((unsigned char)s.p[i + 2])) >= 0) {
      *w++ = (char)(hi << 4 | lo);
      i += 2;
    } else {
      *w++ = s.p[i];
    }
  }
  b->len = (size_t)(w - b->p);
}

/* ---- canonical request --------------------------------------------------- */

/* Appends a header value trimmed, with inner runs of spaces and tabs folded
 * to one space. */
static void put_value(sl_buf *b, sl_str v) {
  size_t i = 0, n = v.len;
  while (i < n && (v.p[i] == ' ' || v.p[i] == '\t'))
    i++;
  while (n > i && (v.p[n - 1] == ' ' || v.p[n - 1] == '\t'))
    n--;
  bool space = false;
  for (; i < n; i++) {
    char c = v.p[i];
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space)
      sl_buf_putc(b, ' ');
    space = false;
    sl_buf_putc(b, c);
  }
}

typedef struct {
  size_t key, key_len, val, val_len; /* offsets into the scratch buffer */
} qpair;

/* Orders two pairs whose bytes are in 'base': by key, then by value. */
static int qpair_cmp(const char *base, const qpair *x, const qpair *y) {
  int c =
      sl_str_cmp(sl_str_make(base + x->key, x->key_len), sl_str_make(base + y->key, y->key_len));
  if (c)
    return c;
  return sl_str_cmp(sl_str_make(base + x->val, x->val_len), sl_str_make(base + y->val, y->val_len));
}

/* Appends the canonical query string: every pair decoded and encoded again,
 * sorted by key, then value; X-Amz-Signature left out when 'presigned'. */
static void put_query(sl_buf *b, sl_str query, bool presigned) {
  if (query.len == 0)
    return;
  enum { MAX_PAIRS = 128 };
  qpair pairs[MAX_PAIRS];
  size_t n = 0;
  sl_buf tmp;
  sl_buf_init(&tmp, b->arena);
  const char *p = query.p, *end = query.p + query.len;
  while (p <= end && n < MAX_PAIRS) {
    const char *amp = memchr(p, '&', (size_t)(end - p));
    const char *e = amp ? amp : end;
    if (e > p) {
      const char *eq = memchr(p, '=', (size_t)(e - p));
      sl_str k = sl_str_make(p, (size_t)((eq ? eq : e) - p));
      sl_str v = eq ? sl_str_make(eq + 1, (size_t)(e - eq - 1)) : sl_str_make(e, 0);
      sl_buf dk, dv;
      sl_buf_init(&dk, b->arena);
      sl_buf_init(&dv, b->arena);
      uri_decode(&dk, k);
      uri_decode(&dv, v);
      if (!(presigned && sl_str_eq_c(sl_buf_str(&dk), "X-Amz-Signature"))) {
        qpair *q = &pairs[n++];
        q->key = tmp.len;
        uri_encode(&tmp, sl_buf_str(&dk), false);
        q->key_len = tmp.len - q->key;
        q->val = tmp.len;
        uri_encode(&tmp, sl_buf_str(&dv), false);
        q->val_len = tmp.len - q->val;
      }
      if (!b->arena) {
        sl_buf_free(&dk);
        sl_buf_free(&dv);
      }
    }
    if (!amp)
      break;
    p = amp + 1;
  }
  /* Insertion sort: a query has a handful of pairs (a presigned URL, six). */
  for (size_t i = 1; i < n; i++) {
    qpair x = pairs[i];
    size_t j = i;
    for (; j > 0 && qpair_cmp(tmp.p, &pairs[j - 1], &x) > 0; j--)
      pairs[j] = pairs[j - 1];
    pairs[j] = x;
  }
  for (size_t i = 0; i < n; i++) {
    if (i)
      sl_buf_putc(b, '&');
    sl_buf_append(b, tmp.p + pairs[i].key, pairs[i].key_len);
    sl_buf_putc(b, '=');
    sl_buf_append(b, tmp.p + pairs[i].val, pairs[i].val_len);
  }
  if (!b->arena)
    sl_buf_free(&tmp);
}

/* Appends the canonical request. 'signed_list' is the SignedHeaders value
 * ("host;x-amz-date"); each named header's values come from 'headers'. */
static void canonical_request(sl_buf *b, sl_str method, sl_str path, sl_str query, bool presigned,
                              const sl_http_header *headers, size_t n_headers, sl_str signed_list,
                              sl_str payload_hash) {
  sl_buf_puts(b, method);
  sl_buf_putc(b, '\n');
  if (path.len == 0)
    sl_buf_putc(b, '/');
  else
    uri_encode(b, path, true);
  sl_buf_putc(b, '\n');
  put_query(b, query, presigned);
  sl_buf_putc(b, '\n');
  const char *p = signed_list.p, *end = signed_list.p + signed_list.len;
  while (p && p < end) {
    const char *semi = memchr(p, ';', (size_t)(end - p));
    sl_str name = sl_str_make(p, (size_t)((semi ? semi : end) - p));
    for (size_t i = 0; i < name.len; i++) {
      char c = name.p[i];
      sl_buf_putc(b, c >= 'A' && c <= 'Z' ? (char)(c + 32) : c);
    }
    sl_buf_putc(b, ':');
    bool first = true;
    for (size_t i = 0; i < n_headers; i++) {
      if (!sl_str_eq_nocase(headers[i].name, name))
        continue;
      if (!first)
        sl_buf_putc(b, ',');
      put_value(b, headers[i].value);
      first = false;
    }
    sl_buf_putc(b, '\n');
    p = semi ? semi + 1 : NULL;
  }
  sl_buf_putc(b, '\n');
  sl_buf_puts(b, signed_list);
  sl_buf_putc(b, '\n');
  sl_buf_puts(b, payload_hash);
}

/* The signature (64 hex digits) of a canonical request. */
static void signature(EVP_MD_CTX *c, const unsigned char signing_key[32], sl_str amz_date,
                      sl_str scope, sl_str canonical, char out[64]) {
  unsigned char h[32];
  sha256(c, canonical.p, canonical.len, h);
  /* The string to sign; its parts are bounded (a date of 16 bytes, a
   * scope of at most 128), so it is assembled by copying. */
  char sts[256];
  size_t n = 0;
  if (scope.len > 128)
    scope.len = 128;
  memcpy(sts, ALGORITHM "\n", sizeof(ALGORITHM));
  n = sizeof(ALGORITHM);
  memcpy(sts + n, amz_date.p, amz_date.len);
  n += amz_date.len;
  sts[n++] = '\n';
  memcpy(sts + n, scope.p, scope.len);
  n += scope.len;
  memcpy(sts + n, "/aws4_request\n", 14);
  n += 14;
  hex(h, 32, sts + n);
  unsigned char mac[32];
  hmac(c, signing_key, 32, sts, n + 64, mac);
  hex(mac, 32, out);
}

/* kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" secret, date), region), service), "aws4_request"). */
static void derive_key(EVP_MD_CTX *c, sl_str secret, sl_str date, sl_str region, sl_str service,
                       unsigned char out[32]) {
  char k0[256];
  size_t n = secret.len + 4 < sizeof(k0) ? secret.len : sizeof(k0) - 4;
  memcpy(k0, "AWS4", 4);
  memcpy(k0 + 4, secret.p, n);
  unsigned char a[32], b[32];
  hmac(c, k0, n + 4, date.p, date.len, a);
  hmac(c, a, 32, region.p, region.len, b);
  hmac(c, b, 32, service.p, service.len, a);
  hmac(c, a, 32, "aws4_request", 12, out);
}

/* ---- dates ----------------------------------------------------------------- */

static bool digits(const char *p, size_t n, int *out) {
  int v = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9')
      return false;
    v = v * 10 + (p[i] - '0');
  }
  *out = v;
  return true;
}

/* "YYYYMMDDTHHMMSSZ" to seconds since the epoch. */
static bool parse_basic(sl_str s, int64_t *out) {
  struct tm tm;
  memset(&tm, 0, sizeof(tm));
  int y, mo, d, h, mi, se;
  if (s.len != 16 || s.p[8] != 'T' || s.p[15] != 'Z' || !digits(s.p, 4, &y) ||
      !digits(s.p + 4, 2, &mo) || !digits(s.p + 6, 2, &d) || !digits(s.p + 9, 2, &h) ||
      !digits(s.p + 11, 2, &mi) || !digits(s.p + 13, 2, &se))
    return false;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
    return false;
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = se;
  *out = (int64_t)timegm(&tm);
  return true;
}

/* An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT", RFC 9110 §5.6.7). */
static bool parse_imf(sl_str s, int64_t *out) {
  static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  int d, y, h, mi, se;
  if (s.len != 29 || s.p[3] != ',' || !digits(s.p + 5, 2, &d) || !digits(s.p + 12, 4, &y) ||
      !digits(s.p + 17, 2, &h) || !digits(s.p + 20, 2, &mi) || !digits(s.p + 23, 2, &se) ||
      memcmp(s.p + 25, " GMT", 4) != 0)
    return false;
  int mo = -1;
  for (int i = 0; i < 12; i++)
    if (memcmp(s.p + 8, months + 3 * i, 3) == 0)
      mo = i;
  if (mo < 0)
    return false;
  struct tm tm;
  memset(&tm, 0, sizeof(tm));
  tm.tm_year = y - 1900;
  tm.tm_mon = mo;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = se;
  *out = (int64_t)timegm(&tm);
  return true;
}

static void format_basic(int64_t t, char out[17]) {
  time_t tt = (time_t)t;
  struct tm tm;
  gmtime_r(&tt, &tm);
  /* Written digit by digit: every field is in range, and this runs on
   * every signed request. */
  int y = (tm.tm_year + 1900) % 10000;
  int v[6] = {y / 100, y % 100, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min};
  char *w = out;
  for (int i = 0; i < 6; i++) {
    if (i == 4)
      *w++ = 'T';
    *w++ = (char)('0' + v[i] / 10 % 10);
    *w++ = (char)('0' + v[i] % 10);
  }
  *w++ = (char)('0' + tm.tm_sec / 10 % 10);
  *w++ = (char)('0' + tm.tm_sec % 10);
  *w++ = 'Z';
  *w = 0;
}

/* ---- configuration ----------------------------------------------------- */

void sl_sigv4_config_init(sl_sigv4_config *c) {
  memset(c, 0, sizeof(*c));
  c->mode = SL_AUTH_ANY;
  c->region = "us-east-1";
  c->loopback = true;
}

void sl_sigv4_config_free(sl_sigv4_config *c) {
  for (size_t i = 0; i < c->n_keys; i++) {
    free(c->keys[i].access_key_id);
    free(c->keys[i].secret);
    free(c->keys[i].session_token);
  }
  free(c->keys);
  free(c->cookie);
  c->keys = NULL;
  c->n_keys = 0;
  c->cookie = NULL;
}

static char *dup_str(const char *p, size_t n) {
  char *s = malloc(n + 1);
  if (!s)
    sl_panic("out of memory");
  memcpy(s, p, n);
  s[n] = 0;
  return s;
}

int sl_sigv4_parse_credentials(sl_sigv4_config *c, const char *text, size_t len, char *err,
                               size_t err_cap) {
  const char *p = text, *end = text + len;
  int line = 0;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    line++;
    sl_str fields[4];
    size_t n = 0;
    const char *q = p;
    for (;;) {
      while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
      if (q == e || *q == '#')
        break;
      const char *s = q;
      while (q < e && *q != ' ' && *q != '\t' && *q != '\r')
        q++;
      if (n == 4) {
        n = 5;
        break;
      }
      fields[n++] = sl_str_make(s, (size_t)(q - s));
    }
    if (n == 1 || n > 3) {
      snprintf(err, err_cap,
               "line %d: expected ACCESS_KEY_ID SECRET [SESSION_TOKEN], found %s fields", line,
               n == 1 ? "1" : "more than 3");
      return -1;
    }
    /* Keys are printable ASCII: a NUL would cut a field short, which the
     * fuzzer found (tests/fuzz/corpus/sigv4/credentials_nul). */
    for (size_t i = 0; i < n && i < 3; i++)
      for (size_t j = 0; j < fields[i].len; j++)
        if ((unsigned char)fields[i].p[j] < 0x21 || (unsigned char)fields[i].p[j] > 0x7e) {
          snprintf(err, err_cap, "line %d: field %zu holds a byte that is not printable ASCII",
                   line, i + 1);
          return -1;
        }
    if (n >= 2) {
      sl_sigv4_key *k = realloc(c->keys, (c->n_keys + 1) * sizeof(*k));
      if (!k)
        sl_panic("out of memory");
      c->keys = k;
      k = &c->keys[c->n_keys++];
      memset(k, 0, sizeof(*k));
      k->access_key_id = dup_str(fields[0].p, fields[0].len);
      k->secret = dup_str(fields[1].p, fields[1].len);
      k->session_token = n == 3 ? dup_str(fields[2].p, fields[2].len) : NULL;
    }
    p = nl ? nl + 1 : end;
  }
  return 0;
}

int sl_sigv4_load_credentials(sl_sigv4_config *c, const char *path, char *err, size_t err_cap) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, err_cap, "cannot open credentials file '%s'", path);
    return -1;
  }
  sl_buf b;
  sl_buf_init(&b, NULL);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    sl_buf_append(&b, chunk, n);
  fclose(f);
  int rc = sl_sigv4_parse_credentials(c, b.p, b.len, err, err_cap);
  sl_buf_free(&b);
  if (rc == 0 && c->n_keys == 0) {
    snprintf(err, err_cap, "credentials file '%s' holds no key", path);
    rc = -1;
  }
  return rc;
}

void sl_sigv4_set_admin_token(sl_sigv4_config *c, const char *token) {
  c->admin_token = token;
  free(c->cookie);
  size_t n = strlen(token) + 64;
  c->cookie = malloc(n);
  if (!c->cookie)
    sl_panic("out of memory");
  snprintf(c->cookie, n, "sluice_admin=%s; Path=/; HttpOnly; SameSite=Strict", token);
}

bool sl_sigv4_is_loopback(const char *bind) {
  return strncmp(bind, "127.", 4) == 0 || strcmp(bind, "::1") == 0 ||
         strcmp(bind, "localhost") == 0;
}

sl_str sl_sigv4_service_for_target(sl_str target) {
  if (sl_str_starts_with(target, SL_STR("DynamoDB_20120810.")) ||
      sl_str_starts_with(target, SL_STR("DynamoDBStreams_20120810.")))
    return SL_STR("dynamodb");
  if (sl_str_starts_with(target, SL_STR("AnyScaleFrontendService.")))
    return SL_STR("application-autoscaling");
  return SL_STR_NULL;
}

/* ---- parsing -------------------------------------------------------------- */

void sl_sigv4_parse_authorization(sl_str h, sl_sigv4_auth *out) {
  memset(out, 0, sizeof(*out));
  const char *p = h.p, *end = h.p + h.len;
  while (p < end && *p == ' ')
    p++;
  const char *a = p;
  while (p < end && *p != ' ')
    p++;
  out->algorithm = sl_str_make(a, (size_t)(p - a));
  /* The rest splits at commas and spaces into key=value elements. */
  while (p < end) {
    while (p < end && (*p == ',' || *p == ' '))
      p++;
    if (p == end)
      break;
    const char *s = p;
    while (p < end && *p != ',' && *p != ' ')
      p++;
    sl_str elem = sl_str_make(s, (size_t)(p - s));
    const char *eq = memchr(elem.p, '=', elem.len);
    if (!eq) {
      if (!out->bad_pair.p)
        out->bad_pair = elem;
      continue;
    }
    sl_str key = sl_str_make(elem.p, (size_t)(eq - elem.p));
    sl_str val = sl_str_make(eq + 1, (size_t)(elem.p + elem.len - eq - 1));
    if (sl_str_eq_c(key, "Credential"))
      out->credential = val;
    else if (sl_str_eq_c(key, "SignedHeaders"))
      out->signed_headers = val;
    else if (sl_str_eq_c(key, "Signature"))
      out->signature = val;
  }
}

bool sl_sigv4_parse_scope(sl_str cred, sl_sigv4_scope *out) {
  while (cred.len && cred.p[cred.len - 1] == '/')
    cred.len--;
  sl_str parts[5];
  size_t n = 0;
  const char *p = cred.p, *end = cred.p + cred.len;
  if (cred.len == 0)
    return false;
  for (;;) {
    const char *slash = memchr(p, '/', (size_t)(end - p));
    if (n == 5)
      return false;
    parts[n++] = sl_str_make(p, (size_t)((slash ? slash : end) - p));
    if (!slash)
      break;
    p = slash + 1;
  }
  if (n != 5)
    return false;
  out->key_id = parts[0];
  out->date = parts[1];
  out->region = parts[2];
  out->service = parts[3];
  out->terminator = parts[4];
  return true;
}

/* ---- checking ------------------------------------------------------------- */

/* The value of query parameter 'name', decoded into the arena; NULL slice
 * when absent. */
static sl_str query_param(sl_arena *a, sl_str query, const char *name) {
  sl_str n = sl_str_c(name);
  const char *p = query.p, *end = query.p + query.len;
  while (p && p < end) {
    const char *amp = memchr(p, '&', (size_t)(end - p));
    const char *e = amp ? amp : end;
    const char *eq = memchr(p, '=', (size_t)(e - p));
    sl_str k = sl_str_make(p, (size_t)((eq ? eq : e) - p));
    if (sl_str_eq(k, n)) {
      sl_buf b;
      sl_buf_init(&b, a);
      sl_buf_putc(&b, 0); /* never a NULL slice, even when empty */
      b.len = 0;
      if (eq)
        uri_decode(&b, sl_str_make(eq + 1, (size_t)(e - eq - 1)));
      return sl_buf_str(&b);
    }
    p = amp ? amp + 1 : NULL;
  }
  return SL_STR_NULL;
}

static bool signed_list_has(sl_str list, const char *name) {
  sl_str n = sl_str_c(name);
  const char *p = list.p, *end = list.p + list.len;
  while (p && p < end) {
    const char *semi = memchr(p, ';', (size_t)(end - p));
    if (sl_str_eq_nocase(sl_str_make(p, (size_t)((semi ? semi : end) - p)), n))
      return true;
    p = semi ? semi + 1 : NULL;
  }
  return false;
}

static sl_sigv4_key *find_key(sl_sigv4_config *c, sl_str id) {
  for (size_t i = 0; i < c->n_keys; i++)
    if (sl_str_eq_c(id, c->keys[i].access_key_id))
      return &c->keys[i];
  return NULL;
}

sl_err sl_sigv4_check(sl_sigv4_config *c, const sl_http_request *req, sl_str target, int64_t now_s,
                      sl_failure *f) {
  bool verify = c && c->mode == SL_AUTH_SIGV4;
  sl_arena *a = f->arena;
  sl_str auth = sl_http_header_get(req, "authorization");
  /* Leading spaces are trimmed before the prefix is looked at (dynalite). */
  while (auth.len && auth.p[0] == ' ')
    auth.p++, auth.len--;
  bool has_header = auth.len >= 5 && memcmp(auth.p, "AWS4-", 5) == 0;
  bool presigned = query_param(a, req->query, "X-Amz-Algorithm").p != NULL;

  if (has_header && presigned)
    return sl_failf(f, SL_E_INVALID_SIGNATURE,
                    "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as "
                    "HTTP header.");
  if (!has_header && !presigned)
    return sl_failf(f, SL_E_MISSING_AUTHENTICATION_TOKEN,
                    "Request is missing Authentication Token");

  sl_str algorithm, credential, signed_list, sig, date_text;
  if (has_header) {
    sl_sigv4_auth p;
    sl_sigv4_parse_authorization(auth, &p);
    if (p.bad_pair.p)
      return sl_failf(f, SL_E_INCOMPLETE_SIGNATURE,
                      "'%.*s' not a valid key=value pair (missing equal-sign) in Authorization "
                      "header: '%.*s'.",
                      SL_STR_FMT(p.bad_pair), SL_STR_FMT(auth));
    date_text = sl_http_header_get(req, "x-amz-date");
    if (!date_text.len)
      date_text = sl_http_header_get(req, "date");
    sl_buf msg;
    sl_buf_init(&msg, a);
    if (!p.credential.len)
      sl_buf_puts(&msg, SL_STR("Authorization header requires 'Credential' parameter. "));
    if (!p.signature.len)
      sl_buf_puts(&msg, SL_STR("Authorization header requires 'Signature' parameter. "));
    if (!p.signed_headers.len)
      sl_buf_puts(&msg, SL_STR("Authorization header requires 'SignedHeaders' parameter. "));
    /* The date is required only when signatures are verified: sluice's own
     * clients send a fixed Authorization header and no date. */
    if (verify && !date_text.len)
      sl_buf_puts(&msg, SL_STR("Authorization header requires existence of either a "
                               "'X-Amz-Date' or a 'Date' header. "));
    if (msg.len)
      return sl_failf(f, SL_E_INCOMPLETE_SIGNATURE, "%.*sAuthorization=%.*s", (int)msg.len, msg.p,
                      SL_STR_FMT(auth));
    algorithm = p.algorithm;
    credential = p.credential;
    signed_list = p.signed_headers;
    sig = p.signature;
  } else {
    static const char *const params[] = {"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature",
                                         "X-Amz-SignedHeaders", "X-Amz-Date"};
    sl_str v[5];
    sl_buf msg;
    sl_buf_init(&msg, a);
    for (size_t i = 0; i < 5; i++) {
      v[i] = query_param(a, req->query, params[i]);
      if (!v[i].len)
        sl_buf_printf(&msg, "AWS query-string parameters must include '%s'. ", params[i]);
    }
    if (msg.len)
      return sl_failf(f, SL_E_INCOMPLETE_SIGNATURE, "%.*sRe-examine the query-string parameters.",
                      (int)msg.len, msg.p);
    algorithm = v[0];
    credential = v[1];
    sig = v[2];
    signed_list = v[3];
    date_text = v[4];
  }

  int64_t now = now_s ? now_s : (int64_t)time(NULL);
  int64_t date = 0;
  char amz_date[17];
  if (verify) {
    if (!parse_basic(date_text, &date) && (presigned || !parse_imf(date_text, &date)))
      return sl_failf(f, SL_E_INCOMPLETE_SIGNATURE,
                      "Date must be in ISO-8601 'basic format'. Got '%.*s'. See "
                      "http://en.wikipedia.org/wiki/ISO_8601",
                      SL_STR_FMT(date_text));
    format_basic(date, amz_date);
    /* A presigned URL is good for X-Amz-Expires seconds (default and
     * floor: the 15 minutes a header signature is good for); the text for
     * an expired one reuses the header's (not confirmed for presigned URLs). */
    int64_t window = SKEW_S;
    if (presigned) {
      sl_str ex = query_param(a, req->query, "X-Amz-Expires");
      int e;
      if (ex.len && ex.len <= 6 && digits(ex.p, ex.len, &e) && e > window)
        window = e;
    }
    char now_text[17], edge[17];
    if (date < now - window) {
      format_basic(now, now_text);
      format_basic(now - window, edge);
      return sl_failf(f, SL_E_INVALID_SIGNATURE,
                      "Signature expired: %s is now earlier than %s (%s - %d min.)", amz_date, edge,
                      now_text, (int)(window / 60));
    }
    if (date > now + SKEW_S) {
      format_basic(now, now_text);
      format_basic(now + SKEW_S, edge);
      return sl_failf(f, SL_E_INVALID_SIGNATURE,
                      "Signature not yet current: %s is still later than %s (%s + 15 min.)",
                      amz_date, edge, now_text);
    }
    if (!signed_list_has(signed_list, "host"))
      return sl_failf(f, SL_E_INVALID_SIGNATURE,
                      "'Host' must be a 'SignedHeader' in the AWS Authorization.");
  }
  if (!sl_str_eq_c(algorithm, ALGORITHM))
    return sl_failf(f, SL_E_INCOMPLETE_SIGNATURE,
                    "Unsupported AWS 'algorithm': '%.*s' (only AWS4-HMAC-SHA256 for now). ",
                    SL_STR_FMT(algorithm));
  sl_sigv4_scope scope;
  if (!sl_sigv4_parse_scope(credential, &scope))
    return sl_failf(f, SL_E_INCOMPLETE_SIGNATURE,
                    "Credential must have exactly 5 slash-delimited elements, e.g. "
                    "keyid/date/region/service/term, got '%.*s'",
                    SL_STR_FMT(credential));
  if (!verify)
    return SL_OK;

  /* Every mismatch of the scope is named, in this order, each sentence
   * followed by a space (live texts quoted by dynalite and SDK issues). */
  sl_str service = sl_sigv4_service_for_target(target);
  if (!service.len)
    service = SL_STR("dynamodb");
  sl_buf msg;
  sl_buf_init(&msg, a);
  if (!sl_str_eq_c(scope.region, c->region))
    sl_buf_printf(&msg, "Credential should be scoped to a valid region, not '%.*s'. ",
                  SL_STR_FMT(scope.region));
  if (!sl_str_eq(scope.service, service))
    sl_buf_printf(&msg, "Credential should be scoped to correct service: '%.*s'. ",
                  SL_STR_FMT(service));
  if (!sl_str_eq_c(scope.terminator, "aws4_request"))
    sl_buf_printf(&msg,
                  "Credential should be scoped with a valid terminator: 'aws4_request', "
                  "not '%.*s'. ",
                  SL_STR_FMT(scope.terminator));
  if (!sl_str_eq(scope.date, sl_str_make(amz_date, 8)))
    sl_buf_printf(&msg,
                  "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date "
                  "from HTTP: '%.*s' != '%.8s', from '%.*s'. ",
                  SL_STR_FMT(scope.date), amz_date, SL_STR_FMT(date_text));
  if (msg.len)
    return sl_failf(f, SL_E_INVALID_SIGNATURE, "%.*s", (int)msg.len, msg.p);

  sl_sigv4_key *key = find_key(c, scope.key_id);
  if (!key)
    return sl_failf(f, SL_E_UNRECOGNIZED_CLIENT,
                    "The security token included in the request is invalid.");

  /* The signing key, derived again only when the scope changes. */
  char scope_text[64];
  size_t scope_len = scope.date.len + scope.region.len + service.len + 2;
  if (scope_len < sizeof(scope_text)) {
    char *w = scope_text;
    memcpy(w, scope.date.p, scope.date.len);
    w += scope.date.len;
    *w++ = '/';
    memcpy(w, scope.region.p, scope.region.len);
    w += scope.region.len;
    *w++ = '/';
    memcpy(w, service.p, service.len);
    w[service.len] = 0;
  }
  if (scope_len >= sizeof(scope_text))
    return sl_failf(f, SL_E_INCOMPLETE_SIGNATURE,
                    "Credential must have exactly 5 slash-delimited elements, e.g. "
                    "keyid/date/region/service/term, got '%.*s'",
                    SL_STR_FMT(credential));
  /* One digest context for every check: checks run on the loop thread. */
  static EVP_MD_CTX *ctx;
  if (!ctx)
    ctx = ctx_new();
  if (strcmp(scope_text, key->scope) != 0) {
    derive_key(ctx, sl_str_c(key->secret), scope.date, scope.region, service, key->signing_key);
    memcpy(key->scope, scope_text, scope_len + 1);
  }

  /* The payload hash is always computed from the bytes received: an
   * X-Amz-Content-Sha256 header is not taken on trust, or a signature over
   * one body would pass with another (a correct header gives the same
   * hash). raw_body is set by the server; a caller that builds a request by
   * hand may set only body. */
  char payload_hex[64];
  unsigned char h[32];
  sl_str raw = req->raw_body.p ? req->raw_body : req->body;
  sha256(ctx, raw.p ? raw.p : "", raw.len, h);
  hex(h, 32, payload_hex);
  sl_str payload = sl_str_make(payload_hex, 64);
  sl_buf canon;
  sl_buf_init(&canon, a);
  sl_buf_reserve(&canon, 512);
  canonical_request(&canon, req->method, req->path, req->query, presigned, req->headers,
                    req->n_headers, signed_list, payload);
  char want[64];
  signature(ctx, key->signing_key, sl_str_make(amz_date, 16), sl_str_make(scope_text, scope_len),
            sl_buf_str(&canon), want);
  if (sig.len != 64 || CRYPTO_memcmp(sig.p, want, 64) != 0)
    return sl_failf(f, SL_E_INVALID_SIGNATURE,
                    "The request signature we calculated does not match the signature you "
                    "provided. Check your AWS Secret Access Key and signing method. Consult the "
                    "service documentation for details.");

  /* The session token comes last, as on the service (its text has no full stop there). */
  sl_str token = presigned ? query_param(a, req->query, "X-Amz-Security-Token")
                           : sl_http_header_get(req, "x-amz-security-token");
  if (key->session_token ? !sl_str_eq_c(token, key->session_token) : token.len != 0)
    return sl_failf(f, SL_E_UNRECOGNIZED_CLIENT,
                    "The security token included in the request is invalid");
  return SL_OK;
}

/* ---- admin access ------------------------------------------------------- */

/* The value of cookie 'name' in a Cookie header, or a NULL slice. */
static sl_str cookie_get(sl_str header, const char *name) {
  size_t n = strlen(name);
  const char *p = header.p, *end = header.p + header.len;
  while (p && p < end) {
    while (p < end && (*p == ' ' || *p == ';'))
      p++;
    const char *semi = memchr(p, ';', (size_t)(end - p));
    const char *e = semi ? semi : end;
    if ((size_t)(e - p) > n && memcmp(p, name, n) == 0 && p[n] == '=')
      return sl_str_make(p + n + 1, (size_t)(e - p - n - 1));
    p = semi ? semi + 1 : NULL;
  }
  return SL_STR_NULL;
}

static bool token_eq(sl_str a, const char *token) {
  size_t n = strlen(token);
  return a.len == n && CRYPTO_memcmp(a.p, token, n) == 0;
}

static void refuse(sl_http_response *resp, const char *why) {
  resp->status = 403;
  resp->content_type = SL_STR("application/json");
  resp->body.len = 0;
  sl_buf_printf(&resp->body, "{\"error\":\"%s\"}", why);
}

bool sl_sigv4_admin_check(const sl_sigv4_config *c, const sl_http_request *req,
                          sl_http_response *resp) {
  if (!c)
    return true;
  if (c->admin_token) {
    sl_str auth = sl_http_header_get(req, "authorization");
    if (auth.len > 7 && EQ_LIT(sl_str_make(auth.p, 7), "Bearer ") &&
        token_eq(sl_str_make(auth.p + 7, auth.len - 7), c->admin_token))
      return true;
    for (size_t i = 0; i < req->n_headers; i++)
      if (EQ_LIT(req->headers[i].name, "cookie") &&
          token_eq(cookie_get(req->headers[i].value, "sluice_admin"), c->admin_token))
        return true;
    /* Opening the dashboard with ?token= sets the cookie its page then uses. */
    if (sl_str_starts_with(req->path, SL_STR("/dashboard"))) {
      sl_arena tmp;
      sl_arena_init(&tmp);
      bool ok = token_eq(query_param(&tmp, req->query, "token"), c->admin_token);
      sl_arena_destroy(&tmp);
      if (ok && resp->n_headers < SL_HTTP_MAX_RESP_HEADERS) {
        resp->headers[resp->n_headers++] =
            (sl_http_header){SL_STR("Set-Cookie"), sl_str_c(c->cookie)};
        return true;
      }
    }
    refuse(resp, "this endpoint needs the admin token: 'Authorization: Bearer TOKEN', or open "
                 "/dashboard?token=TOKEN");
    return false;
  }
  if (c->mode == SL_AUTH_SIGV4 && !c->loopback) {
    refuse(resp, "the admin API and the dashboard answer only on a loopback address under --auth "
                 "sigv4 unless --admin-token is given");
    return false;
  }
  return true;
}

/* ---- signing -------------------------------------------------------------- */

static int header_cmp(const void *a, const void *b) {
  const sl_http_header *x = a, *y = b;
  size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
  for (size_t i = 0; i < n; i++) {
    int cx = x->name.p[i] | 32, cy = y->name.p[i] | 32;
    if (cx != cy)
      return cx - cy;
  }
  return (x->name.len > y->name.len) - (x->name.len < y->name.len);
}

void sl_sigv4_sign(const sl_sigv4_request *r, char amz_date[17], sl_buf *authorization) {
  format_basic(r->now_s, amz_date);
  size_t n = r->n_headers;
  sl_http_header *h = malloc((n + 2) * sizeof(*h));
  if (!h)
    sl_panic("out of memory");
  memcpy(h, r->headers, n * sizeof(*h));
  h[n++] = (sl_http_header){SL_STR("x-amz-date"), sl_str_make(amz_date, 16)};
  if (r->session_token.len)
    h[n++] = (sl_http_header){SL_STR("x-amz-security-token"), r->session_token};
  qsort(h, n, sizeof(*h), header_cmp);

  sl_buf list, canon;
  sl_buf_init(&list, NULL);
  sl_buf_init(&canon, NULL);
  for (size_t i = 0; i < n; i++) {
    if (i && header_cmp(&h[i - 1], &h[i]) == 0)
      continue; /* a repeated field is one signed header */
    if (list.len)
      sl_buf_putc(&list, ';');
    for (size_t j = 0; j < h[i].name.len; j++) {
      char c = h[i].name.p[j];
      sl_buf_putc(&list, c >= 'A' && c <= 'Z' ? (char)(c + 32) : c);
    }
  }
  EVP_MD_CTX *ctx = ctx_new();
  unsigned char bh[32];
  char payload[64];
  sha256(ctx, r->body.p ? r->body.p : "", r->body.len, bh);
  hex(bh, 32, payload);
  canonical_request(&canon, r->method, r->path, r->query, false, h, n, sl_buf_str(&list),
                    sl_str_make(payload, 64));
  unsigned char key[32];
  sl_str date8 = sl_str_make(amz_date, 8);
  derive_key(ctx, r->secret, date8, r->region, r->service, key);
  char scope[128];
  int scope_len = snprintf(scope, sizeof(scope), "%.8s/%.*s/%.*s", amz_date, SL_STR_FMT(r->region),
                           SL_STR_FMT(r->service));
  if (scope_len < 0 || (size_t)scope_len >= sizeof(scope))
    scope_len = (int)sizeof(scope) - 1;
  char sig[64];
  signature(ctx, key, sl_str_make(amz_date, 16), sl_str_make(scope, (size_t)scope_len),
            sl_buf_str(&canon), sig);
  EVP_MD_CTX_free(ctx);
  authorization->len = 0;
  sl_buf_printf(authorization,
                ALGORITHM " Credential=%.*s/%.*s/aws4_request, SignedHeaders=%.*s, "
                          "Signature=%.64s",
                SL_STR_FMT(r->access_key_id), scope_len, scope, (int)list.len, list.p, sig);
  sl_buf_free(&list);
  sl_buf_free(&canon);
  free(h);
}
