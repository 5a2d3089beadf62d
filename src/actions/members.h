/*
 * members.h — reading request members (the validated JSON body, base/json.h)
 * into the typed values the cores take (ops/).
 *
 * The model validation (server/validate.h) has checked every member's JSON
 * type, lengths and enums before an action runs, so these readers judge
 * nothing: an absent member reads as its default. The checks that belong to
 * the service's request validation and need no table (tag rules, refused
 * members) are here too, so that an action runs them before its table
 * lookup, as the service validates a whole request first.
 *
 * Threads: the loop thread.
 */
#ifndef SL_ACTIONS_MEMBERS_H
#define SL_ACTIONS_MEMBERS_H

#include "ops/req.h"
#include "ops/schema.h"
#include "ops/tables.h"

/* ---- members of an object ---- */

/* A string member, or an empty slice when absent. */
sl_str sl_in_str(const sl_json *obj, const char *member);
/* Present and not null. */
bool sl_in_has(const sl_json *obj, const char *member);
bool sl_in_bool(const sl_json *obj, const char *member, bool dflt);
int64_t sl_in_int(const sl_json *obj, const char *member, int64_t dflt);
/* The member when it is an object (or an array), else NULL. */
const sl_json *sl_in_obj(const sl_json *obj, const char *member);
const sl_json *sl_in_arr(const sl_json *obj, const char *member);
/* Whether the i-th member of 'obj' is repeated later in it (the JSON reader
 * keeps duplicates; the service's reader keeps the last). */
bool sl_in_member_shadowed(const sl_json *obj, size_t i);

/* ReturnConsumedCapacity of an object. */
sl_rcc sl_in_rcc(const sl_json *obj);

/* ---- refused members ---- */

/* A member of the service's model that sluice does not honour, and what it
 * is for (the error's words). */
typedef struct {
  const char *member;
  const char *what;
} sl_unsupported;
/* The first of 'list' present in 'obj' is refused with a ValidationException
 * naming it: an honest error, never a silent 200 that ignored it. Actions
 * call it before any table lookup, as the service validates first. */
sl_err sl_in_refuse_unsupported(sl_req *req, const sl_json *obj, const sl_unsupported *list,
                                size_t n);
/* SSESpecification asking for a KMS key (Enabled true) is refused with a
 * ValidationException naming it: sluice has no KMS, and a table reported
 * as encrypted with a key that does not exist would mislead. Enabled false
 * (the service's default, an AWS owned key) is accepted. */
sl_err sl_in_refuse_kms(sl_req *req, const sl_json *body);

/* ---- tables ---- */

/* The table a member names (a name or a table ARN), ops/req.h
 * sl_req_lookup. */
sl_err sl_in_table(sl_req *req, const char *member, sl_lookup how, sl_table **out);
sl_err sl_in_table_of(sl_req *req, const sl_json *obj, const char *member, sl_lookup how,
                      sl_table **out);

/* ---- table definitions (ops/schema.h) ---- */

sl_key_schema_in sl_in_key_schema(sl_arena *a, const sl_json *list);
sl_attr_defs_in sl_in_attr_defs(sl_arena *a, const sl_json *list);
sl_projection_in sl_in_projection(sl_arena *a, const sl_json *proj);
/* An object of two units, e.g. ("ReadCapacityUnits", "WriteCapacityUnits"). */
sl_units_in sl_in_units(const sl_json *obj, const char *read, const char *write);

/* ---- tags ---- */

#ifndef SL_TABLE_MAX_TAGS
#define SL_TABLE_MAX_TAGS 50
/* ---- transactions ---- */

/* The object of an action: member 'kind' of 'elem' ("Put", "Get", ...) with
 * only the members the model gives that action type, so that parameters of
 * the single-item operations that a transaction action does not have
 * (Expected, AttributeUpdates, ReturnValues, ...) are ignored, as the service
 * ignores unknown members. NULL when 'elem' has no such member. */
const sl_json *sl_in_transact_action(sl_req *req, const sl_json *elem, const char *kind);

/* The fingerprint of a request's TransactItems (its ClientRequestToken's
 * idempotency check, ops/txn.h). */
void sl_in_fingerprint(sl_req *req, const sl_json *items, uint8_t out[16]);

#endif

/* The tag rules that come before the model's constraints, with their live
 * texts (ack-api-quirks DDB-TABLE-110 and its TagResource sibling): key
 * 1..128 and value 0..256 characters of the allowed set, no "aws:" prefix,
 * no key twice in one request; UntagResource's TagKeys by the same rules:
 * present, at most 50, each a valid key. The failure is the request's. */
sl_err sl_in_check_tags(sl_failure *f, const sl_json *tags);
sl_err sl_in_check_tag_keys(sl_failure *f, const sl_json *keys);
/* The tags of a checked Tags list (arena copies of nothing: slices into the
 * body). */
void sl_in_tags(sl_arena *a, const sl_json *tags, sl_tag **out, uint32_t *n);

/* ---- transactions ---- */

/* The object of an action: member 'kind' of 'elem' ("Put", "Get", ...) with
 * only the members the model gives that action type, so that parameters of
 * the single-item operations that a transaction action does not have
 * (Expected, AttributeUpdates, ReturnValues, ...) are ignored, as the service
 * ignores unknown members. NULL when 'elem' has no such member. */
const sl_json *sl_in_transact_action(sl_req *req, const sl_json *elem, const char *kind);

/* The fingerprint of a request's TransactItems (its ClientRequestToken's
 * idempotency check, ops/txn.h). */
void sl_in_fingerprint(sl_req *req, const sl_json *items, uint8_t out[16]);

#endif
