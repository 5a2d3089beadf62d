/*
 * dispatch.h — the DynamoDB JSON 1.0 protocol endpoint: POST / with
 * X-Amz-Target: DynamoDB_20120810.<Op>.
 *
 * sl_api_handle checks the request in the service's order — body is JSON
 * (SerializationException), the target names a known operation
 * (UnknownOperationException), an Authorization header is present
 * (MissingAuthenticationTokenException), the body validates against the
 * model (server/validate.h) — then runs the action and writes the reply with
 * x-amzn-RequestId and x-amz-crc32 (facts §1.1).
 *
 * Threads: the loop thread.
 */
#ifndef SL_SERVER_DISPATCH_H
#define SL_SERVER_DISPATCH_H

#include "server/app.h"
#include "net/server.h"

void sl_api_handle(sl_app *app, sl_http_request *hreq, sl_http_response *hresp);

/* Writes an error reply for 'f' (the one place errors become bytes). */
void sl_api_write_error(sl_http_response *resp, const sl_failure *f);

/* Sets Content-Type, x-amzn-RequestId and x-amz-crc32 for the body in resp. */
void sl_api_finish(sl_http_response *resp, const char *request_id, int status);

/* The service's answer to a request it has no operation for at all (a
 * method other than POST, an unknown path): 404 "<UnknownOperationException/>\n"
 * with a request id and its CRC (dynalite test/connection.js, recorded
 * against the service: x-amz-crc32 3552371480, 29 bytes). */
void sl_api_unknown_path(sl_app *app, sl_http_response *resp);

#endif
