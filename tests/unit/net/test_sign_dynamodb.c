/*
 * test_sign_dynamodb.c — net/sigv4.h's signer on a DynamoDB request shaped as
 * sluice bench sends it (POST /, Content-Type, X-Amz-Target, X-Amz-Date,
 * optionally X-Amz-Security-Token), against botocore's SigV4Auth.
 */
#include "harness.h"

#include "net/sigv4.h"

#include <stdlib.h>

/* The request as the bench frames it (POST /, Content-Type, X-Amz-Target,
 * X-Amz-Date, optionally X-Amz-Security-Token), signed as botocore signs it
 * (signatures computed with botocore's SigV4Auth at 2026-12-01T12:00:00Z). */
static void test_sign_like_botocore(void) {
  const char *body = "{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"k0000000001\"}}}";
  sl_http_header h[] = {
      {SL_STR("Host"), SL_STR("dynamodb.eu-west-1.amazonaws.com")},
      {SL_STR("Content-Type"), SL_STR("application/x-amz-json-1.0")},
      {SL_STR("X-Amz-Target"), SL_STR("DynamoDB_20120810.GetItem")},
  };
  sl_sigv4_request r = {
      .method = SL_STR("POST"),
      .path = SL_STR("/"),
      .headers = h,
      .n_headers = 3,
      .body = sl_str_c(body),
      .access_key_id = SL_STR("AKIDEXAMPLE"),
      .secret = SL_STR("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
      .region = SL_STR("eu-west-1"),
      .service = SL_STR("dynamodb"),
      .now_s = 1796126400,
  };
  char date[17];
  sl_buf auth;
  sl_buf_init(&auth, NULL);
  sl_sigv4_sign(&r, date, &auth);
  CHECK(strcmp(date, "20261201T120000Z") == 0);
  CHECK_STR(sl_buf_str(&auth),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261201/eu-west-1/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
            "Signature=8e6cb4735d0df76183ced71ce6a75da6544a933b995aa85c4b402ffac4e3e123");
  r.session_token = SL_STR("SESSIONTOKEN");
  sl_sigv4_sign(&r, date, &auth);
  CHECK_STR(sl_buf_str(&auth),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261201/eu-west-1/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, "
            "Signature=1cd6beb0024698eef3155a0b4e17673af7a6616779820e519313efaaa8ffea68");
  sl_buf_free(&auth);
}

int main(void) {
  RUN(test_sign_like_botocore);
  return DONE();
}
