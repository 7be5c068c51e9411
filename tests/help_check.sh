#!/bin/sh
# help_check.sh SIM: `sim --help` tells the truth about the commands: each
# one it lists answers `sim <command> --help` with its own usage line, and
# the subcommands it names for trace, table and params are exactly those
# their own --help lists.
set -u
sim=$1
fail=0
top=$("$sim" --help) || { echo "sim --help failed"; exit 1; }
cmds=$(printf '%s\n' "$top" | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$cmds" ] || { echo "no commands in sim --help"; exit 1; }
for c in $cmds; do
  h=$("$sim" "$c" --help 2>&1) || { echo "sim $c --help: exit $?"; fail=1; continue; }
  printf '%s\n' "$h" | head -1 | grep -q "^usage: sim $c" ||
    { echo "sim $c --help does not start with 'usage: sim $c'"; fail=1; }
done
for c in trace table params; do
  # the names at the start of the sub-command lines of `sim $c --help`
  subs=$("$sim" "$c" --help | sed -n '/^\(sub\)\{0,1\}commands:/,/^$/p' |
         awk 'NR > 1 && NF { print $1 }' | sort -u)
  [ -n "$subs" ] || subs=$("$sim" "$c" --help | sed -n 's/^\(usage:\)\{0,1\} *sim '"$c"' \([a-z]*\).*/\2/p' | sort -u)
  line=$(printf '%s\n' "$top" | grep "^  $c ")
  listed=$(printf '%s\n' "$line" | sed 's/.*: //' | tr '|' '\n' | awk '{ print $1 }' | sort -u)
  [ "$subs" = "$listed" ] || {
    echo "sim --help lists '$c' subcommands: $(echo $listed); sim $c --help has: $(echo $subs)"
    fail=1; }
done
exit $fail
