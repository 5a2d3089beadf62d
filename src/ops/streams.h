/*
 * streams.h — the cores of the DynamoDB Streams API (ListStreams,
 * DescribeStream, GetShardIterator, GetRecords), typed: the JSON side is
 * actions/list_streams.c, describe_stream.c, get_shard_iterator.c and
 * get_records.c. They read the request's snapshot of the "streams" database
 * (streams/streams.h), never the table's capacity: stream reads consume none
 * (facts §11).
 *
 * Errors, in the service's order (texts from DynamoDB Local's 2026-05 jar
 * unless noted; tests/conformance/test_streams.py):
 *  - an ARN that names no kept stream: ResourceNotFoundException
 *    "Requested resource not found: Stream: <arn> not found";
 *  - a shard id the stream does not have: ResourceNotFoundException
 *    "Shard does not exist";
 *  - AT_/AFTER_SEQUENCE_NUMBER without a SequenceNumber, or with one that
 *    is not a number: ValidationException "One or more parameter values
 *    were invalid: Invalid SequenceNumber"; with one outside the shard's
 *    range (below its first number, past its last: DynamoDB Local refuses
 *    only the latter past a closed shard's end, sluice past an open one's
 *    too): ValidationException "Invalid SequenceNumber for the shard"
 *    (DynamoDB Local's 2026-01-16 jar, observed);
 *  - a sequence number below the shard's trim point, or an iterator pointing
 *    there: TrimmedDataAccessException "The data you are trying to access has
 *    been trimmed." (the live text, node-dynamodb-stream #13);
 *  - GetRecords Limit over 1,000: ValidationException "One or more parameter
 *    values were invalid: Limit should be less than or equal to 1000";
 *  - an iterator sluice did not write: ValidationException "Invalid
 *    ShardIterator"; one older than 15 minutes: ExpiredIteratorException
 *    with an empty message, as DynamoDB Local's 2026-01-16 jar answers (no
 *    capture of the live text is known: AWS docs, aws-sdk and KCL issues,
 *    localstack, moto and Alternator searched, which have only emulators'
 *    texts and Kinesis' "Iterator expired. The iterator was created at
 *    time ..."; "The provided iterator exceeds the maximum age allowed." is
 *    Kinesis' model's description, not DynamoDB Streams');
 *  - a third reader polling a shard while two others do (streams/streams.h,
 *    readers): LimitExceededException "Rate exceeded" (the live text from
 *    DynamoDBStreamsClient in aws-sdk-java-v2 #470; the service's documented
 *    limit is two readers per shard, DG "DynamoDB Streams").
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_STREAMS_H
#define SL_OPS_STREAMS_H

#include "ops/req.h"
#include "streams/streams.h"

/* "arn:aws:dynamodb:<region>:<account>:table/<name>/stream/<label>". */
sl_str sl_streams_arn(sl_req *req, const sl_stream *st);

typedef struct {
  sl_str table_name; /* empty: every table */
  int64_t limit;     /* 1..100 */
  sl_str exclusive_start_arn;
} sl_list_streams_req;

typedef struct {
  sl_stream *streams;
  size_t n;
  bool more; /* LastEvaluatedStreamArn: the last one returned */
} sl_list_streams_res;

sl_err sl_list_streams(sl_req *req, const sl_list_streams_req *in, sl_list_streams_res *out);

typedef struct {
  sl_str arn;
  int64_t limit; /* shards, 1..100 */
  sl_str exclusive_start_shard_id;
  /* ShardFilter {Type: CHILD_SHARDS, ShardId}: only the shards whose parent
   * is child_of (none when it is empty or names no shard with children, as
   * DynamoDB Local answers); with ExclusiveStartShardId, ValidationException
   * "ShardFilter and ExclusiveStartShardId both should not be specified in
   * the request." (DynamoDB Local 2026-01) */
  bool filter;
  sl_str child_of;
} sl_describe_stream_req;

typedef struct {
  sl_stream stream;
  const char *status; /* ENABLING, ENABLED, DISABLING, DISABLED */
  sl_stream_shard *shards;
  size_t n;
  /* per shard: the sequence number range shown */
  uint64_t *first, *last;
  bool *closed;
  const char **parent_id; /* NULL: none */
  bool more;              /* LastEvaluatedShardId: the last one returned */
} sl_describe_stream_res;

sl_err sl_describe_stream(sl_req *req, const sl_describe_stream_req *in,
                          sl_describe_stream_res *out);

typedef enum {
  SL_ITER_TRIM_HORIZON,
  SL_ITER_LATEST,
  SL_ITER_AT_SEQUENCE_NUMBER,
  SL_ITER_AFTER_SEQUENCE_NUMBER,
} sl_iter_type;

typedef struct {
  sl_str arn;
  sl_str shard_id;
  sl_iter_type type;
  sl_str sequence_number; /* empty: absent */
} sl_get_shard_iterator_req;

sl_err sl_get_shard_iterator(sl_req *req, const sl_get_shard_iterator_req *in, sl_str *iterator);

typedef struct {
  sl_str iterator;
  int64_t limit; /* 1..1000, default 1000 */
} sl_get_records_req;

typedef struct {
  sl_stream stream;
  sl_stream_record *records;
  size_t n;
  sl_str next_iterator; /* empty: the shard is closed and drained */
} sl_get_records_res;

sl_err sl_get_records(sl_req *req, const sl_get_records_req *in, sl_get_records_res *out);

#endif
