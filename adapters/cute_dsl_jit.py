"""CuTe DSL's side of cute_dsl_check.py: one @cute.jit function that answers
a batch of layout-algebra questions while it is traced.

CuTe DSL (nvidia-cutlass-dsl) builds its layouts as MLIR values and so only
inside a function traced by @cute.jit; the tracer reads that function's
source, which is why it lives in a file of its own (and outside the
`*_check.py` modules, which pytest rewrites). With static shapes and strides
every answer is folded to Python integers at trace time: a layout's shape and
stride are nested tuples of ints, and `layout(i)` is an int. So a whole batch
is one trace, of a few milliseconds a question, and nothing is compiled for
or run on a GPU.

A question is a tuple of plain data:
  ("values", spec, n)        spec evaluated by the DSL at the 1-D indices 0..n-1,
                             and its print
  (op, arg, ...)             cute.<op>(arg, ...): composition, complement,
                             right_inverse, left_inverse, coalesce,
                             logical_divide, logical_product
where an argument is a layout spec ("L", shape, stride), a swizzled one
("S", b, m, s, shape, stride) (Swizzle<b,m,s> o 0 o shape:stride), a tuple
of layout specs (a by-mode tiler) or an int. Each answer is ("ok", result)
or ("error", "ExceptionType: message"), the result a list of ints for
"values" a list and the print, else ("L", shape, stride, text) for a layout
and ("S", the swizzle's MLIR type, offset, shape, stride, text, values at
0..n-1) for a composed layout.
"""
import faulthandler
import json
import os
import resource

# No JIT cache: it would leave an .mlir file in $TMPDIR/$USER/cutlass_python_cache
# per trace (read when cutlass is first imported).
os.environ.setdefault("CUTE_DSL_NO_CACHE", "1")

import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402


def _build(arg):
    """The DSL object for a question's argument."""
    if isinstance(arg, int):
        return arg
    if arg[0] == "L":
        return cute.make_layout(arg[1], stride=arg[2])
    if arg[0] == "S":
        b, m, s, shape, stride = arg[1:]
        return cute.make_composed_layout(cute.make_swizzle(b, m, s), 0,
                                         cute.make_layout(shape, stride=stride))
    return tuple(_build(a) for a in arg)  # a by-mode tiler


def _describe(result, n):
    """A result as plain data. A composed layout (a swizzled layout composed
    with another) is also evaluated by the DSL at 0..n-1, since its swizzle
    is an MLIR type whose only text is its print."""
    if isinstance(result, cute.ComposedLayout):
        # the swizzle read from its MLIR type, !cute.swizzle<"S<b,m,s>">: its
        # print is cut at 8 characters (S<1,0,-1 for S<1,0,-1>)
        outer = result.outer
        return ("S", str(result.inner.type), result.offset, outer.shape, outer.stride,
                str(result), [result(i) for i in range(n)])
    return ("L", result.shape, result.stride, str(result))


def _answer(question):
    op, args = question[0], question[1:]
    if op == "values":
        layout = _build(args[0])
        return [layout(i) for i in range(args[1])], str(layout)
    # n: how many points of a composed result to evaluate (the size of the
    # right-hand operand of a composition); ignored for plain layouts.
    n = question[-1] if op == "composition" else 0
    built = [_build(a) for a in (args[:-1] if op == "composition" else args)]
    return _describe(getattr(cute, op)(*built), n)


def _answer_all(questions, answers):
    for question in questions:
        try:
            answer = ("ok", _answer(question))
        except Exception as e:  # the DSL refuses by raising (ValueError, TypeError, ...)
            answer = ("error", f"{type(e).__name__}: {str(e)[:300]}")
        answers.append(answer)


@cute.jit
def _trace(questions: cutlass.Constexpr, answers: cutlass.Constexpr):
    # Everything happens in plain Python called from here: the DSL's AST
    # rewriting of control flow applies to this body only.
    _answer_all(questions, answers)


class _Pipe:
    """An answers list that writes each answer to the parent at once, as a
    JSON line, so that the answers before a crash are kept."""

    def __init__(self, out):
        self.out = out

    def append(self, answer):
        self.out.write(json.dumps(answer) + "\n")
        self.out.flush()


def _decode(line):
    """An answer read back: JSON's lists as the tuples they were (a list of
    values stays a list)."""
    answer = json.loads(line)
    r = answer[1]
    if answer[0] != "ok":
        return tuple(answer)
    if r[0] not in ("L", "S"):  # values, print
        return "ok", tuple(r)
    t = lambda j: tuple(map(t, j)) if isinstance(j, list) else j
    if r[0] == "L":
        return "ok", ("L", t(r[1]), t(r[2]), r[3])
    return "ok", ("S", r[1], r[2], t(r[3]), t(r[4]), r[5], r[6])


def ask(questions):
    """The DSL's answers to the questions, in order. They are traced in a
    forked child, a batch at a time: some questions kill the process (the
    DSL's C++ divides by zero, SIGFPE), and such a question is answered
    ("crash", the signal) while a new child goes on from the next one."""
    questions, answers = list(questions), []
    while len(answers) < len(questions):
        start = len(answers)
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: no core file; never returns to pytest
            status = 3
            try:
                os.close(read_end)
                # a crash is reported by the parent, without the traceback
                # that pytest's faulthandler would print
                faulthandler.disable()
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 2)
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                with os.fdopen(write_end, "w") as out:
                    _trace(questions[start:], _Pipe(out))
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        with os.fdopen(read_end) as pipe:
            answers += [_decode(line) for line in pipe]
        _, status = os.waitpid(pid, 0)
        if len(answers) < len(questions):  # it died on questions[len(answers)]
            why = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else \
                f"exit status {os.WEXITSTATUS(status)}"
            answers.append(("crash", f"the process dies ({why})"))
    return answers
