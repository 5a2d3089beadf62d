/*
 * price.h — the one price table of the tools: what DynamoDB bills for
 * request units (on demand) and unit-hours (provisioned), per region, table
 * class and date of the price list. `sluice simulate` (its scenarios'
 * "prices") and `sluice bench` (its estimate and its bill) both read it.
 *
 * Design
 * ------
 * A static table of rows, each naming where it comes from; no I/O, no
 * state. A row is (region, class, date the prices took effect); the
 * current row of a region and class is the one with the latest date.
 * Lookups by date pick the row in force on that day, so "before
 * 2024-11-01" (on-demand prices were halved then) is the row of an earlier
 * date. A region without rows has no prices: the caller says so and falls
 * back to us-east-1 (sl_price_find_or_default) rather than inventing some.
 *
 * Rows (../shared/spec/dynamodb-facts.md §13):
 *  - us-east-1, Standard: $0.625 / $0.125 per million WRU / RRU since
 *    2024-11-01, $1.25 / $0.25 before (seed 003's bill matches the old
 *    ones); $0.00065 per WCU-hour, $0.00013 per RCU-hour.
 *  - us-east-1, Standard-IA: on demand 25 % above Standard ($0.78125 /
 *    $0.15625, $1.5625 / $0.3125 before the cut); $0.00081 per WCU-hour,
 *    $0.00016 per RCU-hour (observed in pricing write-ups, not confirmed on
 *    the AWS page: the row's source says so).
 *
 * Money is in US dollars, as doubles (estimates, never invoices).
 *
 * Threads: any; every function is pure.
 */
#ifndef SL_CAP_PRICE_H
#define SL_CAP_PRICE_H

#include "base/str.h"

typedef enum { SL_PRICE_STANDARD, SL_PRICE_STANDARD_IA } sl_price_class;

typedef struct {
  sl_str region;                              /* "us-east-1" */
  sl_price_class table_class;                 /* Standard or Standard-IA */
  sl_str date;                                /* the day the prices took effect */
  sl_str source;                              /* where the row comes from */
  double write_per_million, read_per_million; /* on demand: per million request units */
  double wcu_hour, rcu_hour;                  /* provisioned: per unit-hour */
} sl_price;

/* The row of 'region' and 'cls' in force on 'date' ("YYYY-MM-DD"; an
 * empty sl_str: today, the latest row). NULL: no row for that region (or
 * the date precedes every row). */
const sl_price *sl_price_find(sl_str region, sl_price_class cls, sl_str date);

/* sl_price_find, or the us-east-1 row of the same class and date when the
 * region has none (*fell_back set true). Never NULL for a date on or after
 * the table's first row. */
const sl_price *sl_price_find_or_default(sl_str region, sl_price_class cls, sl_str date,
                                         bool *fell_back);

/* The day before which sl_price_find gives the pre-2024-11-01 rows. */
#define SL_PRICE_ONDEMAND_CUT "2024-11-01"

/* "standard" or "standard-ia" (also "STANDARD", "STANDARD_INFREQUENT_ACCESS",
 * DynamoDB's TableClass values). Returns false for anything else. */
bool sl_price_class_parse(sl_str s, sl_price_class *out);
const char *sl_price_class_name(sl_price_class c); /* DynamoDB's TableClass value */

/* Dollars for request units consumed on demand. */
double sl_price_on_demand(const sl_price *p, double read_units, double write_units);
/* Dollars for provisioned unit-hours. */
double sl_price_provisioned(const sl_price *p, double rcu_hours, double wcu_hours);
/* Both: what a resource billed on demand for units and provisioned for hours
 * costs. */
double sl_price_dollars(const sl_price *p, double read_units, double write_units, double rcu_hours,
                        double wcu_hours);

/* The rows, for listing ('n' set to their count). */
const sl_price *sl_price_rows(size_t *n);

#endif
