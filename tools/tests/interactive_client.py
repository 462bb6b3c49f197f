"""`f2lay oracle` as an interactive client uses it: one request, then wait for
its answer (5 s at most), then the next. serve() writes answers in blocks and
flushes only before it would wait for input (oracle/oracle.h); this checks that
no answer is held back: one request at a time, a request and half of the next
in one write, blank lines, CRLF, a bad line, several requests in one write, and
a last line without its newline.

  python3 interactive_client.py F2LAY_BINARY"""
import json, select, subprocess, sys, time

def readline(proc, timeout=5.0):
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    if not ready:
        sys.exit("FAIL: no answer within %.0f s (the answer was not flushed)" % timeout)
    return proc.stdout.readline()

binary = sys.argv[1]
proc = subprocess.Popen([binary, "oracle"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
ident = {"op": "identity_1d", "size": 4, "in_dim": "a", "out_dim": "b"}
for i in range(50):
    proc.stdin.write((json.dumps(dict(ident, id=i)) + "\n").encode())
    answer = json.loads(readline(proc))
    assert answer["id"] == i and answer["ok"], answer
# A request and half of the next in one write, then wait: the first answer must come.
proc.stdin.write((json.dumps(dict(ident, id=100)) + "\n" + '{"op": "identity_1d", ').encode())
assert json.loads(readline(proc))["id"] == 100
proc.stdin.write(b'"size": 2, "in_dim": "a", "out_dim": "b", "id": 101}\n')
assert json.loads(readline(proc))["id"] == 101
# Blank lines, then a request with CRLF, then a bad line: each answered when due.
proc.stdin.write(b"\n   \n\t\n")
time.sleep(0.1)
proc.stdin.write((json.dumps(dict(ident, id=102)) + "\r\n").encode())
assert json.loads(readline(proc))["id"] == 102
proc.stdin.write(b'{"op": "frobnicate", "id": 103}\n')
answer = json.loads(readline(proc))
assert answer["id"] == 103 and not answer["ok"], answer
# Three requests in one write: three answers.
proc.stdin.write("".join(json.dumps(dict(ident, id=i)) + "\n" for i in (104, 105, 106)).encode())
assert [json.loads(readline(proc))["id"] for _ in range(3)] == [104, 105, 106]
# A last request without '\n', then end of input.
proc.stdin.write(json.dumps(dict(ident, id=107)).encode())
proc.stdin.close()
assert json.loads(readline(proc))["id"] == 107
assert proc.stdout.read() == b""
status = proc.wait(5)
assert status == 2, status  # one request (frobnicate) failed
print("interactive client: ok")
