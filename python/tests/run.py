"""ctest's entry to the module's tests (python/tests/CMakeLists.txt): pytest
on this folder, in .venv. Exit 77 (ctest's skip) where .venv has no f2lay
module (scripts/setup builds and installs it); a test that pytest skips fails
the run, so that no part of the contract goes unchecked unnoticed."""
import importlib.util
import os
import sys

if importlib.util.find_spec("f2lay") is None:
    print("run.py: no f2lay module in this Python (scripts/setup installs it into .venv)")
    sys.exit(77)

import pytest  # noqa: E402


class NoSkips:
    skipped: list = []

    def pytest_runtest_logreport(self, report):
        if report.skipped:
            self.skipped.append(report.nodeid)


plugin = NoSkips()
status = pytest.main([os.path.dirname(os.path.abspath(__file__)), "-q", "-p", "no:cacheprovider",
                      *sys.argv[1:]], plugins=[plugin])
if plugin.skipped:
    print(f"run.py: {len(plugin.skipped)} tests skipped, which the contract does not allow: "
          + ", ".join(plugin.skipped))
    status = status or 1
sys.exit(int(status))
