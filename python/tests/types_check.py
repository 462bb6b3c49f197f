#!/usr/bin/env python3
"""The module's typing, as ctest checks it (python_types): the committed stubs of the compiled
extension (python/f2lay/_f2lay/*.pyi) are what nanobind's stubgen makes of the installed
module now (with python/stubgen_patterns.txt), and mypy (pinned, configured in pyproject.toml)
passes on the package and its tests. Exit 0, 1 on a stale stub or a type error, 77 without
the module. To refresh the stubs:

    .venv/bin/python -m nanobind.stubgen -m f2lay._f2lay -r -O python/f2lay \\
        -p python/stubgen_patterns.txt -q
"""
import filecmp
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUBS = ROOT / "python" / "f2lay" / "_f2lay"


def main():
    try:
        import f2lay._f2lay  # noqa: F401
    except ImportError as e:
        print(f"types_check: the f2lay module is not installed ({e}); run scripts/setup")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "nanobind.stubgen", "-m", "f2lay._f2lay", "-r",
                        "-O", tmp, "-p", str(ROOT / "python" / "stubgen_patterns.txt"), "-q"],
                       check=True)
        fresh = pathlib.Path(tmp) / "_f2lay"
        names = sorted(p.name for p in fresh.glob("*.pyi"))
        stale = [n for n in names if not filecmp.cmp(fresh / n, STUBS / n, shallow=False)]
        if names != sorted(p.name for p in STUBS.glob("*.pyi")) or stale:
            print(f"types_check: the stubs in {STUBS} are stale ({stale or names}); refresh them "
                  f"as this file's docstring says")
            return 1
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT)
    return 1 if result.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
