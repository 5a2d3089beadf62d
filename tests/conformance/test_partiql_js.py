"""PartiQL through the AWS SDK for JavaScript v3 (tests/js/partiql.test.mjs).

The SDK is installed into tests/js/node_modules from its package-lock.json when missing (npm ci,
as tests/browser does for playwright-core).
"""
import os
import shutil
import subprocess
import uuid

import pytest

HERE = os.path.join(os.path.dirname(__file__), "..", "js")


@pytest.fixture(scope="module")
def js_sdk():
    if not shutil.which("node") or not shutil.which("npm"):
        pytest.skip("Node.js not installed")
    if not os.path.exists(os.path.join(HERE, "node_modules", "@aws-sdk", "client-dynamodb")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE,
                       check=True, timeout=600)
    return HERE


# Statements, errors (as the SDK's modelled exception classes), paging, batches and
# transactions, as a Node.js program sees them.
# Against DynamoDB Local the script accepts its "DuplicateItem" exception name (the model's is
# DuplicateItemException: botocore's service-2.json, ExecuteStatement's errors).
def test_partiql_with_js_sdk_v3(js_sdk, endpoint, is_sluice):
    table = "t_" + uuid.uuid4().hex[:12]
    peer = [] if is_sluice else ["ddblocal"]
    p = subprocess.run(["node", os.path.join(js_sdk, "partiql.test.mjs"), endpoint, table, *peer],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stdout + p.stderr
