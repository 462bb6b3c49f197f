#!/usr/bin/env python3
"""The wheel as a stranger installs it (ctest python_wheel): `pip wheel .` builds it (with
.venv's pinned build backend, no isolation: nothing is downloaded for the build), a fresh
virtual environment gets it and, from PyPI, the pinned pytest and Hypothesis (the `strategies`
extra), and the module's tests run there from outside the repository. The drop-in contract
(test_dropin.py) is left out: it compares with Triton's binding, the `triton` extra, which
this does not download. Exit 0, 1 on a failure, 77 without .venv's build backend.
    wheel_check.py F2LAY_BINARY
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
# What the tests need besides the wheel, pinned as adapters/requirements.txt pins them.
TEST_PACKAGES = ["pytest", "pluggy", "iniconfig", "packaging", "Pygments", "hypothesis",
                 "sortedcontainers", "attrs"]


def pins():
    wanted = {}
    for line in (ROOT / "adapters" / "requirements.txt").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name = line.split("==")[0].strip()
            wanted[name.lower()] = line.strip()
    return [wanted[p.lower()] for p in TEST_PACKAGES]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import scikit_build_core  # noqa: F401
        import nanobind  # noqa: F401
    except ImportError as e:
        print(f"wheel_check: no build backend here ({e}); run scripts/setup")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-build-isolation",
                        "--no-deps", "-q", "-w", str(tmp / "dist")], check=True, cwd=ROOT)
        wheel = next((tmp / "dist").glob("f2lay-*.whl"))
        subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
        python = tmp / "venv" / "bin" / "python"
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        str(wheel), *pins()], check=True)
        # The tests, copied out of the repository: the module comes from the venv alone.
        tests = tmp / "tests"
        shutil.copytree(ROOT / "python" / "tests", tests,
                        ignore=shutil.ignore_patterns("test_dropin.py", "__pycache__"))
        env = dict(os.environ, F2LAY_BIN=os.path.abspath(sys.argv[1]), F2LAY_REPO=str(ROOT))
        check = ("import f2lay, f2lay.strategies, sys; "
                 "sys.exit(0 if 'site-packages' in f2lay.__file__ else 1)")
        subprocess.run([str(python), "-c", check], check=True, cwd=tmp, env=env)
        result = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                 str(tests)], cwd=tmp, env=env)
        return 1 if result.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
