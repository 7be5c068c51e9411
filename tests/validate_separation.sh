#!/bin/sh
# The prediction of a validation case must not read the table it is judged
# against: run a copy of the ppc440-pv case (fewer exits, to stay fast) with
# the real PV table and with a doctored one; the predicted numbers must be
# identical and the measured ones must differ. The case's parameter draws
# are re-checked against the calibration table (docs/calibration.md,
# "Weighing the draws") at several seeds of the model: their objectives at
# every seed, the noise estimated from them and the weights must not move
# either (they would, were the measured table the one re-checked against),
# nor the curvature measured along the covariance's eigen-directions that
# the draws' proposal is narrowed by (param_draws.proposal, default
# curvature: the same calibration objective).
# usage: validate_separation.sh SIM SRCDIR
set -eu
sim=$1 src=$2
d=$(mktemp -d "${TMPDIR:-/tmp}/valsep.XXXXXX")
trap 'rm -rf "$d"' EXIT
for v in real fake; do
  mkdir -p "$d/$v/cases" "$d/$v/hw"
  cp "$src/validation/hw/ppc440-ubuntu-boot-nopv.txt" "$d/$v/hw/"
  sed -e 's/^baseline.exits = .*/baseline.exits = 20000/' \
    "$src/validation/cases/ppc440-pv.case" > "$d/$v/cases/ppc440-pv.case"
done
cp "$src/validation/hw/ppc440-ubuntu-boot-pv.txt" "$d/real/hw/"
# (the count, and the avg with it: the rows must still add up to the
# traced duration, or the table is refused as truncated or edited, and each
# row's avg must be its sum/count, or the row is refused as contradicting
# itself)
sed -E -e 's/^EMULINST [0-9,]+ (.* [0-9,]+) [0-9.]+ ([0-9.]+ [0-9.]+)$/EMULINST 1,000,000 \1 50.8090 \2/' \
  "$src/validation/hw/ppc440-ubuntu-boot-pv.txt" > "$d/fake/hw/ppc440-ubuntu-boot-pv.txt"
for v in real fake; do
  rc=0
  "$sim" validate ppc440-pv --cases "$d/$v/cases" --format json > "$d/$v.json" || rc=$?
  [ "$rc" -le 1 ] || { echo "validate failed ($rc)"; cat "$d/$v.json"; exit 1; }
  grep -E '"(type|count|sum|avg|time_percent|traced_usec)":' "$d/$v.json" > "$d/$v.pred"
  grep -E '"(count_ref|sum_ref)":' "$d/$v.json" > "$d/$v.ref"
  # the draws whole: their spread, the re-check's objectives at every
  # seed of the model, the noise, the weights
  python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
print(json.dumps(c.get("param_draws"), indent=1, sort_keys=True))' \
    "$d/$v.json" > "$d/$v.draws"
done
for k in objective_at_point objective_per_seed objective_at_point_per_seed tau shrink weight curvature shift_sigma objective_evaluations; do
  grep -q "\"$k\":" "$d/real.draws" ||
    { echo "no re-checked parameter draws in the case (no $k)"; exit 1; }
done
if ! diff "$d/real.draws" "$d/fake.draws"; then
  echo "the draws' re-check changed with the measured table"; exit 1
fi
if cmp -s "$d/real.ref" "$d/fake.ref"; then
  echo "the doctored table did not reach the comparison"; exit 1
fi
if ! diff "$d/real.pred" "$d/fake.pred"; then
  echo "the prediction changed with the measured table"; exit 1
fi
echo "prediction independent of the measured table ($(wc -l < "$d/real.pred") values, $(wc -l < "$d/real.draws") of the draws' re-check)"
