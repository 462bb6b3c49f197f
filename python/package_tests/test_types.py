"""The module's typing, as ctest checks it (python_types): the committed stubs of the compiled
extension (python/f2lay/_f2lay/*.pyi) are what nanobind's stubgen makes of the installed
module now (with python/stubgen_patterns.txt), and mypy (pinned, configured in pyproject.toml)
passes on the package and its tests. It skips without the module. To refresh the stubs:

    .venv/bin/python -m nanobind.stubgen -m f2lay._f2lay -r -O python/f2lay \\
        -p python/stubgen_patterns.txt -q
"""
import filecmp
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("f2lay._f2lay", reason="the f2lay module is not installed (scripts/setup)")

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUBS = ROOT / "python" / "f2lay" / "_f2lay"


def test_stubs_are_stubgens(tmp_path: pathlib.Path) -> None:
    subprocess.run([sys.executable, "-m", "nanobind.stubgen", "-m", "f2lay._f2lay", "-r",
                    "-O", str(tmp_path), "-p", str(ROOT / "python" / "stubgen_patterns.txt"),
                    "-q"], check=True)
    fresh = tmp_path / "_f2lay"
    names = sorted(p.name for p in fresh.glob("*.pyi"))
    assert names == sorted(p.name for p in STUBS.glob("*.pyi")), \
        f"stubgen makes {names}; refresh {STUBS} as this file's docstring says"
    stale = [n for n in names if not filecmp.cmp(fresh / n, STUBS / n, shallow=False)]
    assert not stale, f"the stubs {stale} in {STUBS} are stale; refresh them as this file's " \
                      "docstring says"


def test_mypy_passes() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr
