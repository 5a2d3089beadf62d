/*
 * schema.h — a table definition as the request states it (key schemas,
 * attribute definitions, projections, throughput members), typed, and the
 * service's checks that turn it into the table's schema (store/schema.h).
 *
 * Actions read these from the request JSON without judging them (the model
 * validation has checked their shapes); the checks here run where the
 * service runs them: CreateTable's action while it builds the new table,
 * UpdateTable's core (ops/update_table.h, ops/indexes.h) for a GSI Create.
 * Strings point into the request; the checks copy what they keep into the
 * table's arena.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_SCHEMA_H
#define SL_OPS_SCHEMA_H

#include "ops/req.h"

/* One KeySchemaElement or AttributeDefinition as sent. */
typedef struct {
  sl_str attr; /* AttributeName */
  sl_str type; /* KeyType ("HASH", "RANGE") or AttributeType ("S", "N", "B") */
} sl_attr_in;

/* A KeySchema. */
typedef struct {
  const sl_attr_in *e;
  uint32_t n;
} sl_key_schema_in;

/* AttributeDefinitions. */
typedef struct {
  const sl_attr_in *e;
  uint32_t n;
  bool present; /* the member was sent (an empty list is sent too) */
} sl_attr_defs_in;

/* A Projection as sent. */
typedef struct {
  sl_str type;           /* ProjectionType; empty when absent */
  bool has_non_key;      /* NonKeyAttributes was sent */
  const sl_str *non_key; /* NonKeyAttributes */
  uint32_t n_non_key;
} sl_projection_in;

/* A pair of units as sent: ProvisionedThroughput {Read,Write}CapacityUnits,
 * OnDemandThroughput Max{Read,Write}RequestUnits, WarmThroughput
 * {Read,Write}UnitsPerSecond. */
typedef struct {
  bool present; /* the object was sent */
  bool has_read, has_write;
  int64_t read, write;
} sl_units_in;

/* SL_AV_S, SL_AV_N or SL_AV_B of an AttributeType ("S", "N", "B"). */
uint8_t sl_schema_attr_type(sl_str type);

/* Checks a KeySchema (element order and types against the table's
 * definitions, with the service's messages) and stores it in 'out' (names
 * copied into the table's arena). */
sl_err sl_schema_key(sl_req *req, sl_table *t, const sl_key_schema_in *in, sl_key_schema *out);
/* A GSI's KeySchema: sl_schema_key's checks for what a single-attribute
 * schema allows, and multi-attribute keys (up to SL_KEY_MAX_PARTS HASH
 * elements, then up to SL_KEY_MAX_PARTS RANGE elements, dynamodb-facts §14)
 * with the service's messages otherwise. Key attributes must be defined
 * (sl_schema_check_keys_defined) before. */
sl_err sl_schema_gsi_key(sl_req *req, sl_table *t, const sl_key_schema_in *in, sl_key_schema *out);
/* Every key attribute of an index's KeySchema must be defined; the service
 * lists all its keys and all definitions when one is not. */
sl_err sl_schema_check_keys_defined(sl_req *req, const sl_table *t, const sl_key_schema_in *in);
/* Checks a Projection and stores it in the index. */
sl_err sl_schema_projection(sl_req *req, sl_table *t, const sl_projection_in *in, sl_index *x);
/* The index ARN of this server. */
sl_str sl_schema_index_arn(sl_table *t, sl_str index);

#endif
