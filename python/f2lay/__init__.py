"""f2lay in process: linear layouts over F2 (Zhou et al., "Linear Layouts", 2025).

f2lay.LinearLayout is a drop-in for Triton 3.9.0's
triton._C.libtriton.linear_layout.LinearLayout, on f2lay's bit-packed
implementation (f2lay::opt); f2lay.ref.LinearLayout is the reference model with
the same API. f2lay.ask answers any request of the oracle protocol (catalog
families, shape operations, analyses) in process. Bad input raises f2lay.Error,
a ValueError carrying f2lay's message. See python/README.md.
"""
import json as _json
from typing import Dict, Optional, Sequence, Union

from ._f2lay import Error, LinearLayout
from ._f2lay import answer_line as _answer_line
from ._f2lay import audit_json as _audit_json
from ._f2lay import show_svg as _show_svg
from . import ref

__all__ = ["Error", "LinearLayout", "ask", "audit", "ref", "show"]


def _layout_json(value: object) -> dict:
    # Layouts of either implementation may stand in a request for their JSON.
    if isinstance(value, (LinearLayout, ref.LinearLayout)):
        return _json.loads(value.to_text("json"))
    raise TypeError(f"ask: a request holds JSON values and layouts, not {type(value).__name__}")


def ask(request: dict, impl: str = "opt") -> dict:
    """Answers one oracle request as `f2lay oracle` does (README.md: the
    protocol), in process: the response, {"ok": True, "result": ...} with the
    request's "id" when it has one. impl is "opt" (the default), "ref" or
    "check" (both, any difference an error). A request the oracle refuses
    raises f2lay.Error with the oracle's message; the response is its
    .response."""
    if not isinstance(request, dict):
        raise TypeError(f"ask: the request must be a dict, not {type(request).__name__}")
    response = _json.loads(_answer_line(_json.dumps(request, default=_layout_json), impl))
    if not response["ok"]:
        error = Error(response["error"])
        setattr(error, "response", response)  # the refused request's whole answer
        raise error
    return response


def audit(ttgir: str, *, triton: str = "3.9", arguments: Optional[Dict[str, int]] = None,
          grid: Sequence[int] = (), program: Sequence[int] = ()) -> dict:
    """`f2lay audit --json` in process: a compiled Triton kernel's TTGIR (the
    text of `compiled.asm["ttgir"]`) read for every layout it holds and every
    op that moves data between layouts, as plain data (vectors/audit.schema.json):
    {"triton", "module", "layouts", "ops", "unread"}. triton is "3.9" (the
    default) or "3.6": whose TTGIR and rules. arguments: the kernel's integer
    arguments at a launch ({"K": 256}), from which loop counts are evaluated;
    grid and program: the launch's grid and the CTA's program id, (x, y, z) or
    fewer, for loops whose counts depend on them.
    Text that is not a TTGIR module raises f2lay.Error; what f2lay cannot read
    inside one is reported, never dropped."""
    if not isinstance(ttgir, str):
        raise TypeError(f"audit: the TTGIR must be a str, not {type(ttgir).__name__}")
    if triton not in ("3.9", "3.6"):
        raise Error(f'audit: triton must be "3.9" or "3.6", not {triton!r}')
    arguments = {} if arguments is None else arguments
    if not isinstance(arguments, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in arguments.items()):
        raise TypeError("audit: arguments must map names (str) to integers")
    for name, value in (("grid", grid), ("program", program)):
        if not isinstance(value, (tuple, list)) or len(value) > 3 or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise TypeError(f"audit: {name} must be up to 3 integers (x, y, z)")
    return _json.loads(_audit_json(ttgir, triton, arguments, list(grid), list(program)))


def show(value: Union[LinearLayout, "ref.LinearLayout", dict], *,
         element_bytes: Optional[int] = None, warp: int = 0, instruction: int = 0) -> str:
    """The SVG picture `f2lay show --svg` draws (tools/pictures/picture.h), as
    text: of a layout (either implementation's LinearLayout, or its JSON as a
    dict), of a catalog request (a dict with "op"), of a bank_conflicts
    request (the bank scope of `instruction` of `warp`), of an
    optimal_swizzle request or of a conversion request ("self", "other").
    element_bytes: a memory layout's bytes per element (1, 2, 4, 8 or 16;
    default: the request's own, else 4). Bad input raises f2lay.Error."""
    if isinstance(value, (LinearLayout, ref.LinearLayout)):
        value = _layout_json(value)
    if not isinstance(value, dict):
        raise TypeError(f"show: expected a layout or a request (dict), not {type(value).__name__}")
    for name, number in (("warp", warp), ("instruction", instruction)):
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise TypeError(f"show: {name} must be a non-negative int, not {number!r}")
    if element_bytes is not None and (isinstance(element_bytes, bool)
                                      or not isinstance(element_bytes, int)
                                      or element_bytes not in (1, 2, 4, 8, 16)):
        raise Error(f"show: element_bytes must be 1, 2, 4, 8 or 16, not {element_bytes!r}")
    return _show_svg(_json.dumps(value, default=_layout_json), element_bytes or 0, warp,
                     instruction)
