#!/bin/sh
# Runs a Python check in .venv for ctest (adapters/ and vectors/):
#
#   venv_run.sh VENV_PYTHON ARGS...    (a script and its arguments, or -m pytest ...)
#
# The check's exit status, or 77 (ctest's skip) when VENV_PYTHON is missing
# (scripts/setup makes .venv); a check exits 77 itself when its package is
# missing. So a plain ctest without scripts/setup passes, skipping them. With
# F2LAY_REQUIRE_VENV=1 in the environment (scripts/test sets it: CI makes
# .venv, so they must run there) a skip is turned into a failure that says so.
py=$1
shift
if [ -x "$py" ]; then
  "$py" "$@"
  status=$?
else
  echo "venv_run.sh: no $py (scripts/setup makes it)"
  status=77
fi
if [ "$status" -eq 77 ] && [ "${F2LAY_REQUIRE_VENV:-0}" = 1 ]; then
  echo "venv_run.sh: $* skipped (exit 77), but F2LAY_REQUIRE_VENV=1 requires it to run: failed"
  exit 1
fi
exit "$status"
