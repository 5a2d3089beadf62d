/*
 * DescribeStream (DynamoDB Streams) — a stream's status, view type, key
 * schema and shards (ParentShardId, SequenceNumberRange: an open shard has
 * no EndingSequenceNumber), paginated with Limit (1..100, default 100) and
 * ExclusiveStartShardId / LastEvaluatedShardId, or only the children of one
 * shard (ShardFilter CHILD_SHARDS). Pinned by
 * tests/conformance/test_streams.py; the core is ops/streams.h.
 */
#include "actions/actions.h"
#include "actions/members.h"
#include "actions/reply.h"
#include "ops/streams.h"

static void write_key_schema(sl_jw *w, const sl_key_schema *k) {
  sl_jw_arr_begin(w);
  for (int i = 0; i < (sl_key_has_range(k) ? 2 : 1); i++) {
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "AttributeName");
    sl_jw_str(w, i ? k->range : k->hash);
    sl_jw_key_c(w, "KeyType");
    sl_jw_str_c(w, i ? "RANGE" : "HASH");
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
}

sl_err sl_action_describe_stream(sl_req *req) {
  sl_describe_stream_req in = {.arn = sl_in_str(req->body, "StreamArn"),
                               .limit = sl_in_int(req->body, "Limit", 100),
                               .exclusive_start_shard_id =
                                   sl_in_str(req->body, "ExclusiveStartShardId")};
  if (in.limit > 100)
    in.limit = 100;
  const sl_json *filter = sl_in_obj(req->body, "ShardFilter");
  if (filter) {
    /* The model's only Type is CHILD_SHARDS (validated before this). */
    in.filter = true;
    in.child_of = sl_in_str(filter, "ShardId");
  }
  sl_describe_stream_res out;
  sl_err err = sl_describe_stream(req, &in, &out);
  if (err != SL_OK)
    return err;
  const sl_stream *st = &out.stream;
  sl_jw *w = &req->w;
  char seq[32];
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "StreamDescription");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "StreamArn");
  sl_jw_str(w, sl_streams_arn(req, st));
  sl_jw_key_c(w, "StreamLabel");
  sl_jw_str(w, st->label);
  sl_jw_key_c(w, "StreamStatus");
  sl_jw_str_c(w, out.status);
  sl_jw_key_c(w, "StreamViewType");
  sl_jw_str_c(w, sl_stream_view_name(st->view));
  sl_jw_key_c(w, "CreationRequestDateTime");
  sl_reply_time(w, (int64_t)st->created_ms);
  sl_jw_key_c(w, "TableName");
  sl_jw_str(w, st->table_name);
  sl_jw_key_c(w, "KeySchema");
  write_key_schema(w, &st->key);
  sl_jw_key_c(w, "Shards");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < out.n; i++) {
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "ShardId");
    sl_jw_str_c(w, out.shards[i].id);
    sl_jw_key_c(w, "SequenceNumberRange");
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "StartingSequenceNumber");
    sl_streams_seq_format(out.first[i], seq);
    sl_jw_str_c(w, seq);
    if (out.closed[i]) {
      sl_jw_key_c(w, "EndingSequenceNumber");
      sl_streams_seq_format(out.last[i], seq);
      sl_jw_str_c(w, seq);
    }
    sl_jw_obj_end(w);
    if (out.parent_id[i]) {
      sl_jw_key_c(w, "ParentShardId");
      sl_jw_str_c(w, out.parent_id[i]);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  if (out.more && out.n) {
    sl_jw_key_c(w, "LastEvaluatedShardId");
    sl_jw_str_c(w, out.shards[out.n - 1].id);
  }
  sl_jw_obj_end(w);
  sl_jw_obj_end(w);
  return SL_OK;
}
