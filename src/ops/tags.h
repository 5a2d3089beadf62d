/*
 * tags.h — the cores of TagResource, UntagResource and ListTagsOfResource:
 * the table or stream a resource ARN names (ops/tables.h sl_tables_by_arn,
 * with the service's texts for malformed and unknown ARNs), its tags merged,
 * removed or listed. A table's tag change commits a new table version (the
 * catalog record); a stream has tags of its own, not its table's, kept in
 * the streams database while the stream is (streams/streams.h; DG "Using
 * attribute-based access control with DynamoDB Streams": up to 50 per
 * stream, managed independently of the table's).
 *
 * The tag rules themselves (characters, lengths, duplicates, TagKeys) are
 * request validation: the actions check them before these run
 * (actions/members.h sl_in_check_tags).
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_TAGS_H
#define SL_OPS_TAGS_H

#include "ops/tables.h"

/* Adds or replaces 'tags' on the table or stream 'arn' names. */
sl_err sl_tag_resource(sl_req *req, sl_str arn, const sl_tag *tags, uint32_t n);
/* Removes the tags with these keys (absent keys are ignored). */
sl_err sl_untag_resource(sl_req *req, sl_str arn, const sl_str *keys, uint32_t n);
/* The table's or stream's tags, in the order they were added (valid for
 * the request). */
sl_err sl_list_tags_of_resource(sl_req *req, sl_str arn, const sl_tag **tags, uint32_t *n);

#endif
