"""Tests of scripts/fuzz-campaign, scripts/fuzz-speed and scripts/fuzz-plot
that need no fuzz build and no clang: their shared libFuzzer log parser on
literal log lines, the targets file (fuzz/targets.txt, also read by CMake)
and scripts/fuzz-options, each script's argument errors, and whole runs of
fuzz-campaign and fuzz-speed with stand-in fuzzers (small Python programs
that print what libFuzzer prints). ctest `fuzz_scripts`, label fuzz."""
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "scripts")
sys.path.insert(0, SCRIPTS)

from fuzzlib import cli, config, libfuzzer  # noqa: E402 (after the path it is found on)

FORK_LLVM14 = ("#92190: cov: 5218 ft: 6695 corp: 621 exec/s 5319 oom/timeout/crash: 0/0/0 "
               "time: 13s job: 5 dft_time: 0")
FORK_LATER = ("#92190: cov: 5218 ft: 6695 corp: 621 exec/s: 5319 oom/timeout/crash: 0/0/0 "
              "time: 13s job: 5 dft_time: 0")

# An ASan report, as a reproduced crash prints it (trimmed).
ASAN_REPORT = f"""\
==123==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011 at pc 0x55d0c0a1b2c3
READ of size 1 at 0x602000000011 thread T0
    #0 0x55d0c0a1b2c3 in f2lay::readJson(std::string_view) {ROOT}/formats/json.cpp:42:10
    #1 0x55d0c0a1c000 in LLVMFuzzerTestOneInput {ROOT}/fuzz/readers_fuzzer.cpp:20:5
SUMMARY: AddressSanitizer: heap-buffer-overflow {ROOT}/formats/json.cpp:42:10 in f2lay::readJson
""".splitlines()

# A target's own check failing: abort(), which libFuzzer reports as a deadly
# signal; its first frames are libFuzzer's and libc's.
DEADLY_SIGNAL = f"""\
==4242== ERROR: libFuzzer: deadly signal
    #0 0x4b1d61 in __sanitizer_print_stack_trace ({ROOT}/build/fuzz/fuzz/readers_fuzzer+0x4b1d61)
    #1 0x425f48 in fuzzer::PrintStackTrace() ({ROOT}/build/fuzz/fuzz/readers_fuzzer+0x425f48)
    #2 0x7f3e2a8a3a7b in abort stdlib/abort.c:79:7
    #3 0x55d0c0a1d100 in f2lay::fuzz::fail(char const*) {ROOT}/fuzz/fail.h:12:3
    #4 0x55d0c0a1d200 in checkRoundTrip(f2lay::Layout const&) {ROOT}/fuzz/readers_fuzzer.cpp:33:5
    #5 0x55d0c0a1d300 in LLVMFuzzerTestOneInput {ROOT}/fuzz/readers_fuzzer.cpp:51:3
    #6 0x55d0c0a1d400 in main {ROOT}/fuzz/replay_main.cpp:9:1
SUMMARY: libFuzzer: deadly signal
""".splitlines()

LEAK_REPORT = f"""\
==99==ERROR: LeakSanitizer: detected memory leaks

Direct leak of 24 byte(s) in 1 object(s) allocated from:
    #0 0x4a1b2c in operator new(unsigned long) ({ROOT}/build/fuzz/fuzz/readers_fuzzer+0x4a1b2c)
    #1 0x55d0c0a1b2c3 in f2lay::parse() {ROOT}/formats/json.cpp:77:12

SUMMARY: AddressSanitizer: 24 byte(s) leaked in 1 allocation(s).
""".splitlines()


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, mode)


def run_script(name, *args, env=None):
    """(status, stdout, stderr) of scripts/<name> run by this Python."""
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, name), *args],
                       capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


# libFuzzer's status lines.

def test_event_lines():
    inited = libfuzzer.parse_status(
        "#2\tINITED cov: 1234 ft: 2345 corp: 10/1b exec/s: 0 rss: 40Mb")
    assert inited == libfuzzer.Status(runs=2, event="INITED", cov=1234, ft=2345, exec_per_sec=0,
                                      seconds=None)
    pulse = libfuzzer.parse_status(
        "#65536\tpulse  cov: 1073 ft: 4981 corp: 607/21Kb lim: 355 exec/s: 16384 rss: 234Mb")
    assert (pulse.runs, pulse.event, pulse.cov, pulse.ft, pulse.exec_per_sec) == \
        (65536, "pulse", 1073, 4981, 16384)
    new = libfuzzer.parse_status("#1251\tNEW    cov: 1074 ft: 4990 corp: 608/21Kb lim: 115 "
                                 "exec/s: 0 rss: 49Mb L: 33/103 MS: 1 ChangeBit-")
    assert (new.event, new.cov, new.ft) == ("NEW", 1074, 4990)
    done = libfuzzer.parse_status(
        "#44476\tDONE   cov: 1073 ft: 4981 corp: 607/21Kb lim: 443 exec/s: 14825 rss: 299Mb")
    assert (done.runs, done.event, done.exec_per_sec) == (44476, "DONE", 14825)


@pytest.mark.parametrize("line", [FORK_LLVM14, FORK_LATER], ids=["llvm-14", "later"])
def test_fork_lines_of_llvm_14_and_later(line):
    assert libfuzzer.parse_status(line) == libfuzzer.Status(
        runs=92190, event=libfuzzer.FORK, cov=5218, ft=6695, exec_per_sec=5319, seconds=13)


@pytest.mark.parametrize("line", [
    "Done 1000 runs in 30 second(s)",
    "==123==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020",
    "#0\tREAD units: 607",
    "#2\tINITED exec/s: 0 rss: 29Mb",  # no coverage to report
    "INFO: exiting: 0 time: 6s",
    "stat::average_exec_per_sec:     14825",
    "MS: 1 ChangeBit-; base unit: 0000000000000000000000000000000000000000",
    "  #92190: cov: 1 ft: 2 time: 3s",  # not at the line's start
    ""])
def test_other_lines_are_no_status(line):
    assert libfuzzer.parse_status(line) is None


def test_time_is_not_dft_time():
    status = libfuzzer.parse_status("#10: cov: 1 ft: 2 corp: 3 exec/s 4 job: 1 dft_time: 7")
    assert status.seconds is None
    assert libfuzzer.fork_statuses(["#10: cov: 1 ft: 2 job: 1 dft_time: 7"]) == []


def test_fork_statuses_leave_out_a_crashed_jobs_lines():
    log = ["INFO: -fork=2: fuzzing in separate process(s)",
           "#15159: cov: 4981 ft: 4981 corp: 607 exec/s 7579 oom/timeout/crash: 0/0/0 "
           "time: 2s job: 1 dft_time: 0",
           "INFO: log from the inner process:",
           "#20000\tNEW    cov: 9999 ft: 9999 corp: 608/21Kb exec/s: 0 rss: 49Mb",
           "Done 20000 runs in 1 second(s)",
           FORK_LLVM14,
           "INFO: exiting: 0 time: 13s"]
    assert [(s.runs, s.cov, s.seconds) for s in libfuzzer.fork_statuses(log)] == \
        [(15159, 4981, 2), (92190, 5218, 13)]
    assert [s.cov for s in libfuzzer.statuses(log, "NEW")] == [9999]
    assert libfuzzer.fork_ended(log)
    assert not libfuzzer.fork_ended(log[:-1])


# libFuzzer's other lines.

def test_final_stats():
    log = ["Done 44476 runs in 3 second(s)",
           "stat::number_of_executed_units: 44476",
           "stat::average_exec_per_sec:     14825",
           "stat::new_units_added:          39"]
    assert libfuzzer.final_stats(log) == {"number_of_executed_units": 44476,
                                          "average_exec_per_sec": 14825, "new_units_added": 39}


def test_merge_count_is_the_last_one():
    log = ["MERGE-OUTER: 2 files, 2 in the initial corpus, 0 processed earlier",
           "MERGE-OUTER: 7 new files with 9 new features added; 3 new coverage edges",
           "MERGE-OUTER: 39 new files with 41 new features added; 0 new coverage edges"]
    assert libfuzzer.merge_new_files(log) == 39
    assert libfuzzer.merge_new_files(log[:1]) is None


SHA = "d138ad3e1affa6049f7e80d9d7b60cb5f8b8ffd0"


@pytest.mark.parametrize("kind", ["crash", "leak", "timeout", "oom"])
def test_artifact_kinds(kind):
    assert libfuzzer.artifact_kind(f"{kind}-{SHA}") == kind


@pytest.mark.parametrize("name", ["slow-unit-" + SHA, "crash", "crashes",
                                  "minimized-from-" + SHA])
def test_other_files_are_no_artifacts(name):
    assert libfuzzer.artifact_kind(name) is None


# The key that tells one bug's crashes from another's.

def test_a_sanitizer_summary_naming_a_line():
    assert libfuzzer.crash_key(ASAN_REPORT, ROOT) == ASAN_REPORT[-1]
    ubsan = [f"{ROOT}/reference/cute.cpp:45:20: runtime error: signed integer overflow",
             f"SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior "
             f"{ROOT}/reference/cute.cpp:45:20 in "]
    assert libfuzzer.crash_key(ubsan, ROOT) == ubsan[1]


def test_the_first_three_frames_in_the_tree():
    assert libfuzzer.crash_key(DEADLY_SIGNAL, ROOT).splitlines() == [
        f"f2lay::fuzz::fail(char const*) {ROOT}/fuzz/fail.h:12:3",
        f"checkRoundTrip(f2lay::Layout const&) {ROOT}/fuzz/readers_fuzzer.cpp:33:5",
        f"LLVMFuzzerTestOneInput {ROOT}/fuzz/readers_fuzzer.cpp:51:3"]
    # A leak's summary names no line.
    assert libfuzzer.crash_key(LEAK_REPORT, ROOT) == \
        f"f2lay::parse() {ROOT}/formats/json.cpp:77:12"


def test_one_bug_in_two_processes_has_one_key():
    other = [line.replace("==4242==", "==77==").replace("0x55d0c0a1", "0x56aa0b3f")
             for line in DEADLY_SIGNAL]
    assert libfuzzer.crash_key(other, ROOT) == libfuzzer.crash_key(DEADLY_SIGNAL, ROOT)


def test_no_key():
    assert libfuzzer.crash_key(["==1== ERROR: libFuzzer: timeout after 10 seconds",
                                "SUMMARY: libFuzzer: timeout"], ROOT) is None
    assert libfuzzer.crash_key(DEADLY_SIGNAL, "/somewhere/else") is None


# fuzz/targets.txt.

@pytest.fixture
def targets_file(tmp_path):
    return tmp_path / "targets.txt"


def read(targets_file, text):
    write(targets_file, text)
    return config.read_targets(targets_file)


def test_the_repositorys_targets_have_sources():
    targets = config.read_targets()
    assert "algebra" in targets
    for t in targets:
        assert os.path.isfile(os.path.join(ROOT, "fuzz", f"{t}_fuzzer.cpp")), t


def test_comments_and_blank_lines(targets_file):
    text = "# targets\n\nalgebra\n  readers  \n\t# indented\n   \ncatalog\n# end"
    assert read(targets_file, text) == ["algebra", "readers", "catalog"]


@pytest.mark.parametrize("text, error", [
    ("algebra\nread ers\n", "targets.txt:2: 'read ers'"),
    ("algebra # the fast one\n", "targets.txt:1: 'algebra # the"),
    ("a,b\n", "'a,b' is not a target name"),
    ("swizzle\n\nswizzle\n", "targets.txt:3: target 'swizzle' listed twice")])
def test_bad_names_are_refused(targets_file, text, error):
    with pytest.raises(config.ConfigError) as e:
        read(targets_file, text)
    assert error in str(e.value)


def test_a_missing_file(targets_file):
    with pytest.raises(config.ConfigError, match="cannot read .*targets.txt"):
        config.read_targets(targets_file)


def test_cmake_reads_it_alike(targets_file, tmp_path):
    """fuzz/CMakeLists.txt's own lines, run by cmake -P on the same file."""
    cmake = shutil.which("cmake")
    if not cmake:
        pytest.skip("no cmake")
    with open(os.path.join(ROOT, "fuzz", "CMakeLists.txt"), encoding="utf-8") as f:
        reading = [line for line in f if line.startswith(("file(STRINGS", "list(TRANSFORM"))
                   and "F2LAY_FUZZ_TARGETS" in line]
    assert len(reading) == 2, "fuzz/CMakeLists.txt reads targets.txt otherwise"
    text = "# targets\n\nalgebra\n  readers  \n\t# indented\n   \ncatalog\n"
    write(targets_file, text)
    script = tmp_path / "read.cmake"
    write(script, f'set(F2LAY_FUZZ_TARGETS_FILE "{targets_file}")\n' + "".join(reading) +
          'message("${F2LAY_FUZZ_TARGETS}")\n')
    p = subprocess.run([cmake, "-P", script], capture_output=True, text=True)
    assert p.stderr.strip().split(";") == config.read_targets(targets_file)


KNOWN = ["algebra", "readers", "catalog"]


def test_selecting_targets():
    assert config.select_targets(KNOWN, "") == KNOWN
    assert config.select_targets(KNOWN, "catalog,algebra") == ["catalog", "algebra"]


@pytest.mark.parametrize("requested, error", [
    ("nope", "unknown target 'nope' (targets: algebra readers catalog)"),
    ("algebra,,readers", "unknown target '' (targets: algebra readers catalog)"),
    ("algebra,algebra", "target 'algebra' named twice")])
def test_selecting_unknown_targets_or_one_twice(requested, error):
    with pytest.raises(cli.UsageError) as e:
        config.select_targets(KNOWN, requested)
    assert str(e.value) == error


# scripts/fuzz-options.

def test_the_repositorys_options():
    options = config.read_run_options()
    assert options.environment == {"ASAN_OPTIONS": "malloc_context_size=1"}
    assert options.fuzzer == ["-timeout=10", "-rss_limit_mb=4096"]


def test_a_line_that_means_nothing(tmp_path):
    path = tmp_path / "fuzz-options"
    write(path, "# options\n-timeout=10\nASAN_OPTIONS malloc_context_size=1\n")
    with pytest.raises(config.ConfigError, match="fuzz-options:3: neither"):
        config.read_run_options(path)


@pytest.mark.parametrize("before, after", [(None, "malloc_context_size=1"),
                                           ("", "malloc_context_size=1"),
                                           ("detect_leaks=1", "detect_leaks=1")])
def test_the_environment_is_a_default(monkeypatch, before, after):
    # Every variable the options set is unset first (monkeypatch puts them
    # back, and takes away what config.load sets).
    for name in config.read_run_options().environment:
        monkeypatch.delenv(name, raising=False)
    if before is not None:
        monkeypatch.setenv("ASAN_OPTIONS", before)
    config.load("algebra")
    assert os.environ["ASAN_OPTIONS"] == after


# Argument errors: each is refused with status 2 before anything is set up,
# built or run.

def expect_usage_error(script, args, message):
    status, out, err = run_script(script, *args)
    assert status == 2, (args, err)
    assert err == f"scripts/{script}: {message} (see --help)\n", args


def command_lines(cases):
    """The test ids of (args, message) cases: the arguments, as a shell quotes them."""
    return [shlex.join(args) or "(none)" for args, _ in cases]


CAMPAIGN_ERRORS = [
    ([], "--hours H is required"),
    (["--hours"], "--hours needs a value"),
    (["--hours", "--jobs", "2"], "--hours needs a value"),
    (["--hours", ""], "--hours needs a value"),
    (["--hours=1"], "unknown argument '--hours=1'"),
    (["--hours", "1", "extra"], "unknown argument 'extra'"),
    (["--bogus", "--help"], "unknown argument '--bogus'"),
    (["--hours", "0"], "--hours takes a positive number of hours, not '0'"),
    (["--hours", "0.0"], "--hours takes a positive number of hours, not '0.0'"),
    (["--hours", "-1"], "--hours takes a positive number of hours, not '-1'"),
    (["--hours", "1e3"], "--hours takes a positive number of hours, not '1e3'"),
    (["--hours", "1", "--jobs", "0"], "--jobs takes a positive integer, not '0'"),
    (["--hours", "1", "--jobs", "2.5"], "--jobs takes a positive integer, not '2.5'"),
    (["--hours", ".5", "--targets", "nope"],
     "unknown target 'nope' (targets: " + " ".join(config.read_targets()) + ")")]


@pytest.mark.parametrize("args, message", CAMPAIGN_ERRORS, ids=command_lines(CAMPAIGN_ERRORS))
def test_fuzz_campaign_arguments(args, message):
    expect_usage_error("fuzz-campaign", args, message)


# {empty} stands for an empty folder.
SPEED_ERRORS = [
    (["--seconds", "0"], "--seconds takes a positive integer, not '0'"),
    (["--runs", "three"], "--runs takes a positive integer, not 'three'"),
    (["--runs"], "--runs needs a value"),
    (["--seconds", "5", "--frobnicate"], "unknown argument '--frobnicate'"),
    (["--build", "{empty}", "--bin", "{empty}"], "--build and --bin exclude each other"),
    (["--bin", "{empty}/none"], "--bin: no folder '{empty}/none'"),
    (["--bin", "{empty}", "--targets", "algebra,nope"],
     "unknown target 'nope' (targets: " + " ".join(config.read_targets()) + ")"),
    (["--bin", "{empty}", "--targets", "algebra"], "no fuzzer '{empty}/algebra_fuzzer'")]


@pytest.mark.parametrize("args, message", SPEED_ERRORS, ids=command_lines(SPEED_ERRORS))
def test_fuzz_speed_arguments(tmp_path, args, message):
    expect_usage_error("fuzz-speed", [a.format(empty=tmp_path) for a in args],
                       message.format(empty=tmp_path))


COVERAGE_ERRORS = [
    (["--targets", "nope"],
     "unknown target 'nope' (targets: " + " ".join(config.read_targets()) + ")"),
    (["--json"], "--json needs a value"),
    (["--html", "--json", "x"], "--html needs a value"),
    (["--seconds", "5"], "unknown argument '--seconds'")]


@pytest.mark.parametrize("args, message", COVERAGE_ERRORS, ids=command_lines(COVERAGE_ERRORS))
def test_fuzz_coverage_arguments(args, message):
    expect_usage_error("fuzz-coverage", args, message)


# fuzz/reach.txt.

def test_the_repositorys_reach_names_every_target_and_real_files():
    reach = config.read_reach()
    assert sorted(reach) == sorted(config.read_targets())
    for target, globs in reach.items():
        for pattern in globs:
            assert glob.glob(os.path.join(ROOT, pattern), recursive=True), (target, pattern)


@pytest.mark.parametrize("text, error", [
    ("algebra optimized/*.h\n", "expected 'target: glob ...', found 'algebra optimized/*.h'"),
    ("algebra:\n", "expected 'target: glob ...', found 'algebra:'"),
    ("al-gebra: x\n", "expected 'target: glob ...', found 'al-gebra: x'"),
    ("algebra: a\nalgebra: b\n", "target 'algebra' listed twice")])
def test_bad_reach_lines_are_refused(tmp_path, text, error):
    path = tmp_path / "reach.txt"
    write(path, "# a comment\n\n" + text)
    with pytest.raises(config.ConfigError, match=re.escape(error)):
        config.read_reach(path)


def test_fuzz_plot_arguments():
    status, _, err = run_script("fuzz-plot")
    assert status == 2
    assert "the following arguments are required: RUN" in err
    status, _, err = run_script("fuzz-plot", "somewhere", "--out", "picture.pdf")
    assert status == 2
    assert "--out picture.pdf: the name must end in .png or .svg" in err


@pytest.mark.parametrize("script, usage", [("fuzz-campaign", "scripts/fuzz-campaign --hours H"),
                                           ("fuzz-speed", "scripts/fuzz-speed [--seconds S]"),
                                           ("fuzz-plot", "RUN"),
                                           ("fuzz-coverage", "scripts/fuzz-coverage [--targets")])
def test_help(script, usage):
    status, out, _ = run_script(script, "--help")
    assert status == 0, script
    assert usage in out, script


# A stand-in for a libFuzzer binary: what it prints and writes depends on its
# name (<target>_fuzzer) and on the options it is given, as a campaign and
# fuzz-speed give them.
FAKE_FUZZER = r'''#!{python}
import hashlib, os, sys
ROOT = {root!r}
target = os.path.basename(sys.argv[0]).rsplit("_", 1)[0]
options = dict(a[1:].split("=", 1) for a in sys.argv[1:] if a.startswith("-"))
paths = [a for a in sys.argv[1:] if not a.startswith("-")]

def put(folder, name, data):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)

if "print_final_stats" in options:  # fuzz-speed: rates from a list, one a run
    with open(os.path.join(os.path.dirname(sys.argv[0]), "rates")) as f:
        rates = f.read().split()
    with open(os.path.join(os.path.dirname(sys.argv[0]), "rates"), "w") as f:
        f.write(" ".join(rates[1:]))
    rate = int(rates[0])
    if rate == 0:
        print("==7==ERROR: AddressSanitizer: SEGV on unknown address")
        sys.exit(1)
    print(f"#2\tINITED cov: 10 ft: 20 corp: 1/1b exec/s: 0 rss: 30Mb")
    print(f"#{{rate}}\tDONE   cov: {{rate + 1}} ft: {{rate + 2}} corp: 1/1b "
          f"exec/s: {{rate}} rss: 30Mb")
    print(f"Done {{rate}} runs in 1 second(s)")
    print(f"stat::average_exec_per_sec:     {{rate}}")
    print(f"stat::new_units_added:          {{rate // 100}}")
elif "merge" in options:
    into, new = paths
    names = [] if target == "gamma" else sorted(os.listdir(new))
    for name in names:
        with open(os.path.join(new, name), "rb") as f:
            data = f.read()
        put(into, hashlib.sha1(data).hexdigest(), data)
    if target == "gamma":
        sys.exit(1)
    print(f"MERGE-OUTER: {{len(names)}} new files with 3 new features added; 0 new coverage edges")
elif "minimize_crash" in options:
    with open(paths[0], "rb") as f:
        put(os.path.dirname(options["exact_artifact_path"]),
            os.path.basename(options["exact_artifact_path"]), f.read()[:2])
elif "fork" in options:
    crashes = options["artifact_prefix"]
    if target == "alpha":
        put(paths[0], "new-1", b"one")
        put(paths[0], "new-2", b"two")
        put(crashes, "timeout-1", b"slow")
        put(crashes, "crash-1", b"boom!")
        put(crashes, "crash-2", b"boom!!!!!")  # the same bug
        put(crashes, "leak-1", b"leaky input")
    if target == "beta":
        for i in range(7):
            put(crashes, f"timeout-{{i}}", b"t%d" % i)
    if target != "gamma":
        print("#1000: cov: 50 ft: 60 corp: 1 exec/s 500 oom/timeout/crash: 0/0/0 time: 1s "
              "job: 1 dft_time: 0")
        print("INFO: log from the inner process:")
        print("#4000\tNEW    cov: 999 ft: 999 corp: 2/2b exec/s: 0 rss: 49Mb")
        print("#5000: cov: 70 ft: 90 corp: 3 exec/s 2000 oom/timeout/crash: 0/1/2 time: 2s "
              "job: 2 dft_time: 0")
        print("INFO: exiting: 0 time: 2s")
    sys.exit(1)
else:  # reproducing a crash or a leak: one report for the two "boom" inputs
    with open(paths[0], "rb") as f:
        data = f.read()
    pid = os.getpid()
    if data.startswith(b"boom"):
        print(f"=={{pid}}==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020{{pid}}")
        print(f"SUMMARY: AddressSanitizer: heap-buffer-overflow {{ROOT}}/formats/json.cpp:42:10")
    else:
        print(f"=={{pid}}==ERROR: LeakSanitizer: detected memory leaks")
        print(f"    #0 0x55d0c0a1b2c3 in f2lay::parse() {{ROOT}}/formats/json.cpp:77:12")
    sys.exit(1)
'''


def make_fake_fuzzers(folder, targets, root):
    for target in targets:
        write(os.path.join(folder, f"{target}_fuzzer"),
              FAKE_FUZZER.format(python=sys.executable, root=root), 0o755)


def sha1(data):
    return hashlib.sha1(data).hexdigest()


class CampaignRepo:
    """A copy of the scripts, where scripts/setup and cmake are stand-ins,
    over three stand-in fuzzers: alpha finds a crash twice, a leak and a
    timeout; beta seven timeouts, two more than are filed; gamma stops at
    once, with no status line, and its merge fails."""

    def __init__(self, tmp):
        self.root = os.path.join(tmp, "repo")
        shutil.copytree(os.path.join(SCRIPTS, "fuzzlib"),
                        os.path.join(self.root, "scripts", "fuzzlib"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        for script in ("fuzz-campaign", "fuzz-options"):
            shutil.copy(os.path.join(SCRIPTS, script), os.path.join(self.root, "scripts"))
        write(os.path.join(self.root, "fuzz", "targets.txt"), "# three\nalpha\nbeta\ngamma\n")
        write(os.path.join(self.root, "fuzz", "corpus", "alpha", "seed"), "seed")
        self.build = os.path.join(self.root, "build", "fuzz")
        make_fake_fuzzers(os.path.join(self.build, "fuzz"), ["alpha", "beta", "gamma"], self.root)
        write(os.path.join(self.build, "CMakeCache.txt"),
              "CMAKE_CXX_COMPILER:FILEPATH=/usr/bin/clang++-14\n"
              "CMAKE_CXX_FLAGS_FUZZ:STRING=-O2 -fsanitize=address,undefined "
              "-fno-sanitize-recover=all -fsanitize=fuzzer-no-link\n")
        self.bin = os.path.join(tmp, "bin")
        self.stand_ins(setup=0, cmake=0)
        # No git repository (summary.json's git fields null) wherever the
        # temporary folder is; ASAN_OPTIONS as the options file sets it.
        self.env = dict(os.environ, PATH=self.bin + os.pathsep + os.environ["PATH"],
                        GIT_DIR=os.path.join(tmp, "no-repository"))
        self.env.pop("ASAN_OPTIONS", None)

    def stand_ins(self, setup, cmake):
        """scripts/setup and cmake that exit with these statuses."""
        write(os.path.join(self.root, "scripts", "setup"), f"#!/bin/sh\nexit {setup}\n", 0o755)
        write(os.path.join(self.bin, "cmake"),
              f'#!/bin/sh\necho "cmake $*"\necho "$ASAN_OPTIONS"\nexit {cmake}\n', 0o755)

    def campaign(self, *args):
        p = subprocess.run([sys.executable, os.path.join(self.root, "scripts", "fuzz-campaign"),
                            *args], capture_output=True, text=True, env=self.env, timeout=120)
        return p.returncode, p.stdout, p.stderr


@pytest.fixture
def repo(tmp_path):
    return CampaignRepo(str(tmp_path))


def test_a_campaign(repo):
    status, out, err = repo.campaign("--hours", "0.001", "--jobs", "2")
    assert status == 1, err
    rows = out.splitlines()
    [date] = os.listdir(os.path.join(repo.build, "campaign"))
    campaign = os.path.join(repo.build, "campaign", date)
    assert f"fuzz-campaign: 3 target(s), 1 s each with -fork=2; logs in {campaign}" in rows
    assert "fuzz-campaign: alpha: minimizing crash-1" in rows
    assert "fuzz-campaign: alpha: minimizing crash-2" not in rows
    assert (f"fuzz-campaign: gamma: the fuzzer stopped early (see {campaign}/gamma/fuzz.log)"
            in err.splitlines())
    assert (f"fuzz-campaign: gamma: the merge exited with status 1 (see "
            f"{campaign}/gamma/merge.log)" in err.splitlines())

    alpha = [f"timeout-{sha1(b'slow')}", f"crash-{sha1(b'bo')}", f"leak-{sha1(b'le')}"]
    beta = [f"timeout-{sha1(b't%d' % i)}" for i in range(5)]
    table = rows[rows.index("") + 1:]
    assert table == [
        "target            execs/s      cov       ft  new units  crashes",
        "alpha                2500       70       90          2  4: " + " ".join(alpha),
        "beta                 2500       70       90          0  7: " + " ".join(beta) +
        f" (+2 more in {campaign}/beta/crashes)",
        "gamma                   0        -        -          -  0",
        "",
        "new units are in fuzz/corpus/<target>/, crashes in fuzz/regressions/<target>/: "
        "commit them",
        f"summary: {campaign}/summary.json"]
    for target, names in (("alpha", alpha), ("beta", beta)):
        filed = os.listdir(os.path.join(repo.root, "fuzz", "regressions", target))
        assert sorted(filed) == sorted(names)
    with open(os.path.join(repo.root, "fuzz", "regressions", "alpha", alpha[1]), "rb") as f:
        assert f.read() == b"bo"  # minimized
    assert len(os.listdir(os.path.join(repo.root, "fuzz", "corpus", "alpha"))) == 3

    with open(os.path.join(campaign, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    assert list(summary) == ["started", "hours", "jobs", "cpu_seconds", "host", "build",
                             "git_commit", "git_dirty", "targets"]
    assert (summary["hours"], summary["jobs"]) == (0.001, 2)
    assert summary["build"] == {"compiler": "clang++-14", "sanitizers": "address,undefined"}
    assert (summary["git_commit"], summary["git_dirty"]) == (None, None)
    assert summary["host"]["nproc"] == len(os.sched_getaffinity(0))
    targets = summary["targets"]
    assert list(targets) == ["alpha", "beta", "gamma"]
    seconds = {t: targets[t].pop("seconds") for t in targets}
    # Up to float error: the script sums each target's jobs times its seconds.
    assert summary["cpu_seconds"] == pytest.approx(round(2 * sum(seconds.values()), 1),
                                                   rel=0, abs=1e-7)
    assert targets["alpha"] == {
        "jobs": 2, "execs": 5000, "execs_per_second": 2500, "cov": 70, "ft": 90,
        "crashes": 4, "filed": alpha, "corpus_before": 1, "corpus_after": 3, "new_units": 2}
    assert targets["gamma"] == {
        "jobs": 2, "execs": None, "execs_per_second": None, "cov": None, "ft": None,
        "crashes": 0, "filed": [], "corpus_before": 0, "corpus_after": 0, "new_units": None}

    # The build ran with the options' environment, and its log is kept.
    with open(os.path.join(repo.build, "campaign-build.log"), encoding="utf-8") as f:
        assert f.read().splitlines() == [
            f"cmake --preset fuzz -B {repo.build}", "malloc_context_size=1",
            f"cmake --build {repo.build} --target f2lay_fuzzers", "malloc_context_size=1"]


def test_setup_or_build_failing(repo):
    repo.stand_ins(setup=1, cmake=0)
    status, _, err = repo.campaign("--hours", "1")
    assert (status, err) == (3, "scripts/fuzz-campaign: scripts/setup failed\n")
    repo.stand_ins(setup=0, cmake=1)
    status, _, err = repo.campaign("--hours", "1")
    log = os.path.join(repo.build, "campaign-build.log")
    assert (status, err.splitlines()) == (3, [
        f"cmake --preset fuzz -B {repo.build}", "malloc_context_size=1",
        f"scripts/fuzz-campaign: the fuzz build failed (log: {log})"])
    assert not os.path.exists(os.path.join(repo.build, "campaign"))


def speed(bin_dir, rates, *args):
    """fuzz-speed over a stand-in algebra_fuzzer (--bin) in bin_dir whose
    runs report the execs/s of a list."""
    make_fake_fuzzers(bin_dir, ["algebra"], ROOT)
    write(os.path.join(bin_dir, "rates"), " ".join(map(str, rates)))
    return run_script("fuzz-speed", "--bin", str(bin_dir), "--targets", "algebra", *args)


def test_the_median_run(tmp_path):
    status, out, err = speed(tmp_path, [100, 300, 200], "--seconds", "1")
    assert status == 0, err
    assert out.splitlines() == [
        "target          execs/s     cov      ft  new-units  runs (execs/s)",
        "algebra             200     201     202          2  100 300 200"]
    # The lower middle one of an even count.
    status, out, _ = speed(tmp_path, [400, 100, 300, 200], "--runs", "4")
    assert out.splitlines()[1] == \
        "algebra             200     201     202          2  400 100 300 200"


def test_a_crash(tmp_path):
    status, out, err = speed(tmp_path, [100, 0, 300])
    assert status == 1
    assert out == ""
    assert err.splitlines() == ["scripts/fuzz-speed: algebra crashed; its log ends:",
                                "==7==ERROR: AddressSanitizer: SEGV on unknown address"]


def test_plotting_a_campaign_folder(tmp_path):
    """fuzz-plot on a made-up campaign folder; it needs matplotlib, from
    .venv (scripts/setup), and says so with status 3 where there is none."""
    run = tmp_path / "20260101-120000"
    write(run / "alpha" / "fuzz.log", "\n".join(
        ["INFO: -fork=2: fuzzing in separate process(s)", FORK_LLVM14,
         FORK_LATER.replace("time: 13s", "time: 70s"), "INFO: exiting: 0 time: 70s"]))
    write(run / "beta" / "fuzz.log", "INFO: Seed: 1\n")
    out = tmp_path / "campaign.svg"
    status, stdout, err = run_script("fuzz-plot", str(run), "--out", str(out))
    if status == 3:
        pytest.skip("no matplotlib: " + err.strip())
    assert status == 0, err
    assert f"no status line in {run}/beta/fuzz.log; beta left out" in err
    assert stdout == f"fuzz-plot: wrote {out}\n"
    assert "<svg" in out.read_text(encoding="utf-8")
    status, _, err = run_script("fuzz-plot", str(run / "beta"), "--out", str(out))
    assert (status, err) == (2, f"fuzz-plot: no <target>/fuzz.log in {run}/beta: "
                                f"not a campaign folder\n")
