/*
 * validate.h — the generic request validator: the checks that come before
 * any operation-specific logic, driven by the models in server/shapes.h.
 * DynamoDB, DynamoDB Streams and Application Auto Scaling answer from the
 * same Coral front end, so one walk and one set of texts serves all three;
 * an operation is named by its service (X-Amz-Target prefix) and its name.
 *
 * Design: the service checks a request in a fixed order, and so does
 * sl_api_validate():
 *   1. serialization — every known member must have the JSON type its shape
 *      wants; the first mismatch is a SerializationException with the modern
 *      Coral text ("NUMBER_VALUE cannot be converted to String", "Start of
 *      structure or map found where not expected", ...). Unknown members are
 *      ignored, JSON null is the same as an absent member.
 *   2. a few operation-specific messages that replace the generic ones (a
 *      missing TableName on the table-level operations: "The parameter
 *      'TableName' is required but was not present in the request").
 *   3. model constraints — required members, string/blob/list/map lengths,
 *      integer ranges, enum values, regex patterns — collected over the whole
 *      request and reported as ONE ValidationException: "1 validation error
 *      detected: Value 'abc;' at 'tableName' failed to satisfy constraint:
 *      Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+", or
 *      "N validation errors detected: e1; e2; ...", at most 10 listed.
 * Paths are lowerCamel: list elements "keySchema.1.member.attributeName"
 * (1-based), map values "requestItems.<key>.member...". The exceptions are the
 * few constraints the service reworded in 2026 (BatchGetItem's and
 * BatchWriteItem's RequestItems bounds, Query's Limit): "Value at
 * 'RequestItems.<table>.member.Keys' failed to satisfy constraint: ...", no
 * value echoed, the path in the request's own member names; and the
 * RequestItems map echoed as JSON beside its map-key constraint (BatchWriteItem's
 * only when nothing else fails). Values are rendered as
 * the service's Java renders them (lists "[a, b]", maps "{k=v}", structures
 * "KeySchemaElement(attributeName=a, keyType=HASH)", blobs
 * "java.nio.HeapByteBuffer[pos=0 lim=N cap=N]"). The evidence and the choices
 * where it runs out are written at the top of validate.c.
 *
 * Not done here: the AttributeValue "exactly one datatype" rule, base64 and
 * number syntax (the item codec's), and every cross-member rule (actions).
 *
 * Cost: one walk over the request, no allocation unless the request fails.
 * Memory: messages are formatted into the failure's arena.
 * Threads: none; the tables are static and read-only.
 */
#ifndef SL_SERVER_VALIDATE_H
#define SL_SERVER_VALIDATE_H

#include "base/err.h"
#include "base/json.h"

/* The most validation errors one message lists (the service's cap). */
#define SL_API_MAX_VALIDATION_ERRORS 10

/* True if 'op' (e.g. "PutItem") is an operation of the model of 'service',
 * given as its X-Amz-Target prefix (e.g. "DynamoDB_20120810"). */
bool sl_api_op_known(sl_str service, sl_str op);

/* Validates 'body' (the parsed request; NULL counts as {}) for operation 'op'
 * of 'service' (its X-Amz-Target prefix). Returns SL_OK, or fills 'f' with
 * SL_E_SERIALIZATION or SL_E_VALIDATION and the service's message and returns
 * that code. An unknown operation gives SL_E_UNKNOWN_OPERATION without a
 * message (callers check sl_api_op_known first). */
sl_err sl_api_validate(sl_failure *f, sl_str service, sl_str op, const sl_json *body);

/* Full match of UTF-8 string 's' against regex number 're' (1-based index into
 * sl_res, as in sl_shape.pattern). Exposed for tests. */
bool sl_api_regex_match(unsigned re, sl_str s);

#endif
