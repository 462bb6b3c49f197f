"""scripts/layers can fail: on a copy of the repository's code with one upward
include or one upward link planted, it names it and exits 1; on the copy as it
is, and on a made-up tree of allowed uses (a test folder using the properties),
it passes. ctest `layers_check`."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
LAYERS = os.path.join(ROOT, "scripts", "layers")
FOLDERS = ["formats", "testkit", "analysis", "reference", "optimized", "definitions", "oracle",
           "properties", "tools", "python", "fuzz", "device_tests", "bench", "examples"]


def run(root):
    p = subprocess.run([sys.executable, LAYERS, str(root)], capture_output=True, text=True)
    return p.returncode, p.stdout


def append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


@pytest.fixture
def code(tmp_path):
    """A copy of the repository's code (a tenth of a second: each test plants
    in a copy of its own)."""
    for folder in FOLDERS:
        src = os.path.join(ROOT, folder)
        if os.path.isdir(src):
            shutil.copytree(src, tmp_path / folder,
                            ignore=shutil.ignore_patterns("corpus", "regressions", "*.json*"))
    return tmp_path


def test_the_repositorys_code_passes(code):
    status, out = run(code)
    assert status == 0, out


@pytest.mark.parametrize("file, line, named", [
    ("testkit/columns.cpp", '#include "oracle/op_table.h"\n',
     ["testkit/columns.cpp", "includes oracle/"]),
    ("testkit/CMakeLists.txt", "target_link_libraries(f2lay_testkit PUBLIC f2lay_oracle)\n",
     ["f2lay_testkit (testkit/", "links f2lay_oracle"]),
], ids=["an include of the oracle from testkit/", "a link of f2lay_oracle from f2lay_testkit"])
def test_an_upward_use_planted_in_the_code_fails(code, file, line, named):
    append(code / file, line)
    status, out = run(code)
    assert status == 1, out
    for text in named:
        assert text in out


@pytest.fixture
def allowed(tmp_path):
    """A made-up tree of allowed uses: the properties use the oracle, and a
    test folder uses the properties."""
    write(tmp_path / "properties" / "laws.h", '#include "oracle/op_table.h"\n')
    write(tmp_path / "optimized" / "tests" / "t.cpp", '#include "properties/laws.h"\n')
    return tmp_path


def test_a_test_folder_may_use_the_properties(allowed):
    status, out = run(allowed)
    assert status == 0, out


@pytest.mark.parametrize("file, line, named", [
    ("optimized/tests/u.cpp", '#include "tools/show.h"\n', "u.cpp"),
    ("fuzz/f.cpp", '#include "device_tests/gpu.h"\n', "f.cpp"),
], ids=["a test folder may not use tools/", "folders of one layer do not include each other"])
def test_a_use_beside_the_allowed_ones_fails(allowed, file, line, named):
    write(allowed / file, line)
    status, out = run(allowed)
    assert status == 1, out
    assert named in out


def test_a_missing_folder_is_a_usage_error():
    status, _ = run(os.path.join(ROOT, "no-such-folder"))
    assert status == 2
