"""`sluice bench` prices its estimate and its bill from the price table it shares
with `sluice simulate` (src/cap/price.h): the signing region's row of the
--table-class, or us-east-1's, said out loud, for a region without one."""
import subprocess

from test_bench_tool import BIN, ENV, bench


def test_standard_prices_in_the_report(endpoint, tmp_path):
    rc, out, err, rep = bench(endpoint, "--rate", "20", "--duration", "1", tmp_path=tmp_path)
    assert rc == 0, (out, err)
    p = rep["prices"]
    assert (p["region"], p["table_class"], p["date"]) == ("us-east-1", "STANDARD", "2024-11-01")
    assert (p["write_request_per_million"], p["read_request_per_million"]) == (0.625, 0.125)
    assert p["fallback_for"] is None
    t = rep["totals"]
    assert abs(t["on_demand_dollars"] - t["write_units"] * 0.625e-6) < 1e-12
    assert "us-east-1 STANDARD prices of 2024-11-01" in out


def test_standard_ia_and_a_region_without_prices(endpoint, tmp_path):
    env = dict(ENV, AWS_DEFAULT_REGION="eu-west-1")
    rc, out, err, rep = bench(endpoint, "--rate", "20", "--duration", "1", "--table-class",
                              "standard-ia", tmp_path=tmp_path, env=env)
    assert rc == 0, (out, err)
    assert "no price table for region eu-west-1: us-east-1's prices are used" in err
    p = rep["prices"]
    assert (p["region"], p["table_class"], p["fallback_for"]) == \
        ("us-east-1", "STANDARD_INFREQUENT_ACCESS", "eu-west-1")
    assert p["write_request_per_million"] == 0.78125
    assert "no price table for eu-west-1" in out


# The estimate uses the same row: 1,000 puts of 1 KB = 1,000 write units.
def test_estimate_uses_the_table(endpoint):
    p = subprocess.run([BIN, "bench", "--endpoint", endpoint, "--rate", "2000000",
                        "--duration", "1", "--table-class", "standard-ia", "--max-cost", "0"],
                       capture_output=True, text=True, timeout=30, env=ENV)
    assert p.returncode == 2, p.stderr
    # 1,000,000 operations (the cap), 1 write unit each, at $0.78125 per million.
    assert "estimated 0 read and 1000000 write units, $0.7812" in p.stderr, p.stderr
