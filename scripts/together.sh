#!/usr/bin/env bash
# Runs checks at the same time, each line of their output prefixed with the check's name, says
# how long each took, and fails when any fails (naming which). For checks that mostly wait (on claims to lapse, on
# instances to restart), which would otherwise wait one after another.
#   usage: together.sh 'name: command …' 'name: command …' …
set -uo pipefail
pids=()
names=()
for spec in "$@"; do
  name=${spec%%:*}
  command=${spec#*:}
  (set -o pipefail; started=$SECONDS
   bash -c "$command" 2>&1 | sed -u "s/^/[$name] /"; status=$?
   echo "[$name] $([ $status = 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
   exit $status) &
  pids+=($!)
  names+=("$name")
done
failed=()
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed+=("${names[$i]}")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
