"""Checks every layout `f2lay audit` lifts from a compiled kernel against
Triton's own reading of the same attribute.

f2lay reads a kernel's TTGIR with its own reader (formats/ttgir.h), lifts each
layout attribute to a catalog request (audit/lift.h) and builds the layout in
its reference catalog. Triton is asked independently of all that: the
attribute's type, as printed in the TTGIR, goes into a small module of its
own (the kernel's aliases and module attributes, then one `ub.poison` of each
type), which Triton's MLIR parser reads and verifies; Gluon then gives the
value's layout object and Triton's C++ `to_linear_layout` its linear layout.

A pytest module (conftest.py), one test per kernel of audit/corpus/ttgir (-k
picks). Every layout must be lifted and equal Triton's: a difference, or an
attribute f2lay cannot lift that Triton reads, is an f2lay bug: f2lay follows
Triton's definitions. It skips where Triton is not installed. Triton aborts
the process on a layout it rejects, so it is asked in forked children
(oracle_client.forked_outcomes).
"""
import json
import pathlib
import subprocess
import tempfile

import pytest

from oracle_client import Report, first_difference, forked_outcomes, same

pytest.importorskip("triton", reason="Triton is not installed (scripts/setup installs it)")
from triton._C.libtriton import gluon_ir, ir  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "audit" / "corpus" / "ttgir"
# Gluon's names of a linear layout's bases, and f2lay's in dims.
IN_DIMS = [("reg_bases", "register"), ("lane_bases", "lane"), ("warp_bases", "warp"),
           ("offset_bases", "offset"), ("rows", "row"), ("cols", "col"), ("block_bases", "block")]


def audit(f2lay, path):
    proc = subprocess.run([f2lay, "audit", "--json", str(path)], capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"f2lay audit {path}: exit {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def probe_module(ttgir, types):
    """The kernel's aliases and module line, and one value of each type."""
    lines = ttgir.splitlines()
    aliases = [l for l in lines if l.startswith("#") and " = loc(" not in l]
    module = next(l for l in lines if l.startswith("module attributes"))
    body = [f"    %v{i} = ub.poison : {t}" for i, t in enumerate(types)]
    return "\n".join(aliases + [module, "  tt.func public @probe() {"] + body +
                     ["    tt.return", "  }", "}", ""])


class Probe:
    """Triton's reading of a probe module: the value of each type."""

    def __init__(self, text):
        self.ctx = ir.context()
        ir.load_dialects(self.ctx)
        self.builder = gluon_ir.GluonOpBuilder(self.ctx)
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(text)
        self.module = ir.parse_mlir_module(f.name, self.ctx)
        pathlib.Path(f.name).unlink()
        self.values = []
        self.module.walk(lambda op: self.values.append(op.get_result(0))
                         if op.get_name() == "ub.poison" else None)

    def layout(self, entry):
        """Triton's linear layout of entry (index, memdesc?, shape) as f2lay's JSON."""
        index, memdesc, shape = entry
        value = self.values[index]
        get = self.builder.get_gluon_layout_from_memdesc if memdesc else \
            self.builder.get_gluon_layout_from_tensor
        layout = get(value)
        if type(layout).__name__ == "PaddedSharedLayout":
            # Triton's to_linear_layout aborts on padded layouts; Gluon's
            # printed attribute is read instead (gluon_shared_check.py).
            from gluon_shared_check import padded_answer
            return padded_answer(layout, list(shape))
        ll = self.builder.to_linear_layout(layout._to_ir(self.builder), list(shape))
        in_dims = [{"name": name, "bases": [list(b) for b in getattr(ll, attr)]}
                   for attr, name in IN_DIMS if hasattr(ll, attr)]
        if any(d["name"] == "row" for d in in_dims) and not any(d["name"] == "block" for d in in_dims):
            in_dims.append({"name": "block", "bases": []})  # one CTA: Gluon prints none
        return {"in_dims": in_dims,
                "out_dims": [{"name": f"dim{i}", "size": s} for i, s in enumerate(shape)]}


def check_kernel(report, f2lay, path):
    """Compares each layout of the kernel at path; returns those Triton's
    Python side cannot answer (not compared), a line each."""
    unanswered = []
    ttgir = path.read_text()
    layouts = audit(f2lay, path)["layouts"]
    probe = Probe(probe_module(ttgir, [l["type"] for l in layouts]))
    if len(probe.values) != len(layouts):
        report.f2lay_bug("probe", f"{path.name}: {len(layouts)} types, Triton read {len(probe.values)}")
        return unanswered
    entries = [(i, l["type"].startswith("!ttg.memdesc"), l["shape"]) for i, l in enumerate(layouts)]
    for mine, (outcome, theirs) in zip(layouts, forked_outcomes(probe.layout, entries)):
        where = f"{path.name}: {mine['attribute']} at {mine['shape']} ({mine['type']})"
        if outcome != "ok":
            # Gluon's Python side cannot hold some layouts Triton's compiler
            # makes (a barrier's one-element shared_linear, AMD's rotating
            # shared layout): nothing to compare, said so.
            mine_text = "lifted" if "layout" in mine else f"not lifted: {mine['error']}"
            unanswered.append(f"{where}: Triton: {outcome}: {theirs.splitlines()[0][:200]}; "
                              f"f2lay: {mine_text}")
        elif "layout" not in mine:
            report.f2lay_bug("lifted", f"{where}: Triton reads it, f2lay does not: {mine['error']}")
        elif not same({k: mine["layout"][k] for k in theirs}, theirs):
            report.f2lay_bug("lifted", f"{where}: {first_difference(theirs, mine['layout'])}"
                             f"\n  request {json.dumps(mine['request'])}")
        else:
            report.agree("lifted")
    return unanswered


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.ttgir")), ids=lambda p: p.stem)
def test_kernel(f2lay, path):
    report = Report("triton_audit_check", "Triton 3.9.0 (to_linear_layout)", ["lifted"])
    unanswered = check_kernel(report, f2lay, path)
    for line in unanswered:
        print(f"triton_audit_check: not answered by Triton's Python side (not compared): {line}")
    report.check()
