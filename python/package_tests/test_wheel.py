"""The wheel as a stranger installs it (ctest python_wheel): `pip wheel .` builds it (with
.venv's pinned build backend, no isolation: nothing is downloaded for the build), a fresh
virtual environment gets it and, from PyPI, the pinned pytest and Hypothesis (the `strategies`
extra), and the module's tests (python/tests) run there from outside the repository. The
drop-in contract (test_dropin.py) is left out: it compares with Triton's binding, the `triton`
extra, which this does not download. It skips without .venv's build backend; --f2lay (the
root conftest.py) names the `f2lay` command the tests of f2lay.ask compare with.
"""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("scikit_build_core", reason="no build backend here (scripts/setup)")
pytest.importorskip("nanobind", reason="no build backend here (scripts/setup)")

ROOT = pathlib.Path(__file__).resolve().parents[2]
# What the tests need besides the wheel, pinned as adapters/requirements.txt pins them.
TEST_PACKAGES = ["pytest", "pluggy", "iniconfig", "packaging", "Pygments", "hypothesis",
                 "sortedcontainers", "attrs"]


def pins() -> list[str]:
    wanted = {}
    for line in (ROOT / "adapters" / "requirements.txt").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            wanted[line.split("==")[0].strip().lower()] = line.strip()
    return [wanted[p.lower()] for p in TEST_PACKAGES]


def test_wheel_in_a_fresh_venv(tmp_path: pathlib.Path, f2lay: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-build-isolation",
                    "--no-deps", "-q", "-w", str(tmp_path / "dist")], check=True, cwd=ROOT)
    wheel = next((tmp_path / "dist").glob("f2lay-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    str(wheel), *pins()], check=True)
    # The tests, copied out of the repository: the module comes from the venv alone.
    tests = tmp_path / "tests"
    shutil.copytree(ROOT / "python" / "tests", tests,
                    ignore=shutil.ignore_patterns("test_dropin.py", "__pycache__"))
    env = dict(os.environ, F2LAY_BIN=os.path.abspath(f2lay), F2LAY_REPO=str(ROOT))
    where = subprocess.run([str(python), "-c", "import f2lay, f2lay.strategies; "
                            "print(f2lay.__file__)"], check=True, cwd=tmp_path, env=env,
                           capture_output=True, text=True).stdout
    assert "site-packages" in where, f"f2lay imported from {where}, not the fresh venv"
    result = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             str(tests)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-4000:]
