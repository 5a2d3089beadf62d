"""The JS SDK v3, unmodified, against the endpoint: tests/js/*.test.mjs (installed from
tests/js/package-lock.json with `npm ci` when tests/js/node_modules is missing)."""
import os
import shutil
import subprocess

import pytest

from conftest import ROOT

JS = os.path.join(ROOT, "tests", "js")


@pytest.fixture(scope="module")
def node():
    exe = shutil.which("node")
    if not exe:
        pytest.skip("node not installed")
    if not os.path.exists(os.path.join(JS, "node_modules", "@aws-sdk", "client-dynamodb-streams")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=JS,
                       check=True, timeout=600)
    return exe


# @aws-sdk/client-dynamodb-streams lists, describes and reads a stream that every kind of
# writer filled (streams.test.mjs says what it checks).
def test_streams_with_js_sdk(node, endpoint):
    p = subprocess.run([node, os.path.join(JS, "streams.test.mjs")], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "SLUICE_ENDPOINT": endpoint})
    assert p.returncode == 0, p.stdout + p.stderr


# The JS SDK v3's default retries against sluice's injected throttles (retries.test.mjs says
# what it checks, with the SDK versions pinned: 4 attempts on a DynamoDB throttle). Fault rules are sluice's: a private server.
@pytest.mark.sluice_only
def test_js_sdk_retries_against_injected_throttles(node):
    from conftest import Server
    srv = Server([])
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        p = subprocess.run([node, os.path.join(JS, "retries.test.mjs")], capture_output=True,
                           text=True, timeout=120, env={**env, "SLUICE_ENDPOINT": srv.endpoint})
        assert p.returncode == 0, p.stdout + p.stderr
    finally:
        srv.stop()


# The JS SDK as a web page runs it: each call after the browser's CORS preflight, with an
# Origin, its replies readable across origins (cors.test.mjs says what it checks).
# ddblocal_differs: DynamoDB Local sends no Access-Control-Allow-Origin (test_cors.py).
@pytest.mark.ddblocal_differs
def test_js_sdk_with_browser_cors_preflight(node, endpoint):
    p = subprocess.run([node, os.path.join(JS, "cors.test.mjs")], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "SLUICE_ENDPOINT": endpoint})
    assert p.returncode == 0, p.stdout + p.stderr
