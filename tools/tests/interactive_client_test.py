"""`f2lay oracle` as an interactive client uses it: one request, then wait for
its answer (5 s at most), then the next. serve() writes answers in blocks and
flushes only before it would wait for input (oracle/oracle.h); this checks that
no answer is held back: one request at a time, a request and half of the next
in one write, blank lines, CRLF, a bad line, several requests in one write, and
a last line without its newline.

A pytest module (the root conftest.py): --f2lay names the command."""
import json
import select
import subprocess
import time

import pytest

IDENTITY = {"op": "identity_1d", "size": 4, "in_dim": "a", "out_dim": "b"}


def request(i):
    return json.dumps(dict(IDENTITY, id=i))


@pytest.fixture
def oracle(f2lay):
    proc = subprocess.Popen([f2lay, "oracle"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            bufsize=0)
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def answer(proc, timeout=5.0):
    """The next answer line, failing when none comes within timeout (not flushed)."""
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, f"no answer within {timeout:.0f} s (the answer was not flushed)"
    return json.loads(proc.stdout.readline())


def test_every_answer_comes_when_due(oracle):
    for i in range(50):
        oracle.stdin.write((request(i) + "\n").encode())
        got = answer(oracle)
        assert got["id"] == i and got["ok"], got
    # A request and half of the next in one write, then wait: the first answer must come.
    oracle.stdin.write((request(100) + "\n" + '{"op": "identity_1d", ').encode())
    assert answer(oracle)["id"] == 100
    oracle.stdin.write(b'"size": 2, "in_dim": "a", "out_dim": "b", "id": 101}\n')
    assert answer(oracle)["id"] == 101
    # Blank lines, then a request with CRLF, then a bad line: each answered when due.
    oracle.stdin.write(b"\n   \n\t\n")
    time.sleep(0.1)
    oracle.stdin.write((request(102) + "\r\n").encode())
    assert answer(oracle)["id"] == 102
    oracle.stdin.write(b'{"op": "frobnicate", "id": 103}\n')
    got = answer(oracle)
    assert got["id"] == 103 and not got["ok"], got
    # Three requests in one write: three answers.
    oracle.stdin.write("".join(request(i) + "\n" for i in (104, 105, 106)).encode())
    assert [answer(oracle)["id"] for _ in range(3)] == [104, 105, 106]
    # A last request without '\n', then end of input.
    oracle.stdin.write(request(107).encode())
    oracle.stdin.close()
    assert answer(oracle)["id"] == 107
    assert oracle.stdout.read() == b""
    assert oracle.wait(5) == 2  # one request (frobnicate) failed
