"""`f2lay show --svg` rendered by a real renderer (ctest pictures).

Each picture is made by the f2lay command (the `f2lay` fixture: pytest's
--f2lay, conftest.py), parsed as XML, rendered to PNG by librsvg's
rsvg-convert, and chosen pixels are compared with what the layout says, the
numbers stated literally from the paper and device_tests/HARDWARE.md (the
16x32 transpose: #seed-transpose). A cell's color is compared with the legend
swatch of the holder (or bank) it must have, and with a cell that must differ,
so that a wrong holder, a wrong bank or one color for all fails.

Skipped without rsvg-convert or Pillow: scripts/setup installs both, and CI
requires them (a run that skips ends with exit status 77, which fails under
F2LAY_REQUIRE_VENV=1: conftest.py).
"""
import io
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

Image = pytest.importorskip("PIL.Image", reason="no Pillow (scripts/setup installs it into .venv)")
if shutil.which("rsvg-convert") is None:
    pytest.skip("no rsvg-convert (Debian's librsvg2-bin; scripts/setup installs it)",
                allow_module_level=True)

SVG = "{http://www.w3.org/2000/svg}"

# The paper's Figure 1, layout A (§4.1): 16x16, 2x2 registers, 4x8 threads, 2x1 warps.
FIGURE1_A = {"op": "blocked", "size_per_thread": [2, 2], "threads_per_warp": [4, 8],
             "warps_per_cta": [2, 1], "order": [1, 0], "shape": [16, 16]}
# The same blocked layout with dim0 fastest: by Triton's definition of blocked
# (registers, then lanes, then warps, each along dim0 first), register bits
# give (1,0), (0,1); lane bits (2,0), (4,0), (8,0), (0,2), (0,4); warp (0,8).
FIGURE1_A_COLUMN_MAJOR = dict(FIGURE1_A, threads_per_warp=[8, 4], warps_per_cta=[1, 2],
                              order=[0, 1])
# The 16x32 fp32 transpose of device_tests/HARDWARE.md#seed-transpose: A
# stores (thread -> column n, register -> row m), B reads (lanes 0-15 -> rows,
# lane 16 -> column parity, registers -> column pairs); bases are [m, n].
SEED_A = {"in_dims": [{"name": "register", "bases": [[1, 0], [2, 0], [4, 0], [8, 0]]},
                      {"name": "lane", "bases": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]]}],
          "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 32}]}
SEED_B = {"in_dims": [{"name": "register", "bases": [[0, 2], [0, 4], [0, 8], [0, 16]]},
                      {"name": "lane", "bases": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 1]]}],
          "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 32}]}
# The README's pictures (scripts/pictures makes them): docs/pictures/NAME.json
# -> NAME.svg, NAME.png.
README_PICTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                               "pictures")
README_NAMES = sorted(f[:-5] for f in os.listdir(README_PICTURES) if f.endswith(".json"))


def swizzled(max_phase):
    """offset = 32m + (n xor (m mod max_phase)) on the 16x32 tensor (m = dim0):
    the 16x32 transpose's maps "32m + n" (max_phase 1) and "32m + (n xor m)"
    (16)."""
    return {"op": "swizzled_shared", "vec": 1, "per_phase": 1, "max_phase": max_phase,
            "order": [1, 0], "shape": [16, 32]}


@pytest.fixture(scope="module")
def oracle(f2lay):
    """The result of `f2lay oracle` on a request."""
    def ask(request):
        out = subprocess.run([f2lay, "oracle"], input=json.dumps(request), capture_output=True,
                             text=True, check=True).stdout
        return json.loads(out)["result"]
    return ask


class Picture:
    """An SVG made by `f2lay show --svg` from a request in a file, parsed, and
    its PNG rendering."""

    def __init__(self, f2lay, path, request, *options):
        with open(path, "w") as f:
            json.dump(request, f)
        made = subprocess.run([f2lay, "show", "--svg", path, *options], capture_output=True,
                              text=True)
        if made.returncode != 0:
            raise AssertionError(f"f2lay show --svg failed: {made.stderr}")
        self.text = made.stdout
        self.root = ET.fromstring(self.text)  # raises on XML that does not parse
        png = subprocess.run(["rsvg-convert", "--format", "png"], input=self.text.encode(),
                             capture_output=True, check=True).stdout
        self.image = Image.open(io.BytesIO(png)).convert("RGB")

    def element(self, element_id):
        for e in self.root.iter():
            if e.get("id") == element_id:
                return e
        raise AssertionError(f"no element with id {element_id}")

    def pixel(self, element_id):
        """The rendered color inside a rectangle, near its top left corner
        (inside the border, away from a centered label)."""
        e = self.element(element_id)
        x, y = float(e.get("x")), float(e.get("y"))
        w, h = float(e.get("width")), float(e.get("height"))
        return self.image.getpixel((int(x + min(3, w / 3)), int(y + min(3, h / 3))))

    def texts(self):
        return ["".join(t.itertext()) for t in self.root.iter(SVG + "text")]


@pytest.fixture(scope="module")
def picture(f2lay, tmp_path_factory):
    """Picture(request, *options), drawn by the f2lay command."""
    def draw(request, *options):
        return Picture(f2lay, tmp_path_factory.mktemp("picture") / "in.json", request, *options)
    return draw


def far(a, b):
    return max(abs(p - q) for p, q in zip(a, b)) > 24


# A distributed layout: who holds each element.

@pytest.fixture(scope="module")
def figure1(picture):
    return picture(FIGURE1_A)


def test_element_2_3_is_register_1_of_lane_9(figure1):
    # The paper, §4.1: "register 1 of lane 9 holds (2, 3)".
    p = figure1
    assert p.element("e-2-3").get("data-holder") == "warp 0, lane 9, register 1"
    assert p.pixel("e-2-3") == p.pixel("legend-w0-t9")
    # Register 0 of lane 9 holds (2, 2): the same lane, the same color.
    assert p.pixel("e-2-2") == p.pixel("legend-w0-t9")
    # Lane 0 holds (0, 0): another shade.
    assert p.pixel("e-0-0") == p.pixel("legend-w0-t0")
    assert far(p.pixel("e-0-0"), p.pixel("e-2-3"))


def test_warp_1_has_its_own_hue(figure1):
    # Warp bit 0 moves dim0 by 8: (8, 0) is lane 0, register 0 of warp 1.
    assert figure1.pixel("e-8-0") == figure1.pixel("legend-w1-t0")
    assert far(figure1.pixel("e-8-0"), figure1.pixel("e-0-0"))


def test_labels_are_selectable_text(figure1):
    assert "T9 R1" in figure1.texts()
    assert "T0 R0" in figure1.texts()
    assert len([e for e in figure1.root.iter(SVG + "rect") if e.get("class") == "cell"]) == 256


def test_a_request_written_inline_draws_the_same(f2lay, figure1):
    inline = subprocess.run([f2lay, "show", "--svg", json.dumps(FIGURE1_A)],
                            capture_output=True, text=True, check=True).stdout
    assert inline == figure1.text


def test_broadcast_holders_are_listed(picture):
    # A 16x16 tensor over a 2-warp 8x8 blocked tile: each element twice
    # (by the warps, or by repeats of the tile).
    p = picture({"op": "blocked", "size_per_thread": [1, 1], "threads_per_warp": [4, 8],
                 "warps_per_cta": [2, 1], "order": [1, 0], "shape": [4, 8]})
    assert p.element("e-0-0").get("data-holders") == "2"
    lines = p.texts()
    assert any(t.startswith("Held more than once (broadcast): 32 elements") for t in lines)
    assert "(0, 0): W0 T0 R0, W1 T0 R0" in lines


def test_large_tensors_drop_labels_not_colors(picture):
    p = picture({"op": "blocked", "size_per_thread": [1, 4], "threads_per_warp": [8, 4],
                 "warps_per_cta": [4, 1], "order": [1, 0], "shape": [128, 128]})
    assert "T0 R0" not in p.texts()
    # Lane bits move dim1 by 4, 8, then dim0 by 1, 2, 4: (0, 4) is lane 1's
    # first register, (4, 0) lane 16's.
    assert p.pixel("e-0-4") == p.pixel("legend-w0-t1")
    assert p.pixel("e-4-0") == p.pixel("legend-w0-t16")
    assert far(p.pixel("e-4-0"), p.pixel("e-0-0"))


# A memory layout: each element's offset and bank.

def test_banks_of_the_seed_swizzle(picture):
    # offset = 32m + (n xor m): (3, 5) is at 96 + 6 = 102, 4-byte bank 6.
    p = picture(swizzled(16))
    assert p.element("e-3-5").get("data-offset") == "102"
    assert "102" in p.texts()
    assert p.pixel("e-3-5") == p.pixel("legend-bank-6")
    assert far(p.pixel("legend-bank-6"), p.pixel("legend-bank-5"))


def test_element_bytes_move_the_banks(picture):
    # 2-byte elements: byte 204, bank 51 mod 32 = 19.
    p = picture(swizzled(16), "--element-bytes", "2")
    assert p.pixel("e-3-5") == p.pixel("legend-bank-19")
    assert far(p.pixel("e-3-5"), p.pixel("legend-bank-6"))


def test_padded_layouts_at_their_padded_addresses(picture):
    # Row-major 16x32 with one element of padding after every 32 (Gluon's
    # PaddedSharedLayout [[32, 1]]): row m starts at address 33m, so (m, 0)
    # is in bank m, where unpadded it would be in bank 0.
    p = picture({"op": "padded_shared", "interval_padding_pairs": [[32, 1]],
                 "offset_bases": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0],
                                  [4, 0], [8, 0]],
                 "shape": [16, 32]})
    assert p.element("e-3-0").get("data-offset") == "96"
    assert p.pixel("e-3-0") == p.pixel("legend-bank-3")
    assert p.pixel("e-5-0") == p.pixel("legend-bank-5")
    assert far(p.pixel("e-3-0"), p.pixel("legend-bank-0"))


# The bank scope: the words one instruction reads from each bank.

@pytest.fixture(scope="module")
def scope(picture, oracle):
    """The bank scope of B's loads on swizzled(max_phase), at an instruction."""
    def draw(max_phase, instruction=0):
        request = {"op": "bank_conflicts", "layout": SEED_B,
                   "shared": oracle(swizzled(max_phase)), "element_bytes": 4, "access": "load"}
        return picture(request, "--instruction", str(instruction))
    return draw


def bars(p):
    return {e.get("id"): int(e.get("data-words")) for e in p.root.iter(SVG + "rect")
            if e.get("class") == "bank-bar"}


def test_unswizzled_read_stacks_16_words_in_two_banks(scope):
    # HARDWARE.md#seed-transpose: B's loads on 32m + n, 256 wavefronts in 16
    # instructions: lanes 0-15 read column 0 of rows 0-15 (bank 0), lanes
    # 16-31 column 1 (bank 1).
    p = scope(1)
    assert "16 wavefronts" in "".join(p.element("bank-scope-title").itertext())
    assert bars(p) == {"bar-0": 16, "bar-1": 16}
    assert p.pixel("bar-0") == p.pixel("bank-0-row-5")
    assert far(p.pixel("bank-0-row-5"), p.pixel("bank-2-row-5"))  # untouched


def test_xor_m_read_two_hits_per_bank_sixteen_banks_dark(scope):
    # HARDWARE.md#seed-transpose: on 32m + (n xor m) a read hits sixteen
    # banks twice each and leaves sixteen dark: 32 wavefronts in 16
    # instructions.
    p = scope(16, instruction=3)
    assert "2 wavefronts" in "".join(p.element("bank-scope-title").itertext())
    found = bars(p)
    assert len(found) == 16
    assert set(found.values()) == {2}


def test_optimum_beside_the_construction_and_unswizzled(picture):
    # HARDWARE.md#seed-transpose: unswizzled stores 16, loads 256; §5.4's
    # construction 16 and 16. The optimum stores 16 bytes a lane: 4
    # instructions of 4 phases (HARDWARE.md#store-phases), no conflict.
    p = picture({"op": "optimal_swizzle", "self": SEED_A, "other": SEED_B, "element_bytes": 4})
    text = {i: "".join(p.element(i).itertext()) for i in
            ("optimum-store", "optimum-load", "paper-store", "paper-load",
             "unswizzled-store", "unswizzled-load")}
    assert ": 16 wavefronts (4 instructions, 0 conflicts), 16 bytes a lane" in \
        text["optimum-store"]
    assert ": 16 wavefronts (16 instructions, 0 conflicts)" in text["paper-store"]
    assert ": 16 wavefronts (16 instructions, 0 conflicts)" in text["paper-load"]
    assert ": 16 wavefronts (16 instructions, 0 conflicts)" in text["unswizzled-store"]
    assert ": 256 wavefronts (16 instructions, 240 conflicts)" in text["unswizzled-load"]
    # Unswizzled, (3, 5) is at 101: bank 5.
    assert p.pixel("unswizzled-e-3-5") == p.pixel("unswizzled-legend-bank-5")
    assert far(p.pixel("unswizzled-e-3-5"), p.pixel("unswizzled-legend-bank-6"))


def test_a_conversion_draws_a_beside_b(picture, oracle):
    p = picture({"op": "classify_conversion", "self": oracle(FIGURE1_A),
                 "other": oracle(FIGURE1_A_COLUMN_MAJOR)})
    assert "".join(p.element("conversion-kind").itertext()).startswith("Conversion A -> B: ")
    assert p.element("a-e-2-3").get("data-holder") == "warp 0, lane 9, register 1"
    assert p.pixel("a-e-2-3") == p.pixel("a-legend-w0-t9")
    # In B, (2, 3) = lane bit 0 (2, 0) + register bit 1 (0, 1) + lane bit 3 (0, 2).
    assert p.element("b-e-2-3").get("data-holder") == "warp 0, lane 9, register 2"
    assert p.pixel("b-e-2-3") == p.pixel("b-legend-w0-t9")
    # B's (0, 8) is warp 1's.
    assert p.pixel("b-e-0-8") == p.pixel("b-legend-w1-t0")
    assert far(p.pixel("b-e-0-8"), p.pixel("a-e-0-8"))


def test_the_readme_has_committed_pictures():
    assert len(README_NAMES) >= 2


@pytest.mark.parametrize("name", README_NAMES)
def test_a_committed_picture_is_what_the_command_draws(picture, name):
    with open(os.path.join(README_PICTURES, name + ".json")) as f:
        now = picture(json.load(f))
    with open(os.path.join(README_PICTURES, name + ".svg")) as f:
        assert f.read() == now.text, "run scripts/pictures"
    png = Image.open(os.path.join(README_PICTURES, name + ".png"))
    assert png.size == now.image.size


# Bad input: refused with a message naming the problem, and nothing drawn.
# Each request is a function of the oracle (the cases that need a memory
# layout ask it for one).
BAD_INPUT = [
    (lambda oracle: {"op": "tensor_memory", "block": [128, 128], "col_stride": 1,
                     "shape": [128, 128]}, (), "in dims are row, col"),
    (lambda oracle: {"op": "blocked", "size_per_thread": [1, 1], "threads_per_warp": [4, 8],
                     "warps_per_cta": [4, 1], "order": [1, 0], "shape": [512, 256]}, (),
     "at most 65536"),
    (lambda oracle: {"op": "bank_conflicts", "layout": SEED_B, "shared": oracle(swizzled(1)),
                     "element_bytes": 4, "access": "load"}, ("--instruction", "16"),
     "has 16 instructions"),
    (lambda oracle: {"op": "vectorization", "layout": SEED_A, "shared": oracle(swizzled(1))},
     (), "does not answer with a layout"),
    (lambda oracle: {"in_dims": 3}, (), "layout: missing key \"out_dims\""),
    (lambda oracle: "{\"op\": \"blocked\"", (), "JSON"),
]


@pytest.mark.parametrize("request_of, options, message", BAD_INPUT,
                         ids=[message for _, _, message in BAD_INPUT])
def test_errors_name_the_problem_and_exit_2(f2lay, oracle, tmp_path, request_of, options,
                                           message):
    request = request_of(oracle)
    path = tmp_path / "in.json"
    path.write_text(request if isinstance(request, str) else json.dumps(request))
    r = subprocess.run([f2lay, "show", "--svg", path, *options], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr
    assert r.stdout == ""
