/*
 * explain.h — `sluice explain`: the cost preview of a PartiQL SELECT from the
 * command line, before running it.
 *
 *   sluice explain [--endpoint URL] [--consistent] [--limit N]
 *                  [--parameters JSON] [--admin-token TOKEN] [--json] 'SELECT ...'
 *
 * It asks the endpoint's POST /_sluice/explain (server/explain.h), which
 * plans the statement and prices it exactly from the table's data, and prints
 * the plan, the items, bytes, pages and read units it will consume, how long
 * that takes at the resource's current limit, whether the first request
 * would be throttled, the warnings and the cheaper alternatives (--json: the
 * reply as it came). An endpoint that is not sluice (AWS, DynamoDB Local)
 * is refused with a message: estimating from DescribeTable is not built yet.
 * Exit status: 0, 1 for a refused statement or an unreachable endpoint, 2
 * for a usage error.
 *
 * Threads: the calling thread; a blocking client (net/client.h).
 */
#ifndef SL_TOOLS_EXPLAIN_H
#define SL_TOOLS_EXPLAIN_H

int sl_tool_explain(int argc, char **argv);

#endif
