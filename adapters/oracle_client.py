"""What every adapter does with `f2lay oracle` and with its verdicts.

ask_oracle sends all requests in one run and reads one response per request.
Report tallies agreements and disagreements. A disagreement is judged by a
check independent of both sides: where f2lay is wrong it is an f2lay bug and
the adapter's test fails; where the other project is wrong it is a finding,
printed with its witness and not failed on (adapters/FINDINGS.md)."""
import json
import os
import resource
import select
import signal
import subprocess
import tempfile

# The expected answer of a request the peer refuses: f2lay must answer
# {"ok": false}.
ERROR = object()


def same(a, b):
    """JSON equality that tells true from 1 (Python's == does not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def first_difference(peer, mine):
    """The smallest place where two answers differ: for layouts, the first
    out dim or the first input bit (in dim, bit) whose basis differs; else
    the first differing key or item; None where they are the same."""
    if same(peer, mine):
        return None
    is_layout = lambda v: isinstance(v, dict) and "in_dims" in v and "out_dims" in v
    if is_layout(peer) and is_layout(mine):
        if not same(peer["out_dims"], mine["out_dims"]):
            return f"out dims: peer {json.dumps(peer['out_dims'])}, f2lay {json.dumps(mine['out_dims'])}"
        names = lambda l: [d["name"] for d in l["in_dims"]]
        if names(peer) != names(mine):
            return f"in dims: peer {names(peer)}, f2lay {names(mine)}"
        for a, b in zip(peer["in_dims"], mine["in_dims"]):
            for bit in range(max(len(a["bases"]), len(b["bases"]))):
                x, y = a["bases"][bit:bit + 1], b["bases"][bit:bit + 1]
                if not same(x, y):
                    return f"{a['name']} bit {bit}: peer {x[0] if x else 'none'}, f2lay {y[0] if y else 'none'}"
    if isinstance(peer, dict) and isinstance(mine, dict):
        for key in sorted(peer.keys() | mine.keys()):
            if key not in peer or key not in mine or not same(peer[key], mine[key]):
                return f"{key}: peer {json.dumps(peer.get(key))}, f2lay {json.dumps(mine.get(key))}"
    if isinstance(peer, list) and isinstance(mine, list) and len(peer) == len(mine):
        k = next(i for i, (x, y) in enumerate(zip(peer, mine)) if not same(x, y))
        return f"item {k}: peer {json.dumps(peer[k])}, f2lay {json.dumps(mine[k])}"
    return f"peer {json.dumps(peer)}, f2lay {json.dumps(mine)}"


def shrink_shape(request, differs):
    """A minimal witness of a catalog request: each entry of its "shape"
    halved, greedily, while differs(request) still holds (a request without
    a shape is its own witness)."""
    best, changed = request, "shape" in request
    while changed:
        changed = False
        for k, n in enumerate(best["shape"]):
            if n > 1:
                smaller = {**best, "shape": best["shape"][:k] + [n // 2] + best["shape"][k + 1:]}
                if differs(smaller):
                    best, changed = smaller, True
    return best


def shape_judge(f2lay, peer_answer):
    """A judge for catalog adapters, whose peer defines the family: every
    disagreement is f2lay's, its witness the request at the smallest shape
    that still disagrees. peer_answer(request) is the peer's layout, or None
    where it gives none."""
    def differs(request):
        try:
            want = peer_answer(request)
        except Exception:  # the peer refuses the smaller shape
            return False
        got = ask_oracle(f2lay, [request])[0]
        return want is not None and not (got.get("ok") and same(got["result"], want))

    def judge(request, expected, response):
        small = shrink_shape(request, differs)
        return "f2lay", f"shape {small['shape']}: {json.dumps(small)}"
    return judge


# What adapters name as f2lay to ask the Python module in process (no
# process per round: the shrinkers ask one request at a time).
IN_PROCESS = "in-process"


def ask_oracle(f2lay, requests):
    """The oracle's responses, one per request, in order: from the f2lay
    Python module in process when f2lay is IN_PROCESS (python/README.md; the
    same op table), else from `f2lay oracle` at that path over a pipe."""
    if f2lay == IN_PROCESS:
        from f2lay import _f2lay
        return [json.loads(_f2lay.answer_line(json.dumps(r))) for r in requests]
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([f2lay, "oracle"], input=lines, capture_output=True, text=True)
    responses = [json.loads(line) for line in proc.stdout.splitlines()]
    if len(responses) != len(requests):
        raise RuntimeError(f"{len(requests)} requests but {len(responses)} responses; "
                           f"stderr: {proc.stderr[-500:]}")
    return responses


class Report:
    """Prints '<tool>: <peer>: agree: <kind> N, ...; f2lay bugs: B; findings: F',
    then the first bugs and findings, each with its witness."""
    SHOWN = 10

    def __init__(self, tool, peer, kinds):
        self.tool, self.peer = tool, peer
        self.agreed = {kind: 0 for kind in kinds}
        self.bugs, self.findings = [], []

    def agree(self, kind):
        self.agreed[kind] += 1

    def f2lay_bug(self, kind, text):
        self.bugs.append(f"{kind}: {text}")

    def finding(self, kind, text):
        self.findings.append(f"{kind}: {text}")

    def finish(self):
        """Prints the report; the exit status: 1 on any f2lay bug, else 0."""
        counts = ", ".join(f"{kind} {n}" for kind, n in self.agreed.items())
        print(f"{self.tool}: {self.peer}: agree: {counts}; "
              f"f2lay bugs: {len(self.bugs)}; findings: {len(self.findings)}")
        for label, items in (("F2LAY BUG", self.bugs), ("FINDING", self.findings)):
            for item in items[:self.SHOWN]:
                print(label, item)
            if len(items) > self.SHOWN:
                print(f"{label} ... and {len(items) - self.SHOWN} more")
        return 1 if self.bugs else 0

    def check(self):
        """pytest's verdict: prints the report, then fails on any f2lay bug
        (the other project's findings are printed, never failed on)."""
        assert self.finish() == 0, f"{self.tool}: {len(self.bugs)} f2lay bugs (printed above)"


def compare(report, f2lay, pairs, judge=None):
    """pairs: (kind, request, expected) with the peer's answer as expected.
    judge(request, expected, response) says who is wrong where they differ:
    "peer" makes a finding, anything else (and no judge) an f2lay bug."""
    responses = ask_oracle(f2lay, [request for _, request, _ in pairs])
    for (kind, request, expected), response in zip(pairs, responses):
        if expected is ERROR:
            good = response.get("ok") is False
            want = "an error"
        else:
            good = response.get("ok") is True and same(response["result"], expected)
            want = json.dumps(expected)
        if good:
            report.agree(kind)
            continue
        text = (f"{request.get('op')}: {report.peer} {want}\n  f2lay {json.dumps(response)}"
                f"\n  request {json.dumps(request)}")
        if expected is not ERROR and response.get("ok") is True:
            text += f"\n  first difference {first_difference(expected, response['result'])}"
        verdict = judge(request, expected, response) if judge else None
        if verdict is not None and verdict[0] == "peer":
            report.finding(kind, f"{text}\n  witness {verdict[1]}")
        elif verdict is not None:
            report.f2lay_bug(kind, f"{text}\n  witness {verdict[1]}")
        else:
            report.f2lay_bug(kind, text)


def forked_outcomes(answer, requests, hang_s=20):
    """answer(request)'s outcome for each request, asked in forked children
    of this process (a peer such as Triton, already imported, that aborts
    the whole process on a failed assertion): ("ok", answer), ("error", the
    exception), ("abort", the child's assertion or LLVM ERROR line) or
    ("hang", "").
    A forked child answers the requests in order, a JSON line each; when
    the peer aborts it, the request it was on is marked and a new child goes
    on from the next one."""
    outcomes = []
    while len(outcomes) < len(requests):
        start = len(outcomes)
        read_end, write_end = os.pipe()
        err = tempfile.TemporaryFile()
        pid = os.fork()
        if pid == 0:  # the child: no core files, stderr kept for the parent
            status = 3  # anything unforeseen here ends the child, never returns
            try:
                os.close(read_end)
                os.dup2(err.fileno(), 2)
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                with os.fdopen(write_end, "w") as out:
                    for request in requests[start:]:
                        try:
                            line = ["ok", answer(request)]
                        except Exception as e:  # the binding's own refusals
                            line = ["error", f"{type(e).__name__}: {e}"]
                        out.write(json.dumps(line) + "\n")
                        out.flush()
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        hung, pending = False, b""
        while not hung:
            if b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                outcomes.append(tuple(json.loads(line)))
            elif not select.select([read_end], [], [], hang_s)[0]:
                os.kill(pid, signal.SIGKILL)
                outcomes.append(("hang", ""))
                hung = True
            else:
                chunk = os.read(read_end, 1 << 16)
                if not chunk:
                    break
                pending += chunk
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
        if not hung and len(outcomes) < len(requests):  # it ended before the rest
            err.seek(0)
            lines = err.read().decode(errors="replace").strip().splitlines() or [f"status {status}"]
            why = [l for l in lines if "Assertion `" in l or "LLVM ERROR" in l] or lines[-1:]
            outcomes.append(("abort", why[0][:1000]))
        err.close()
    return outcomes
