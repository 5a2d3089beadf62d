#!/usr/bin/env python3
"""Seed 003's short windows against sluice, measured by `sluice bench`.

Starts `sluice serve` (aws profile, real clock), then for each offered rate runs one
5-second window of 1 KB PutItems on a new on-demand table (created and deleted by the
bench), and one window of eventually consistent GetItems at 12,000/s; prints the
accepted rate, the first throttle's time into the window and the accepted rate after it.
Seed 003 measured on the service: 4,000/s fully accepted; 5,000-8,000/s offered about
4,130/s accepted, the first throttle 3.8 s (5,000/s) down to 0.9 s (8,000/s) into the
window; reads at 12,000/s never throttled. A measurement, not a test.

    bench/seed003.py [--sluice build/sluice] [--seconds 5]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=os.path.join(ROOT, "build", "sluice"))
    ap.add_argument("--seconds", type=float, default=5)
    args = ap.parse_args()
    srv = subprocess.Popen([args.sluice, "serve", "--port", "0"], stdout=subprocess.PIPE,
                           text=True)
    ep = srv.stdout.readline().split("listening on ", 1)[1].strip()
    print(f"{'workload':10} {'offered/s':>9} {'accepted/s':>10} {'throttled':>9} "
          f"{'first s':>8} {'after/s':>8} {'p99 ms':>8}")
    try:
        runs = [("put", r) for r in (4000, 5000, 6000, 7000, 8000)] + [("get", 12000)]
        for workload, rate in runs:
            with tempfile.TemporaryDirectory() as d:
                out = os.path.join(d, "r.json")
                p = subprocess.run([args.sluice, "bench", "--endpoint", ep, "--workload",
                                    workload, "--schedule", f"{rate}@{args.seconds:g}",
                                    "--keys", "1000000", "--connections", "128", "--quiet",
                                    "--json", out], capture_output=True, text=True)
                if p.returncode not in (0, 3):
                    sys.exit(p.stderr)
                rep = json.load(open(out))
            t, w = rep["totals"], rep["windows"][0]
            first = w["first_throttle_s"]
            after = "-"
            if first is not None:
                secs = [s for s in rep["seconds"] if s["second"] >= int(first) + 1
                        and s["second"] < args.seconds]
                if secs:
                    after = "%.0f" % (sum(s["ok"] for s in secs) / len(secs))
            print(f"{workload:10} {rate:9} {t['ok'] / args.seconds:10.0f} {t['throttled']:9} "
                  f"{'-' if first is None else '%.2f' % first:>8} {after:>8} "
                  f"{t['p99_ms']:8.1f}")
    finally:
        srv.terminate()
        srv.wait()


if __name__ == "__main__":
    main()
