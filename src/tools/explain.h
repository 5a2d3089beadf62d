/*
 * explain.h — `sluice explain`: the cost preview of a PartiQL SELECT from the
 * command line, before running it.
 *
 *   sluice explain [--endpoint URL] [--consistent] [--limit N] [--parameters JSON]
 *                  [--admin-token TOKEN] [--ca-file FILE] [--from-describe] [--json]
 *                  'SELECT ...'
 *
 * It asks the endpoint's POST /_sluice/explain (server/explain.h), which
 * plans the statement (SELECT, INSERT, UPDATE or DELETE) and prices it
 * exactly from the table's data, and prints the plan, the items, bytes,
 * pages and read (or write) units it will consume, how long that takes at
 * the resource's current limit, whether it would be throttled now, the
 * warnings and the cheaper alternatives (--json: the reply as it came).
 *
 * An endpoint that is not sluice (AWS, DynamoDB Local: no /_sluice/explain,
 * or --from-describe) is asked DescribeTable, signed with SigV4 (net/sigv4.h;
 * credentials and region as sluice bench finds them, tools/bench_plan.h; a
 * loopback endpoint without credentials gets a placeholder key), and the
 * SELECT is planned locally from its key schema and indexes as
 * partiql/plan.c plans it (every table key equal: GetItem; the partition key
 * of the table or the named index fixed by =, IN or an OR of equalities:
 * Query; else Scan) and estimated, "Exact": false, "Source":
 * "DescribeTable": a GetItem reads one item of the average size
 * (TableSizeBytes / ItemCount); a Scan every item, in pages of at most 1 MB
 * (or Limit items), max(pages, ceil(bytes / 4 KB)) units, halved when
 * eventually consistent; a Query's key range is not sized by DescribeTable,
 * so its items and units are null (the seeds' preview shows no RCU for a
 * partition Query). WillThrottle is null: the endpoint's buckets are not
 * visible. Writes are previewed by sluice endpoints only.
 *
 * Exit status: 0, 1 for a refused statement or an unreachable endpoint, 2
 * for a usage error.
 *
 * Threads: the calling thread; a blocking client (net/client.h).
 */
#ifndef SL_TOOLS_EXPLAIN_H
#define SL_TOOLS_EXPLAIN_H

int sl_tool_explain(int argc, char **argv);

#endif
