"""Reading libFuzzer's output (clang 14's libFuzzer, and the later versions'
spellings where they differ): its status lines, the final statistics, the
merge's count, the end of a fork-mode run, crash reports and the names of the
inputs it keeps (artifacts)."""
import re
from dataclasses import dataclass

# A status line. A fuzzing process writes one for each event, after the count
# of runs and a tab:
#   #623	INITED cov: 1073 ft: 4981 corp: 607/21Kb exec/s: 0 rss: 45Mb
#   #32768	pulse  cov: 1073 ft: 4981 corp: 607/21Kb lim: 355 exec/s: 16384 rss: 234Mb
#   #44476	DONE   cov: 1073 ft: 4981 corp: 607/21Kb lim: 443 exec/s: 14825 rss: 299Mb
# Fork mode's parent writes one for each job it collects, after the count of
# all jobs' runs and a colon (LLVM 14 writes "exec/s 5319", later versions
# "exec/s: 5319"):
#   #92190: cov: 5218 ft: 6695 corp: 621 exec/s 5319 oom/timeout/crash: 0/0/0 time: 13s job: 5 dft_time: 0
# A fork-mode log can hold a crashed job's own lines too, copied into it.
EVENT_LINE = re.compile(r"#(\d+)\t(\w+)\s")
FORK_LINE = re.compile(r"#(\d+): ")
FORK = "fork"  # Status.event of fork mode's line
FIELDS = {
    "cov": re.compile(r"\bcov: (\d+)"),
    "ft": re.compile(r"\bft: (\d+)"),
    "exec_per_sec": re.compile(r"\bexec/s:? (\d+)"),
    "seconds": re.compile(r"\btime: (\d+)s\b"),
}

# -print_final_stats=1's lines, e.g. "stat::average_exec_per_sec:     14825".
FINAL_STAT = re.compile(r"stat::(\w+): +(\d+)")
# The merge's (-merge=1) result, e.g.
#   MERGE-OUTER: 39 new files with 41 new features added; 0 new coverage edges
MERGE_RESULT = re.compile(r"MERGE-OUTER: (\d+) new files")
# Fork mode's last line when it ends by itself (time or runs used up), e.g.
# "INFO: exiting: 0 time: 6s"; a parent that crashed or was killed has none.
FORK_END = "INFO: exiting: "

# What libFuzzer names the inputs it keeps: <kind>-<SHA-1>, after -artifact_prefix.
ARTIFACT_KINDS = ("crash", "leak", "timeout", "oom")

# A sanitizer's last line where it names a source line, e.g.
#   SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior /src/f2lay/reference/cute.cpp:45:20 in
# (a leak's, "SUMMARY: AddressSanitizer: 24 byte(s) leaked in 1 allocation(s).", names
# none).
SUMMARY_AT_LINE = re.compile(r"SUMMARY: [A-Za-z]*Sanitizer: .*:[0-9]")
# A stack frame, e.g.
#     #8 0x55d0c0a1b2c3 in f2lay::fuzz::fail(char const*) /src/f2lay/fuzz/fail.h:12:3
FRAME = re.compile(r" +#[0-9]+ 0x[0-9a-f]+ in ")


@dataclass(frozen=True)
class Status:
    runs: int
    event: str  # INITED, NEW, REDUCE, pulse, DONE, ...; FORK for fork mode's line
    cov: int
    ft: int
    exec_per_sec: int | None
    seconds: int | None  # fork mode's time since it started


def read_log(path):
    """The log's lines. A crash report can quote the input's bytes: they are
    replaced where they are not UTF-8."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


def parse_status(line):
    """The Status of a status line with coverage (cov and ft), else None."""
    event = EVENT_LINE.match(line)
    fork = None if event else FORK_LINE.match(line)
    if not event and not fork:
        return None
    fields = {name: pattern.search(line) for name, pattern in FIELDS.items()}
    if not fields["cov"] or not fields["ft"]:
        return None
    values = {name: int(m[1]) if m else None for name, m in fields.items()}
    return Status(runs=int((event or fork)[1]), event=event[2] if event else FORK, **values)


def statuses(lines, event):
    """The Status of each of the lines' status lines of that event."""
    return [s for s in map(parse_status, lines) if s and s.event == event]


def fork_statuses(lines):
    """Fork mode's status lines, those that say when they were written."""
    return [s for s in statuses(lines, FORK) if s.seconds is not None]


def final_stats(lines):
    """{name: value} of the stat:: lines."""
    return {m[1]: int(m[2]) for m in map(FINAL_STAT.match, lines) if m}


def merge_new_files(lines):
    """The count of files a merge added (its last report of one), or None."""
    counts = [int(m[1]) for m in map(MERGE_RESULT.match, lines) if m]
    return counts[-1] if counts else None


def fork_ended(lines):
    """Whether a fork-mode run came to its end rather than stopping early."""
    return any(line.startswith(FORK_END) for line in lines)


def artifact_kind(name):
    """The kind (crash, leak, timeout, oom) of an artifact's file name, or None."""
    kind = name.split("-", 1)[0]
    return kind if "-" in name and kind in ARTIFACT_KINDS else None


def crash_key(lines, root):
    """What tells two crash reports apart: the sanitizer's SUMMARY line where
    it names a source line, otherwise the first three stack frames in the
    tree at root (an abort from a target's own check: libFuzzer's "deadly
    signal", whose first frames are libFuzzer's and libc's). None where the
    report has neither."""
    summary = next((line for line in lines if SUMMARY_AT_LINE.match(line)), None)
    if summary:
        return summary
    in_tree = re.compile(FRAME.pattern + ".* " + re.escape(root) + r"/[^ (]+:[0-9]+")
    frames = [FRAME.sub("", line, count=1) for line in lines if in_tree.match(line)]
    return "\n".join(frames[:3]) or None
