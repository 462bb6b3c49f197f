#!/usr/bin/env bash
# The f2lay command as a client sees it: the real binary over pipes.
#
#   protocol_test.sh F2LAY_BINARY TESTS_DIR
#
# Prints each check and stops at the first failure with a message on stderr.
# Expected outputs are written out literally. The layout is layout A of the
# paper's Figure 1 (data/layout_a.json): a 16x16 tensor held by 2x2
# registers, 4x8 lanes and 2x1 warps, dim0 = row i, dim1 = column j.
set -euo pipefail

F2LAY=${1:?usage: protocol_test.sh F2LAY_BINARY TESTS_DIR}
DATA=${2:?usage: protocol_test.sh F2LAY_BINARY TESTS_DIR}/data
WORK=$(python3 -c 'import tempfile; print(tempfile.mkdtemp(prefix="f2lay_protocol."))')
trap 'python3 -c "import shutil, sys; shutil.rmtree(sys.argv[1])" "$WORK"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

check() { echo "check: $*"; }

# run ARGS...: runs f2lay (stdin as given), stdout to $WORK/out, stderr to
# $WORK/err, the exit status in $status.
run() {
  status=0
  "$F2LAY" "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
}

# expect_status STATUS WHAT
expect_status() {
  if [[ $status != "$1" ]]; then
    echo "--- stdout:" >&2 && echo "$(<"$WORK/out")" >&2
    echo "--- stderr:" >&2 && echo "$(<"$WORK/err")" >&2
    fail "$2: exit status $status, expected $1"
  fi
}

# expect_error WHAT: exit status 2, nothing on stdout, "f2lay: ..." on stderr.
expect_error() {
  expect_status 2 "$1"
  [[ ! -s $WORK/out ]] || fail "$1: unexpected stdout: $(<"$WORK/out")"
  local first=""
  IFS= read -r first <"$WORK/err" || true
  [[ $first == f2lay:* ]] || fail "$1: stderr does not start with 'f2lay:': $(<"$WORK/err")"
}

# same_bytes GOT WANT WHAT: the two files are byte for byte equal.
same_bytes() {
  python3 - "$1" "$2" <<'PY' || fail "$3: output differs from the expected text"
import sys
got, want = (open(name, "rb").read() for name in sys.argv[1:3])
if got != want:
    sys.exit(f"--- got:\n{got!r}\n--- expected:\n{want!r}")
PY
}

# copy FROM TO: a text file, byte for byte.
copy() {
  local text
  IFS= read -r -d '' text <"$1" || true
  printf '%s' "$text" >"$2"
}

# expect_grep PATTERN WHAT: a line of stdout matches the extended regex.
expect_grep() {
  grep -qE -- "$1" "$WORK/out" || fail "$2: no line matches '$1' in: $(<"$WORK/out")"
}

# check_responses RESPONSES SPECS: one JSON response line per spec line, in
# order. A spec is {"id": ..., "ok": true, "result": ...} or
# {"id": ..., "ok": false, "error_contains": "..."}, without "id" when the
# request had none. Results and ids must be equal, types and key order too.
check_responses() {
  python3 - "$1" "$2" <<'PY'
import json
import sys

text = open(sys.argv[1], encoding="utf-8").read()
specs = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8") if l.strip()]
if text and not text.endswith("\n"):
    sys.exit("the last response line has no newline")
lines = text.split("\n")[:-1]
if len(lines) != len(specs):
    sys.exit(f"{len(lines)} response lines for {len(specs)} requests:\n{text}")
canon = json.dumps
for n, (line, spec) in enumerate(zip(lines, specs), 1):
    where = f"response {n}: {line}\n  expected: {canon(spec)}\n "
    try:
        got = json.loads(line)
    except ValueError as e:
        sys.exit(f"{where} not JSON: {e}")
    if not isinstance(got, dict):
        sys.exit(f"{where} not an object")
    if ("id" in got) != ("id" in spec) or canon(got.get("id")) != canon(spec.get("id")):
        sys.exit(f"{where} wrong id")
    if got.get("ok") is not spec["ok"]:
        sys.exit(f"{where} wrong ok")
    if spec["ok"]:
        if set(got) - {"id"} != {"ok", "result"} or canon(got["result"]) != canon(spec["result"]):
            sys.exit(f"{where} wrong result")
    else:
        if set(got) - {"id"} != {"ok", "error"} or not isinstance(got["error"], str):
            sys.exit(f"{where} an error response needs a string \"error\"")
        if spec["error_contains"] not in got["error"]:
            sys.exit(f"{where} the error does not contain {spec['error_contains']!r}")
PY
}

# Layout A (as data/layout_a.json), on one line for the requests.
LAYOUT_A='{"in_dims": [{"name": "register", "bases": [[0, 1], [1, 0]]}, {"name": "lane", "bases": [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]]}, {"name": "warp", "bases": [[8, 0]]}, {"name": "block", "bases": []}], "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 16}]}'
SMALL='{"in_dims": [{"name": "lane", "bases": [[1], [2]]}], "out_dims": [{"name": "dim0", "size": 4}]}'

# --- The oracle stream -------------------------------------------------------

# Good and bad requests mixed, with blank lines between them.
GOOD_1='{"op": "identity_1d", "size": 2, "in_dim": "lane", "out_dim": "dim0", "id": 1}'
# The paper: register 1 of lane 9 (lane bits 0 and 3) holds (0,1)^(0,2)^(2,0) = (2,3).
GOOD_2='{"op": "apply", "layout": '"$LAYOUT_A"', "input": {"register": 1, "lane": 9, "warp": 0, "block": 0}, "id": "last"}'
# 8 input bits onto 8 output bits, one per basis: a bijection.
GOOD_3='{"op": "is_invertible", "layout": '"$LAYOUT_A"', "id": 12345678901234567890}'
{
  echo "$GOOD_1"
  echo ""
  echo '{"op": "identity_1d", "size": 4'
  echo '[1, 2, 3]'
  echo '{"op": "frobnicate", "id": "req-4"}'
  echo '{"op": "invert", "id": 5}'
  printf '  \t \n'
  echo '{"op": "is_injective", "layout": '"$SMALL"', "colour": "red", "id": 6}'
  echo "$GOOD_2"
  echo "$GOOD_3"
} >"$WORK/mixed.jsonl"
cat >"$WORK/mixed.expected" <<'EOF'
{"id": 1, "ok": true, "result": {"in_dims": [{"name": "lane", "bases": [[1]]}], "out_dims": [{"name": "dim0", "size": 2}]}}
{"ok": false, "error_contains": "bad JSON"}
{"ok": false, "error_contains": "must be a JSON object"}
{"id": "req-4", "ok": false, "error_contains": "unknown op \"frobnicate\""}
{"id": 5, "ok": false, "error_contains": "invert: missing key \"layout\""}
{"id": 6, "ok": false, "error_contains": "is_injective: unknown key \"colour\""}
{"id": "last", "ok": true, "result": {"dim0": 2, "dim1": 3}}
{"id": 12345678901234567890, "ok": true, "result": true}
EOF

check "oracle: one response per non-blank line, in order, ids echoed, errors named; exit 2"
run oracle <"$WORK/mixed.jsonl"
expect_status 2 "oracle with failed requests"
check_responses "$WORK/out" "$WORK/mixed.expected" || fail "oracle responses (mixed stream)"
copy "$WORK/out" "$WORK/mixed.out"

check "oracle: CRLF line endings give the same responses"
while IFS= read -r line; do printf '%s\r\n' "$line"; done <"$WORK/mixed.jsonl" >"$WORK/crlf.jsonl"
run oracle <"$WORK/crlf.jsonl"
expect_status 2 "oracle with CRLF lines"
same_bytes "$WORK/out" "$WORK/mixed.out" "oracle responses to CRLF lines"

check "oracle --impl ref and --check give the same responses as the default (opt)"
for flags in "--impl ref" "--impl opt" "--check"; do
  # shellcheck disable=SC2086
  run oracle $flags <"$WORK/mixed.jsonl"
  expect_status 2 "oracle $flags with failed requests"
  same_bytes "$WORK/out" "$WORK/mixed.out" "oracle $flags responses"
done
run oracle --impl fast <"$WORK/mixed.jsonl"
expect_status 2 "oracle --impl fast"
grep -q "impl" "$WORK/err" || fail "oracle --impl fast: the error does not name --impl"

check "oracle: exit 0 when every request succeeds; the last line needs no newline"
printf '%s\n\n%s\n%s' "$GOOD_1" "$GOOD_2" "$GOOD_3" >"$WORK/good.jsonl"
run oracle <"$WORK/good.jsonl"
expect_status 0 "oracle with good requests"
grep -v '"ok": false' "$WORK/mixed.expected" >"$WORK/good.expected"
check_responses "$WORK/out" "$WORK/good.expected" || fail "oracle responses (good stream)"

check "oracle: empty stdin, or only blank lines, gives no output and exit 0"
run oracle </dev/null
expect_status 0 "oracle with empty stdin"
[[ ! -s $WORK/out ]] || fail "oracle with empty stdin wrote: $(<"$WORK/out")"
run oracle < <(printf '\n  \n\t\r\n\r\n')
expect_status 0 "oracle with blank lines"
[[ ! -s $WORK/out ]] || fail "oracle with blank lines wrote: $(<"$WORK/out")"

check "oracle --help lists every op"
run oracle --help
expect_status 0 "oracle --help"
for op in apply compose invert pseudoinvert invert_and_compose is_injective is_surjective \
  is_invertible matrix_view product divide_left transpose_ins transpose_outs reshape_ins \
  reshape_outs flatten_ins flatten_outs sublayout concat_ins concat_outs \
  free_variable_masks num_consecutive_in_out equal identity_1d zeros_1d strided_1d; do
  grep -qw -- "$op" "$WORK/out" || fail "oracle --help does not list $op"
done

# --- Usage ---------------------------------------------------------------------

check "usage errors exit 2; --version and --help exit 0"
run
expect_status 2 "no subcommand"
run frobnicate
expect_status 2 "unknown subcommand"
run verify --frobnicate
expect_status 2 "unknown flag"
run --frobnicate oracle
expect_status 2 "unknown flag before the subcommand"
run convert "$DATA/layout_a.json"
expect_status 2 "convert without --to"
run convert --to yaml "$DATA/layout_a.json"
expect_status 2 "convert --to yaml"
run show
expect_status 2 "show without a file"
run --version
expect_status 0 "--version"
expect_grep '^f2lay [0-9]' "--version"
run --help
expect_status 0 "--help"

# --- convert -------------------------------------------------------------------

echo '{"in_dims":[{"name":"register","bases":[[0,1],[1,0]]},{"name":"lane","bases":[[0,2],[0,4],[0,8],[2,0],[4,0]]},{"name":"warp","bases":[[8,0]]},{"name":"block","bases":[]}],"out_dims":[{"name":"dim0","size":16},{"name":"dim1","size":16}]}' \
  >"$WORK/a.json.expected"
# Triton's LinearLayout::toString, which starts with a newline.
cat >"$WORK/a.triton.expected" <<'EOF'

 - register=1 -> (0, 1)
   register=2 -> (1, 0)
 - lane=1 -> (0, 2)
   lane=2 -> (0, 4)
   lane=4 -> (0, 8)
   lane=8 -> (2, 0)
   lane=16 -> (4, 0)
 - warp=1 -> (8, 0)
 - block is a size 1 dimension
where out dims are: [dim0 (size 16), dim1 (size 16)]
EOF
echo '#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]], warp = [[8, 0]], block = []}>' \
  >"$WORK/a.mlir.expected"

for to in json triton mlir; do
  check "convert --to $to of layout A, and back to JSON"
  run convert --to "$to" "$DATA/layout_a.json"
  expect_status 0 "convert --to $to"
  same_bytes "$WORK/out" "$WORK/a.$to.expected" "convert --to $to"
  copy "$WORK/out" "$WORK/a.$to"
  run convert --to json "$WORK/a.$to"
  expect_status 0 "convert --to json of the $to text"
  same_bytes "$WORK/out" "$WORK/a.json.expected" "convert --to json of the $to text"
done

check "convert: - reads stdin; --from names the format"
run convert --to mlir - <"$DATA/layout_a.json"
expect_status 0 "convert --to mlir -"
same_bytes "$WORK/out" "$WORK/a.mlir.expected" "convert --to mlir -"
run convert --from triton --to json - <"$WORK/a.triton"
expect_status 0 "convert --from triton --to json -"
same_bytes "$WORK/out" "$WORK/a.json.expected" "convert --from triton --to json -"
run convert --from mlir --to triton "$WORK/a.mlir"
expect_status 0 "convert --from mlir --to triton"
same_bytes "$WORK/out" "$WORK/a.triton.expected" "convert --from mlir --to triton"

check "convert: a missing file, a malformed file, an in dim MLIR cannot carry"
run convert --to json "$WORK/no_such_file.json"
expect_error "convert of a missing file"
run convert --to json "$DATA/malformed_layout.json"
expect_error "convert of a malformed file"
run convert --from mlir --to json "$DATA/layout_a.json"
expect_error "convert --from mlir of a JSON file"
run convert --to mlir "$DATA/shared_memory_layout.json"
expect_error "convert --to mlir of a layout over 'offset'"

# CuTe's text (formats/cute_text.h): the nested-mode example, whose values are
# pycute's (nvidia-cutlass 4.2.0.0: ComposedLayout(Swizzle(3,4,3), 0,
# Layout(((8,2),64),((64,4096),1))) gives 64, 144, 288, 4096 at x = 1, 2, 4,
# 8 and 1, 2, ..., 32 at x = 16, 32, ..., 512). 1024 elements over 8192
# offsets: it reads in CuTe's direction, coordinate -> offset.
check "convert: CuTe's text, C++ print and pycute str, both ways"
printf 'Sw<3,4,3> o _0 o ((8,2),64):((64,4096),1)\n' >"$WORK/issue22.cute"
echo '{"in_dims":[{"name":"dim0","bases":[[64],[144],[288],[4096]]},{"name":"dim1","bases":[[1],[2],[4],[8],[16],[32]]}],"out_dims":[{"name":"offset","size":8192}]}' \
  >"$WORK/issue22.json.expected"
run convert --to json "$WORK/issue22.cute"
expect_status 0 "convert --to json of CuTe's text"
same_bytes "$WORK/out" "$WORK/issue22.json.expected" "convert --to json of CuTe's text"
copy "$WORK/out" "$WORK/issue22.json"
# Written back, B is 2: no offset sets bit 9, so YYY's third bit (bit 9 ->
# bit 6) never acts, and Sw<2,4,3> (bits 7, 8 -> 4, 5) has the same bases:
# 64, 128 ^ 16 = 144, 256 ^ 32 = 288, 4096. linear_to_cute takes the smallest
# B (reference/catalog/cute.h).
printf 'Sw<2,4,3> o _0 o ((8,2),64):((64,4096),1)\n' >"$WORK/issue22.written.expected"
run convert --to cute "$WORK/issue22.json"
expect_status 0 "convert --to cute"
same_bytes "$WORK/out" "$WORK/issue22.written.expected" "convert --to cute"
printf 'SW_2_4_3 o 0 o ((8, 2), 64):((64, 4096), 1)\n' >"$WORK/issue22.pycute.expected"
run convert --to pycute "$WORK/issue22.json"
expect_status 0 "convert --to pycute"
same_bytes "$WORK/out" "$WORK/issue22.pycute.expected" "convert --to pycute"
printf 'SW_3_4_3 o 0 o ((8, 2), 64):((64, 4096), 1)\n' >"$WORK/issue22.pycute"
run convert --from pycute --to json - <"$WORK/issue22.pycute"
expect_status 0 "convert --from pycute"
same_bytes "$WORK/out" "$WORK/issue22.json.expected" "convert --from pycute"
# A bijection reads as offset -> dim0, dim1 and writes back unchanged.
printf 'Sw<3,3,3> o _0 o ((8,2),64):((1,512),8)\n' >"$WORK/bijection.cute"
run convert --to json "$WORK/bijection.cute"
expect_status 0 "convert --to json of a CuTe bijection"
expect_grep '^\{"in_dims":\[\{"name":"offset"' "convert of a CuTe bijection: offset -> dims"
copy "$WORK/out" "$WORK/bijection.json"
run convert --to cute "$WORK/bijection.json"
expect_status 0 "convert --to cute of a CuTe bijection"
same_bytes "$WORK/out" "$WORK/bijection.cute" "convert --to cute of a CuTe bijection"

check "convert: CuTe's text refused with the position, or the reason CuTe cannot hold it"
printf '((8,2),64):((64,4096)' >"$WORK/bad.cute"
run convert --to json "$WORK/bad.cute"
expect_error "convert of malformed CuTe text"
grep -q "CuTe text: line 1, column 22: expected ',' or ')' in the stride" "$WORK/err" ||
  fail "malformed CuTe text: $(<"$WORK/err")"
run convert --to cute "$DATA/layout_a.json"
expect_error "convert --to cute of a register/lane layout"
grep -q "expects dim0.. -> offset or offset -> dim0.." "$WORK/err" ||
  fail "convert --to cute of layout A: $(<"$WORK/err")"
echo '{"in_dims":[{"name":"dim0","bases":[[1],[1]]}],"out_dims":[{"name":"offset","size":2}]}' \
  >"$WORK/carry.json"
run convert --to cute "$WORK/carry.json"
expect_error "convert --to cute of bases that no CuTe layout has"
grep -q "dim0 bit 0 -> offset 1 and dim0 bit 1 -> offset 1 share a bit" "$WORK/err" ||
  fail "convert --to cute of bases 1, 1: $(<"$WORK/err")"

# --- show ----------------------------------------------------------------------

check "show layout A: dims, rank, the matrix of the paper"
run show "$DATA/layout_a.json"
expect_status 0 "show"
copy "$WORK/out" "$WORK/show.out"
grep -qx 'rank 8: injective, surjective' "$WORK/show.out" ||
  fail "show: no line 'rank 8: injective, surjective'"

# matrix_row LABEL: the first stdout line whose first word is LABEL, without
# it, words separated by one space.
matrix_row() {
  local first rest
  local -a words
  while read -r first rest; do
    if [[ $first == "$1" ]]; then
      read -ra words <<<"$rest"
      echo "${words[*]}"
      return
    fi
  done <"$WORK/show.out"
}
# Rows i0..i3 (dim0), j0..j3 (dim1); columns reg0 reg1 lane0..lane4 warp0.
declare -A MATRIX=(
  ["dim0[0]"]="0 1 0 0 0 0 0 0" ["dim0[1]"]="0 0 0 0 0 1 0 0"
  ["dim0[2]"]="0 0 0 0 0 0 1 0" ["dim0[3]"]="0 0 0 0 0 0 0 1"
  ["dim1[0]"]="1 0 0 0 0 0 0 0" ["dim1[1]"]="0 0 1 0 0 0 0 0"
  ["dim1[2]"]="0 0 0 1 0 0 0 0" ["dim1[3]"]="0 0 0 0 1 0 0 0"
)
for label in "${!MATRIX[@]}"; do
  got=$(matrix_row "$label")
  [[ $got == "${MATRIX[$label]}" ]] ||
    fail "show: matrix row $label is '$got', expected '${MATRIX[$label]}'"
done

check "show layout A: the holder grid (paper: register 1 of thread 9 holds (2,3))"
mapfile -t LINES <"$WORK/show.out"
start=""
for i in "${!LINES[@]}"; do
  [[ ${LINES[i]} == "rows: dim0, columns: dim1" ]] && start=$((i + 1))
done
[[ -n $start ]] || fail "show: no line 'rows: dim0, columns: dim1'"
for ((row = 0; row < 16; row++)); do
  read -ra cells <<<"${LINES[start + row]:-}"
  [[ ${#cells[@]} == 16 ]] || fail "show: grid row $row has ${#cells[@]} cells: '${LINES[start + row]:-}'"
done
# cell ROW COLUMN WANT: the holder of element (dim0 = ROW, dim1 = COLUMN).
cell() {
  local -a cells
  read -ra cells <<<"${LINES[start + $1]:-}"
  [[ ${cells[$2]:-} == "$3" ]] || fail "show: element ($1,$2) is held by '${cells[$2]:-}', expected '$3'"
}
cell 2 3 w0t9r1    # the paper's example
cell 0 0 w0t0r0
cell 0 1 w0t0r1    # register 1 -> (0,1)
cell 1 0 w0t0r2    # register 2 -> (1,0)
cell 0 2 w0t1r0    # lane 1 -> (0,2)
cell 2 0 w0t8r0    # lane 8 -> (2,0)
cell 8 0 w1t0r0    # warp 1 -> (8,0)
cell 15 15 w1t31r3 # (8,0)^(4,0)^(2,0)^(1,0) and (0,8)^(0,4)^(0,2)^(0,1)

check "show: elements held by several inputs, one out dim, stdin"
run show - <<<'{"in_dims": [{"name": "lane", "bases": [[1], [0]]}], "out_dims": [{"name": "dim0", "size": 2}]}'
expect_status 0 "show -"
mapfile -t LINES <"$WORK/out"
start=""
for i in "${!LINES[@]}"; do
  [[ ${LINES[i]} == "one column of dim0" ]] && start=$((i + 1))
done
[[ -n $start ]] || fail "show: no line 'one column of dim0'"
cell 0 0 't0+1'    # lanes 0 and 2
cell 1 0 't1+1'    # lanes 1 and 3

check "show: a catalog request shows the layout it builds (paper: layout A is blocked)"
run show - <<<'{"op": "blocked", "size_per_thread": [2, 2], "threads_per_warp": [4, 8], "warps_per_cta": [2, 1], "order": [1, 0], "shape": [16, 16]}'
expect_status 0 "show of a blocked request"
cmp -s "$WORK/out" "$WORK/show.out" || fail "show: the blocked request does not show layout A"
run show - <<<'{"op": "blocked", "shape": [16, 16]}'
expect_error "show of a request missing keys"
run show - <<<'{"op": "is_memory", "layout": {"in_dims": [], "out_dims": []}}'
expect_error "show of a request that gives no layout"

check "show: no holder grid for a layout over other in dims; errors"
run show "$DATA/shared_memory_layout.json"
expect_status 0 "show of a layout over 'offset'"
! grep -q holders "$WORK/out" || fail "show: a holder grid for a layout over 'offset'"
run show "$WORK/no_such_file.json"
expect_error "show of a missing file"
run show "$DATA/malformed_layout.json"
expect_error "show of a malformed file"

# --- verify --------------------------------------------------------------------

check "verify: the built-in cases pass and a total line is printed"
run verify
expect_status 0 "verify"
read -r _ total passed failed < <(grep -E '^total ' "$WORK/out") ||
  fail "verify: no total line in: $(<"$WORK/out")"
[[ $failed == 0 && $total -gt 0 && $passed == "$total" ]] ||
  fail "verify: total line says $total cases, $passed passed, $failed failed"

check "verify --cases: a wrong expectation fails (exit 1) and is named"
run verify --cases "$DATA/wrong_expectation.jsonl"
expect_status 1 "verify with a wrong expectation"
expect_grep '^FAILED .*wrong_expectation\.jsonl: wrong on purpose: r1 of t9 with the coordinates swapped' \
  "verify with a wrong expectation"
! grep -q 'identity of size 4' "$WORK/out" || fail "verify: the correct case is reported failed"
read -r _ total passed failed < <(grep -E '^total ' "$WORK/out") || fail "verify: no total line"
[[ $failed == 1 && $passed == $((total - 1)) ]] ||
  fail "verify: total line says $total cases, $passed passed, $failed failed"

check "verify --cases: a malformed case file, a missing one, exit 2"
run verify --cases "$DATA/malformed_case.jsonl"
expect_status 2 "verify with a malformed case file"
grep -q '^f2lay: .*malformed_case\.jsonl:2' "$WORK/err" ||
  fail "verify: the error does not name malformed_case.jsonl:2: $(<"$WORK/err")"
run verify --cases "$WORK/no_such_file.jsonl"
expect_status 2 "verify with a missing case file"
grep -q '^f2lay:' "$WORK/err" || fail "verify: no 'f2lay:' message for a missing file"

echo "protocol_test: all checks passed"
