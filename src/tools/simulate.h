/*
 * simulate.h — `sluice simulate`: the capacity engine (cap/) and the pure
 * pricing (cap/cost.h) played against a scenario (tools/scenario.h) on a
 * manual clock. No HTTP, no LMDB, no ops/: the same admission code the
 * server runs, given the charges a request would make.
 *
 * Design
 * ------
 * A discrete-event run over virtual time. Each workload is one client
 * offering requests open-loop: arrivals evenly spaced at the phase's rate
 * (or, with arrival "per_ms", each millisecond's arrivals at its start, the
 * way a manual-clock HTTP test drives the server). Retries and resends are
 * events in a heap ordered by (time, sequence number). For each attempt the
 * clock is set to its time and the request's charges are built exactly as
 * ops/ builds them — the table's charge on the partition of the key's hash
 * (store/key.h), one charge per GSI the item lands in, units from
 * cap/cost.h — and admitted with sl_cap_admit (Query/Scan pages with
 * sl_cap_check, then sl_cap_debit; batches item by item; transactions all
 * together). The client reacts as the SDKs do (facts §9): none, botocore
 * legacy, standard (pre-2026), adaptive (standard plus the CUBIC client
 * rate limiter of botocore's adaptive mode), the 2026 standard, or an
 * application's immediate-retry loop; batches may resend their unprocessed
 * items with jittered backoff. Jitter comes from the scenario's seed, so a
 * run is deterministic: the same scenario gives the same report, byte for
 * byte, and the same numbers as tests/unit/cap/test_cap.c's rig for the
 * same load.
 *
 * The aggregate mode ("mode": "aggregate", for internet scale) counts
 * requests per partition and time step instead: arrivals shared among the
 * partitions by the probability mass of the keys in each hash range, each
 * share admitted in chunks below the spike rule's share of a burst, and the
 * client's retries, batch resends and transactions followed as groups of
 * requests (the comment above run_aggregate in simulate.c; docs/simulate.md
 * measures how far it departs from the per-request mode). *
 * Every step (step_s) of virtual time is recorded per resource and
 * direction: offered and accepted units, accepted and throttled events by
 * limit type, partitions, provisioned level; per workload: requests,
 * attempts, successes and failures; at the end, each partition against its
 * own limit, the hottest keys, client latency added by backoff, billed
 * units and their cost, and a diagnosis naming the limit, the resource and
 * the fix. Output: a text summary, JSON of everything, CSV of the series,
 * or an HTML report with charts.
 *
 * Files: simulate.c (the engine and the command), sim_report.c (the
 * diagnosis, costs, text, JSON, CSV), sim_html.c (the HTML report), all
 * over sim_int.h.
 *
 * Memory: sl_sim_new's caller owns the sim (sl_sim_free). Threads: one.
 */
#ifndef SL_TOOLS_SIMULATE_H
#define SL_TOOLS_SIMULATE_H

#include "tools/scenario.h"

typedef struct sl_sim sl_sim;

/* A sim of 's' (which must outlive it). On a bad capacity parameter
 * returns NULL with a message in 'err'. */
sl_sim *sl_sim_new(const sl_scenario *s, char *err, size_t err_len);
void sl_sim_run(sl_sim *sim);
void sl_sim_free(sl_sim *sim);

void sl_sim_write_json(sl_sim *sim, sl_buf *out);
void sl_sim_write_text(sl_sim *sim, sl_buf *out);
/* One row per step and resource: time, resource, direction, units and
 * events, throttles by limit type, partitions. */
void sl_sim_write_csv(sl_sim *sim, sl_buf *out);
/* One self-contained HTML page with inline SVG charts (tools/sim_html.c). */
void sl_sim_write_html(sl_sim *sim, sl_buf *out);
/* Two runs on one page: a side-by-side table, then both reports (two
 * columns on a wide screen). */
void sl_sim_write_html_compare(sl_sim *a, sl_sim *b, sl_buf *out);

#endif
