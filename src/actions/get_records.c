/*
 * GetRecords (DynamoDB Streams) — the records of a shard from an iterator:
 * at most Limit (1..1,000, default 1,000) records and 1 MB, and the
 * NextShardIterator, absent once a closed shard has been read to its end.
 * Records carry eventID, eventName, eventVersion "1.1", eventSource
 * "aws:dynamodb", awsRegion, the dynamodb StreamRecord (images per the
 * stream's view type) and, for TTL deletions, userIdentity. Pinned by
 * tests/conformance/test_streams.py; the core and its errors are
 * ops/streams.h.
 */
#include "actions/actions.h"
#include "actions/members.h"
#include "ops/streams.h"

sl_err sl_action_get_records(sl_req *req) {
  sl_get_records_req in = {.iterator = sl_in_str(req->body, "ShardIterator"),
                           .limit = sl_in_int(req->body, "Limit", 1000)};
  sl_get_records_res out;
  sl_err err = sl_get_records(req, &in, &out);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Records");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < out.n; i++)
    sl_streams_record_write_json(w, &out.stream, &out.records[i], req->env->region);
  sl_jw_arr_end(w);
  if (out.next_iterator.len) {
    sl_jw_key_c(w, "NextShardIterator");
    sl_jw_str(w, out.next_iterator);
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
