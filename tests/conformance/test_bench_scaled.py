"""`sluice bench` against a server on a scaled clock (`sluice serve --time-scale S`).

The server's capacity limits follow its clock: under --time-scale S a second of
the server lasts 1/S real seconds, so a real rate R is R/S per second of the
server. 2,000 writes/s real against --time-scale 10 are 200/s to the server, far
under a new on-demand table's 4,000/s: accepted, as they should be (issue 17's
"scaled-clock bug" was this arithmetic). `bench --time-scale S` writes the
schedule in the server's time and plays it at S times the rate for 1/S of the
time. With S < 1 the server's clock is slow, which reproduces seed 003's windows
at a fraction of their real rates (capacity-model.md §9).
"""
import pytest

from conftest import Server
from test_bench_tool import bench


def steady_ok_per_s(rep, scale, first_s, limit):
    """The median accepted writes per second of the server over the real seconds
    after the first throttle in which the bench sent well over the limit (1.2x):
    in those the server decides what is accepted. A second in which a loaded
    machine kept the client from sending is the client's, and so is one in
    which it caught up in a burst that the server's burst capacity took (the
    bench's own ceiling_per_s averages both in); the median is moved by
    neither."""
    over = 1.2 * limit * scale
    after = sorted(s["ok"] for s in rep["seconds"]
                   if s["second"] >= first_s / scale + 1 and s["sent"] >= over)
    assert len(after) >= 5, rep["seconds"]
    return after[len(after) // 2] / scale


def window_stats(rep):
    return [(w["from_rate"], w["seconds"], w["first_throttle_s"], w["ceiling_per_s"])
            for w in rep["windows"]]


# Real rates the bench plays without --time-scale are the server's rates
# divided by its scale: never throttled at 2,000/s real under --time-scale 10.
@pytest.mark.capacity
def test_real_rate_is_slower_on_a_fast_clock(tmp_path):
    srv = Server(["--time-scale", "10"])
    try:
        rc, out, err, rep = bench(srv.endpoint, "--schedule", "2000@2", "--keys", "100000",
                                  tmp_path=tmp_path)
        assert rc == 0, (out, err)
        t = rep["totals"]
        assert t["ok"] == t["offered"] == 4000 and t["throttled"] == 0, t
        assert rep["time_scale"] == 1
    finally:
        srv.stop()


# The same run, named in the server's time: --time-scale 10 plays 200
# writes/s of the server for 20 of its seconds as 2,000/s real for 2 s, and
# reports the window in the server's time. (Throttling this table on a clock
# ten times fast takes over 41,300 writes/s real.)
@pytest.mark.capacity
def test_schedule_in_the_servers_time_on_a_fast_clock(tmp_path):
    srv = Server(["--time-scale", "10"])
    try:
        rc, out, err, rep = bench(srv.endpoint, "--time-scale", "10", "--schedule", "200@20",
                                  "--keys", "100000", tmp_path=tmp_path)
        assert rc == 0, (out, err)
        t = rep["totals"]
        assert t["ok"] == t["offered"] == 4000 and t["throttled"] == 0, t
        assert window_stats(rep) == [(200, 20, None, None)]
        assert rep["time_scale"] == 10
        # Rows are real seconds (a send that slipped may add a third with only "sent").
        assert [s["offered"] for s in rep["seconds"][:2]] == [2000, 2000]
        assert sum(s["offered"] for s in rep["seconds"]) == 4000
        assert "windows in the server's time (--time-scale 10" in out
    finally:
        srv.stop()


# Seed 003's short windows at a tenth of their real rates, each on a new
# on-demand table as seed 003 measured them: the server's clock runs at 0.1
# and the bench plays 4,000 and 8,000 writes/s of the server as 400 and 800
# real. 4,000/s is fully accepted; at 8,000/s the first throttle comes within
# [0.8, 4.0] s of the server and the ceiling is ~4,130/s (capacity-model §9),
# in every second the client kept its schedule (steady_ok_per_s).
@pytest.mark.capacity
def test_seed003_windows_at_reduced_scale(tmp_path):
    srv = Server(["--time-scale", "0.1"])
    try:
        rc, out, err, rep = bench(srv.endpoint, "--time-scale", "0.1", "--schedule", "4000@1",
                                  "--keys", "1000000", tmp_path=tmp_path, timeout=120)
        assert rc == 0, (out, err)
        assert window_stats(rep) == [(4000, 1, None, None)]
        t = rep["totals"]
        assert t["ok"] == t["offered"] == 4000 and t["errors"] == 0, t

        rc, out, err, rep = bench(srv.endpoint, "--time-scale", "0.1", "--schedule", "8000@2",
                                  "--keys", "1000000", tmp_path=tmp_path, timeout=120)
        assert rc == 0, (out, err)
        (rate, seconds, first, ceiling), = window_stats(rep)
        assert (rate, seconds) == (8000, 2)
        assert first is not None and 0.8 <= first <= 4.0, rep["windows"]
        assert ceiling is not None, rep["windows"]
        steady = steady_ok_per_s(rep, 0.1, first, 4130)
        assert 0.95 * 4130 <= steady <= 1.05 * 4130, (steady, rep["seconds"])
        t = rep["totals"]
        assert t["errors"] == 0 and t["offered"] == 16000 and t["throttled"] > 0, t
        assert t["counts"] == {"exc:ThrottlingException": t["throttled"],
                               "reason:TableWriteKeyRangeThroughputExceeded": t["throttled"]}
    finally:
        srv.stop()
