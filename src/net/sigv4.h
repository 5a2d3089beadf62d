/*
 * sigv4.h — AWS Signature Version 4: checking the requests sluice receives,
 * signing the requests its tools send, and the access rule of the admin API.
 *
 * Checking (sl_sigv4_check) follows the service's order and texts, as
 * recorded from live DynamoDB replies by dynalite (index.js comments) and
 * confirmed by SDK issues quoting them:
 *
 *   1. no Authorization header starting "AWS4-" and no X-Amz-Algorithm query
 *      parameter: MissingAuthenticationTokenException; both: Invalid-
 *      SignatureException ("Found both ...");
 *   2. a Credential, Signature or SignedHeaders part missing, or no
 *      X-Amz-Date/Date header: IncompleteSignatureException listing each,
 *      then "Authorization=<header>" (for a presigned URL: the X-Amz-*
 *      parameters missing, then "Re-examine the query-string parameters.");
 *   3. a date not in ISO-8601 basic format: IncompleteSignatureException;
 *   4. a date more than 15 minutes old or ahead: InvalidSignatureException
 *      ("Signature expired: ..." / "Signature not yet current: ...");
 *   5. Host not among the signed headers: InvalidSignatureException;
 *   6. an algorithm other than AWS4-HMAC-SHA256: IncompleteSignature-
 *      Exception;
 *   7. a credential that is not five slash-separated elements (trailing
 *      slashes ignored): IncompleteSignatureException;
 *   8. a scope with another region, another service (the signing name of
 *      the target's service: "dynamodb" for DynamoDB_20120810.* and
 *      DynamoDBStreams_20120810.*, "application-autoscaling" for
 *      AnyScaleFrontendService.*), another terminator than aws4_request, or
 *      a date other than the request's: InvalidSignatureException naming
 *      every mismatch;
 *   9. an access key id not in the credentials: UnrecognizedClientException;
 *  10. a signature other than the one computed: InvalidSignatureException;
 *  11. a session token other than the key's (or none when the key has one):
 *      UnrecognizedClientException.
 *
 * Under SL_AUTH_ANY (the default, `--auth any`) only the format checks run:
 * 1, 2 without the date requirement (sluice's own test and benchmark clients
 * send none), 6 and 7; any key, date and signature value (Signature=0
 * included) pass. Under SL_AUTH_SIGV4 all of them run against the keys of
 * the credentials file.
 *
 * The signed bytes are the request as received: the method, the target's
 * path and query as sent (encoded once more, as every SigV4 signer for
 * services other than S3 does), the signed headers' values (trimmed, inner
 * runs of spaces folded, repeated fields joined by commas) and the SHA-256
 * of the body as it came over the wire (req->raw_body: before any
 * Content-Encoding is decoded), always computed: an X-Amz-Content-Sha256
 * header is not trusted (UNSIGNED-PAYLOAD, which only S3 accepts, fails).
 *
 * Signing (sl_sigv4_sign) produces the Authorization header the check
 * accepts, for the tools (bench, explain) that call an endpoint.
 *
 * Admin access (sl_sigv4_admin_check): the admin API, /metrics and the
 * dashboard are not signed. With an admin token they require it (an
 * "Authorization: Bearer TOKEN" header or the cookie that opening
 * /dashboard?token=TOKEN sets); without one, under SL_AUTH_SIGV4, they
 * answer only when the server listens on a loopback address.
 *
 * Ownership: sl_sigv4_config owns its keys and strings (sl_sigv4_config_free).
 * The check caches each key's derived signing key for the last scope it saw,
 * so it takes the config as non-const. Threads: the loop thread; the signing
 * and parsing functions are reentrant.
 */
#ifndef SL_NET_SIGV4_H
#define SL_NET_SIGV4_H

#include "base/err.h"
#include "net/server.h"

typedef enum {
  SL_AUTH_ANY = 0, /* check the header's format only */
  SL_AUTH_SIGV4,   /* verify signatures against the credentials */
} sl_auth_mode;

typedef struct {
  char *access_key_id;
  char *secret;
  char *session_token; /* NULL: the key has none */
  /* The signing key last derived, and the scope "date/region/service" it is for. */
  char scope[64];
  unsigned char signing_key[32];
} sl_sigv4_key;

typedef struct sl_sigv4_config {
  sl_auth_mode mode;
  const char *region; /* the server's region: the only one a scope may name */
  sl_sigv4_key *keys;
  size_t n_keys;
  const char *admin_token; /* NULL: none */
  bool loopback;           /* the server listens on a loopback address */
  char *cookie;            /* Set-Cookie value for the admin token */
} sl_sigv4_config;

/* SL_AUTH_ANY, region us-east-1, no keys, no admin token, loopback. */
void sl_sigv4_config_init(sl_sigv4_config *c);
void sl_sigv4_config_free(sl_sigv4_config *c);

/* Adds the keys of a credentials text: one "ACCESS_KEY_ID SECRET
 * [SESSION_TOKEN]" per line, fields separated by spaces or tabs; empty
 * lines and lines starting with '#' are skipped. Returns 0, or -1 with a
 * message naming the line in err. */
int sl_sigv4_parse_credentials(sl_sigv4_config *c, const char *text, size_t len, char *err,
                               size_t err_cap);
/* The same from a file. */
int sl_sigv4_load_credentials(sl_sigv4_config *c, const char *path, char *err, size_t err_cap);

/* Sets the admin token (copied into the Set-Cookie value; 'token' must
 * outlive the config). */
void sl_sigv4_set_admin_token(sl_sigv4_config *c, const char *token);

/* Whether 'bind' is a loopback address (127.0.0.0/8, ::1, localhost). */
bool sl_sigv4_is_loopback(const char *bind);

/* The signing name of the service a target belongs to, or a NULL slice. */
sl_str sl_sigv4_service_for_target(sl_str target);

/* The parts of an Authorization header. A part that is absent is a NULL
 * slice (p == NULL); a part present but empty is an empty slice. */
typedef struct {
  sl_str algorithm;
  sl_str credential;
  sl_str signed_headers;
  sl_str signature;
  sl_str bad_pair; /* the first element without '=', if any */
} sl_sigv4_auth;

/* Splits "ALGORITHM Credential=..., SignedHeaders=..., Signature=..." (the
 * service's way: the text after the algorithm splits at commas and spaces
 * into key=value elements; a later duplicate wins; the first element with
 * no '=' is kept in bad_pair). Never fails. */
void sl_sigv4_parse_authorization(sl_str header, sl_sigv4_auth *out);

/* The credential scope: KEY/DATE/REGION/SERVICE/TERMINATOR. */
typedef struct {
  sl_str key_id, date, region, service, terminator;
} sl_sigv4_scope;

/* Splits a Credential value into its five elements (trailing slashes are
 * ignored). Returns false unless there are exactly five. */
bool sl_sigv4_parse_scope(sl_str credential, sl_sigv4_scope *out);

/* Checks the signature of a DynamoDB protocol request whose X-Amz-Target is
 * 'target'. 'now_s' is the time in seconds since the epoch (0: the wall
 * clock). Returns SL_OK, or the failure recorded in 'f'. 'c' may be NULL
 * (SL_AUTH_ANY). */
sl_err sl_sigv4_check(sl_sigv4_config *c, const sl_http_request *req, sl_str target, int64_t now_s,
                      sl_failure *f);

/* Whether an admin, metrics or dashboard request may be answered. If not,
 * 'resp' holds the refusal (403, a JSON {"error": ...} body). If it may and
 * the request opens the dashboard with the right ?token=, a Set-Cookie
 * header is added to 'resp' (the handler must keep the headers it finds).
 * 'c' may be NULL (everything allowed). */
bool sl_sigv4_admin_check(const sl_sigv4_config *c, const sl_http_request *req,
                          sl_http_response *resp);

/* A request to sign. 'headers' must include Host; X-Amz-Date (and
 * X-Amz-Security-Token when there is a session token) are added to the
 * signed headers by the signer, and must not be in 'headers'. */
typedef struct {
  sl_str method;
  sl_str path;  /* as it will be sent, e.g. "/" */
  sl_str query; /* as it will be sent, without '?' */
  const sl_http_header *headers;
  size_t n_headers;
  sl_str body;
  sl_str access_key_id, secret, session_token; /* session_token may be empty */
  sl_str region, service;
  int64_t now_s; /* seconds since the epoch */
} sl_sigv4_request;

/* Signs 'r': writes the X-Amz-Date value ("YYYYMMDDTHHMMSSZ") into
 * amz_date and the Authorization header value into 'authorization' (which
 * is emptied first). */
void sl_sigv4_sign(const sl_sigv4_request *r, char amz_date[17], sl_buf *authorization);

#endif
