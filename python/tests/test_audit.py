"""f2lay.audit reads a compiled kernel as `f2lay audit --json` does (F2LAY_BIN
names the binary; ctest sets it), on every kernel of the corpus
(audit/corpus/ttgir), and refuses bad arguments with exceptions."""
import glob
import json
import os
import subprocess

import pytest

import f2lay

# The repository, for its data (F2LAY_REPO where the tests run from a copy: wheel_check.py).
ROOT = os.environ.get("F2LAY_REPO", os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = sorted(glob.glob(os.path.join(ROOT, "audit", "corpus", "ttgir", "*.ttgir")))


def test_every_corpus_kernel_reads_as_the_command_reads_it():
    binary = os.environ.get("F2LAY_BIN")
    assert binary, "F2LAY_BIN must name the f2lay binary (ctest sets it)"
    assert len(CORPUS) >= 24
    for path in CORPUS:
        command = json.loads(subprocess.run([binary, "audit", "--json", path], capture_output=True,
                                            text=True, check=True).stdout)
        assert f2lay.audit(open(path).read()) == command, path


def test_the_one_warp_int8_transpose():
    path = os.path.join(ROOT, "audit", "corpus", "ttgir", "transpose_int8-sm90-w1-32x32.ttgir")
    report = f2lay.audit(open(path).read())
    assert report["module"] == {"num_warps": 1, "threads_per_warp": 32, "num_ctas": 1,
                                "target": "cuda:90"}
    converts = [op for op in report["ops"] if op["op"] == "ttg.convert_layout"]
    assert len(converts) == 1
    assert converts[0]["shape"] == [32, 32] and converts[0]["element_bytes"] == 1
    assert converts[0]["source"]["file"] == "audit/corpus/kernels/transpose_int8.py"
    assert all("layout" in report["layouts"][i] for i in converts[0]["from"] + converts[0]["to"])


def test_a_causal_attentions_blocks_follow_the_program_id():
    path = os.path.join(ROOT, "audit", "corpus", "ttgir",
                        "attention_fwd_fp16-sm80-w4-d128-causal-64x64-s3.ttgir")
    text = open(path).read()
    trips = [f2lay.audit(text, grid=(4, 2), program=(x, 0))["loops"][0]["trips"]
             for x in range(4)]
    assert trips == [1, 2, 3, 4]
    assert f2lay.audit(text)["loops"][0]["trips"] is None  # no program id: unknown


def test_bad_arguments_raise():
    with pytest.raises(TypeError, match="grid"):
        f2lay.audit("", grid=(1, 2, 3, 4))
    with pytest.raises(TypeError, match="program"):
        f2lay.audit("", program="0")  # type: ignore[arg-type] # bad input on purpose
    path = os.path.join(ROOT, "audit", "corpus", "ttgir", "transpose_int8-sm90-w1-32x32.ttgir")
    with pytest.raises(f2lay.Error, match="outside the grid"):
        f2lay.audit(open(path).read(), grid=(1,), program=(1,))
    with pytest.raises(TypeError):
        f2lay.audit(b"module attributes {}")  # type: ignore[arg-type] # on purpose
    with pytest.raises(f2lay.Error, match="triton"):
        f2lay.audit("", triton="3.7")
    with pytest.raises(f2lay.Error, match="no \"module attributes"):
        f2lay.audit("def kernel(): pass")
