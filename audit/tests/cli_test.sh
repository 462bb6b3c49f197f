#!/bin/sh
# `f2lay audit` as a user runs it: the report, --json, --svg and --arg on corpus
# kernels, and a clear error (exit 2) for each kind of bad input.
#   cli_test.sh F2LAY CORPUS_TTGIR_DIR
f2lay=$1 corpus=$2
fail() { echo "cli_test: $*"; exit 1; }
expect_exit() {  # expected status, then the command
  want=$1; shift
  "$@" > /tmp/f2lay_cli_out.$$ 2> /tmp/f2lay_cli_err.$$
  got=$?
  [ "$got" = "$want" ] || fail "$* exited $got, not $want: $(cat /tmp/f2lay_cli_err.$$)"
}
t=$corpus/transpose_int8-sm90-w1-32x32.ttgir
expect_exit 0 "$f2lay" audit "$t"
grep -q "32 st.shared 1B + 32 ld.shared 1B" /tmp/f2lay_cli_out.$$ || fail "the transpose's code is not reported"
grep -q "4.00x  <- above the optimum" /tmp/f2lay_cli_out.$$ || fail "the transpose's gain is not flagged"
expect_exit 0 "$f2lay" audit --svg "$t"
head -c 5 /tmp/f2lay_cli_out.$$ | grep -q "<?xml" || fail "--svg gives no SVG"
grep -q "4 wavefronts" /tmp/f2lay_cli_out.$$ || fail "--svg does not draw the 4-way load"
expect_exit 0 "$f2lay" audit --json --arg K=128 --arg M=256 --arg N=256 \
  "$corpus/matmul_fp16-sm90-w4-128x128x64-s3.ttgir"
grep -q '"trips": 2' /tmp/f2lay_cli_out.$$ || fail "--arg K=128 does not give the loop 2 trips"
# Loop counts from the launch: a causal attention's blocks by program id, a
# persistent matmul's tiles by grid and program id.
a=$corpus/attention_fwd_fp16-sm80-w4-d128-causal-64x64-s3.ttgir
expect_exit 0 "$f2lay" audit --json --grid 4,2 --program 0,1 "$a"
grep -q '"trips": 1' /tmp/f2lay_cli_out.$$ || fail "program 0 of the causal attention: not 1 trip"
expect_exit 0 "$f2lay" audit --json --grid 4,2 --program 3,1 "$a"
grep -q '"trips": 4' /tmp/f2lay_cli_out.$$ || fail "program 3 of the causal attention: not 4 trips"
m=$corpus/matmul_tma-sm90-w4-128x128x64-s3.ttgir
expect_exit 0 "$f2lay" audit --json --grid 2 --program 1 --arg M=256 --arg N=256 --arg K=128 "$m"
grep -q '"trips": null' /tmp/f2lay_cli_out.$$ && fail "the persistent matmul's tile loop is not counted"
# Bad input: each named, exit 2.
expect_exit 2 "$f2lay" audit --grid 2,x "$m"
grep -q 'is not X\[,Y\[,Z\]\] integers' /tmp/f2lay_cli_err.$$ || fail "--grid 2,x: $(cat /tmp/f2lay_cli_err.$$)"
expect_exit 2 "$f2lay" audit --grid 2 --program 2 "$m"
grep -q 'outside the grid' /tmp/f2lay_cli_err.$$ || fail "--program 2 of 2: $(cat /tmp/f2lay_cli_err.$$)"
expect_exit 2 "$f2lay" audit --arg K "$t"
grep -q 'is not NAME=INTEGER' /tmp/f2lay_cli_err.$$ || fail "--arg K: $(cat /tmp/f2lay_cli_err.$$)"
expect_exit 2 "$f2lay" audit --arg Q=1 "$t"
grep -q 'no argument "Q"' /tmp/f2lay_cli_err.$$ || fail "--arg Q=1: $(cat /tmp/f2lay_cli_err.$$)"
expect_exit 2 "$f2lay" audit /nonexistent.ttgir
echo 'def kernel(): pass' > /tmp/f2lay_cli_bad.$$
expect_exit 2 "$f2lay" audit /tmp/f2lay_cli_bad.$$
grep -q 'module attributes' /tmp/f2lay_cli_err.$$ || fail "a Python file: $(cat /tmp/f2lay_cli_err.$$)"
expect_exit 2 "$f2lay" audit --svg "$corpus/softmax-sm80-fp32-w1-16x64-n50.ttgir"
grep -q 'nothing to draw' /tmp/f2lay_cli_err.$$ || fail "--svg without a costed op: $(cat /tmp/f2lay_cli_err.$$)"
expect_exit 2 "$f2lay" audit --json --svg "$t"
rm -f /tmp/f2lay_cli_out.$$ /tmp/f2lay_cli_err.$$ /tmp/f2lay_cli_bad.$$
echo "cli_test: ok"
