"""compare_banks.py on made-up runs (ctest compare_banks, no GPU): the join of
predictions with ncu's raw CSV (quoted values, thousands separators, a units
row), the 16x32 transpose's literal values, the golden cases' stated values,
finding F1's rule, the unsettled cases and their rerun, and the exit statuses."""
import csv
import io
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compare_banks.py")
COUNTERS = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
            "smsp__sass_inst_executed_op_shared_ld.sum",
            "smsp__sass_inst_executed_op_shared_st.sum",
            "sm__sass_inst_executed_op_ldsm.sum", "sm__sass_inst_executed_op_shared_stsm.sum"]
# The 16x32 fp32 transpose of device_tests/HARDWARE.md#seed-transpose (cases named "seed
# transpose"): (map, access) -> wavefronts.
SEED = [("32m + n", "store", 16), ("32m + n", "load", 256),
        ("32m + (n xor m)", "store", 16), ("32m + (n xor m)", "load", 32),
        ("32m + (n xor 2m)", "store", 16), ("32m + (n xor 2m)", "load", 16)]


def case(name, access, warps, predicted, measured, instructions=16, instruction="vector",
         golden="", turns=()):
    """A case: its prediction and ncu's wavefronts in each repeat (`turns`:
    in the launches where the warps took turns, a rerun's)."""
    return dict(name=name, access=access, warps=warps, predicted=predicted, measured=measured,
                instructions=instructions, instruction=instruction, golden=golden,
                turns=list(turns))


def seed_cases():
    return [case(f"seed transpose; offset = {m}; {'store per A' if a == 'store' else 'load per B'}",
                 a, 1, w, [w] * 3) for m, a, w in SEED]


def golden_case(measured=(1024, 1024, 1024), stated="1024"):
    return case("golden: LDS.32 word stride 32: 32 wavefronts per instruction", "load", 1, 1024,
                list(measured), instructions=32, golden=stated)


def write_predictions(path, cases):
    """What f2lay_device_banks writes: one row a launch, every repeat of
    every case (those where the warps take turns last)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["launch", "repeat", "turns", "probe", "case", "access", "instruction",
                    "element_bytes", "vector_bytes", "warps", "instructions", "wavefronts",
                    "ideal", "lemma94", "golden"])
        launch = 0
        for probe, c in enumerate(cases):
            turns = [0] * len(c["measured"]) + [1] * len(c["turns"])
            for r, turn in enumerate(turns):
                w.writerow([launch, r, turn, probe, c["name"], c["access"], c["instruction"], 4,
                            4, c["warps"], c["instructions"], c["predicted"], c["instructions"],
                            "exact", c["golden"]])
                launch += 1


def write_ncu(path, cases, counters, extra_row):
    """What `ncu --csv --page raw` writes over the same launches: a line of
    its own first, every value quoted, a units row, thousands separators."""
    out = io.StringIO()
    out.write("==PROF== Connected to process 1\n")
    w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(["ID", "Kernel Name"] + counters)
    w.writerow(["", ""] + ["" for _ in counters])  # the units row
    rows = [(c, m) for c in cases for m in c["measured"] + c["turns"]]
    if extra_row:
        rows.append(rows[-1])
    for launch, (c, m) in enumerate(rows):
        values = []
        for k in counters:
            is_ld = c["access"] == "load"
            matrix = c["instruction"] != "vector"
            if k.startswith("l1tex"):
                v = m if (k.endswith("ld.sum") == is_ld) else 0
            elif "ldsm" in k or "stsm" in k:
                v = c["instructions"] if matrix and (("ldsm" in k) == is_ld) else 0
            else:
                v = c["instructions"] if not matrix and (k.endswith("ld.sum") == is_ld) else 0
            values.append(f"{v:,}")
        w.writerow([str(launch), "bankProbeLoad" if c["access"] == "load" else "bankProbeStore"]
                   + values)
    with open(path, "w") as f:
        f.write(out.getvalue())


@pytest.fixture
def compare(tmp_path):
    """compare_banks.py on the cases' predictions and ncu's CSV of them:
    (exit status, stdout and stderr). `unsettled`, a list, gets the probe
    numbers the script lists."""
    def run(cases, drop_counter=None, extra_ncu_row=False, options=(), unsettled=None):
        pred, ncu = tmp_path / "pred.csv", tmp_path / "ncu.csv"
        write_predictions(pred, cases)
        write_ncu(ncu, cases, [k for k in COUNTERS if k != drop_counter], extra_ncu_row)
        listed = tmp_path / "unsettled.txt"
        p = subprocess.run([sys.executable, SCRIPT, *options, "--unsettled", listed, pred, ncu],
                           capture_output=True, text=True)
        if unsettled is not None and p.returncode in (0, 1, 3):
            with open(listed) as f:
                unsettled.extend(int(line) for line in f)
        return p.returncode, p.stdout + p.stderr
    return run


def test_agreement_exits_0_and_reads_thousands_separators(compare):
    status, out = compare(seed_cases() + [golden_case()])
    assert status == 0, out
    assert "| all | | 7 | 7 | 7 | 7 |" in out  # six transpose cases, one golden case


def test_one_warp_excess_is_a_disagreement(compare):
    extra = case("random pair 1; optimum; load per B", "load", 1, 4, [4, 5, 4])
    status, out = compare(seed_cases() + [golden_case(), extra])
    assert status == 1, out
    assert "### Disagreements" in out


def test_several_warps_reading_the_prediction_in_some_repeat_is_finding_f1(compare):
    extra = case("random pair 2; random memory layout; store per A", "store", 4, 32,
                 [33, 32, 34])
    status, out = compare(seed_cases() + [golden_case(), extra])
    assert status == 0, out
    assert "Finding F1" in out
    assert "### Disagreements" not in out


def test_several_warps_reading_more_in_every_repeat_is_unsettled_and_listed(compare):
    extra = case("random pair 3; random memory layout; store per A", "store", 4, 32,
                 [33, 33, 34])
    listed = []
    status, out = compare(seed_cases() + [golden_case(), extra], unsettled=listed)
    assert status == 3, out
    assert "### Unsettled" in out
    assert listed == [7]  # its probe number: after six transpose cases and the golden case


def test_unsettled_with_another_disagreement_exits_1(compare):
    extra = case("random pair 3; random memory layout; store per A", "store", 4, 32,
                 [33, 33, 34])
    wrong = case("random pair 4; optimum; load per B", "load", 1, 4, [5, 5, 5])
    status, out = compare(seed_cases() + [golden_case(), extra, wrong])
    assert status == 1, out


def test_a_rerun_settles_f1_when_the_warps_taking_turns_read_the_prediction(compare):
    settled = case("random pair 3; random memory layout; store per A", "store", 4, 32,
                   [33, 34, 33], turns=[32, 32, 32])
    status, out = compare([settled], options=["--rerun"])
    assert status == 0, out  # no transpose or golden case needed
    assert "| F1 (exact when the warps take turns) |" in out
    assert "1 of 1 cases agree or are F1." in out


def test_a_rerun_fails_when_the_warps_taking_turns_read_more(compare):
    still = case("random pair 3; random memory layout; store per A", "store", 4, 32,
                 [33, 34, 33], turns=[32, 33, 32])
    status, out = compare([still], options=["--rerun"])
    assert status == 1, out
    assert "| DISAGREES |" in out


def test_a_rerun_fails_when_together_reads_fewer(compare):
    fewer = case("random pair 3; random memory layout; store per A", "store", 4, 32,
                 [31, 34, 33], turns=[32, 32, 32])
    status, out = compare([fewer], options=["--rerun"])
    assert status == 1, out


def test_a_run_without_the_seed_fails(compare):
    ok = case("random pair 5; optimum; load per B", "load", 1, 4, [4, 4])
    status, out = compare([ok])
    assert status == 1, out


def test_unknown_options_exit_2(compare):
    status, out = compare(seed_cases(), options=["--again"])
    assert status == 2, out
    assert "usage:" in out


def test_reading_fewer_is_a_disagreement(compare):
    extra = case("random pair 4; optimum; load per B", "load", 4, 32, [32, 31, 32])
    status, out = compare(seed_cases() + [golden_case(), extra])
    assert status == 1, out


def test_a_golden_case_must_read_its_stated_value(compare):
    status, out = compare(seed_cases() + [golden_case(stated="512")])
    assert status == 1, out


def test_a_seed_map_must_read_hardware_md(compare):
    cases = seed_cases()
    cases[1] = case(cases[1]["name"], "load", 1, 128, [128] * 3)  # predicted and read alike
    status, out = compare(cases + [golden_case()])
    assert status == 1, out


def test_ldmatrix_instructions_come_from_ldsm(compare):
    extra = case("blocked; ldmatrix; fp16; optimum; load per B", "load", 4, 64, [64] * 3,
                 instruction="matrix")
    status, out = compare(seed_cases() + [golden_case(), extra])
    assert status == 0, out


def test_padded_cases_have_their_group(compare):
    ok = case("random padded 3; [32:+1] 32x32 w=4; load", "load", 1, 32, [32] * 3,
              instructions=32)
    status, out = compare(seed_cases() + [golden_case(), ok])
    assert status == 0, out
    assert ("| random padded layouts (padded_shared, padded byte addresses) | load | 1 | 1 | 1 "
            "| 1 |") in out
    assert "Padded cases (padded_shared): 1 of 1 agree" in out
    bad = case("random padded 4; [8:+2] 16x16 w=8; store", "store", 1, 16, [18, 18, 18])
    status, out = compare(seed_cases() + [golden_case(), bad])
    assert status == 1, out
    assert "### Disagreements" in out


def test_a_missing_counter_exits_2_naming_it(compare):
    status, out = compare(seed_cases() + [golden_case()],
                          drop_counter="sm__sass_inst_executed_op_ldsm.sum")
    assert status == 2, out
    assert "sm__sass_inst_executed_op_ldsm.sum" in out


def test_launch_counts_that_differ_exit_2(compare):
    status, out = compare(seed_cases() + [golden_case()], extra_ncu_row=True)
    assert status == 2, out
    assert "predictions but" in out
