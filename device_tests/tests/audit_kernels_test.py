"""device_tests/audit_kernels.py here, without a GPU: its build (with .venv's Triton 3.9.0),
its dry run, and its reports, raw and per SASS instruction, on made-up ncu runs.

A pytest module (the root conftest.py); it skips where Triton is not installed."""
import json
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("triton", reason="Triton is not installed (scripts/setup installs it)")

DEVICE_TESTS = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(DEVICE_TESTS))
import audit_kernels  # noqa: E402

MEASURES = audit_kernels.MEASURES


def test_build_run_and_reports(tmp_path):
    """build two entries (sm_80 to PTX, sm_90 to a cubin) and one it must skip (sm_100), check
    the files and the manifest, prepare the launches with the stand-in Triton (run --dry-run),
    and report a made-up ncu run of them, raw and per instruction."""
    names = ["transpose_int8-sm80-w1-32x32", "transpose_int8-sm90-w1-32x32",
             "matmul_fp16-sm100-w4-128x128x64-s3"]
    assert audit_kernels.METRICS in " ".join(audit_kernels.__doc__.split()), "the docstring's ncu command lacks METRICS"
    me = [sys.executable, str(DEVICE_TESTS / "audit_kernels.py")]
    out = tmp_path
    subprocess.run(me + ["build", str(out), "--only", *names], check=True)
    manifest = json.loads((out / "manifest.json").read_text())
    entries = {e["name"]: e for e in manifest["entries"]}
    assert sorted(entries) == names[:2], sorted(entries)
    assert [s["name"] for s in manifest["skipped"]] == names[2:], manifest["skipped"]
    assert "sm_100" in manifest["skipped"][0]["reason"]
    ptx = (out / entries[names[0]]["binary"]).read_text()
    assert entries[names[0]]["binary"].endswith(".ptx") and ".target sm_80" in ptx
    assert ".entry transpose_int8_kernel(" in ptx
    cubin = (out / entries[names[1]]["binary"]).read_bytes()
    assert entries[names[1]]["binary"].endswith(".cubin") and cubin[:4] == b"\x7fELF"
    # The cubin's line table names lines of the corpus TTGIR (USE_IR_LOC=ttgir).
    lines = entries[names[1]]["sass_lines"]
    ttgir = (audit_kernels.REPO / "audit" / "corpus" / "ttgir" / f"{names[1]}.ttgir").read_text()
    assert lines and lines[0][0] == 0 and [o for o, _ in lines] == sorted(o for o, _ in lines)
    converts = [n + 1 for n, t in enumerate(ttgir.splitlines()) if "ttg.convert_layout" in t]
    assert set(converts) <= {line for _, line in lines}, (converts, lines)
    assert entries[names[0]]["sass_lines"] == []  # PTX: the driver compiles it there
    for e in entries.values():
        assert e["function"] == "transpose_int8_kernel" and e["num_warps"] == 1
        assert e["shared"] == 1024 and e["global_scratch_size"] == 0 and e["ttgir_as_corpus"]
        assert [(a["kind"], a["dtype"]) for a in e["arguments"]] == [("pointer", "int8")] * 2
    subprocess.run(me + ["run", str(out), "--dry-run"], check=True)

    # A made-up ncu run: a kernel not of the corpus first, then one row per launch.
    launched = [{"name": n, "launched": True, "ok": True} for n in names[:2]]
    (out / "launched.json").write_text(json.dumps(launched))
    header = ["ID", "Kernel Name"] + [metric for _, metric, _ in MEASURES]
    lines = [header, ["", ""] + ["inst"] * len(MEASURES),
             ["0", "some_other_kernel"] + ["7"] * len(MEASURES),
             ["1", "transpose_int8_kernel"] + ["1,024"] * len(MEASURES),
             ["2", "transpose_int8_kernel"] + [str(k) for k in range(len(MEASURES))]]
    (out / "ncu.csv").write_text("==PROF== a line that is not CSV\n" + "".join(
        ",".join(f'"{cell}"' for cell in line) + "\n" for line in lines))
    assert audit_kernels.report(out, out / "ncu.csv") == 0
    measured = json.loads((out / "measured.json").read_text())
    assert [m["name"] for m in measured] == names[:2]
    assert all(measured[0][f] == 1024 for f, _, _ in MEASURES)
    assert [measured[1][f] for f, _, _ in MEASURES] == list(range(len(MEASURES)))

    # A made-up SourceCounters page: one table per launch, in launch order.
    cols = ["Address", "Source", "Instructions Executed", "L1 Wavefronts Shared",
            "L1 Wavefronts Shared Ideal"]
    table = [cols, ["0x10", "STS.128 [R3+UR5], R16", "24", "96", "96"],
             ["0x20", "@!P0 LDSM.16.M88.4 R4, [R5]", "24", "1,024", "96"],
             ["0x30", "LDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64]", "8", "32", "32"],
             ["0x40", "HGMMA.64x128x16.F32 R24, gdesc[UR8], R24", "4", "48", "48"],
             ["0x50", "IADD3 R1, R2, R3, RZ", "24", "0", "0"]]
    page = "==PROF== not CSV\n"
    for _ in names[:2]:
        page += '"Kernel Name","transpose_int8_kernel",\n' + "".join(
            ",".join(f'"{cell}"' for cell in line) + "\n" for line in table)
    (out / "source.csv").write_text(page)
    assert audit_kernels.sources(out, out / "source.csv") == 0
    counted = json.loads((out / "sources.json").read_text())
    assert [m["name"] for m in counted] == names[:2]
    assert {k: counted[0][k] for k in ("load", "store", "cp_async", "mma_operands", "other")} \
        == {"load": 1024, "store": 96, "cp_async": 32, "mma_operands": 48, "other": 0}
    assert len(counted[0]["instructions"]) == 4  # the IADD3 moved nothing
    (out / "source.csv").write_text(page.split('"Kernel Name"')[0])  # no tables
    assert audit_kernels.sources(out, out / "source.csv") == 2
