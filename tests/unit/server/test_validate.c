/*
 * Unit tests of api/validate: the generic, model-driven request checks with
 * the service's exact texts.
 *
 * Sources: dynalite's tests (architect/dynalite test/createTable.js,
 * listTables.js, getItem.js; the serialization texts from its recent
 * test/helpers.js, which runs against the live service with REMOTE=1) and,
 * where newer, 2026 observations of the live service (dynamodb-conformance
 * tests/tier3/error-messages/<operation>.test.ts; ack-api-quirks DDB-TABLE-457). A
 * comment marks each case where we follow the newer evidence, and where
 * dynalite compares several errors as a set (its assertValidation with an
 * array ignores order), in which case the order pinned here is ours.
 *
 * DynamoDB Streams and Application Auto Scaling requests go through the same
 * walk with their own models (test_streams, test_autoscaling): the texts are
 * the generic Coral ones, the constraints their models'.
 *
 * Bodies use ' for " to stay readable; body() swaps them back.
 */
#include "harness.h"
#include "server/shapes.h"
#include "server/validate.h"

#include <stdlib.h>

static sl_arena A;

/* The X-Amz-Target prefixes of the three models. */
#define DDB "DynamoDB_20120810"
#define STREAMS "DynamoDBStreams_20120810"
#define ASG "AnyScaleFrontendService"

/* ---- helpers -------------------------------------------------------------------------------- */

static sl_err run(const char *svc, const char *op, const char *text, sl_failure *f) {
  size_t len = strlen(text);
  char *json = sl_arena_alloc(&A, len + 1);
  for (size_t i = 0; i <= len; i++)
    json[i] = text[i] == '\'' ? '"' : text[i];
  sl_json *j = NULL;
  sl_json_error e;
  sl_failure_init(f, &A);
  if (sl_json_parse(&A, json, len, &j, &e) != 0) {
    fprintf(stderr, "bad test JSON: %s (%s)\n", text, e.msg);
    return SL_E__COUNT;
  }
  return sl_api_validate(f, sl_str_c(svc), sl_str_c(op), j);
}

static void expect(int line, const char *svc, const char *op, const char *text, sl_err code,
                   const char *msg) {
  sl_failure f;
  sl_err rc = run(svc, op, text, &f);
  bool ok = rc == code;
  if (msg)
    ok = ok && f.has_message && f.message.len == strlen(msg) &&
         memcmp(f.message.p, msg, f.message.len) == 0;
  sl_t_checks++;
  if (!ok) {
    sl_t_failures++;
    fprintf(stderr, "%s:%d: %s: %s %s\n  got  %d \"%.*s\"\n  want %d \"%s\"\n", __FILE__, line,
            sl_t_current, op, text, rc, (int)f.message.len, f.message.p ? f.message.p : "", code,
            msg ? msg : "");
  }
}

/* "N validation error(s) detected: e1; e2; ..." from a NULL-terminated list. */
static const char *joined(const char *const *errs) {
  sl_buf b;
  sl_buf_init(&b, &A);
  int n = 0;
  while (errs[n])
    n++;
  sl_buf_printf(&b, "%d validation error%s detected: ", n, n > 1 ? "s" : "");
  for (int i = 0; i < n; i++)
    sl_buf_printf(&b, "%s%s", i ? "; " : "", errs[i]);
  sl_buf_putc(&b, 0);
  return b.p;
}

/* One constraint error: Value '<v>' at '<path>' failed to satisfy constraint: <c>. */
static const char *bad(const char *value, const char *path, const char *constraint) {
  return sl_arena_printf(&A, "Value '%s' at '%s' failed to satisfy constraint: %s", value, path,
                         constraint)
      .p;
}

static const char *nn(const char *path) {
  return sl_arena_printf(
             &A, "Value null at '%s' failed to satisfy constraint: Member must not be null", path)
      .p;
}

/* DynamoDB operations; the _IN forms name the service. */
#define VALID_IN(svc, op, text) expect(__LINE__, (svc), (op), (text), SL_OK, NULL)
#define SER_IN(svc, op, text, msg) expect(__LINE__, (svc), (op), (text), SL_E_SERIALIZATION, (msg))
#define VAL_IN(svc, op, text, msg) expect(__LINE__, (svc), (op), (text), SL_E_VALIDATION, (msg))
#define VALS_IN(svc, op, text, ...)                                                                \
  VAL_IN((svc), (op), (text), joined((const char *const[]){__VA_ARGS__, NULL}))
#define VALID(op, text) VALID_IN(DDB, (op), (text))
#define SER(op, text, msg) SER_IN(DDB, (op), (text), (msg))
#define VAL(op, text, msg) VAL_IN(DDB, (op), (text), (msg))
#define VALS(op, text, ...) VALS_IN(DDB, (op), (text), __VA_ARGS__)

#define NAME_RE "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
#define GE_LEN(n) "Member must have length greater than or equal to " #n
#define LE_LEN(n) "Member must have length less than or equal to " #n
#define GE_VAL(n) "Member must have value greater than or equal to " #n
#define LE_VAL(n) "Member must have value less than or equal to " #n
#define ENUM(list) "Member must satisfy enum value set: " list
#define START_MAP "Start of structure or map found where not expected"
#define TABLE_REQUIRED "The parameter 'TableName' is required but was not present in the request"

static char *repeat(char c, size_t n) {
  char *s = sl_arena_alloc(&A, n + 1);
  memset(s, c, n);
  s[n] = 0;
  return s;
}

/* A valid CreateTable body, open at the end so a case can add or override members. */
#define CT_OK                                                                                      \
  "{'TableName':'abc','AttributeDefinitions':[{'AttributeName':'a','AttributeType':'S'}],"         \
  "'KeySchema':[{'AttributeName':'a','KeyType':'HASH'}],"                                          \
  "'ProvisionedThroughput':{'ReadCapacityUnits':1,'WriteCapacityUnits':1}"

/* ---- CreateTable ---------------------------------------------------------------------------- */

/* dynalite test/createTable.js "serializations", with the modern texts. */
static void test_create_table_serialization(void) {
  SER("CreateTable", "{'TableName':true}", "TRUE_VALUE cannot be converted to String");
  SER("CreateTable", "{'TableName':false}", "FALSE_VALUE cannot be converted to String");
  SER("CreateTable", "{'TableName':23}", "NUMBER_VALUE cannot be converted to String");
  SER("CreateTable", "{'TableName':-2147483648}", "NUMBER_VALUE cannot be converted to String");
  SER("CreateTable", "{'TableName':34.56}", "DECIMAL_VALUE cannot be converted to String");
  SER("CreateTable", "{'TableName':[]}", "Unrecognized collection type class java.lang.String");
  SER("CreateTable", "{'TableName':{}}", START_MAP);
  SER("CreateTable", "{'AttributeDefinitions':'23'}", "Unexpected field type");
  SER("CreateTable", "{'AttributeDefinitions':34.56}", "Unexpected field type");
  SER("CreateTable", "{'AttributeDefinitions':{}}", START_MAP);
  SER("CreateTable", "{'KeySchema':true}", "Unexpected field type");
  SER("CreateTable", "{'LocalSecondaryIndexes':23}", "Unexpected field type");
  SER("CreateTable", "{'GlobalSecondaryIndexes':{}}", START_MAP);
  SER("CreateTable", "{'ProvisionedThroughput':'23'}", "Unexpected field type");
  SER("CreateTable", "{'ProvisionedThroughput':[]}",
      "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ProvisionedThroughput");
  SER("CreateTable", "{'ProvisionedThroughput':{'WriteCapacityUnits':'23'}}",
      "STRING_VALUE cannot be converted to Long");
  SER("CreateTable", "{'ProvisionedThroughput':{'WriteCapacityUnits':true}}",
      "TRUE_VALUE cannot be converted to Long");
  SER("CreateTable", "{'ProvisionedThroughput':{'ReadCapacityUnits':false}}",
      "FALSE_VALUE cannot be converted to Long");
  SER("CreateTable", "{'ProvisionedThroughput':{'ReadCapacityUnits':[]}}",
      "Unrecognized collection type class java.lang.Long");
  SER("CreateTable", "{'ProvisionedThroughput':{'ReadCapacityUnits':{}}}", START_MAP);
  SER("CreateTable", "{'KeySchema':[23]}", "Unexpected value type in payload");
  SER("CreateTable", "{'KeySchema':['23']}", "Unexpected value type in payload");
  SER("CreateTable", "{'KeySchema':[[]]}",
      "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.KeySchemaElement");
  SER("CreateTable", "{'KeySchema':[{'KeyType':23}]}",
      "NUMBER_VALUE cannot be converted to String");
  SER("CreateTable", "{'KeySchema':[{'AttributeName':true}]}",
      "TRUE_VALUE cannot be converted to String");
  SER("CreateTable", "{'AttributeDefinitions':[{'AttributeType':{}}]}", START_MAP);
  SER("CreateTable", "{'LocalSecondaryIndexes':[{'IndexName':1}]}",
      "NUMBER_VALUE cannot be converted to String");
  SER("CreateTable", "{'LocalSecondaryIndexes':[{'Projection':'x'}]}", "Unexpected field type");
  SER("CreateTable", "{'LocalSecondaryIndexes':[{'KeySchema':[{'KeyType':1.5}]}]}",
      "DECIMAL_VALUE cannot be converted to String");
  SER("CreateTable", "{'LocalSecondaryIndexes':[{'Projection':{'NonKeyAttributes':[true]}}]}",
      "TRUE_VALUE cannot be converted to String");
  SER("CreateTable", "{'LocalSecondaryIndexes':[{'Projection':{'ProjectionType':[]}}]}",
      "Unrecognized collection type class java.lang.String");
  SER("CreateTable",
      "{'GlobalSecondaryIndexes':[{'ProvisionedThroughput':{'ReadCapacityUnits':'5'}}]}",
      "STRING_VALUE cannot be converted to Long");
  SER("CreateTable", "{'GlobalSecondaryIndexes':[{'ProvisionedThroughput':[]}]}",
      "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ProvisionedThroughput");
  /* A type error anywhere wins over every constraint error. */
  SER("CreateTable", "{'TableName':'a;','KeySchema':[],'BillingMode':5}",
      "NUMBER_VALUE cannot be converted to String");
}

/* dynalite test/createTable.js "validations", and 2026 observations (marked). */
static void test_create_table_validation(void) {
  VAL("CreateTable", "{}", TABLE_REQUIRED);
  /* JSON null is the same as an absent member. */
  VAL("CreateTable", "{'TableName':null,'KeySchema':[]}", TABLE_REQUIRED);
  /* dynalite (older service) answers '', 'a;' and 256 characters with "TableName must be at
   * least 3 characters long and at most 255 characters long". The 2026 service answers 'ab'
   * with the generic form (dynamodb-conformance createTable.test.ts, exact), so we do that. */
  VALS("CreateTable", CT_OK ",'TableName':'ab'}", bad("ab", "tableName", GE_LEN(3)));
  VALS("CreateTable", CT_OK ",'TableName':''}", bad("", "tableName", NAME_RE),
       bad("", "tableName", GE_LEN(3)));
  VALS("CreateTable", CT_OK ",'TableName':'a;'}", bad("a;", "tableName", NAME_RE),
       bad("a;", "tableName", GE_LEN(3)));
  VALS("CreateTable", "{'TableName':'abc;'}", nn("attributeDefinitions"),
       bad("abc;", "tableName", NAME_RE), nn("keySchema"));
  VALS("CreateTable", "{'TableName':'abc','AttributeDefinitions':[]}", nn("keySchema"));
  VALS("CreateTable", "{'TableName':'abc','AttributeDefinitions':[],'ProvisionedThroughput':{}}",
       nn("provisionedThroughput.writeCapacityUnits"),
       nn("provisionedThroughput.readCapacityUnits"), nn("keySchema"));
  VALS("CreateTable",
       "{'TableName':'abc','AttributeDefinitions':[],'KeySchema':[],"
       "'ProvisionedThroughput':{'ReadCapacityUnits':-1,'WriteCapacityUnits':-1}}",
       bad("-1", "provisionedThroughput.writeCapacityUnits", GE_VAL(1)),
       bad("-1", "provisionedThroughput.readCapacityUnits", GE_VAL(1)),
       bad("[]", "keySchema", GE_LEN(1)));
  /* dynalite matches the echoed list with a regex; the 2026 service prints its elements in
   * this Lombok style (dynamodb-conformance createTable.test.ts). */
  VALS("CreateTable",
       "{'TableName':'abc','AttributeDefinitions':[],'KeySchema':[{'KeyType':'HASH'},"
       "{'AttributeName':'a'},{'KeyType':'Woop','AttributeName':'a'}],'ProvisionedThroughput':"
       "{'ReadCapacityUnits':1000000000001,'WriteCapacityUnits':1000000000001}}",
       bad("[KeySchemaElement(attributeName=null, keyType=HASH), KeySchemaElement(attributeName=a, "
           "keyType=null), KeySchemaElement(attributeName=a, keyType=Woop)]",
           "keySchema", LE_LEN(2)),
       nn("keySchema.1.member.attributeName"), nn("keySchema.2.member.keyType"),
       bad("Woop", "keySchema.3.member.keyType", ENUM("[HASH, RANGE]")));
  VALS("CreateTable",
       "{'TableName':'abc','AttributeDefinitions':[],'KeySchema':[{'KeyType':'HASH',"
       "'AttributeName':'a'}],'ProvisionedThroughput':{'ReadCapacityUnits':1000000000001,"
       "'WriteCapacityUnits':-1}}",
       bad("-1", "provisionedThroughput.writeCapacityUnits", GE_VAL(1)));
  /* A missing ProvisionedThroughput, out-of-bounds capacities and the key-schema rules are the
   * action's checks: the generic validator lets them through. */
  VALID("CreateTable", "{'TableName':'abc','AttributeDefinitions':[],'KeySchema':[{'KeyType':"
                       "'HASH','AttributeName':'a'}]}");
  VALID("CreateTable", CT_OK ",'KeySchema':[{'KeyType':'HASH','AttributeName':'a'},"
                             "{'KeyType':'HASH','AttributeName':'a'}]}");
  /* dynalite's order (a set there); a 2026 observation lists attributeType first. */
  VALS("CreateTable", CT_OK ",'AttributeDefinitions':[{}]}",
       nn("attributeDefinitions.1.member.attributeName"),
       nn("attributeDefinitions.1.member.attributeType"));
  VALS("CreateTable", CT_OK ",'AttributeDefinitions':[{'AttributeName':'b','AttributeType':'SS'}]}",
       bad("SS", "attributeDefinitions.1.member.attributeType", ENUM("[B, N, S]")));
  VALS("CreateTable", CT_OK ",'AttributeDefinitions':[{'AttributeName':'b','AttributeType':'a'}]}",
       bad("a", "attributeDefinitions.1.member.attributeType", ENUM("[B, N, S]")));
  /* dynamodb-conformance createTable.test.ts (2026, exact). */
  VALS("CreateTable", CT_OK ",'KeySchema':[{'AttributeName':'pk','KeyType':'INVALID'}]}",
       bad("INVALID", "keySchema.1.member.keyType", ENUM("[HASH, RANGE]")));
  VALS("CreateTable",
       CT_OK ",'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'},{'AttributeName':'sk',"
             "'KeyType':'RANGE'},{'AttributeName':'extra','KeyType':'RANGE'}]}",
       bad("[KeySchemaElement(attributeName=pk, keyType=HASH), KeySchemaElement(attributeName=sk, "
           "keyType=RANGE), KeySchemaElement(attributeName=extra, keyType=RANGE)]",
           "keySchema", LE_LEN(2)));
  /* 2026 observations (ack-api-quirks DDB-TABLE-457). */
  VALS("CreateTable", CT_OK ",'BillingMode':''}",
       bad("", "billingMode", ENUM("[PROVISIONED, PAY_PER_REQUEST]")));
  VALS("CreateTable", CT_OK ",'StreamSpecification':{'StreamEnabled':true,'StreamViewType':''}}",
       bad("", "streamSpecification.streamViewType",
           ENUM("[OLD_IMAGE, KEYS_ONLY, NEW_AND_OLD_IMAGES, NEW_IMAGE]")));
  VALS("CreateTable", CT_OK ",'SSESpecification':{'KMSMasterKeyId':''}}",
       bad("", "sSESpecification.kMSMasterKeyId", GE_LEN(1)));
  VALS("CreateTable", CT_OK ",'KeySchema':[{}]}", nn("keySchema.1.member.attributeName"),
       nn("keySchema.1.member.keyType"));
  /* Scalar list elements are checked together, and the bracket lists every constraint of the
   * element shape (dynalite validations/index.js childLengths). */
  VALS("CreateTable",
       CT_OK ",'GlobalSecondaryIndexes':[{'IndexName':'abc','KeySchema':[{'AttributeName':'a',"
             "'KeyType':'HASH'}],'Projection':{'ProjectionType':'INCLUDE','NonKeyAttributes':"
             "['a','']}}]}",
       bad("[a, ]", "globalSecondaryIndexes.1.member.projection.nonKeyAttributes",
           "Member must satisfy constraint: [Member must have length less than or equal to 255, "
           "Member must have length greater than or equal to 1]"));
  /* A table ARN is checked as an ARN (1..1024), not as a name. */
  VALID("CreateTable", CT_OK ",'TableName':'arn:aws:dynamodb:us-east-1:123456789012:table/abc'}");
  /* List elements that are structures are walked as '<list>.<n>.member'. */
  VALS("CreateTable", CT_OK ",'Tags':[{'Key':'k','Value':'v'},{'Key':'','Value':'v'}]}",
       bad("", "tags.2.member.key", GE_LEN(1)));
}

/* The error-count cap: dynalite test/createTable.js, nine empty LocalSecondaryIndexes give
 * exactly ten errors, the last 'localSecondaryIndexes.4.member.keySchema' (a set there). */
static void test_error_cap(void) {
  VALS("CreateTable",
       "{'TableName':'abc','AttributeDefinitions':[{'AttributeName':'a','AttributeType':'S'},"
       "{'AttributeName':'b','AttributeType':'S'}],'KeySchema':[{'KeyType':'HASH',"
       "'AttributeName':'a'},{'KeyType':'RANGE','AttributeName':'b'}],"
       "'LocalSecondaryIndexes':[{},{},{},{},{},{},{},{},{}],"
       "'ProvisionedThroughput':{'ReadCapacityUnits':1,'WriteCapacityUnits':1}}",
       nn("localSecondaryIndexes.1.member.keySchema"),
       nn("localSecondaryIndexes.1.member.projection"),
       nn("localSecondaryIndexes.1.member.indexName"),
       nn("localSecondaryIndexes.2.member.keySchema"),
       nn("localSecondaryIndexes.2.member.projection"),
       nn("localSecondaryIndexes.2.member.indexName"),
       nn("localSecondaryIndexes.3.member.keySchema"),
       nn("localSecondaryIndexes.3.member.projection"),
       nn("localSecondaryIndexes.3.member.indexName"),
       nn("localSecondaryIndexes.4.member.keySchema"));

  /* dynalite "bad LocalSecondaryIndex names" (a set there; our order). */
  const char *name = repeat('a', 256);
  VALS("CreateTable",
       sl_arena_printf(&A,
                       "{'TableName':'abc','AttributeDefinitions':[{'AttributeName':'a',"
                       "'AttributeType':'S'},{'AttributeName':'b','AttributeType':'S'}],"
                       "'KeySchema':[{'KeyType':'HASH','AttributeName':'a'}],"
                       "'LocalSecondaryIndexes':[{'IndexName':'h;','KeySchema':[],'Projection':{}},"
                       "{'IndexName':'%s','KeySchema':[{'AttributeName':'a','KeyType':'HASH'}],"
                       "'Projection':{}}],'ProvisionedThroughput':{'ReadCapacityUnits':1,"
                       "'WriteCapacityUnits':1}}",
                       name)
           .p,
       bad("[]", "localSecondaryIndexes.1.member.keySchema", GE_LEN(1)),
       bad("h;", "localSecondaryIndexes.1.member.indexName", NAME_RE),
       bad("h;", "localSecondaryIndexes.1.member.indexName", GE_LEN(3)),
       bad(name, "localSecondaryIndexes.2.member.indexName", LE_LEN(255)));

  /* Twelve problems are counted and listed as ten. */
  sl_failure f;
  CHECK_INT(run(DDB, "CreateTable",
                "{'TableName':'a;','AttributeDefinitions':[{},{},{},{},{},{}],'KeySchema':[]}", &f),
            SL_E_VALIDATION);
  CHECK(f.message.len > 31 && memcmp(f.message.p, "10 validation errors detected: ", 31) == 0);
  int n = 0;
  for (const char *p = f.message.p; (p = strstr(p, " failed to satisfy constraint: ")); p++)
    n++;
  CHECK_INT(n, 10);
}

/* ---- ListTables ----------------------------------------------------------------------------- */

/* dynalite test/listTables.js (exact strings recorded from the live service). */
static void test_list_tables(void) {
  VALID("ListTables", "{}");
  VALID("ListTables", "{'hi':'yo','stuff':'things'}");
  VALID("ListTables", "{'ExclusiveStartTableName':null,'Limit':null}");
  VALID("ListTables", "{'ExclusiveStartTableName':'aaa','Limit':100}");
  SER("ListTables", "{'ExclusiveStartTableName':true}", "TRUE_VALUE cannot be converted to String");
  SER("ListTables", "{'Limit':'23'}", "STRING_VALUE cannot be converted to Integer");
  SER("ListTables", "{'Limit':true}", "TRUE_VALUE cannot be converted to Integer");
  SER("ListTables", "{'Limit':false}", "FALSE_VALUE cannot be converted to Integer");
  SER("ListTables", "{'Limit':[]}", "Unrecognized collection type class java.lang.Integer");
  SER("ListTables", "{'Limit':{}}", START_MAP);
  /* "should serialize ExclusiveStartTableName before Limit", in both document orders. */
  SER("ListTables", "{'ExclusiveStartTableName':true,'Limit':true}",
      "TRUE_VALUE cannot be converted to String");
  SER("ListTables", "{'Limit':true,'ExclusiveStartTableName':true}",
      "TRUE_VALUE cannot be converted to String");
  /* "should return ValidationExceptions in order" */
  VALS("ListTables", "{'ExclusiveStartTableName':'a;','Limit':500}",
       bad("500", "limit", LE_VAL(100)), bad("a;", "exclusiveStartTableName", NAME_RE),
       bad("a;", "exclusiveStartTableName", GE_LEN(3)));
  VALS("ListTables", "{'ExclusiveStartTableName':''}", bad("", "exclusiveStartTableName", NAME_RE),
       bad("", "exclusiveStartTableName", GE_LEN(3)));
  const char *name = repeat('a', 256);
  VALS("ListTables", sl_arena_printf(&A, "{'ExclusiveStartTableName':'%s'}", name).p,
       bad(name, "exclusiveStartTableName", LE_LEN(255)));
  VALS("ListTables", "{'Limit':0}", bad("0", "limit", GE_VAL(1)));
  /* Integers: any JSON number is accepted, floored and clamped to the Java type (dynalite). */
  VALID("ListTables", "{'Limit':5.5}");
  VALID("ListTables", "{'Limit':1e2}");
  VALID("ListTables", "{'Limit':100.99}");
  VALS("ListTables", "{'Limit':0.5}", bad("0", "limit", GE_VAL(1)));
  VALS("ListTables", "{'Limit':-0.5}", bad("-1", "limit", GE_VAL(1)));
  VALS("ListTables", "{'Limit':1E-400}", bad("0", "limit", GE_VAL(1)));
  VALS("ListTables", "{'Limit':101}", bad("101", "limit", LE_VAL(100)));
  VALS("ListTables", "{'Limit':99999999999}", bad("2147483647", "limit", LE_VAL(100)));
  VALS("ListTables", "{'Limit':1e30}", bad("2147483647", "limit", LE_VAL(100)));
  VALS("ListTables", "{'Limit':-1e30}", bad("-2147483648", "limit", GE_VAL(1)));
  VALS("ListTables", "{'Limit':-99999999999999999999999}", bad("-2147483648", "limit", GE_VAL(1)));
}

/* ---- GetItem -------------------------------------------------------------------------------- */

/* dynalite test/getItem.js (exact strings), and the AttributeValue type checks of its
 * helpers' "AttrStruct". */
static void test_get_item(void) {
  VALS("GetItem", "{}", nn("tableName"), nn("key"));
  VALS("GetItem", "{'TableName':''}", bad("", "tableName", NAME_RE),
       bad("", "tableName", GE_LEN(3)), nn("key"));
  VALS("GetItem", "{'TableName':'a;'}", bad("a;", "tableName", NAME_RE),
       bad("a;", "tableName", GE_LEN(3)), nn("key"));
  const char *name = repeat('a', 256);
  VALS("GetItem", sl_arena_printf(&A, "{'TableName':'%s'}", name).p,
       bad(name, "tableName", LE_LEN(255)), nn("key"));
  VALS("GetItem", "{'TableName':'abc;','ReturnConsumedCapacity':'hi','AttributesToGet':[]}",
       bad("hi", "returnConsumedCapacity", ENUM("[INDEXES, TOTAL, NONE]")),
       bad("[]", "attributesToGet", GE_LEN(1)), bad("abc;", "tableName", NAME_RE), nn("key"));
  /* The AttributeValue datatype rules are the item codec's. */
  VALID("GetItem", "{'TableName':'abc','Key':{'a':{}}}");
  VALID("GetItem", "{'TableName':'abc','Key':{'a':{'S':'a','N':'1'}}}");
  VALID("GetItem", "{'TableName':'abc','Key':{'a':{'B':'!!!'}}}");
  VALID("GetItem", "{'TableName':'abc','Key':{}}");
  VALID("GetItem", "{'TableName':'abc','Key':{'a':{'S':'x'}},'ConsistentRead':true,"
                   "'ProjectionExpression':'a','ExpressionAttributeNames':{'#a':'a'}}");

  SER("GetItem", "{'TableName':'abc','Key':'23'}", "Unexpected field type");
  SER("GetItem", "{'TableName':'abc','Key':[]}",
      "Unrecognized collection type java.util.Map<java.lang.String, "
      "com.amazonaws.dynamodb.v20120810.AttributeValue>");
  SER("GetItem", "{'TableName':'abc','Key':{'a':23}}", "Unexpected value type in payload");
  SER("GetItem", "{'TableName':'abc','Key':{'a':[]}}",
      "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'S':23}}}",
      "NUMBER_VALUE cannot be converted to String");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'N':true}}}",
      "TRUE_VALUE cannot be converted to String");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'B':true}}}",
      "only base-64-encoded strings are convertible to bytes");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'B':34.56}}}",
      "only base-64-encoded strings are convertible to bytes");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'B':[]}}}",
      "Unrecognized collection type class java.nio.ByteBuffer");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'B':{}}}}", START_MAP);
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'BOOL':'23'}}}",
      "Unexpected token received from parser");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'NULL':23}}}",
      "NUMBER_VALUE cannot be converted to Boolean");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'NULL':34.56}}}",
      "DECIMAL_VALUE cannot be converted to Boolean");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'BOOL':[]}}}",
      "Unrecognized collection type class java.lang.Boolean");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'BOOL':{}}}}", START_MAP);
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'SS':'23'}}}", "Unexpected field type");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'SS':[1]}}}",
      "NUMBER_VALUE cannot be converted to String");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'BS':[true]}}}",
      "only base-64-encoded strings are convertible to bytes");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'L':{}}}}", START_MAP);
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'L':['x']}}}", "Unexpected value type in payload");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'L':[{'BS':[5]}]}}}",
      "only base-64-encoded strings are convertible to bytes");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'M':[]}}}",
      "Unrecognized collection type java.util.Map<java.lang.String, "
      "com.amazonaws.dynamodb.v20120810.AttributeValue>");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'M':{'b':{'BS':[0]}}}}}",
      "only base-64-encoded strings are convertible to bytes");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'S':'x'}},'ConsistentRead':'true'}",
      "Unexpected token received from parser");
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'S':'x'}},'AttributesToGet':{}}", START_MAP);
  SER("GetItem", "{'TableName':'abc','Key':{'a':{'S':'x'}},'ExpressionAttributeNames':[]}",
      "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>");
  /* Several type errors: the model's member order decides (Key comes before
   * ReturnConsumedCapacity there), whatever the validation order or the document order. */
  SER("GetItem", "{'ReturnConsumedCapacity':true,'Key':{'a':{'S':1}}}",
      "NUMBER_VALUE cannot be converted to String");
  /* Unknown members are ignored, whatever their type. */
  VALID("GetItem", "{'TableName':'abc','Key':{'a':{'S':'x','Q':[1]}},'Extra':{'x':1}}");
}

/* ---- PutItem -------------------------------------------------------------------------------- */

static void test_put_item(void) {
  VALID("PutItem", "{'TableName':'abc','Item':{'a':{'S':'x'}}}");
  VALS("PutItem", "{}", nn("tableName"), nn("item"));
  /* dynamodb-conformance putItem.test.ts (2026, exact). */
  VALS("PutItem", "{'Item':{'pk':{'S':'test'}}}", nn("tableName"));
  VALS("PutItem", "{'TableName':'bad table!@#','Item':{'pk':{'S':'test'}}}",
       bad("bad table!@#", "tableName", NAME_RE));
  const char *name = repeat('a', 256);
  VALS("PutItem", sl_arena_printf(&A, "{'TableName':'%s','Item':{'pk':{'S':'test'}}}", name).p,
       bad(name, "tableName", LE_LEN(255)));
  /* The 2026 service answers '' with the TableArn bound ("length greater than or equal to 1");
   * we answer as for any table name, like dynalite's GetItem case. */
  VALS("PutItem", "{'TableName':'','Item':{'pk':{'S':'test'}}}", bad("", "tableName", NAME_RE),
       bad("", "tableName", GE_LEN(3)));
  VALID("PutItem", "{'TableName':'arn:aws:dynamodb:us-east-1:123456789012:table/abc','Item':{}}");
  SER("PutItem", "{'TableName':'abc','Item':{'a':'x'}}", "Unexpected value type in payload");
  VALS("PutItem", "{'TableName':'abc','Item':{'a':{'S':'x'}},'ReturnValues':'x'}",
       bad("x", "returnValues", ENUM("[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]")));
  /* Map values are walked as '<map>.<key>.member'. */
  VALS("PutItem",
       "{'TableName':'abc','Item':{'a':{'S':'x'}},'Expected':{'a':{'ComparisonOperator':'XX'}}}",
       bad("XX", "expected.a.member.comparisonOperator",
           ENUM("[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, "
                "CONTAINS]")));
  SER("PutItem", "{'TableName':'abc','Item':{'a':{'S':'x'}},'Expected':{'a':{'Exists':'x'}}}",
      "Unexpected token received from parser");
  VALS("PutItem",
       "{'TableName':'abc','Item':{'a':{'S':'x'}},'ConditionalOperator':'XOR',"
       "'ReturnConsumedCapacity':'ALL','ReturnItemCollectionMetrics':'ALL'}",
       bad("ALL", "returnConsumedCapacity", ENUM("[INDEXES, TOTAL, NONE]")),
       bad("ALL", "returnItemCollectionMetrics", ENUM("[SIZE, NONE]")),
       bad("XOR", "conditionalOperator", ENUM("[OR, AND]")));

  /* An attribute name over 65535 characters: one error at the map, which echoes the item
   * with its AttributeValues printed the Java way ("...AttributeValue@<hex>"). */
  sl_failure f;
  const char *item =
      sl_arena_printf(&A, "{'TableName':'abc','Item':{'%s':{'S':'x'}}}", repeat('k', 65536)).p;
  CHECK_INT(run(DDB, "PutItem", item, &f), SL_E_VALIDATION);
  static const char head[] = "1 validation error detected: Value '{kkk";
  static const char tail[] = "' at 'item' failed to satisfy constraint: Map keys must satisfy "
                             "constraint: [Member must have length less than or equal to 65535]";
  CHECK(f.message.len > sizeof(head) + sizeof(tail));
  CHECK(memcmp(f.message.p, head, sizeof(head) - 1) == 0);
  CHECK(memcmp(f.message.p + f.message.len - (sizeof(tail) - 1), tail, sizeof(tail) - 1) == 0);
  CHECK(strstr(f.message.p, "k=com.amazonaws.dynamodb.v20120810.AttributeValue@") != NULL);
}

/* ---- UpdateTable ---------------------------------------------------------------------------- */

/* dynalite validations/updateTable.js order; the nested paths as in 2026 observations
 * ("globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.writeCapacityUnits"). */
static void test_update_table(void) {
  VAL("UpdateTable", "{}", TABLE_REQUIRED);
  VALS("UpdateTable", "{'TableName':'abc','ProvisionedThroughput':{'ReadCapacityUnits':1}}",
       nn("provisionedThroughput.writeCapacityUnits"));
  VALS("UpdateTable", "{'TableName':'abc;','ProvisionedThroughput':{}}",
       bad("abc;", "tableName", NAME_RE), nn("provisionedThroughput.writeCapacityUnits"),
       nn("provisionedThroughput.readCapacityUnits"));
  SER("UpdateTable",
      "{'TableName':'abc','ProvisionedThroughput':{'ReadCapacityUnits':'5','WriteCapacityUnits':5}"
      "}",
      "STRING_VALUE cannot be converted to Long");
  VALS("UpdateTable",
       "{'TableName':'abc','GlobalSecondaryIndexUpdates':[{'Update':{'IndexName':'a;',"
       "'ProvisionedThroughput':{}}}]}",
       bad("a;", "globalSecondaryIndexUpdates.1.member.update.indexName", NAME_RE),
       bad("a;", "globalSecondaryIndexUpdates.1.member.update.indexName", GE_LEN(3)),
       nn("globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.writeCapacityUnits"),
       nn("globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.readCapacityUnits"));
  VALS("UpdateTable", "{'TableName':'abc','GlobalSecondaryIndexUpdates':[{'Create':{}}]}",
       nn("globalSecondaryIndexUpdates.1.member.create.projection"),
       nn("globalSecondaryIndexUpdates.1.member.create.indexName"),
       nn("globalSecondaryIndexUpdates.1.member.create.keySchema"));
  VALS("UpdateTable",
       "{'TableName':'abc','GlobalSecondaryIndexUpdates':[{'Delete':{'IndexName':''}}]}",
       bad("", "globalSecondaryIndexUpdates.1.member.delete.indexName", NAME_RE),
       bad("", "globalSecondaryIndexUpdates.1.member.delete.indexName", GE_LEN(3)));
  VALS("UpdateTable",
       "{'TableName':'abc','AttributeDefinitions':[{'AttributeName':'a'}],"
       "'BillingMode':'PAY_PER_REQUEST'}",
       nn("attributeDefinitions.1.member.attributeType"));
  SER("UpdateTable", "{'TableName':'abc','GlobalSecondaryIndexUpdates':{}}", START_MAP);
  SER("UpdateTable", "{'TableName':'abc','GlobalSecondaryIndexUpdates':[{'Update':5}]}",
      "Unexpected field type");
  SER("UpdateTable",
      "{'TableName':'abc','ProvisionedThroughput':{'ReadCapacityUnits':2},"
      "'StreamSpecification':{'StreamEnabled':'yes'}}",
      "Unexpected token received from parser");
  /* A cross-member rule ("At least one of ProvisionedThroughput, ...") is the action's. */
  VALID("UpdateTable", "{'TableName':'abc'}");
}

/* ---- the other primitive kinds, the operation table ----------------------------------------- */

static void test_other_kinds(void) {
  /* Timestamps (inferred texts, see validate.c). */
  SER("ExportTableToPointInTime", "{'TableArn':'arn:x','S3Bucket':'bucket','ExportTime':'now'}",
      "STRING_VALUE cannot be converted to milliseconds since epoch");
  VALID("ExportTableToPointInTime", "{'TableArn':'arn:x','S3Bucket':'bucket','ExportTime':1.5e9}");
  SER("ExportTableToPointInTime", "{'TableArn':'arn:x','S3Bucket':'bucket','ExportTime':[]}",
      "Unrecognized collection type class java.util.Date");
  /* 2026 observation "export_bucket_empty" (exact). */
  VALS("ExportTableToPointInTime", "{'TableArn':'arn:x','S3Bucket':''}",
       bad("", "s3Bucket",
           "Member must satisfy regular expression pattern: "
           "^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$"));
  /* Ranged integers elsewhere: 2026 observations "list_backups_limit0", "ucb_enable_days0". */
  VALS("ListBackups", "{'Limit':0}", bad("0", "limit", GE_VAL(1)));
  VALS("UpdateContinuousBackups",
       "{'TableName':'abc','PointInTimeRecoverySpecification':"
       "{'PointInTimeRecoveryEnabled':true,'RecoveryPeriodInDays':0}}",
       bad("0", "pointInTimeRecoverySpecification.recoveryPeriodInDays", GE_VAL(1)));
  VALS("UpdateTimeToLive", "{'TableName':'abc','TimeToLiveSpecification':{}}",
       nn("timeToLiveSpecification.enabled"), nn("timeToLiveSpecification.attributeName"));
  /* The service's 2026 wording for BatchGetItem's and BatchWriteItem's bounds (validate.c,
   * "REWORD_"): no echo, the path in the request's member names. 101 keys for one table
   * gives the KeyList bound at 'RequestItems.<table>.member.Keys'. */
  {
    sl_buf b;
    sl_buf_init(&b, &A);
    sl_buf_printf(&b, "{'RequestItems':{'tbl':{'Keys':[");
    for (int i = 0; i < 101; i++)
      sl_buf_printf(&b, "%s{'k':{'B':'AAAA'}}", i ? "," : "");
    sl_buf_printf(&b, "]}}}");
    sl_buf_putc(&b, 0);
    sl_failure f;
    CHECK_INT(run(DDB, "BatchGetItem", b.p, &f), SL_E_VALIDATION);
    CHECK_STR(f.message, "1 validation error detected: Value at 'RequestItems.tbl.member.Keys' "
                         "failed to satisfy constraint: Member must have length less than or "
                         "equal to 100");
  }
  /* A map value that is a list: in the 2026 wording its bounds are reported at the value
   * (BatchWriteItem with 26 requests: "Value at 'RequestItems.<table>.member'"). */
  VAL("BatchWriteItem", "{'RequestItems':{'tbl':[]}}",
      "1 validation error detected: Value at 'RequestItems.tbl.member' failed to satisfy "
      "constraint: Member must have length greater than or equal to 1");
  VAL("BatchGetItem", "{'RequestItems':{}}",
      "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: "
      "Member must have length greater than or equal to 1");
  VAL("Query", "{'TableName':'abc','Limit':0}",
      "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must "
      "have value greater than or equal to 1");
  /* RequestItems' map keys: the map echoed as compact JSON, as sent; in
   * BatchWriteItem only when nothing else fails (validate.c map_key_error). */
  VAL("BatchGetItem", "{'RequestItems':{'a':{'Keys':[{'pk':{'S':'x'}}]}}}",
      "1 validation error detected: Value '{\"a\":{\"Keys\":[{\"pk\":{\"S\":\"x\"}}]}}' at "
      "'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: [Member "
      "must have length less than or equal to 255, Member must have length greater than or equal "
      "to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]");
  VAL("BatchWriteItem",
      "{'RequestItems':{'a':[{'DeleteRequest':{'Key':{'pk':{'S':'x'}}}}]},"
      "'ReturnConsumedCapacity':'X'}",
      "1 validation error detected: Value 'X' at 'returnConsumedCapacity' failed to satisfy "
      "constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]");
  /* Scan's Limit takes the newer form (since September 2026); ListTables' keeps the older. */
  VAL("Scan", "{'TableName':'abc','Limit':0}",
      "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must "
      "have value greater than or equal to 1");
  VALS("ListTables", "{'Limit':0}", bad("0", "limit", GE_VAL(1)));
  /* The transactions' lists over their maximum: not echoed. */
  {
    sl_buf b;
    sl_buf_init(&b, &A);
    sl_buf_puts(&b, SL_STR("{'TransactItems':["));
    for (int i = 0; i < 101; i++)
      sl_buf_printf(&b, "%s{'Get':{'TableName':'abc','Key':{'pk':{'S':'a'}}}}", i ? "," : "");
    sl_buf_puts(&b, SL_STR("]}"));
    sl_buf_putc(&b, 0);
    VAL("TransactGetItems", b.p,
        "1 validation error detected: Value at 'transactItems' failed to satisfy constraint: "
        "Member must have length less than or equal to 100");
  }
  VALS("DescribeTable", "{'TableName':'ab'}", bad("ab", "tableName", GE_LEN(3)));
  VAL("DescribeTable", "{}", TABLE_REQUIRED);
  VAL("DeleteTable", "{}", TABLE_REQUIRED);
  VALID("DescribeLimits", "{}");
  VALID("DescribeLimits", "{'anything':[1,2]}");
  VALID("DescribeEndpoints", "{}");
  /* A body that is not an object (inferred texts). */
  SER("ListTables", "[]",
      "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ListTablesInput");
  SER("ListTables", "5", "Unexpected value type in payload");
  VALID("ListTables", "null");

  sl_failure f;
  sl_failure_init(&f, &A);
  CHECK_INT(sl_api_validate(&f, SL_STR(DDB), SL_STR("ListTables"), NULL), SL_OK);
  sl_failure_init(&f, &A);
  CHECK_INT(sl_api_validate(&f, SL_STR(DDB), SL_STR("NoSuchOp"), NULL), SL_E_UNKNOWN_OPERATION);
  sl_failure_init(&f, &A);
  CHECK_INT(sl_api_validate(&f, SL_STR(STREAMS), SL_STR("ListTables"), NULL),
            SL_E_UNKNOWN_OPERATION);
  CHECK(sl_api_op_known(SL_STR(DDB), SL_STR("PutItem")));
  CHECK(sl_api_op_known(SL_STR(DDB), SL_STR("BatchExecuteStatement")));
  CHECK(sl_api_op_known(SL_STR(DDB), SL_STR("UpdateTimeToLive")));
  CHECK(!sl_api_op_known(SL_STR(DDB), SL_STR("putItem")));
  CHECK(!sl_api_op_known(SL_STR(DDB), SL_STR("")));
  CHECK(!sl_api_op_known(SL_STR(DDB), SL_STR("PutItemX")));
  /* Each service knows its own operations only; TagResource is in two. */
  CHECK(sl_api_op_known(SL_STR(STREAMS), SL_STR("GetRecords")));
  CHECK(sl_api_op_known(SL_STR(STREAMS), SL_STR("DescribeStream")));
  CHECK(!sl_api_op_known(SL_STR(DDB), SL_STR("GetRecords")));
  CHECK(!sl_api_op_known(SL_STR(STREAMS), SL_STR("PutItem")));
  CHECK(sl_api_op_known(SL_STR(ASG), SL_STR("RegisterScalableTarget")));
  CHECK(sl_api_op_known(SL_STR(ASG), SL_STR("TagResource")));
  CHECK(sl_api_op_known(SL_STR(DDB), SL_STR("TagResource")));
  CHECK(!sl_api_op_known(SL_STR(DDB), SL_STR("RegisterScalableTarget")));
  CHECK(!sl_api_op_known(SL_STR("DynamoDB_2012081"), SL_STR("PutItem")));
  CHECK(!sl_api_op_known(SL_STR(""), SL_STR("PutItem")));
  CHECK_INT(sl_shape_ops_n, 57 + 4 + 14);
  for (size_t i = 1; i < sl_shape_ops_n; i++) {
    int c = sl_str_cmp(sl_shape_ops[i - 1].service, sl_shape_ops[i].service);
    CHECK(c < 0 || (c == 0 && sl_str_cmp(sl_shape_ops[i - 1].name, sl_shape_ops[i].name) < 0));
  }
}

/* ---- DynamoDB Streams ----------------------------------------------------------------------- */

/* The model's constraints (botocore dynamodbstreams 2012-08-10) with the generic texts. */
static void test_streams(void) {
  VALID_IN(STREAMS, "GetRecords", "{'ShardIterator':'it','Limit':1}");
  VAL_IN(STREAMS, "GetRecords", "{'ShardIterator':'it','Limit':0}",
         "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
         "Member must have value greater than or equal to 1");
  /* The model bounds Limit below only (PositiveIntegerObject, shared with
   * DescribeStream and ListStreams); the 1,000-record cap of GetRecords is the
   * operation's to enforce, not the generic walk's. */
  VALID_IN(STREAMS, "GetRecords", "{'ShardIterator':'it','Limit':1001}");
  VAL_IN(STREAMS, "GetRecords", "{}", joined((const char *const[]){nn("shardIterator"), NULL}));
  VAL_IN(STREAMS, "GetRecords", "{'ShardIterator':''}",
         joined((const char *const[]){bad("", "shardIterator", GE_LEN(1)), NULL}));
  SER_IN(STREAMS, "GetRecords", "{'ShardIterator':'it','Limit':'5'}",
         "STRING_VALUE cannot be converted to Integer");
  /* The Java package is inferred from the namespace of Streams' own exceptions. */
  SER_IN(STREAMS, "GetRecords", "[]",
         "Unrecognized collection type "
         "class com.amazonaws.dynamodb.streams.v20120810.GetRecordsInput");

  const char *arn =
      "arn:aws:dynamodb:us-east-1:123456789012:table/t/stream/2026-12-01T00:00:00.000";
  const char *shard = "shardId-00000001700000000000-abcdef01";
  VALID_IN(STREAMS, "GetShardIterator",
           sl_arena_printf(&A, "{'StreamArn':'%s','ShardId':'%s','ShardIteratorType':'LATEST'}",
                           arn, shard)
               .p);
  VAL_IN(STREAMS, "GetShardIterator",
         sl_arena_printf(&A, "{'StreamArn':'%s','ShardId':'%s'}", arn, shard).p,
         joined((const char *const[]){nn("shardIteratorType"), NULL}));
  VAL_IN(STREAMS, "GetShardIterator",
         sl_arena_printf(&A, "{'StreamArn':'%s','ShardId':'%s','ShardIteratorType':'FIRST'}", arn,
                         shard)
             .p,
         joined((const char *const[]){
             bad("FIRST", "shardIteratorType",
                 ENUM("[TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]")),
             NULL}));
  /* Missing members in model order. */
  VALS_IN(STREAMS, "GetShardIterator", "{}", nn("streamArn"), nn("shardId"),
          nn("shardIteratorType"));
  VALS_IN(STREAMS, "GetShardIterator",
          "{'StreamArn':'arn','ShardId':'s','ShardIteratorType':'AT_SEQUENCE_NUMBER',"
          "'SequenceNumber':'1'}",
          bad("arn", "streamArn", GE_LEN(37)), bad("s", "shardId", GE_LEN(28)),
          bad("1", "sequenceNumber", GE_LEN(21)));

  /* Streams' TableName is a plain name: DynamoDB's name-or-ARN rule does not
   * apply, and an ARN breaks the pattern. */
  VALID_IN(STREAMS, "ListStreams", "{'TableName':'abc','Limit':100}");
  VAL_IN(STREAMS, "ListStreams", "{'TableName':'ab'}",
         joined((const char *const[]){bad("ab", "tableName", GE_LEN(3)), NULL}));
  VAL_IN(STREAMS, "ListStreams", "{'TableName':'arn:aws:dynamodb:us-east-1:1:table/abc'}",
         joined((const char *const[]){
             bad("arn:aws:dynamodb:us-east-1:1:table/abc", "tableName", NAME_RE), NULL}));
  /* DescribeStream has no TableName: no "TableName is required" message. */
  VAL_IN(STREAMS, "DescribeStream", "{}", joined((const char *const[]){nn("streamArn"), NULL}));
}

/* ---- Application Auto Scaling --------------------------------------------------------------- */

#define ASG_NAMESPACES                                                                             \
  "[ecs, elasticmapreduce, ec2, appstream, dynamodb, rds, sagemaker, custom-resource, "            \
  "comprehend, lambda, cassandra, kafka, elasticache, neptune, workspaces]"
#define ASG_DIMENSIONS                                                                             \
  "[ecs:service:DesiredCount, ec2:spot-fleet-request:TargetCapacity, "                             \
  "elasticmapreduce:instancegroup:InstanceCount, appstream:fleet:DesiredCapacity, "                \
  "dynamodb:table:ReadCapacityUnits, dynamodb:table:WriteCapacityUnits, "                          \
  "dynamodb:index:ReadCapacityUnits, dynamodb:index:WriteCapacityUnits, "                          \
  "rds:cluster:ReadReplicaCount, sagemaker:variant:DesiredInstanceCount, "                         \
  "custom-resource:ResourceType:Property, "                                                        \
  "comprehend:document-classifier-endpoint:DesiredInferenceUnits, "                                \
  "comprehend:entity-recognizer-endpoint:DesiredInferenceUnits, "                                  \
  "lambda:function:ProvisionedConcurrency, cassandra:table:ReadCapacityUnits, "                    \
  "cassandra:table:WriteCapacityUnits, kafka:broker-storage:VolumeSize, "                          \
  "elasticache:cache-cluster:Nodes, elasticache:replication-group:NodeGroups, "                    \
  "elasticache:replication-group:Replicas, neptune:cluster:ReadReplicaCount, "                     \
  "sagemaker:variant:DesiredProvisionedConcurrency, "                                              \
  "sagemaker:inference-component:DesiredCopyCount, workspaces:workspacespool:DesiredUserSessions]"
#define SCHEDULED_ACTION_NAME_RE                                                                   \
  "Member must satisfy regular expression pattern: "                                               \
  "(?!((^[ ]+.*)|(.*([\\u0000-\\u001f]|[\\u007f-\\u009f]|[:/|])+.*)|(.*[ ]+$))).+"

/* JSON 1.1, the same Coral texts; the model's constraints (botocore
 * application-autoscaling 2016-02-06), enums in model order. */
static void test_autoscaling(void) {
  VALID_IN(ASG, "RegisterScalableTarget",
           "{'ServiceNamespace':'dynamodb','ResourceId':'table/t',"
           "'ScalableDimension':'dynamodb:table:ReadCapacityUnits','MinCapacity':1,"
           "'MaxCapacity':10}");
  VAL_IN(ASG, "RegisterScalableTarget",
         "{'ResourceId':'table/t','ScalableDimension':'dynamodb:table:ReadCapacityUnits'}",
         joined((const char *const[]){nn("serviceNamespace"), NULL}));
  VAL_IN(ASG, "RegisterScalableTarget",
         "{'ServiceNamespace':'dynamodb','ResourceId':'table/t',"
         "'ScalableDimension':'dynamodb:table:ReadUnits'}",
         joined((const char *const[]){
             bad("dynamodb:table:ReadUnits", "scalableDimension", ENUM(ASG_DIMENSIONS)), NULL}));
  VALS_IN(ASG, "RegisterScalableTarget", "{'ServiceNamespace':'DynamoDB','ResourceId':''}",
          bad("DynamoDB", "serviceNamespace", ENUM(ASG_NAMESPACES)),
          bad("", "resourceId", GE_LEN(1)), nn("scalableDimension"));
  SER_IN(ASG, "RegisterScalableTarget",
         "{'ServiceNamespace':'dynamodb','ResourceId':'table/t',"
         "'ScalableDimension':'dynamodb:table:ReadCapacityUnits','MinCapacity':'1'}",
         "STRING_VALUE cannot be converted to Integer");
  SER_IN(ASG, "DescribeScalableTargets", "{'ServiceNamespace':'dynamodb','ResourceIds':'table/t'}",
         "Unexpected field type");

  /* ScheduledActionName's lookahead pattern, through its equivalent. */
  const char *put = "{'ServiceNamespace':'dynamodb','ResourceId':'table/t',"
                    "'ScalableDimension':'dynamodb:table:WriteCapacityUnits',"
                    "'ScheduledActionName':'%s'}";
  VALID_IN(ASG, "PutScheduledAction", sl_arena_printf(&A, put, "nightly scale-in").p);
  VAL_IN(ASG, "PutScheduledAction", sl_arena_printf(&A, put, " nightly").p,
         joined((const char *const[]){
             bad(" nightly", "scheduledActionName", SCHEDULED_ACTION_NAME_RE), NULL}));
  VAL_IN(ASG, "PutScheduledAction", sl_arena_printf(&A, put, "a:b").p,
         joined((const char *const[]){bad("a:b", "scheduledActionName", SCHEDULED_ACTION_NAME_RE),
                                      NULL}));

  VALID_IN(ASG, "ListTagsForResource",
           "{'ResourceARN':'arn:aws:application-autoscaling:us-east-1:123456789012:"
           "scalable-target/0123456789abcdef'}");
  VAL_IN(ASG, "ListTagsForResource", "{'ResourceARN':'arn:aws:dynamodb:us-east-1:1:table/t'}",
         joined((const char *const[]){
             bad("arn:aws:dynamodb:us-east-1:1:table/t", "resourceARN",
                 "Member must satisfy regular expression pattern: "
                 "^arn:.+:application-autoscaling:.+:[0-9]+:scalable-target\\/[a-zA-Z0-9-]+$"),
             NULL}));
}

/* ---- regex ---------------------------------------------------------------------------------- */

static unsigned re_index(const char *src) {
  for (unsigned i = 1; i < 64 && sl_res[i].source.p; i++)
    if (sl_str_eq_c(sl_res[i].source, src))
      return i;
  fprintf(stderr, "pattern not in the model: %s\n", src);
  sl_t_failures++;
  return 0;
}

#define MATCH(re, s) sl_api_regex_match((re), sl_str_make((s), sizeof(s) - 1))

/* Every pattern the model's inputs use, with Java's full-match semantics. */
static void test_regex(void) {
  unsigned name = re_index("[a-zA-Z0-9_.-]+");
  CHECK(MATCH(name, "abc"));
  CHECK(MATCH(name, "A_b.c-9"));
  CHECK(!MATCH(name, ""));
  CHECK(!MATCH(name, "abc;"));
  CHECK(!MATCH(name, "a b"));
  CHECK(!MATCH(name, "\xc3\xa9t\xc3\xa9"));

  unsigned acct = re_index("[0-9]{12}");
  CHECK(MATCH(acct, "123456789012"));
  CHECK(!MATCH(acct, "12345678901"));
  CHECK(!MATCH(acct, "1234567890123"));

  unsigned bucket = re_index("^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$");
  CHECK(MATCH(bucket, "ab"));
  CHECK(MATCH(bucket, "my-bucket.name_1"));
  CHECK(!MATCH(bucket, "a"));
  CHECK(!MATCH(bucket, "-ab"));
  CHECK(!MATCH(bucket, "ab-"));
  CHECK(!MATCH(bucket, "a b"));

  unsigned delim = re_index("[,;:|\\t ]");
  CHECK(MATCH(delim, ","));
  CHECK(MATCH(delim, "\t"));
  CHECK(!MATCH(delim, ",,"));
  CHECK(!MATCH(delim, "x"));

  unsigned nodollar = re_index("^[^\\$]+$");
  CHECK(MATCH(nodollar, "abc"));
  CHECK(MATCH(nodollar, "\xe2\x82\xac"));
  CHECK(!MATCH(nodollar, "a$b"));
  CHECK(!MATCH(nodollar, ""));

  unsigned hex16 = re_index("([0-9a-f]{16})+");
  CHECK(MATCH(hex16, "0123456789abcdef"));
  CHECK(MATCH(hex16, "0123456789abcdef0123456789abcdef"));
  CHECK(!MATCH(hex16, "0123456789abcde"));
  CHECK(!MATCH(hex16, "0123456789abcdef0"));
  CHECK(!MATCH(hex16, "0123456789ABCDEF"));
  CHECK(!MATCH(hex16, ""));

  unsigned xml =
      re_index("[\\u0020-\\uD7FF\\uE000-\\uFFFD\\uD800\\uDC00-\\uDBFF\\uDFFF\\r\\n\\t]*");
  CHECK(MATCH(xml, ""));
  CHECK(MATCH(xml, "a b\r\n\t"));
  CHECK(MATCH(xml, "\xf0\x9f\x98\x80")); /* U+1F600, a supplementary code point */
  CHECK(MATCH(xml, "\xef\xbf\xbd"));     /* U+FFFD */
  CHECK(!MATCH(xml, "\x01"));
  CHECK(!MATCH(xml, "\xef\xbf\xbe")); /* U+FFFE */

  unsigned token = re_index("[\\x20-\\x21\\x23-\\x2B\\x2D-\\x7E]*");
  CHECK(MATCH(token, "abc !#"));
  CHECK(!MATCH(token, "a\"b"));
  CHECK(!MATCH(token, "a,b"));

  unsigned print = re_index("\\p{Print}+");
  CHECK(MATCH(print, "Hello, world ~"));
  CHECK(!MATCH(print, ""));
  CHECK(!MATCH(print, "tab\there"));
  CHECK(!MATCH(print, "\xc3\xa9"));

  /* Application Auto Scaling: '.' is any code point but a line terminator. */
  unsigned target = re_index("^arn:.+:application-autoscaling:.+:[0-9]+:scalable-target\\/"
                             "[a-zA-Z0-9-]+$");
  CHECK(MATCH(target, "arn:aws:application-autoscaling:us-east-1:123456789012:"
                      "scalable-target/0abc-1"));
  CHECK(MATCH(target, "arn:x\xc3\xa9:application-autoscaling:r:1:scalable-target/a"));
  CHECK(!MATCH(target, "arn:aws\n:application-autoscaling:r:1:scalable-target/a"));
  CHECK(!MATCH(target, "arn::application-autoscaling:r:1:scalable-target/a"));
  CHECK(!MATCH(target, "arn:aws:application-autoscaling:r:x:scalable-target/a"));
  CHECK(!MATCH(target, "arn:aws:application-autoscaling:r:1:scalable-target/a_b"));
  unsigned action = re_index("(?!((^[ ]+.*)|(.*([\\u0000-\\u001f]|[\\u007f-\\u009f]|[:/|])+.*)|"
                             "(.*[ ]+$))).+");
  CHECK(MATCH(action, "a"));
  CHECK(MATCH(action, "a b"));
  CHECK(MATCH(action, "\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80"));
  CHECK(!MATCH(action, ""));
  CHECK(!MATCH(action, " "));
  CHECK(!MATCH(action, " a"));
  CHECK(!MATCH(action, "a "));
  CHECK(!MATCH(action, "a/b"));
  CHECK(!MATCH(action, "a|b"));
  CHECK(!MATCH(action, "a\tb"));
  CHECK(!MATCH(action, "a\xc2\x85")); /* U+0085, a C1 control */
  CHECK(!MATCH(action, "a\xe2\x80\xa8"
                       "b")); /* U+2028, a line terminator */

  /* Long inputs stay linear for the class-only patterns. */
  char *longname = repeat('a', 100000);
  CHECK(sl_api_regex_match(name, sl_str_c(longname)));
  char *longhex = repeat('a', 16 * 1000);
  CHECK(sl_api_regex_match(hex16, sl_str_c(longhex)));
  /* A group repeated past the matcher's bound is "no match", not a deep stack. */
  char *hugehex = repeat('a', 16 * 100000);
  CHECK(!sl_api_regex_match(hex16, sl_str_c(hugehex)));
}

int main(void) {
  sl_arena_init(&A);
  RUN(test_create_table_serialization);
  RUN(test_create_table_validation);
  RUN(test_error_cap);
  RUN(test_list_tables);
  RUN(test_get_item);
  RUN(test_put_item);
  RUN(test_update_table);
  RUN(test_other_kinds);
  RUN(test_streams);
  RUN(test_autoscaling);
  RUN(test_regex);
  sl_arena_destroy(&A);
  return DONE();
}
