/*
 * GetShardIterator (DynamoDB Streams) — an iterator into one shard:
 * TRIM_HORIZON (its oldest kept record), LATEST (after its newest),
 * AT_SEQUENCE_NUMBER / AFTER_SEQUENCE_NUMBER (SequenceNumber required).
 * Iterators live 15 minutes. Pinned by tests/conformance/test_streams.py;
 * the core and its errors are ops/streams.h.
 */
#include "actions/actions.h"
#include "actions/members.h"
#include "ops/streams.h"

sl_err sl_action_get_shard_iterator(sl_req *req) {
  static const char *const types[] = {"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
                                      "AFTER_SEQUENCE_NUMBER"};
  sl_get_shard_iterator_req in = {.arn = sl_in_str(req->body, "StreamArn"),
                                  .shard_id = sl_in_str(req->body, "ShardId"),
                                  .sequence_number = sl_in_str(req->body, "SequenceNumber")};
  sl_str type = sl_in_str(req->body, "ShardIteratorType");
  for (int i = 0; i < 4; i++)
    if (sl_str_eq_c(type, types[i]))
      in.type = (sl_iter_type)i; /* the validator has checked the enum */
  sl_str it;
  sl_err err = sl_get_shard_iterator(req, &in, &it);
  if (err != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "ShardIterator");
  sl_jw_str(&req->w, it);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
