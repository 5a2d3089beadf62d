/*
 * streams_tail.h — `sluice streams tail TABLE`: prints a table's stream
 * records as JSON lines as they arrive, from any endpoint (sluice, DynamoDB
 * Local, AWS), the quickest way to see what a Lambda trigger would receive.
 *
 * Design: a poller over the Streams API only, like a KCL worker: it finds
 * the table's latest stream (DescribeTable's LatestStreamArn), lists its
 * shards (DescribeStream, every page), and reads each shard with
 * GetShardIterator + GetRecords, a parent before its children (a child is
 * started once its parent has been read to its end, i.e. GetRecords gave no
 * NextShardIterator). Shards open at start begin at LATEST (or TRIM_HORIZON
 * with --from trim-horizon, which also reads the closed ones); shards that
 * appear later begin at TRIM_HORIZON, so nothing written after the start is
 * missed. The shard list is read again whenever a shard ends and every few
 * seconds. An expired iterator is replaced by one AFTER_SEQUENCE_NUMBER of
 * the last record printed. Each record is printed as the service sent it,
 * one JSON object per line, flushed; once every shard open at start has its
 * iterator, "sluice streams tail: following ARN" goes to stderr.
 *
 * Requests are signed with SigV4 (net/sigv4.h) from AWS_ACCESS_KEY_ID /
 * AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN (default "local"/"local", which
 * sluice and DynamoDB Local accept) and the region of --region, AWS_REGION
 * or AWS_DEFAULT_REGION (default us-east-1); plain HTTP only (net/client.h).
 *
 * Exit: 0 after --count records, or when the stream is disabled and every
 * shard is drained; 1 on an error reply or a connection failure (printed on
 * stderr); 2 for bad usage. Tested by tests/conformance/test_streams_tail.py.
 *
 * Threads: one; blocking I/O.
 */
#ifndef SL_TOOLS_STREAMS_TAIL_H
#define SL_TOOLS_STREAMS_TAIL_H

/* argv after "streams": "tail", TABLE, flags. */
int sl_tool_streams(int argc, char **argv);

#endif
