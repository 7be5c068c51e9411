#!/bin/sh
# self_contained.sh SRC : the repository stands on its own. No tracked file
# of the code or its docs cites material outside the repository (the
# "reference/..." notes, "../shared", "ref §N", the design notes "DESIGN
# §N"); KVM/440 facts are cited as
# docs/kvm440.md §N, and every such §N is a section of docs/kvm440.md.
set -u
cd "$1" || exit 1
dirs="docs tools model cpu440 workloads validation bench fuzz README.md CMakeLists.txt"
if git rev-parse --git-dir >/dev/null 2>&1; then
  files=$(git ls-files -- $dirs | grep -v '^validation/hw/')
else
  files=$(find $dirs -type f ! -path 'validation/hw/*' 2>/dev/null)
fi
[ -n "$files" ] || { echo "no files found under $dirs"; exit 1; }
bad=$(echo "$files" | xargs grep -nE 'reference/|\.\./shared|kvm440-internals|ref §|reference §|feasibility\.md|DESIGN §|DESIGN\.md|STYLE\.md' 2>/dev/null)
if [ -n "$bad" ]; then
  echo "citations of material outside the repository:"
  echo "$bad"
  exit 1
fi
[ -f docs/kvm440.md ] || { echo "docs/kvm440.md is missing"; exit 1; }
# every cited section exists
cited=$(echo "$files" | xargs grep -ohE 'docs/kvm440\.md`? §[0-9]+(, §[0-9]+)*' 2>/dev/null |
  grep -oE '§[0-9]+' | sort -u)
[ -n "$cited" ] || { echo "nothing cites docs/kvm440.md"; exit 1; }
for s in $cited; do
  n=${s#§}
  grep -q "^## $n\. " docs/kvm440.md || { echo "docs/kvm440.md has no section $n (cited as $s)"; exit 1; }
done
echo "ok: $(echo "$files" | wc -l) files, sections cited: $(echo $cited)"
