#!/usr/bin/env python3
"""How far `sluice simulate`'s aggregate mode departs from its per-request mode.

Runs each example scenario (examples/*.json, or the files given) both ways and prints, per
resource and direction, the accepted units and the first throttle, and per workload the
client's figures: attempts per request (retry amplification), successes, throttled
attempts, the latency backoff added (mean, p99) and the requests still waiting at the end
(an adaptive client's queue). docs/simulate.md ("The aggregate mode") records its output.

    /usr/bin/python3 scripts/sim_departures.py [--bin build/sluice] [SCENARIO.json ...]

The internet-scale example is shortened to 2 minutes (its hour is a benchmark figure).
"""
import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(binary, scenario):
    r = subprocess.run([binary, "simulate", "--json", "-"], input=json.dumps(scenario),
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(r.stderr)
    return json.loads(r.stdout)


def pct(a, b):
    if a == b:
        return "0 %"
    if not a:
        return "n/a"
    return f"{(b - a) / a * 100:+.1f} %"


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:.3g}" if abs(x) < 100 else f"{x:,.0f}"
    return f"{int(x):,}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "sluice"))
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or sorted(glob.glob(os.path.join(ROOT, "examples", "*.json")))
    for path in files:
        with open(path) as f:
            s = json.load(f)
        if s.get("mode") == "aggregate" and s.get("duration_s", 0) > 600:
            s["duration_s"] = 120
            for w in s["workloads"]:
                left = 120
                phases = []
                for p in w["phases"]:
                    if left <= 0:
                        break
                    p = dict(p, duration_s=min(p["duration_s"], left))
                    left -= p["duration_s"]
                    phases.append(p)
                w["phases"] = phases
        s["mode"] = "requests"
        s.pop("aggregate_step_ms", None)
        exact = run(a.bin, s)
        s["mode"] = "aggregate"
        agg = run(a.bin, s)
        print(f"## {os.path.basename(path)}")
        for x, y in zip(exact["resources"], agg["resources"]):
            for d in ("read", "write"):
                u, v = x[d], y[d]
                if not u["offered_units"]:
                    continue
                print(f"  {x['name']} {d}: accepted units {fmt(u['accepted_units'])} -> "
                      f"{fmt(v['accepted_units'])} ({pct(u['accepted_units'], v['accepted_units'])})"
                      f", first throttle {fmt(u['first_throttle_s'])} -> "
                      f"{fmt(v['first_throttle_s'])} s")
        for x, y in zip(exact["workloads"], agg["workloads"]):
            if x["retry"] == "none" and not x["unprocessed_resends"]:
                continue
            lx, ly = x["latency_added_ms"], y["latency_added_ms"]
            print(f"  workload {x['name']} ({x['retry']}): attempts/request "
                  f"{x['attempts_per_request']:.3f} -> {y['attempts_per_request']:.3f} "
                  f"({pct(x['attempts_per_request'], y['attempts_per_request'])}), succeeded "
                  f"{fmt(x['succeeded'])} -> {fmt(y['succeeded'])} "
                  f"({pct(x['succeeded'], y['succeeded'])}), throttled attempts "
                  f"{fmt(x['throttled_attempts'])} -> {fmt(y['throttled_attempts'])}, "
                  f"backoff mean {fmt(lx['mean'])} -> {fmt(ly['mean'])} ms, p99 "
                  f"{fmt(lx['p99'])} -> {fmt(ly['p99'])} ms, waiting at the end "
                  f"{fmt(x['in_flight_at_end'])} -> {fmt(y['in_flight_at_end'])}")


if __name__ == "__main__":
    main()
