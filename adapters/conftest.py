"""pytest's setup for the adapters (the README's "How it is checked"): every adapter is a pytest
module (`*_check.py`, the root pytest.ini) whose test fails on an f2lay bug and prints
the other project's findings without failing. ctest runs each as by hand:

    .venv/bin/python -m pytest adapters/cute_check.py --f2lay build/release/tools/f2lay

--f2lay (the root conftest.py) names the `f2lay` command, or "in-process":
the f2lay Python module; --cases and --seed, where an adapter draws at random,
how many cases and from which seed (each adapter's own default where not
given); --seconds, where an adapter draws for a time, how long; --jobs, where
an adapter runs children, how many at once.

An adapter whose project is not installed skips (pytest.importorskip): the
root conftest.py makes that ctest's skip."""
import pathlib
import sys

import pytest

ADAPTERS = pathlib.Path(__file__).resolve().parent
# The adapters import their shared helpers (oracle_client, cute_definition, ...)
# from this folder.
sys.path.insert(0, str(ADAPTERS))


def pytest_addoption(parser):
    group = parser.getgroup("f2lay adapters")
    group.addoption("--cases", type=int, default=None, help="random cases (the adapter's default)")
    group.addoption("--seed", type=int, default=None, help="the random seed (the adapter's default)")
    group.addoption("--seconds", type=float, default=None,
                    help="how long time-boxed draws run (the adapter's default)")
    group.addoption("--jobs", type=int, default=None, help="children at once (the adapter's default)")


@pytest.fixture(scope="session")
def options(request):
    """The drawing options given on the command line, None where not given:
    a dict with keys "cases", "seed", "seconds", "jobs"."""
    return {k: request.config.getoption(f"--{k}") for k in ("cases", "seed", "seconds", "jobs")}

