#!/bin/sh
# validate_draws.sh SIM CASES: `seeds = N` against a measured table with a
# synthesised baseline (docs/validation.md) averages N draws' predictions.
# The averaged prediction's total error must be the mean of the draws'
# own errors (one table: the same denominator), and each draw's error the
# one the case gives with seeds = 1 and baseline.seed = that draw's seed.
set -u
sim=$1 cases=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
hw=$(cd "$cases/../../../validation/hw" && pwd) || exit 1
for k in 1 2 3; do
  sed -e "s|\.\./\.\./\.\./validation/hw|$hw|" -e "s/^seeds = 3$/seeds = 1\nbaseline.seed = $k/" \
    "$cases/draws.case" > "$tmp/one$k.case"
done
sed -e "s|\.\./\.\./\.\./validation/hw|$hw|" "$cases/draws.case" > "$tmp/draws.case"
"$sim" validate draws --cases "$tmp" --format json > "$tmp/d.json" 2>"$tmp/err" ||
  { cat "$tmp/err"; exit 1; }
for k in 1 2 3; do
  "$sim" validate one$k --cases "$tmp" --format json > "$tmp/one$k.json" 2>>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
done
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(f"{t}/d.json"))["cases"][0]
per = d["per_seed_total_err_pct"]
tot = 100 * d["compare"]["err_traced"]
ok = len(per) == 3 and abs(tot - sum(per) / 3) < 0.01
print(f"averaged {tot:+.4f}%, draws {per}, their mean {sum(per)/len(per):+.4f}%")
for k in range(3):
    one = 100 * json.load(open(f"{t}/one{k+1}.json"))["cases"][0]["compare"]["err_traced"]
    print(f"seed {k+1} alone {one:+.4f}%")
    ok = ok and abs(one - per[k]) < 0.01
ok = ok and max(per) - min(per) > 0.01  # the draws differ: three predictions, not one
sys.exit(0 if ok else 1)
PY
