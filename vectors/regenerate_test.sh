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

# expect STATUS TEXT WHAT ARGS...: f2lay ARGS must exit STATUS and print TEXT
# (on stdout; on stderr for status 2), else the test fails naming WHAT.
expect() {
  local want=$1 text=$2 what=$3
  shift 3
  run "$@"
  [ "$status" -eq "$want" ] || fail "$what: exit $status, not $want"
  local stream="$WORK/out"
  [ "$want" -ne 2 ] || stream="$WORK/err"
  grep -qF -- "$text" "$stream" || fail "$what: no \"$text\" in: $(cat "$stream")"
}

echo "check: the stored vectors regenerate identically"
expect 0 "6 of 6 files regenerate identically" "the stored vectors" vectors --check "$STORED"

echo "check: a changed case is reported with its line"
cp -r "$STORED" "$WORK/copy"
# The third line is the first case.
sed -i '3s/"name":"/"name":"renamed /' "$WORK/copy/algebra.json"
expect 1 "algebra.json: line 3 differs" "a changed line" vectors --check "$WORK/copy"
grep -q "5 of 6 files regenerate identically" "$WORK/out" || fail "the count is wrong: $(cat "$WORK/out")"

echo "check: a missing file is reported"
rm "$WORK/copy/swizzles.json"
expect 1 "swizzles.json: missing" "a missing file" vectors --check "$WORK/copy"

echo "check: --out writes what --check accepts"
expect 0 "wrote 6 files" "--out" vectors --out "$WORK/fresh"
cmp -s "$WORK/fresh/catalog.json" "$STORED/catalog.json" || fail "--out wrote another catalog.json"

echo "check: bad usage exits 2"
expect 2 "give --out DIR or --check DIR" "no option" vectors
expect 2 "excludes" "--out with --check" vectors --out "$WORK/a" --check "$WORK/b"
expect 2 "no such folder: not a folder" "--check of no folder" vectors --check "$WORK/no such folder"
touch "$WORK/a file"
expect 2 "a file: cannot make the folder" "--out onto a file" vectors --out "$WORK/a file"
echo "regenerate_test: ok"
