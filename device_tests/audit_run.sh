#!/usr/bin/env bash
# The audit corpus on the GPU (device_tests/audit_kernels.py's docstring): every
# kernel launched once and its output checked, then again under ncu, joined
# into OUT/measured.json and OUT/report.md, and once more per SASS instruction into
# OUT/sources.json (measured.py sources reads it); then the one-warp int8 transpose
# under the Triton installed there (triton36_transpose.py), under ncu.
#   device_tests/audit_run.sh BUILD OUT     (BUILD: audit_kernels.py build's folder)
set -uo pipefail
build=$1 out=$2
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,sm__sass_inst_executed_op_ldsm.sum,sm__sass_inst_executed_op_shared_stsm.sum
# cp.async's counters, where this ncu knows them (an unknown one stops ncu).
for m in smsp__inst_executed_op_ldgsts.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum; do
  "$ncu" --query-metrics --chip gh100 2>/dev/null | grep -q "^${m%.sum} " && metrics+=",$m"
done
echo "ncu: $ncu; metrics: $metrics"
python3 device_tests/audit_kernels.py run "$build" > "$out/run.txt" 2>&1
echo "run: exit $? ($(tail -1 "$out/run.txt"))"
"$ncu" --csv --page raw --metrics "$metrics" python3 device_tests/audit_kernels.py run "$build" \
  > "$out/ncu.csv" 2> "$out/ncu.err"
echo "ncu: exit $?"
python3 device_tests/audit_kernels.py report "$build" "$out/ncu.csv" > "$out/report.md"
echo "report: exit $?"
# Again per SASS instruction (SourceCounters): these sums repeat exactly, where the raw
# counters above may count more than the instructions move (RESULTS.md, 2026-11-28).
"$ncu" --section SourceCounters --page source --csv --print-source sass \
  python3 device_tests/audit_kernels.py run "$build" > "$out/source.csv" 2> "$out/source.err"
echo "ncu per instruction: exit $?"
python3 device_tests/audit_kernels.py sources "$build" "$out/source.csv" > "$out/sources.md"
echo "sources: exit $?"
cp "$build/measured.json" "$build/launched.json" "$build/sources.json" "$out/" 2>/dev/null
python3 device_tests/triton36_transpose.py "$out" > "$out/t36.txt" 2>&1
echo "triton36: exit $? ($(cat "$out/t36.txt" | tr '\n' ' '))"
"$ncu" --csv --page raw -k regex:trans_kernel --metrics "$metrics" \
  python3 device_tests/triton36_transpose.py "$out" > "$out/t36_ncu.csv" 2>&1
echo "triton36 under ncu: exit $?"
