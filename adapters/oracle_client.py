"""What every adapter does with `f2lay oracle`: send all requests in one run,
read one response per request, and compare each with the peer project's
answer, printing a summary line and the first disagreements."""
import json
import subprocess

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


def ask_oracle(f2lay, requests):
    """The oracle's responses, one per request, in order."""
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([f2lay, "oracle"], input=lines, capture_output=True, text=True)
    responses = [json.loads(line) for line in proc.stdout.splitlines()]
    if len(responses) != len(requests):
        raise RuntimeError(f"{len(requests)} requests but {len(responses)} responses; "
                           f"stderr: {proc.stderr[-500:]}")
    return responses


def compare(tool, peer, f2lay, pairs, kinds, problems=()):
    """pairs: (kind, request, expected). Prints '<tool>: <peer>: agree: ...;
    N disagree' and up to 10 disagreements; returns the exit status (1 on any
    disagreement or earlier problem)."""
    problems = list(problems)
    agree = {kind: 0 for kind in kinds}
    responses = ask_oracle(f2lay, [request for _, request, _ in pairs])
    for (kind, request, expected), response in zip(pairs, responses):
        if expected is ERROR:
            good = response.get("ok") is False
            want = "an error"
        else:
            good = response.get("ok") is True and same(response["result"], expected)
            want = json.dumps(expected)
        if good:
            agree[kind] += 1
        else:
            problems.append(f"{kind} {request.get('op')}: {peer} {want}\n  f2lay {json.dumps(response)}"
                            f"\n  request {json.dumps(request)}")
    counts = ", ".join(f"{kind} {n}" for kind, n in agree.items())
    print(f"{tool}: {peer}: agree: {counts}; {len(problems)} disagree")
    for p in problems[:10]:
        print("DISAGREE", p)
    return 1 if problems else 0
