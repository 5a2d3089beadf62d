/* Unit tests of base/err: the exception table (errors.def) and failure
 * recording. The DynamoDB rows are pinned on the wire by
 * tests/conformance/test_wire.py; the Streams and Application Auto Scaling
 * rows are pinned here with the evidence errors.def names (the Auto Scaling
 * ones also on the wire by tests/conformance/test_autoscaling.py). */
#include "harness.h"
#include "base/err.h"

#define CHECK_CSTR(got, want) CHECK_MEM((got), strlen(got), (want))

static void row(int line, sl_err code, const char *service, const char *type, int status,
                const char *key) {
  sl_t_checks++;
  if (strcmp(sl_err_service(code), service) != 0 || strcmp(sl_err_type(code), type) != 0 ||
      sl_err_status(code) != status || strcmp(sl_err_message_key(code), key) != 0) {
    sl_t_failures++;
    fprintf(stderr, "%s:%d: %s: row %d is (%s, %s, %d, %s), expected (%s, %s, %d, %s)\n", __FILE__,
            line, sl_t_current, (int)code, sl_err_service(code), sl_err_type(code),
            sl_err_status(code), sl_err_message_key(code), service, type, status, key);
  }
}
#define ROW(code, service, type, status, key)                                                      \
  row(__LINE__, (code), (service), (type), (status), (key))

#define STREAMS_NS "com.amazonaws.dynamodb.streams.v20120810#"
#define DYNAMODB_NS "com.amazonaws.dynamodb.v20120810#"
#define AUTOSCALING_NS "com.amazonaws.autoscaling.anyscale.frontend#"

/* DynamoDB Streams: lower-case "message" throughout; only InternalServerError
 * is a fault. */
static void test_streams_rows(void) {
  ROW(SL_E_STREAMS_EXPIRED_ITERATOR, "STREAMS", STREAMS_NS "ExpiredIteratorException", 400,
      "message");
  ROW(SL_E_STREAMS_TRIMMED_DATA_ACCESS, "STREAMS", STREAMS_NS "TrimmedDataAccessException", 400,
      "message");
  ROW(SL_E_STREAMS_RESOURCE_NOT_FOUND, "STREAMS", DYNAMODB_NS "ResourceNotFoundException", 400,
      "message");
  ROW(SL_E_STREAMS_LIMIT_EXCEEDED, "STREAMS", DYNAMODB_NS "LimitExceededException", 400, "message");
  ROW(SL_E_STREAMS_INTERNAL_SERVER_ERROR, "STREAMS", DYNAMODB_NS "InternalServerError", 500,
      "message");
  /* The shared namespace: the same wire types as DynamoDB's rows. */
  CHECK_CSTR(sl_err_type(SL_E_STREAMS_RESOURCE_NOT_FOUND), sl_err_type(SL_E_RESOURCE_NOT_FOUND));
  CHECK_CSTR(sl_err_name(SL_E_STREAMS_EXPIRED_ITERATOR), "ExpiredIteratorException");
}

/* Application Auto Scaling: capital "Message" throughout, 400 throughout. */
static void test_autoscaling_rows(void) {
  ROW(SL_E_AUTOSCALING_VALIDATION, "AUTOSCALING", AUTOSCALING_NS "ValidationException", 400,
      "Message");
  ROW(SL_E_AUTOSCALING_OBJECT_NOT_FOUND, "AUTOSCALING", AUTOSCALING_NS "ObjectNotFoundException",
      400, "Message");
  ROW(SL_E_AUTOSCALING_LIMIT_EXCEEDED, "AUTOSCALING", AUTOSCALING_NS "LimitExceededException", 400,
      "Message");
  ROW(SL_E_AUTOSCALING_CONCURRENT_UPDATE, "AUTOSCALING", AUTOSCALING_NS "ConcurrentUpdateException",
      400, "Message");
  ROW(SL_E_AUTOSCALING_FAILED_RESOURCE_ACCESS, "AUTOSCALING",
      AUTOSCALING_NS "FailedResourceAccessException", 400, "Message");
  ROW(SL_E_AUTOSCALING_INTERNAL_SERVICE, "AUTOSCALING", AUTOSCALING_NS "InternalServiceException",
      400, "Message");
  ROW(SL_E_AUTOSCALING_INVALID_NEXT_TOKEN, "AUTOSCALING",
      AUTOSCALING_NS "InvalidNextTokenException", 400, "Message");
  ROW(SL_E_AUTOSCALING_RESOURCE_NOT_FOUND, "AUTOSCALING",
      AUTOSCALING_NS "ResourceNotFoundException", 400, "Message");
  ROW(SL_E_AUTOSCALING_TOO_MANY_TAGS, "AUTOSCALING", AUTOSCALING_NS "TooManyTagsException", 400,
      "Message");
  CHECK_CSTR(sl_err_name(SL_E_AUTOSCALING_OBJECT_NOT_FOUND), "ObjectNotFoundException");
}

/* The service column of the older rows: the Coral front end's exceptions are
 * every API's; the rest are DynamoDB's. Their enum values never move. */
static void test_service_column(void) {
  CHECK_INT(SL_OK, 0);
  CHECK_INT(SL_E_SERVICE_UNAVAILABLE, 23);
  CHECK_INT(SL_E_STREAMS_EXPIRED_ITERATOR, 24);
  CHECK_INT(SL_E__COUNT, 41);
  const sl_err any[] = {SL_E_VALIDATION,           SL_E_SERIALIZATION,
                        SL_E_UNKNOWN_OPERATION,    SL_E_MISSING_AUTHENTICATION_TOKEN,
                        SL_E_INCOMPLETE_SIGNATURE, SL_E_INVALID_SIGNATURE,
                        SL_E_UNRECOGNIZED_CLIENT,  SL_E_ACCESS_DENIED,
                        SL_E_THROTTLING,           SL_E_SERVICE_UNAVAILABLE};
  for (size_t i = 0; i < sizeof(any) / sizeof(any[0]); i++) {
    CHECK_CSTR(sl_err_service(any[i]), "ANY");
    CHECK(strncmp(sl_err_type(any[i]), "com.amazon.coral.", 17) == 0);
  }
  ROW(SL_E_RESOURCE_NOT_FOUND, "DYNAMODB", DYNAMODB_NS "ResourceNotFoundException", 400, "message");
  ROW(SL_E_TRANSACTION_CANCELED, "DYNAMODB", DYNAMODB_NS "TransactionCanceledException", 400,
      "Message");
  ROW(SL_E_INTERNAL_SERVER_ERROR, "DYNAMODB", DYNAMODB_NS "InternalServerError", 500, "message");
  /* The backup operations' rows (botocore: each with "message"). */
  ROW(SL_E_TABLE_NOT_FOUND, "DYNAMODB", DYNAMODB_NS "TableNotFoundException", 400, "message");
  ROW(SL_E_BACKUP_NOT_FOUND, "DYNAMODB", DYNAMODB_NS "BackupNotFoundException", 400, "message");
  ROW(SL_E_TABLE_ALREADY_EXISTS, "DYNAMODB", DYNAMODB_NS "TableAlreadyExistsException", 400,
      "message");
  /* Every row but SL_OK is one of the four services, and its type ends in
   * the model's shape name after a '#'. */
  for (int c = 1; c < SL_E__COUNT; c++) {
    const char *s = sl_err_service((sl_err)c);
    CHECK(!strcmp(s, "ANY") || !strcmp(s, "DYNAMODB") || !strcmp(s, "STREAMS") ||
          !strcmp(s, "AUTOSCALING"));
    CHECK(strchr(sl_err_type((sl_err)c), '#') != NULL);
  }
}

/* The first failure wins; a NULL format leaves the body without a message. */
static void test_failf(void) {
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  CHECK_INT(sl_failf(&f, SL_E_STREAMS_EXPIRED_ITERATOR, "Iterator expired: %d", 15),
            SL_E_STREAMS_EXPIRED_ITERATOR);
  CHECK_INT(sl_failf(&f, SL_E_VALIDATION, "later"), SL_E_VALIDATION);
  CHECK_INT(f.code, SL_E_STREAMS_EXPIRED_ITERATOR);
  CHECK(f.has_message);
  CHECK_STR(f.message, "Iterator expired: 15");
  sl_failure_init(&f, &a);
  sl_failf(&f, SL_E_SERIALIZATION, NULL);
  CHECK(!f.has_message);
  sl_arena_destroy(&a);
}

int main(void) {
  RUN(test_streams_rows);
  RUN(test_autoscaling_rows);
  RUN(test_service_column);
  RUN(test_failf);
  return DONE();
}
