"""sluice's own command line (src/main.c): a table of subcommands, `sluice help`, and a
clear error for an unknown command. Not DynamoDB: marked sluice_only."""
import os
import subprocess

import pytest

from conftest import ROOT

pytestmark = pytest.mark.sluice_only

BIN = os.environ.get("SLUICE_BIN", os.path.join(ROOT, "build", "sluice"))


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=10)


# `sluice help` lists every command with a line of summary, on stdout, exit 0.
def test_help_lists_the_commands():
    r = run("help")
    assert r.returncode == 0
    assert r.stdout.startswith("usage: sluice <command> [flags]")
    for name in ("serve", "explain", "size", "simulate", "streams", "version", "help"):
        assert f"\n  {name} " in r.stdout


# An unknown command names itself and shows the list, on stderr, exit 2; so does no command.
def test_unknown_command():
    r = run("frobnicate")
    assert r.returncode == 2
    assert "unknown command 'frobnicate'" in r.stderr
    assert "commands:" in r.stderr
    assert run().returncode == 2


def test_version():
    r = run("version")
    assert r.returncode == 0 and r.stdout.startswith("sluice ")
