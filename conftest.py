"""pytest's setup for every Python test of this repository (pytest.ini):

- --f2lay names the `f2lay` command the tests ask (default $F2LAY_BIN, else
  build/release/tools/f2lay; the adapters also take "in-process", the f2lay
  Python module), given to tests as the `f2lay` fixture;
- a run in which anything is skipped (a project or tool not installed) ends
  with exit status 77, ctest's skip, which adapters/venv_run.sh turns into a
  failure under F2LAY_REQUIRE_VENV=1 (CI): nothing goes unchecked unnoticed."""
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent


def pytest_addoption(parser):
    parser.addoption("--f2lay", default=os.environ.get("F2LAY_BIN"),
                     help="the f2lay command (default $F2LAY_BIN, else build/release/tools/f2lay)")


@pytest.fixture(scope="session")
def f2lay(request):
    """The path of the `f2lay` command (or "in-process")."""
    path = request.config.getoption("--f2lay") or str(ROOT / "build/release/tools/f2lay")
    if path != "in-process" and not os.access(path, os.X_OK):
        pytest.fail(f"--f2lay {path}: no such executable (build it, or name it with --f2lay)")
    return path


SKIPPED = []
EXIT_STATUS = []


def pytest_collectreport(report):
    if report.skipped:  # a module's importorskip
        SKIPPED.append(report.nodeid)


def pytest_runtest_logreport(report):
    if report.skipped:
        SKIPPED.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if SKIPPED and exitstatus == 0:
        print(f"\nskipped: {', '.join(SKIPPED)} (exit 77, ctest's skip)")
        session.exitstatus = 77
    EXIT_STATUS.append(int(session.exitstatus))


def pytest_unconfigure(config):
    """Ends the process once pytest is done where Triton was imported: its
    bindings print nanobind's leak warnings from their finalizers at a normal
    exit."""
    if EXIT_STATUS and "triton" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_STATUS[0])
