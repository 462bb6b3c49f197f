"""f2lay.show: the SVG picture `f2lay show --svg` draws (F2LAY_BIN names the
binary; ctest sets it), in process, for a layout of either implementation and
for requests; its bad arguments raise. The pictures' pixels are checked in
ctest pictures (tools/tests/pictures_test.py)."""
import json
import os
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import pytest

import f2lay

# The paper's Figure 1, layout A (§4.1).
FIGURE1_A = {"op": "blocked", "size_per_thread": [2, 2], "threads_per_warp": [4, 8],
             "warps_per_cta": [2, 1], "order": [1, 0], "shape": [16, 16]}


def command_svg(value, *options):
    binary = os.environ.get("F2LAY_BIN")
    assert binary, "F2LAY_BIN must name the f2lay binary (ctest sets it)"
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(value, f)
    try:
        return subprocess.run([binary, "show", "--svg", f.name, *options], capture_output=True,
                              text=True, check=True).stdout
    finally:
        os.unlink(f.name)


def cell(svg, element_id):
    for e in ET.fromstring(svg).iter():
        if e.get("id") == element_id:
            return e
    raise AssertionError(f"no {element_id}")


def test_a_request_draws_as_the_command_does():
    svg = f2lay.show(FIGURE1_A)
    assert svg == command_svg(FIGURE1_A)
    # The paper: register 1 of lane 9 holds (2, 3).
    assert cell(svg, "e-2-3").get("data-holder") == "warp 0, lane 9, register 1"


@pytest.mark.parametrize("cls", [f2lay.LinearLayout, f2lay.ref.LinearLayout])
def test_a_layout_of_either_implementation(cls):
    layout_json = f2lay.ask(FIGURE1_A)["result"]
    layout = cls.from_text(json.dumps(layout_json), "json")
    assert f2lay.show(layout) == command_svg(layout_json)


def test_a_memory_layout_at_two_byte_elements():
    shared = {"op": "swizzled_shared", "vec": 1, "per_phase": 1, "max_phase": 16,
              "order": [1, 0], "shape": [16, 32]}
    svg = f2lay.show(shared, element_bytes=2)
    assert svg == command_svg(shared, "--element-bytes", "2")
    # offset = 32m + (n xor m): (3, 5) at 102, bytes 204..205, bank 51 mod 32.
    assert cell(svg, "e-3-5").get("data-bank") == "19"


def test_bad_arguments_raise():
    with pytest.raises(TypeError, match="expected a layout or a request"):
        f2lay.show([1, 2])  # type: ignore[arg-type] # bad input on purpose
    with pytest.raises(TypeError, match="warp must be a non-negative int"):
        f2lay.show(FIGURE1_A, warp=-1)
    with pytest.raises(TypeError, match="instruction must be a non-negative int"):
        f2lay.show(FIGURE1_A, instruction="0")  # type: ignore[arg-type] # on purpose
    with pytest.raises(f2lay.Error, match="element_bytes must be 1, 2, 4, 8 or 16, not 3"):
        f2lay.show(FIGURE1_A, element_bytes=3)
    with pytest.raises(f2lay.Error, match="unknown op"):
        f2lay.show({"op": "no_such_op"})
    with pytest.raises(f2lay.Error, match="draws distributed layouts"):
        f2lay.show({"op": "tensor_memory", "block": [128, 128], "col_stride": 1,
                    "shape": [128, 128]})
