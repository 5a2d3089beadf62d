"""Item collections of tables with local secondary indexes (facts §3, developer guide
"Item collections"): the items of one partition key plus their LSI entries are limited to
10 GB (item_collection_max_bytes; the tests lower it on a private server), a write that
would grow a collection past it fails with ItemCollectionSizeLimitExceededException
("Collection size exceeded.") while shrinking writes still pass, and
ReturnItemCollectionMetrics SIZE reports {ItemCollectionKey, SizeEstimateRangeGB}.

DynamoDB Local neither limits collections nor returns ItemCollectionMetrics.
"""
import uuid

import pytest

from conftest import Raw, Server

LIMIT = 5000


def lsi_table_body(name, projection="ALL"):
    return {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "S"},
                                     {"AttributeName": "l", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "LocalSecondaryIndexes": [{
                "IndexName": "lsi1",
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "l", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": projection}}]}


def item(pk, sk, size=1000, l="x"):
    """An item of `size` bytes; with `l` it is projected whole into lsi1."""
    it = {"pk": {"S": pk}, "sk": {"S": sk}}
    used = 2 + len(pk) + 2 + len(sk)
    if l is not None:
        it["l"] = {"S": l}
        used += 1 + len(l)
    it["p"] = {"S": "y" * (size - used - 1)}
    return it


@pytest.fixture(scope="module")
def small():
    """A private sluice whose item collections hold at most LIMIT bytes."""
    import tempfile, os
    d = tempfile.mkdtemp()
    cfg = os.path.join(d, "lsi.conf")
    with open(cfg, "w") as f:
        f.write(f"item_collection_max_bytes = {LIMIT}\n")
    srv = Server(["--config", cfg])
    yield Raw(srv.endpoint)
    srv.stop()


def new_table(raw, body):
    r = raw.call("CreateTable", body)
    assert r.status == 200, r
    return body["TableName"]


def put(raw, table, it, **kw):
    return raw.call("PutItem", dict(kw, TableName=table, Item=it))


# Items of 1,000 bytes projected whole into the LSI count 2,000 each: the third exceeds
# 5,000 and is refused, without effect; other collections are not concerned.
@pytest.mark.sluice_only
def test_collection_limit(small):
    t = new_table(small, lsi_table_body("lsi_limit"))
    assert put(small, t, item("a", "1")).status == 200
    assert put(small, t, item("a", "2")).status == 200
    r = put(small, t, item("a", "3"))
    assert (r.status, r.error_type, r.message) == (
        400, "ItemCollectionSizeLimitExceededException", "Collection size exceeded.")
    r = small.call("GetItem", {"TableName": t, "Key": {"pk": {"S": "a"}, "sk": {"S": "3"}}})
    assert "Item" not in r.json
    assert put(small, t, item("b", "1")).status == 200


# Writes that shrink a full collection pass, and then it can grow again (developer guide).
@pytest.mark.sluice_only
def test_shrinking_writes_pass(small):
    t = new_table(small, lsi_table_body("lsi_shrink"))
    assert put(small, t, item("a", "1")).status == 200
    assert put(small, t, item("a", "2")).status == 200
    assert put(small, t, item("a", "3")).status == 400
    # Replacing an item by a smaller one, and deleting one.
    assert put(small, t, item("a", "1", size=100)).status == 200
    assert small.call("DeleteItem", {"TableName": t,
                                     "Key": {"pk": {"S": "a"}, "sk": {"S": "2"}}}).status == 200
    assert put(small, t, item("a", "3")).status == 200
    assert put(small, t, item("a", "4")).status == 200


# Only LSI entries count besides the items: an item without the LSI key counts once, and a
# KEYS_ONLY projection adds only the keys.
@pytest.mark.sluice_only
def test_what_counts(small):
    t = new_table(small, lsi_table_body("lsi_counts"))
    for i in range(5):
        assert put(small, t, item("a", str(i), l=None)).status == 200
    assert put(small, t, item("a", "5", l=None)).status == 400
    k = new_table(small, lsi_table_body("lsi_keys", projection="KEYS_ONLY"))
    for i in range(4):
        assert put(small, k, item("a", str(i))).status == 200
    assert put(small, k, item("a", "4")).status == 400


# UpdateItem growing an item past the limit is refused too.
@pytest.mark.sluice_only
def test_update_growth_refused(small):
    t = new_table(small, lsi_table_body("lsi_update"))
    assert put(small, t, item("a", "1")).status == 200
    assert put(small, t, item("a", "2")).status == 200
    r = small.call("UpdateItem", {"TableName": t, "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}},
                                  "UpdateExpression": "SET q = :v",
                                  "ExpressionAttributeValues": {":v": {"S": "z" * 1500}}})
    assert (r.status, r.error_type) == (400, "ItemCollectionSizeLimitExceededException")
    r = small.call("UpdateItem", {"TableName": t, "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}},
                                  "UpdateExpression": "REMOVE p"})
    assert r.status == 200, r


# Tables without an LSI have no item-collection limit.
@pytest.mark.sluice_only
def test_no_limit_without_lsi(small):
    body = lsi_table_body("lsi_none")
    del body["LocalSecondaryIndexes"]
    body["AttributeDefinitions"] = body["AttributeDefinitions"][:2]
    t = new_table(small, body)
    for i in range(10):
        assert put(small, t, item("a", str(i))).status == 200


# --- ReturnItemCollectionMetrics ---------------------------------------------------------------

def collection_metrics(reply):
    return reply.json.get("ItemCollectionMetrics")


# The documented example shape: the collection's partition key and [0.0, 1.0] for a
# collection under one gigabyte (developer guide, LSI "Item collections").
# ddblocal_differs: DynamoDB Local returns no ItemCollectionMetrics.
@pytest.mark.ddblocal_differs
def test_metrics_of_put_update_delete(raw, make_table):
    name = "t_" + uuid.uuid4().hex[:12]
    r = raw.call("CreateTable", lsi_table_body(name))
    assert r.status == 200
    try:
        expected = {"ItemCollectionKey": {"pk": {"S": "a"}}, "SizeEstimateRangeGB": [0.0, 1.0]}
        r = put(raw, name, item("a", "1"), ReturnItemCollectionMetrics="SIZE")
        assert r.status == 200 and collection_metrics(r) == expected
        r = raw.call("UpdateItem", {"TableName": name, "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}},
                                    "UpdateExpression": "SET q = :v",
                                    "ExpressionAttributeValues": {":v": {"S": "z"}},
                                    "ReturnItemCollectionMetrics": "SIZE"})
        assert r.status == 200 and collection_metrics(r) == expected
        r = raw.call("DeleteItem", {"TableName": name, "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}},
                                    "ReturnItemCollectionMetrics": "SIZE"})
        assert r.status == 200 and collection_metrics(r) == expected
    finally:
        raw.call("DeleteTable", {"TableName": name})


# Without LSIs there is no item collection to report (API reference).
def test_no_metrics_without_lsi(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": "k_" + uuid.uuid4().hex}},
            ReturnItemCollectionMetrics="SIZE")
    assert r.status == 200
    assert "ItemCollectionMetrics" not in r.json


# NONE asks for nothing.
def test_no_metrics_when_not_asked(raw):
    name = "t_" + uuid.uuid4().hex[:12]
    assert raw.call("CreateTable", lsi_table_body(name)).status == 200
    try:
        r = put(raw, name, item("a", "1"), ReturnItemCollectionMetrics="NONE")
        assert r.status == 200
        assert "ItemCollectionMetrics" not in r.json
    finally:
        raw.call("DeleteTable", {"TableName": name})
