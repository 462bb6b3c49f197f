#!/usr/bin/env python3
"""Tests of scripts/fuzz-campaign, scripts/fuzz-speed and scripts/fuzz-plot
that need no fuzz build and no clang: their shared libFuzzer log parser on
literal log lines, the targets file (fuzz/targets.txt, also read by CMake)
and scripts/fuzz-options, each script's argument errors, and whole runs of
fuzz-campaign and fuzz-speed with stand-in fuzzers (small Python programs
that print what libFuzzer prints). ctest `fuzz_scripts`, label fuzz."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

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


class StatusLines(unittest.TestCase):
    def test_event_lines(self):
        inited = libfuzzer.parse_status(
            "#2\tINITED cov: 1234 ft: 2345 corp: 10/1b exec/s: 0 rss: 40Mb")
        self.assertEqual(inited, libfuzzer.Status(runs=2, event="INITED", cov=1234, ft=2345,
                                                  exec_per_sec=0, seconds=None))
        pulse = libfuzzer.parse_status(
            "#65536\tpulse  cov: 1073 ft: 4981 corp: 607/21Kb lim: 355 exec/s: 16384 rss: 234Mb")
        self.assertEqual((pulse.runs, pulse.event, pulse.cov, pulse.ft, pulse.exec_per_sec),
                         (65536, "pulse", 1073, 4981, 16384))
        new = libfuzzer.parse_status("#1251\tNEW    cov: 1074 ft: 4990 corp: 608/21Kb lim: 115 "
                                     "exec/s: 0 rss: 49Mb L: 33/103 MS: 1 ChangeBit-")
        self.assertEqual((new.event, new.cov, new.ft), ("NEW", 1074, 4990))
        done = libfuzzer.parse_status(
            "#44476\tDONE   cov: 1073 ft: 4981 corp: 607/21Kb lim: 443 exec/s: 14825 rss: 299Mb")
        self.assertEqual((done.runs, done.event, done.exec_per_sec), (44476, "DONE", 14825))

    def test_fork_lines_of_llvm_14_and_later(self):
        for line in (FORK_LLVM14, FORK_LATER):
            self.assertEqual(libfuzzer.parse_status(line),
                             libfuzzer.Status(runs=92190, event=libfuzzer.FORK, cov=5218, ft=6695,
                                              exec_per_sec=5319, seconds=13), line)

    def test_other_lines_are_no_status(self):
        for line in ["Done 1000 runs in 30 second(s)",
                     "==123==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020",
                     "#0\tREAD units: 607",
                     "#2\tINITED exec/s: 0 rss: 29Mb",  # no coverage to report
                     "INFO: exiting: 0 time: 6s",
                     "stat::average_exec_per_sec:     14825",
                     "MS: 1 ChangeBit-; base unit: 0000000000000000000000000000000000000000",
                     "  #92190: cov: 1 ft: 2 time: 3s",  # not at the line's start
                     ""]:
            self.assertIsNone(libfuzzer.parse_status(line), line)

    def test_time_is_not_dft_time(self):
        status = libfuzzer.parse_status("#10: cov: 1 ft: 2 corp: 3 exec/s 4 job: 1 dft_time: 7")
        self.assertIsNone(status.seconds)
        self.assertEqual(libfuzzer.fork_statuses(["#10: cov: 1 ft: 2 job: 1 dft_time: 7"]), [])

    def test_fork_statuses_leave_out_a_crashed_jobs_lines(self):
        log = ["INFO: -fork=2: fuzzing in separate process(s)",
               "#15159: cov: 4981 ft: 4981 corp: 607 exec/s 7579 oom/timeout/crash: 0/0/0 "
               "time: 2s job: 1 dft_time: 0",
               "INFO: log from the inner process:",
               "#20000\tNEW    cov: 9999 ft: 9999 corp: 608/21Kb exec/s: 0 rss: 49Mb",
               "Done 20000 runs in 1 second(s)",
               FORK_LLVM14,
               "INFO: exiting: 0 time: 13s"]
        self.assertEqual([(s.runs, s.cov, s.seconds) for s in libfuzzer.fork_statuses(log)],
                         [(15159, 4981, 2), (92190, 5218, 13)])
        self.assertEqual([s.cov for s in libfuzzer.statuses(log, "NEW")], [9999])
        self.assertTrue(libfuzzer.fork_ended(log))
        self.assertFalse(libfuzzer.fork_ended(log[:-1]))


class OtherLines(unittest.TestCase):
    def test_final_stats(self):
        log = ["Done 44476 runs in 3 second(s)",
               "stat::number_of_executed_units: 44476",
               "stat::average_exec_per_sec:     14825",
               "stat::new_units_added:          39"]
        self.assertEqual(libfuzzer.final_stats(log), {"number_of_executed_units": 44476,
                                                      "average_exec_per_sec": 14825,
                                                      "new_units_added": 39})

    def test_merge_count_is_the_last_one(self):
        log = ["MERGE-OUTER: 2 files, 2 in the initial corpus, 0 processed earlier",
               "MERGE-OUTER: 7 new files with 9 new features added; 3 new coverage edges",
               "MERGE-OUTER: 39 new files with 41 new features added; 0 new coverage edges"]
        self.assertEqual(libfuzzer.merge_new_files(log), 39)
        self.assertIsNone(libfuzzer.merge_new_files(log[:1]))

    def test_artifact_kinds(self):
        sha = "d138ad3e1affa6049f7e80d9d7b60cb5f8b8ffd0"
        for kind in ("crash", "leak", "timeout", "oom"):
            self.assertEqual(libfuzzer.artifact_kind(f"{kind}-{sha}"), kind)
        for name in ("slow-unit-" + sha, "crash", "crashes", "minimized-from-" + sha):
            self.assertIsNone(libfuzzer.artifact_kind(name), name)


class CrashKeys(unittest.TestCase):
    def test_a_sanitizer_summary_naming_a_line(self):
        self.assertEqual(libfuzzer.crash_key(ASAN_REPORT, ROOT), ASAN_REPORT[-1])
        ubsan = [f"{ROOT}/reference/cute.cpp:45:20: runtime error: signed integer overflow",
                 f"SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior "
                 f"{ROOT}/reference/cute.cpp:45:20 in "]
        self.assertEqual(libfuzzer.crash_key(ubsan, ROOT), ubsan[1])

    def test_the_first_three_frames_in_the_tree(self):
        self.assertEqual(libfuzzer.crash_key(DEADLY_SIGNAL, ROOT).splitlines(), [
            f"f2lay::fuzz::fail(char const*) {ROOT}/fuzz/fail.h:12:3",
            f"checkRoundTrip(f2lay::Layout const&) {ROOT}/fuzz/readers_fuzzer.cpp:33:5",
            f"LLVMFuzzerTestOneInput {ROOT}/fuzz/readers_fuzzer.cpp:51:3"])
        # A leak's summary names no line.
        self.assertEqual(libfuzzer.crash_key(LEAK_REPORT, ROOT),
                         f"f2lay::parse() {ROOT}/formats/json.cpp:77:12")

    def test_one_bug_in_two_processes_has_one_key(self):
        other = [line.replace("==4242==", "==77==").replace("0x55d0c0a1", "0x56aa0b3f")
                 for line in DEADLY_SIGNAL]
        self.assertEqual(libfuzzer.crash_key(other, ROOT), libfuzzer.crash_key(DEADLY_SIGNAL, ROOT))

    def test_no_key(self):
        self.assertIsNone(libfuzzer.crash_key(["==1== ERROR: libFuzzer: timeout after 10 seconds",
                                               "SUMMARY: libFuzzer: timeout"], ROOT))
        self.assertIsNone(libfuzzer.crash_key(DEADLY_SIGNAL, "/somewhere/else"))


class TargetsFile(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.file = os.path.join(self.tmp.name, "targets.txt")

    def tearDown(self):
        self.tmp.cleanup()

    def read(self, text):
        write(self.file, text)
        return config.read_targets(self.file)

    def test_the_repositorys_targets_have_sources(self):
        targets = config.read_targets()
        self.assertIn("algebra", targets)
        for t in targets:
            self.assertTrue(os.path.isfile(os.path.join(ROOT, "fuzz", f"{t}_fuzzer.cpp")), t)

    def test_comments_and_blank_lines(self):
        text = "# targets\n\nalgebra\n  readers  \n\t# indented\n   \ncatalog\n# end"
        self.assertEqual(self.read(text), ["algebra", "readers", "catalog"])

    def test_bad_names_are_refused(self):
        for text, error in [("algebra\nread ers\n", "targets.txt:2: 'read ers'"),
                            ("algebra # the fast one\n", "targets.txt:1: 'algebra # the"),
                            ("a,b\n", "'a,b' is not a target name"),
                            ("swizzle\n\nswizzle\n",
                             "targets.txt:3: target 'swizzle' listed twice")]:
            with self.assertRaises(config.ConfigError) as e:
                self.read(text)
            self.assertIn(error, str(e.exception))

    def test_a_missing_file(self):
        with self.assertRaisesRegex(config.ConfigError, "cannot read .*targets.txt"):
            config.read_targets(self.file)

    def test_cmake_reads_it_alike(self):
        """fuzz/CMakeLists.txt's own lines, run by cmake -P on the same file."""
        cmake = shutil.which("cmake")
        if not cmake:
            self.skipTest("no cmake")
        with open(os.path.join(ROOT, "fuzz", "CMakeLists.txt"), encoding="utf-8") as f:
            reading = [line for line in f if line.startswith(("file(STRINGS", "list(TRANSFORM"))
                       and "F2LAY_FUZZ_TARGETS" in line]
        self.assertEqual(len(reading), 2, "fuzz/CMakeLists.txt reads targets.txt otherwise")
        text = "# targets\n\nalgebra\n  readers  \n\t# indented\n   \ncatalog\n"
        write(self.file, text)
        script = os.path.join(self.tmp.name, "read.cmake")
        write(script, f'set(F2LAY_FUZZ_TARGETS_FILE "{self.file}")\n' + "".join(reading) +
              'message("${F2LAY_FUZZ_TARGETS}")\n')
        p = subprocess.run([cmake, "-P", script], capture_output=True, text=True)
        self.assertEqual(p.stderr.strip().split(";"), config.read_targets(self.file))

    def test_selecting_targets(self):
        known = ["algebra", "readers", "catalog"]
        self.assertEqual(config.select_targets(known, ""), known)
        self.assertEqual(config.select_targets(known, "catalog,algebra"), ["catalog", "algebra"])
        for requested, error in [("nope",
                                  "unknown target 'nope' (targets: algebra readers catalog)"),
                                 ("algebra,,readers",
                                  "unknown target '' (targets: algebra readers catalog)"),
                                 ("algebra,algebra", "target 'algebra' named twice")]:
            with self.assertRaises(cli.UsageError) as e:
                config.select_targets(known, requested)
            self.assertEqual(str(e.exception), error)


class RunOptions(unittest.TestCase):
    def test_the_repositorys_options(self):
        options = config.read_run_options()
        self.assertEqual(options.environment, {"ASAN_OPTIONS": "malloc_context_size=1"})
        self.assertEqual(options.fuzzer, ["-timeout=10", "-rss_limit_mb=4096"])

    def test_a_line_that_means_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "fuzz-options")
            write(path, "# options\n-timeout=10\nASAN_OPTIONS malloc_context_size=1\n")
            with self.assertRaisesRegex(config.ConfigError, "fuzz-options:3: neither"):
                config.read_run_options(path)

    def test_the_environment_is_a_default(self):
        for before, after in [(None, "malloc_context_size=1"), ("", "malloc_context_size=1"),
                              ("detect_leaks=1", "detect_leaks=1")]:
            environment = {} if before is None else {"ASAN_OPTIONS": before}
            with mock.patch.dict(os.environ, environment, clear=True):
                config.load("algebra")
                self.assertEqual(os.environ["ASAN_OPTIONS"], after, before)


class ArgumentErrors(unittest.TestCase):
    """Each is refused with status 2 before anything is set up, built or run."""

    def expect_usage_error(self, script, args, message):
        status, out, err = run_script(script, *args)
        self.assertEqual(status, 2, (args, err))
        self.assertEqual(err, f"scripts/{script}: {message} (see --help)\n", args)

    def test_fuzz_campaign(self):
        for args, message in [
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
                 "unknown target 'nope' (targets: " + " ".join(config.read_targets()) + ")")]:
            self.expect_usage_error("fuzz-campaign", args, message)

    def test_fuzz_speed(self):
        with tempfile.TemporaryDirectory() as empty:
            for args, message in [
                    (["--seconds", "0"], "--seconds takes a positive integer, not '0'"),
                    (["--runs", "three"], "--runs takes a positive integer, not 'three'"),
                    (["--runs"], "--runs needs a value"),
                    (["--seconds", "5", "--frobnicate"], "unknown argument '--frobnicate'"),
                    (["--build", empty, "--bin", empty], "--build and --bin exclude each other"),
                    (["--bin", os.path.join(empty, "none")],
                     f"--bin: no folder '{os.path.join(empty, 'none')}'"),
                    (["--bin", empty, "--targets", "algebra,nope"], "unknown target 'nope' "
                     "(targets: " + " ".join(config.read_targets()) + ")"),
                    (["--bin", empty, "--targets", "algebra"],
                     f"no fuzzer '{os.path.join(empty, 'algebra_fuzzer')}'")]:
                self.expect_usage_error("fuzz-speed", args, message)

    def test_fuzz_plot(self):
        status, _, err = run_script("fuzz-plot")
        self.assertEqual(status, 2)
        self.assertIn("the following arguments are required: RUN", err)
        status, _, err = run_script("fuzz-plot", "somewhere", "--out", "picture.pdf")
        self.assertEqual(status, 2)
        self.assertIn("--out picture.pdf: the name must end in .png or .svg", err)

    def test_help(self):
        for script, usage in [("fuzz-campaign", "scripts/fuzz-campaign --hours H"),
                              ("fuzz-speed", "scripts/fuzz-speed [--seconds S]"),
                              ("fuzz-plot", "RUN")]:
            status, out, _ = run_script(script, "--help")
            self.assertEqual(status, 0, script)
            self.assertIn(usage, out, script)


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


class Campaign(unittest.TestCase):
    """A whole campaign in a copy of the scripts, where scripts/setup and
    cmake are stand-ins, over three stand-in fuzzers: alpha finds a crash
    twice, a leak and a timeout; beta seven timeouts, two more than are
    filed; gamma stops at once, with no status line, and its merge fails."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = os.path.join(self.tmp.name, "repo")
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
        self.bin = os.path.join(self.tmp.name, "bin")
        self.stand_ins(setup=0, cmake=0)
        # No git repository (summary.json's git fields null) wherever the
        # temporary folder is; ASAN_OPTIONS as the options file sets it.
        self.env = dict(os.environ, PATH=self.bin + os.pathsep + os.environ["PATH"],
                        GIT_DIR=os.path.join(self.tmp.name, "no-repository"))
        self.env.pop("ASAN_OPTIONS", None)

    def tearDown(self):
        self.tmp.cleanup()

    def stand_ins(self, setup, cmake):
        """scripts/setup and cmake that exit with these statuses."""
        write(os.path.join(self.root, "scripts", "setup"), f"#!/bin/sh\nexit {setup}\n", 0o755)
        write(os.path.join(self.bin, "cmake"),
              f'#!/bin/sh\necho "cmake $*"\necho "$ASAN_OPTIONS"\nexit {cmake}\n', 0o755)

    def campaign(self, *args):
        p = subprocess.run([sys.executable, os.path.join(self.root, "scripts", "fuzz-campaign"),
                            *args], capture_output=True, text=True, env=self.env, timeout=120)
        return p.returncode, p.stdout, p.stderr

    def test_a_campaign(self):
        status, out, err = self.campaign("--hours", "0.001", "--jobs", "2")
        self.assertEqual(status, 1, err)
        rows = out.splitlines()
        [date] = os.listdir(os.path.join(self.build, "campaign"))
        campaign = os.path.join(self.build, "campaign", date)
        self.assertIn(f"fuzz-campaign: 3 target(s), 1 s each with -fork=2; logs in {campaign}",
                      rows)
        self.assertIn("fuzz-campaign: alpha: minimizing crash-1", rows)
        self.assertNotIn("fuzz-campaign: alpha: minimizing crash-2", rows)
        self.assertIn(f"fuzz-campaign: gamma: the fuzzer stopped early "
                      f"(see {campaign}/gamma/fuzz.log)", err.splitlines())
        self.assertIn(f"fuzz-campaign: gamma: the merge exited with status 1 (see "
                      f"{campaign}/gamma/merge.log)", err.splitlines())

        alpha = [f"timeout-{sha1(b'slow')}", f"crash-{sha1(b'bo')}", f"leak-{sha1(b'le')}"]
        beta = [f"timeout-{sha1(b't%d' % i)}" for i in range(5)]
        table = rows[rows.index("") + 1:]
        self.assertEqual(table, [
            "target            execs/s      cov       ft  new units  crashes",
            "alpha                2500       70       90          2  4: " + " ".join(alpha),
            "beta                 2500       70       90          0  7: " + " ".join(beta) +
            f" (+2 more in {campaign}/beta/crashes)",
            "gamma                   0        -        -          -  0",
            "",
            "new units are in fuzz/corpus/<target>/, crashes in fuzz/regressions/<target>/: "
            "commit them",
            f"summary: {campaign}/summary.json"])
        for target, names in (("alpha", alpha), ("beta", beta)):
            filed = os.listdir(os.path.join(self.root, "fuzz", "regressions", target))
            self.assertEqual(sorted(filed), sorted(names))
        with open(os.path.join(self.root, "fuzz", "regressions", "alpha", alpha[1]), "rb") as f:
            self.assertEqual(f.read(), b"bo")  # minimized
        self.assertEqual(len(os.listdir(os.path.join(self.root, "fuzz", "corpus", "alpha"))), 3)

        with open(os.path.join(campaign, "summary.json"), encoding="utf-8") as f:
            summary = json.load(f)
        self.assertEqual(list(summary), ["started", "hours", "jobs", "cpu_seconds", "host", "build",
                                         "git_commit", "git_dirty", "targets"])
        self.assertEqual((summary["hours"], summary["jobs"]), (0.001, 2))
        self.assertEqual(summary["build"], {"compiler": "clang++-14",
                                            "sanitizers": "address,undefined"})
        self.assertEqual((summary["git_commit"], summary["git_dirty"]), (None, None))
        self.assertEqual(summary["host"]["nproc"], len(os.sched_getaffinity(0)))
        targets = summary["targets"]
        self.assertEqual(list(targets), ["alpha", "beta", "gamma"])
        seconds = {t: targets[t].pop("seconds") for t in targets}
        self.assertAlmostEqual(summary["cpu_seconds"], round(2 * sum(seconds.values()), 1))
        self.assertEqual(targets["alpha"], {
            "jobs": 2, "execs": 5000, "execs_per_second": 2500, "cov": 70, "ft": 90,
            "crashes": 4, "filed": alpha, "corpus_before": 1, "corpus_after": 3, "new_units": 2})
        self.assertEqual(targets["gamma"], {
            "jobs": 2, "execs": None, "execs_per_second": None, "cov": None, "ft": None,
            "crashes": 0, "filed": [], "corpus_before": 0, "corpus_after": 0, "new_units": None})

        # The build ran with the options' environment, and its log is kept.
        with open(os.path.join(self.build, "campaign-build.log"), encoding="utf-8") as f:
            self.assertEqual(f.read().splitlines(), [
                f"cmake --preset fuzz -B {self.build}", "malloc_context_size=1",
                f"cmake --build {self.build} --target f2lay_fuzzers", "malloc_context_size=1"])

    def test_setup_or_build_failing(self):
        self.stand_ins(setup=1, cmake=0)
        status, _, err = self.campaign("--hours", "1")
        self.assertEqual((status, err), (3, "scripts/fuzz-campaign: scripts/setup failed\n"))
        self.stand_ins(setup=0, cmake=1)
        status, _, err = self.campaign("--hours", "1")
        log = os.path.join(self.build, "campaign-build.log")
        self.assertEqual((status, err.splitlines()), (3, [
            f"cmake --preset fuzz -B {self.build}", "malloc_context_size=1",
            f"scripts/fuzz-campaign: the fuzz build failed (log: {log})"]))
        self.assertFalse(os.path.exists(os.path.join(self.build, "campaign")))


class Speed(unittest.TestCase):
    """fuzz-speed over a stand-in algebra_fuzzer (--bin) whose runs report
    the execs/s of a list."""

    def speed(self, rates, *args):
        with tempfile.TemporaryDirectory() as bin_dir:
            make_fake_fuzzers(bin_dir, ["algebra"], ROOT)
            write(os.path.join(bin_dir, "rates"), " ".join(map(str, rates)))
            return run_script("fuzz-speed", "--bin", bin_dir, "--targets", "algebra", *args)

    def test_the_median_run(self):
        status, out, err = self.speed([100, 300, 200], "--seconds", "1")
        self.assertEqual(status, 0, err)
        self.assertEqual(out.splitlines(), [
            "target          execs/s     cov      ft  new-units  runs (execs/s)",
            "algebra             200     201     202          2  100 300 200"])
        # The lower middle one of an even count.
        status, out, _ = self.speed([400, 100, 300, 200], "--runs", "4")
        self.assertEqual(out.splitlines()[1],
                         "algebra             200     201     202          2  400 100 300 200")

    def test_a_crash(self):
        status, out, err = self.speed([100, 0, 300])
        self.assertEqual(status, 1)
        self.assertEqual(out, "")
        self.assertEqual(err.splitlines(), [
            "scripts/fuzz-speed: algebra crashed; its log ends:",
            "==7==ERROR: AddressSanitizer: SEGV on unknown address"])


class Plot(unittest.TestCase):
    """fuzz-plot on a made-up campaign folder; it needs matplotlib, from
    .venv (scripts/setup), and says so with status 3 where there is none."""

    def test_a_campaign_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = os.path.join(tmp, "20260101-120000")
            write(os.path.join(run, "alpha", "fuzz.log"), "\n".join(
                ["INFO: -fork=2: fuzzing in separate process(s)", FORK_LLVM14,
                 FORK_LATER.replace("time: 13s", "time: 70s"), "INFO: exiting: 0 time: 70s"]))
            write(os.path.join(run, "beta", "fuzz.log"), "INFO: Seed: 1\n")
            out = os.path.join(tmp, "campaign.svg")
            status, stdout, err = run_script("fuzz-plot", run, "--out", out)
            if status == 3:
                self.skipTest("no matplotlib: " + err.strip())
            self.assertEqual(status, 0, err)
            self.assertIn(f"no status line in {run}/beta/fuzz.log; beta left out", err)
            self.assertEqual(stdout, f"fuzz-plot: wrote {out}\n")
            with open(out, encoding="utf-8") as f:
                self.assertIn("<svg", f.read())
            status, _, err = run_script("fuzz-plot", os.path.join(run, "beta"), "--out", out)
            self.assertEqual((status, err), (2, f"fuzz-plot: no <target>/fuzz.log in "
                                                f"{run}/beta: not a campaign folder\n"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
