#!/usr/bin/env python3
"""formats_parse.py SIM DATA HW: every `--format csv|json` output of every
sim command is exactly one valid document, read with Python's own csv and
json modules (a second document, a text table or a comment line after it
makes the parse fail), and the numbers in them agree: the stage report
counts the exits the table charges, the csv header of a table is exactly
the documented one, json says its unit."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

SIM, DATA, HW = sys.argv[1:4]
TABLE_CSV = ["type", "count", "min", "max", "sum", "avg", "stddev",
             "time_percent"]
failures = []
checked = 0


def run(args, ok=(0, 1)):
    """stdout of `sim ARGS` (stderr apart: it may hold notes)."""
    p = subprocess.run([SIM] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode not in ok:
        failures.append("sim %s: exit %d: %s" % (" ".join(args), p.returncode,
                                                 p.stderr.strip()[-300:]))
        return None
    return p.stdout


def fail(what, args, why):
    failures.append("sim %s (%s): %s" % (" ".join(args), what, why))


def as_json(args, text):
    global checked
    checked += 1
    try:
        return json.loads(text)  # one document, nothing after it
    except (ValueError, TypeError) as e:
        fail("json", args, "not one JSON document: %s" % e)
        return None


def as_csv(args, text, header=None):
    """Rows as dicts; every line a record with the header's field count."""
    global checked
    checked += 1
    if not text:
        fail("csv", args, "empty")
        return None
    rows = list(csv.reader(io.StringIO(text)))
    if header is not None and rows[0] != header:
        fail("csv", args, "header %s, expected %s" % (rows[0], header))
        return None
    bad = [r for r in rows if len(r) != len(rows[0])]
    if bad or any(r[0].startswith("#") for r in rows):
        fail("csv", args, "not one table: a line of %d fields (header %d): %s"
             % (len(bad[0]) if bad else 0, len(rows[0]), bad[:1]))
        return None
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def both(args, header=None):
    """Runs ARGS --format csv and --format json; returns both parsed."""
    c = run(args + ["--format", "csv"])
    j = run(args + ["--format", "json"])
    return (as_csv(args + ["--format", "csv"], c, header) if c is not None
            else None,
            as_json(args + ["--format", "json"], j) if j is not None
            else None)


def counts_of_table_json(t):
    return {r["type"]: r["count"] for r in t["rows"]}


mix = os.path.join(DATA, "cost_mix.bin")
synth = os.path.join(DATA, "synth500.bin")
nopv = os.path.join(HW, "ppc440-ubuntu-boot-nopv.txt")
pv = os.path.join(HW, "ppc440-ubuntu-boot-pv.txt")

# sim replay: the table
for acc in ("2.6.29", "3.1"):
    for extra in ([], ["--fold-emul"], ["--model"]):
        a = ["replay", synth, "--accounting", acc] + extra
        c, j = both(a, TABLE_CSV)
        if j is not None:
            if j.get("unit") != "usec" or j.get("accounting") != acc:
                fail("json", a, "unit %r accounting %r" %
                     (j.get("unit"), j.get("accounting")))
# sim replay --stages: its own csv, and json {"table", "stages"}
a = ["replay", mix, "--stages"]
c, j = both(a, ["type", "exits", "stage", "side", "cycles",
                "cycles_per_exit", "share_percent"])
table = as_csv(a, run(["replay", mix, "--model", "--format", "csv"]),
               TABLE_CSV)
if c is not None and table is not None:
    tc = {r["type"]: int(r["count"]) for r in table}
    sc = {r["type"]: int(r["exits"]) for r in c}
    if any(tc.get(t) != n for t, n in sc.items()):
        fail("csv", a, "stage exits %s, table counts %s" % (sc, tc))
if j is not None:
    if set(j) != {"table", "stages"}:
        fail("json", a, "keys %s" % sorted(j))
    else:
        tc = counts_of_table_json(j["table"])
        for ty in j["stages"]["types"]:
            if tc.get(ty["type"]) != ty["exits"]:
                fail("json", a, "%s: %s exits in the stages, %s in the table"
                     % (ty["type"], ty["exits"], tc.get(ty["type"])))
# sim replay --compare: the comparison's csv and json
cmp_header = ["type", "count_ref", "count", "err_count", "share_ref",
              "share", "sum_ref", "sum", "err_sum", "avg_ref", "avg",
              "err_avg", "time_percent_ref", "time_percent"]
for extra in ([], ["--fold-emul"], ["--platform", "systemc"]):
    a = ["replay", synth, "--compare"] + extra
    c, j = both(a, cmp_header)
    if j is not None and (j.get("unit") != "usec" or "rows" not in j):
        fail("json", a, "keys %s" % sorted(j))
a = ["replay", synth, "--compare", "--stages", "--format", "json"]
j = as_json(a, run(a))
if j is not None and set(j) != {"compare", "stages"}:
    fail("json", a, "keys %s" % sorted(j))
# sim table show / convert / diff
for f in (nopv, pv):
    both(["table", "show", f], TABLE_CSV)
    for to in ("csv", "json"):
        a = ["table", "convert", f, "--to", to]
        out = run(a)
        if out is not None:
            as_csv(a, out, TABLE_CSV) if to == "csv" else as_json(a, out)
a = ["table", "diff", nopv, pv]
c, j = both(a, cmp_header)
if c is not None:
    d = {r["type"]: r for r in c}
    # the case: DTLBVIRT's time% rises while its time falls
    r = d["DTLBVIRT"]
    if not (float(r["time_percent"]) > float(r["time_percent_ref"]) and
            float(r["sum"]) < float(r["sum_ref"])):
        fail("csv", a, "DTLBVIRT row %s" % r)
# sim whatif
for t in ("no-iccci", "pv"):
    both(["whatif", synth, "--transform", t], None)
# sim validate --format json (a case that needs nothing built)
a = ["validate", "arm64-mair", "--format", "json",
     "--cases", os.path.join(os.path.dirname(HW), "cases")]
out = run(a)
if out is not None:
    as_json(a, out)
# files: sim sweep and sim sensitivity
with tempfile.TemporaryDirectory() as d:
    for ext in ("csv", "json"):
        p = os.path.join(d, "sweep." + ext)
        a = ["sweep", synth, "--param", "decode_insns=0:20:10", "-o", p,
             "--format", ext]
        if run(a) is not None:
            text = open(p).read()
            as_csv(a, text) if ext == "csv" else as_json(a, text)
        p = os.path.join(d, "sens." + ext)
        a = ["sensitivity", synth, "--threads", "1", "-o", p]
        if run(a) is not None:
            text = open(p).read()
            as_csv(a, text) if ext == "csv" else as_json(a, text)
    for ext in ("csv", "json"):
        p = os.path.join(d, "diff." + ext)
        a = ["table", "diff", nopv, pv, "--format", ext, "-o", p]
        if run(a, ok=(0,)) is not None:
            text = open(p).read()
            as_csv(a, text, cmp_header) if ext == "csv" else as_json(a, text)

for f in failures:
    print("FAIL", f)
print("%d documents parsed, %d problems" % (checked, len(failures)))
sys.exit(1 if failures or checked < 40 else 0)
