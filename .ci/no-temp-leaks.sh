#!/usr/bin/env bash
# Runs a command (the test suite) with TMPDIR pointing at a fresh, empty directory and fails if
# the command leaves anything there. Tests must remove every temporary directory they make, on
# every outcome, or a CI runner, a laptop or an SD-card edge device fills up run after run.
# Node's os.tmpdir(), mktemp and the servers the tests start (which inherit the environment) all
# honour TMPDIR, so whatever they leave behind lands here. Usage: .ci/no-temp-leaks.sh CMD [ARG...]
set -uo pipefail
scratch=$(mktemp -d "${TMPDIR:-/tmp}/strata-test-tmp.XXXXXX") || exit 1
# Removed however the run ends (also on Ctrl-C), after the leftovers were listed.
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" "$@"
status=$?
leftovers=$(find "$scratch" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort)
if [ -n "$leftovers" ]; then
  echo "temp-leak check: the run left $(wc -l <<<"$leftovers") entries ($(du -sh "$scratch" | cut -f1)) in TMPDIR; a test does not remove what it made:" >&2
  # Grouped by the mkdtemp prefix (the random suffix cut), which names the test helper that made it.
  sed -E 's/[-.][^-.]+$//' <<<"$leftovers" | sort | uniq -c | sed 's/^/  /' >&2
  [ "$status" -eq 0 ] && status=1
fi
exit "$status"
