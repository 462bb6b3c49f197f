#!/usr/bin/env bash
# `f2lay vectors --check` on the stored files, and that it catches changes:
#
#   regenerate_test.sh F2LAY_BINARY VECTORS_DIR
#
# The stored files must regenerate byte for byte (a change to f2lay that
# moves an answer shows here; regenerate with `f2lay vectors --out vectors`
# and review the diff). Then a changed line, a missing file and bad usage
# must each be reported.
set -euo pipefail

F2LAY=${1:?usage: regenerate_test.sh F2LAY_BINARY VECTORS_DIR}
STORED=${2:?usage: regenerate_test.sh F2LAY_BINARY VECTORS_DIR}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/f2lay_vectors.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

run() {
  status=0
  "$F2LAY" "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
}

echo "check: the stored vectors regenerate identically"
run vectors --check "$STORED"
cat "$WORK/out"
[ "$status" -eq 0 ] || fail "f2lay vectors --check $STORED exited $status"

echo "check: a changed case is reported with its line"
cp -r "$STORED" "$WORK/copy"
# The third line is the first case.
sed -i '3s/"name":"/"name":"renamed /' "$WORK/copy/algebra.json"
run vectors --check "$WORK/copy"
[ "$status" -eq 1 ] || fail "a changed line: exit $status, not 1"
grep -q "algebra.json: line 3 differs" "$WORK/out" || fail "a changed line is not named: $(cat "$WORK/out")"
grep -q "5 of 6 files regenerate identically" "$WORK/out" || fail "the count is wrong: $(cat "$WORK/out")"

echo "check: a missing file is reported"
rm "$WORK/copy/swizzles.json"
run vectors --check "$WORK/copy"
[ "$status" -eq 1 ] || fail "a missing file: exit $status, not 1"
grep -q "swizzles.json: missing" "$WORK/out" || fail "a missing file is not named: $(cat "$WORK/out")"

echo "check: --out writes what --check accepts"
run vectors --out "$WORK/fresh"
[ "$status" -eq 0 ] || fail "--out exited $status"
cmp -s "$WORK/fresh/catalog.json" "$STORED/catalog.json" || fail "--out wrote another catalog.json"

echo "check: bad usage exits 2"
run vectors
[ "$status" -eq 2 ] || fail "no option: exit $status, not 2"
grep -q "give --out DIR or --check DIR" "$WORK/err" || fail "no option: $(cat "$WORK/err")"
run vectors --out "$WORK/a" --check "$WORK/b"
[ "$status" -eq 2 ] || fail "--out with --check: exit $status, not 2"
run vectors --check "$WORK/no such folder"
[ "$status" -eq 2 ] || fail "--check of no folder: exit $status, not 2"
grep -q "no such folder: not a folder" "$WORK/err" || fail "--check of no folder: $(cat "$WORK/err")"
touch "$WORK/a file"
run vectors --out "$WORK/a file"
[ "$status" -eq 2 ] || fail "--out onto a file: exit $status, not 2"
grep -q "a file: cannot make the folder" "$WORK/err" || fail "--out onto a file: $(cat "$WORK/err")"
echo "regenerate_test: ok"
