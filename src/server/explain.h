/*
 * explain.h — the cost preview's HTTP face: POST /_sluice/explain
 *
 *   {"Statement": "SELECT ...", "Parameters": [...], "ConsistentRead": bool, "Limit": N}
 *   {"Query": {...a Query request...}}   {"Scan": {...a Scan request...}}
 *
 * answers, without running the statement or spending capacity,
 *
 *   {"Plan": {"Operation": "GetItem|Query|Scan", "TableName", "IndexName",
 *             "KeyCondition", "Filter", "Text"},
 *    "Estimate": {"Items", "ReturnedItems", "Bytes", "Pages", "ReadUnits",
 *                 "FirstPageReadUnits", "ReadLimitPerSecond",
 *                 "SecondsAtCurrentLimit", "WillThrottle", "Exact": true},
 *    "Warnings": [...], "Alternatives": [{"IndexName", "Operation", "KeyCondition",
 *                                         "Items", "ReadUnits"}]}
 *
 * An INSERT, UPDATE or DELETE answers its single-item write instead:
 * {"Plan": {"Operation": "PutItem|UpdateItem|DeleteItem", "TableName", "Key",
 * "Condition", "Text"}, "Estimate": {"Items": 1, "Bytes", "ItemBytesBefore",
 * "ItemBytesAfter", "Pages": 1, "ReadUnits": 0, "WriteUnits",
 * "TableWriteUnits", "WriteLimitPerSecond", "SecondsAtCurrentLimit",
 * "WillThrottle", "ConditionPasses", "SingleItemWrite": true, "Exact": true}}
 * (partiql.h's sl_pql_explain_write: its core in preview mode, nothing
 * written).
 *
 * A Query or Scan request is checked as the operation checks it (the model's
 * validation, then actions/query.c or scan.c's parse) and becomes the plan
 * it is; a parallel scan's Segment/TotalSegments preview that segment (the
 * plan names them). The estimate is
 * partiql/partiql.h's sl_pql_explain: the plan's core run in
 * preview mode over every page, so ReadUnits is the sum of the
 * ConsumedCapacity a client paging through the result would be charged
 * (tests/conformance/test_explain.py checks it against running the
 * statement). SecondsAtCurrentLimit is ReadUnits over the resource's read
 * limit now (provisioned RCU; on demand, its configured maximum or what its
 * partitions serve). WillThrottle: the first request would be refused now.
 * Errors: {"error": ..., "type": <the exception a request would get>}, 400.
 *
 * Threads: the loop thread.
 */
#ifndef SL_SERVER_EXPLAIN_H
#define SL_SERVER_EXPLAIN_H

#include "server/app.h"
#include "net/server.h"

void sl_explain_handle(sl_app *app, sl_http_request *req, sl_http_response *resp);

/* POST /_sluice/execute {an ExecuteStatement request}: runs it as the API
 * would (the same action, capacity and metrics) with ReturnConsumedCapacity
 * TOTAL, for the dashboard's query workbench, which has no key to sign a
 * DynamoDB request with; the admin API's own access rules apply. The reply
 * is ExecuteStatement's, or its error as the API writes it. */
void sl_explain_execute(sl_app *app, sl_http_request *req, sl_http_response *resp);

#endif
