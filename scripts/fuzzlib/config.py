"""The fuzz targets (fuzz/targets.txt, which fuzz/CMakeLists.txt reads too),
what every run of them gets (scripts/fuzz-options) and what each is meant to
reach (fuzz/reach.txt)."""
import os
import re
from dataclasses import dataclass

from fuzzlib import ROOT
from fuzzlib.cli import UsageError

TARGETS_FILE = os.path.join(ROOT, "fuzz", "targets.txt")
OPTIONS_FILE = os.path.join(ROOT, "scripts", "fuzz-options")
REACH_FILE = os.path.join(ROOT, "fuzz", "reach.txt")

# A target's name becomes part of file names (<name>_fuzzer.cpp) and of CMake's
# target names, and --targets separates names by commas.
TARGET_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ENVIRONMENT_SETTING = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)")


class ConfigError(Exception):
    """fuzz/targets.txt or scripts/fuzz-options unreadable, or a line of it
    that means nothing."""


def _settings(path):
    """(line number, text) of the file's lines that are neither blank nor
    comments (first non-blank character '#'), stripped as CMake strips them."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [(number, line.strip()) for number, line in enumerate(f, 1)]
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}")
    return [(number, text) for number, text in lines if text and not text.startswith("#")]


def read_targets(path=TARGETS_FILE):
    """The target names of the file, in its order."""
    targets = []
    for number, name in _settings(path):
        if not TARGET_NAME.fullmatch(name):
            raise ConfigError(f"{path}:{number}: '{name}' is not a target name")
        if name in targets:
            raise ConfigError(f"{path}:{number}: target '{name}' listed twice")
        targets.append(name)
    return targets


def select_targets(known, requested):
    """The targets of requested, a comma-separated list (all of known where
    it is empty), each checked against known."""
    if not requested:
        return list(known)
    selected = []
    for name in requested.split(","):
        if name not in known:
            raise UsageError(f"unknown target '{name}' (targets: {' '.join(known)})")
        if name in selected:
            raise UsageError(f"target '{name}' named twice")
        selected.append(name)
    return selected


def read_reach(path=REACH_FILE):
    """{target: [glob, ...]} of fuzz/reach.txt, each line `target: glob ...`
    (globs from the repository's root)."""
    reach = {}
    for number, text in _settings(path):
        target, sep, globs = text.partition(":")
        target = target.strip()
        if not sep or not TARGET_NAME.fullmatch(target) or not globs.split():
            raise ConfigError(f"{path}:{number}: expected 'target: glob ...', found '{text}'")
        if target in reach:
            raise ConfigError(f"{path}:{number}: target '{target}' listed twice")
        reach[target] = globs.split()
    return reach


@dataclass(frozen=True)
class RunOptions:
    environment: dict  # variable: value, for where the variable is unset or empty
    fuzzer: list  # libFuzzer's options, for every run


def read_run_options(path=OPTIONS_FILE):
    """The RunOptions of the file."""
    environment, fuzzer = {}, []
    for number, text in _settings(path):
        setting = ENVIRONMENT_SETTING.fullmatch(text)
        if text.startswith("-"):
            fuzzer.append(text)
        elif setting:
            environment[setting[1]] = setting[2]
        else:
            raise ConfigError(f"{path}:{number}: neither NAME=value nor a -option: '{text}'")
    return RunOptions(environment, fuzzer)


def load(requested):
    """The targets of --targets (requested; every one where it is empty) and
    the options. The environment's part goes into this process's environment,
    so that every fuzzer and all that it starts run with it; an empty
    variable counts as unset, as in the shell's ${NAME:-value}."""
    targets = select_targets(read_targets(), requested)
    options = read_run_options()
    for name, value in options.environment.items():
        if not os.environ.get(name):
            os.environ[name] = value
    return targets, options
