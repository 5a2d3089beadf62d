#!/usr/bin/env python3
"""promcheck — a strict checker of the Prometheus text exposition format 0.0.4.

Usage:  promcheck.py [FILE | URL | -]      (default: stdin)
        promcheck.py --conventions ...     also enforce the naming conventions

Exit status 0 when the input is valid, 1 with one line per problem otherwise.
Standard library only. Checked (https://prometheus.io/docs/instrumenting/exposition_formats/):

  * every line ends with '\\n' (so does the last one); UTF-8; blank lines ignored
  * '# HELP name text' (text escapes only \\\\ and \\n) and '# TYPE name type' (counter,
    gauge, histogram, summary, untyped), each at most once per name; TYPE before the
    family's first sample; other '#' lines are comments
  * samples: name [{label="value",...}] value [timestamp]; names [a-zA-Z_:][a-zA-Z0-9_:]*,
    label names [a-zA-Z_][a-zA-Z0-9_]* not starting with '__', no label twice; values
    escape only \\\\, \\" and \\n; the value is a Go float (NaN, +Inf, -Inf allowed); the
    timestamp an int64
  * a family's samples are contiguous, and no two samples share a name and label set
  * counters are not negative
  * histograms: only _bucket (with an 'le' label), _sum and _count samples; per label set
    the le bounds are floats in increasing order ending with +Inf, the bucket counts
    never decrease, and _count equals the +Inf bucket
  * summaries: only the bare name (with 'quantile' in [0, 1]), _sum and _count

With --conventions, the naming conventions (https://prometheus.io/docs/practices/naming/):
lower snake_case names and label names, counters ending in _total and nothing else ending
in it, no '_count'/'_sum'/'_bucket' endings outside histograms and summaries.
"""
import math
import re
import sys
import urllib.request

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
SNAKE = re.compile(r"[a-z_][a-z0-9_]*")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}
FLOAT = re.compile(r"[+-]?(?:Inf|inf|NaN|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")


def parse_float(text):
    if not FLOAT.fullmatch(text):
        raise ValueError(text)
    return float(text)


class Checker:
    def __init__(self, conventions=False):
        self.conventions = conventions
        self.errors = []
        self.help = {}
        self.types = {}
        self.family_of_sample = {}
        self.closed = set()     # families whose samples are over
        self.current = None     # family of the previous sample
        self.seen = set()       # (name, labels) of every sample
        self.hist = {}          # (family, labels without le) -> data

    def err(self, lineno, msg):
        self.errors.append(f"line {lineno}: {msg}")

    # -- families --------------------------------------------------------------------------

    def family(self, name):
        """The family a sample name belongs to (a histogram's _bucket/_sum/_count)."""
        for suffix in ("_bucket", "_sum", "_count"):
            if name.endswith(suffix):
                base = name[: -len(suffix)]
                if self.types.get(base) in ("histogram", "summary"):
                    return base
        return name

    # -- lines -----------------------------------------------------------------------------

    def comment(self, lineno, line):
        parts = line.split(None, 3)
        if len(parts) < 2 or parts[1] not in ("HELP", "TYPE"):
            return  # an ordinary comment
        if len(parts) < 3:
            self.err(lineno, f"{parts[1]} without a metric name")
            return
        kind, name = parts[1], parts[2]
        rest = line.split(None, 3)[3] if len(parts) == 4 else ""
        if not NAME.fullmatch(name):
            self.err(lineno, f"bad metric name {name!r} in {kind}")
        if kind == "HELP":
            if name in self.help:
                self.err(lineno, f"second HELP for {name}")
            self.help[name] = rest
            i = 0
            while i < len(rest):
                if rest[i] == "\\":
                    if i + 1 >= len(rest) or rest[i + 1] not in "\\n":
                        self.err(lineno, f"bad escape in HELP text of {name}")
                    i += 2
                else:
                    i += 1
        else:
            if name in self.types:
                self.err(lineno, f"second TYPE for {name}")
            if rest not in TYPES:
                self.err(lineno, f"unknown type {rest!r} for {name}")
            if name in self.family_of_sample.values() or name in self.closed:
                self.err(lineno, f"TYPE for {name} after its samples")
            self.types[name] = rest
            if self.conventions:
                if not SNAKE.fullmatch(name):
                    self.err(lineno, f"{name}: not lower snake_case")
                if rest == "counter" and not name.endswith("_total"):
                    self.err(lineno, f"counter {name} does not end in _total")
                if rest != "counter" and name.endswith("_total"):
                    self.err(lineno, f"{rest} {name} ends in _total")
                if rest not in ("histogram", "summary") and re.search(r"_(count|sum|bucket)$", name):
                    self.err(lineno, f"{rest} {name} ends like a histogram sample")

    def labels(self, lineno, text, pos):
        """Parses '{...}' at text[pos]; returns (dict, position after '}')."""
        out = {}
        pos += 1
        while True:
            if pos < len(text) and text[pos] == "}":
                return out, pos + 1
            m = LABEL.match(text, pos)
            if not m:
                raise ValueError(f"bad label name at column {pos + 1}")
            lname = m.group(0)
            pos = m.end()
            if lname.startswith("__"):
                self.err(lineno, f"reserved label name {lname}")
            if self.conventions and not SNAKE.fullmatch(lname):
                self.err(lineno, f"label {lname}: not lower snake_case")
            if text[pos:pos + 2] != '="':
                raise ValueError(f"expected '=\"' after label {lname}")
            pos += 2
            value = []
            while True:
                if pos >= len(text):
                    raise ValueError(f"unterminated value of label {lname}")
                c = text[pos]
                if c == "\\":
                    nxt = text[pos + 1:pos + 2]
                    if nxt == "\\":
                        value.append("\\")
                    elif nxt == '"':
                        value.append('"')
                    elif nxt == "n":
                        value.append("\n")
                    else:
                        raise ValueError(f"bad escape \\{nxt} in label {lname}")
                    pos += 2
                elif c == '"':
                    pos += 1
                    break
                else:
                    value.append(c)
                    pos += 1
            if lname in out:
                self.err(lineno, f"label {lname} twice")
            out[lname] = "".join(value)
            if pos < len(text) and text[pos] == ",":
                pos += 1
            elif pos < len(text) and text[pos] == "}":
                continue
            else:
                raise ValueError(f"expected ',' or '}}' after label {lname}")

    def sample(self, lineno, line):
        m = NAME.match(line)
        if not m:
            self.err(lineno, "bad metric name")
            return
        name = m.group(0)
        pos = m.end()
        labels = {}
        try:
            if pos < len(line) and line[pos] == "{":
                labels, pos = self.labels(lineno, line, pos)
        except ValueError as e:
            self.err(lineno, str(e))
            return
        rest = line[pos:]
        if not rest.startswith(" "):
            self.err(lineno, "expected a space before the value")
            return
        fields = rest.split()
        if len(fields) not in (1, 2) or rest.strip() != " ".join(fields):
            self.err(lineno, f"expected 'value [timestamp]', got {rest.strip()!r}")
            return
        try:
            value = parse_float(fields[0])
        except ValueError:
            self.err(lineno, f"bad value {fields[0]!r}")
            return
        if len(fields) == 2 and not re.fullmatch(r"-?\d+", fields[1]):
            self.err(lineno, f"bad timestamp {fields[1]!r}")
        fam = self.family(name)
        if fam != self.current:
            if fam in self.closed:
                self.err(lineno, f"samples of {fam} are not contiguous")
            if self.current is not None:
                self.closed.add(self.current)
            self.current = fam
        self.family_of_sample[name] = fam
        key = (name, tuple(sorted(labels.items())))
        if key in self.seen:
            self.err(lineno, f"duplicate sample {name}{labels}")
        self.seen.add(key)
        typ = self.types.get(fam, "untyped")
        if typ == "counter" and not math.isnan(value) and value < 0:
            self.err(lineno, f"negative counter {name}")
        if typ == "histogram":
            self.histogram_sample(lineno, fam, name, labels, value)
        elif typ == "summary":
            if name == fam:
                q = labels.get("quantile")
                try:
                    if q is None or not 0 <= parse_float(q) <= 1:
                        raise ValueError
                except ValueError:
                    self.err(lineno, f"summary {fam} sample without a quantile in [0, 1]")
            elif name not in (fam + "_sum", fam + "_count"):
                self.err(lineno, f"unexpected sample {name} in summary {fam}")
        elif name != fam:
            self.err(lineno, f"sample {name} does not match its family")

    def histogram_sample(self, lineno, fam, name, labels, value):
        base = dict(labels)
        le = base.pop("le", None)
        h = self.hist.setdefault((fam, tuple(sorted(base.items()))),
                                 {"buckets": [], "count": None, "sum": None, "line": lineno})
        if name == fam + "_bucket":
            if le is None:
                self.err(lineno, f"bucket of {fam} without le")
                return
            try:
                bound = parse_float(le)
            except ValueError:
                self.err(lineno, f"bad le {le!r} in {fam}")
                return
            h["buckets"].append((bound, value, lineno))
        elif name in (fam + "_sum", fam + "_count"):
            if le is not None:
                self.err(lineno, f"{name} with an le label")
            h["sum" if name.endswith("_sum") else "count"] = value
        else:
            self.err(lineno, f"unexpected sample {name} in histogram {fam}")

    def finish(self):
        for (fam, labels), h in self.hist.items():
            where = f"histogram {fam}{dict(labels)}"
            b = h["buckets"]
            if not b:
                self.err(h["line"], f"{where} has no buckets")
                continue
            bounds = [x[0] for x in b]
            if bounds != sorted(bounds) or len(set(bounds)) != len(bounds):
                self.err(h["line"], f"{where}: le bounds not strictly increasing")
            if not math.isinf(bounds[-1]) or bounds[-1] < 0:
                self.err(h["line"], f"{where}: no le=\"+Inf\" bucket last")
            counts = [x[1] for x in b]
            if any(c2 < c1 for c1, c2 in zip(counts, counts[1:])):
                self.err(h["line"], f"{where}: bucket counts decrease")
            if h["count"] is None:
                self.err(h["line"], f"{where}: no _count")
            elif math.isinf(bounds[-1]) and h["count"] != counts[-1]:
                self.err(h["line"], f"{where}: _count {h['count']} != +Inf bucket {counts[-1]}")
            if h["sum"] is None:
                self.err(h["line"], f"{where}: no _sum")

    def check(self, data):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            self.errors.append(f"not UTF-8: {e}")
            return self.errors
        if text and not text.endswith("\n"):
            self.errors.append("the last line does not end with a newline")
        for lineno, line in enumerate(text.split("\n")[:-1] if text.endswith("\n") else
                                      text.split("\n"), 1):
            if "\r" in line:
                self.err(lineno, "carriage return")
            if not line.strip():
                continue
            if line.startswith("#"):
                self.comment(lineno, line)
            else:
                self.sample(lineno, line)
        self.finish()
        return self.errors


def main(argv):
    conventions = "--conventions" in argv
    args = [a for a in argv if a != "--conventions"]
    src = args[0] if args else "-"
    if src == "-":
        data = sys.stdin.buffer.read()
    elif src.startswith(("http://", "https://")):
        with urllib.request.urlopen(src, timeout=30) as r:
            data = r.read()
    else:
        with open(src, "rb") as f:
            data = f.read()
    errors = Checker(conventions).check(data)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
