#!/usr/bin/env python3
"""`f2lay show --svg` rendered by a real renderer (ctest pictures).

Each picture is made by the f2lay command, parsed as XML, rendered to PNG by
librsvg's rsvg-convert, and chosen pixels are compared with what the layout
says, the numbers stated literally from the paper and device_tests/HARDWARE.md
(the 16x32 transpose: #seed-transpose). A cell's color is compared with the
legend swatch of the holder (or bank) it must have, and with a cell that must
differ, so that a wrong holder, a wrong bank or one color for all fails.

usage: pictures_test.py F2LAY
Exit 77 (ctest's skip) without rsvg-convert or Pillow: scripts/setup installs
both, and CI requires them (F2LAY_REQUIRE_VENV=1 turns the skip into a failure).
"""
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

try:
    from PIL import Image
except ImportError:
    print("pictures_test: no Pillow (scripts/setup installs it into .venv)")
    sys.exit(77)
if shutil.which("rsvg-convert") is None:
    print("pictures_test: no rsvg-convert (Debian's librsvg2-bin; scripts/setup installs it)")
    sys.exit(77)

F2LAY = sys.argv.pop(1) if len(sys.argv) > 1 else "f2lay"
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


def swizzled(max_phase):
    """offset = 32m + (n xor (m mod max_phase)) on the 16x32 tensor (m = dim0):
    the 16x32 transpose's maps "32m + n" (max_phase 1) and "32m + (n xor m)"
    (16)."""
    return {"op": "swizzled_shared", "vec": 1, "per_phase": 1, "max_phase": max_phase,
            "order": [1, 0], "shape": [16, 32]}


def oracle(request):
    out = subprocess.run([F2LAY, "oracle"], input=json.dumps(request), capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)["result"]


class Picture:
    """An SVG made by `f2lay show --svg`, parsed, and its PNG rendering."""

    def __init__(self, request, *options):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "in.json")
            with open(path, "w") as f:
                json.dump(request, f)
            made = subprocess.run([F2LAY, "show", "--svg", path, *options], capture_output=True,
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


def far(a, b):
    return max(abs(p - q) for p, q in zip(a, b)) > 24


class DistributedLayout(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.p = Picture(FIGURE1_A)

    def test_element_2_3_is_register_1_of_lane_9(self):
        # The paper, §4.1: "register 1 of lane 9 holds (2, 3)".
        cell = self.p.element("e-2-3")
        self.assertEqual(cell.get("data-holder"), "warp 0, lane 9, register 1")
        self.assertEqual(self.p.pixel("e-2-3"), self.p.pixel("legend-w0-t9"))
        # Register 0 of lane 9 holds (2, 2): the same lane, the same color.
        self.assertEqual(self.p.pixel("e-2-2"), self.p.pixel("legend-w0-t9"))
        # Lane 0 holds (0, 0): another shade.
        self.assertEqual(self.p.pixel("e-0-0"), self.p.pixel("legend-w0-t0"))
        self.assertTrue(far(self.p.pixel("e-0-0"), self.p.pixel("e-2-3")))

    def test_warp_1_has_its_own_hue(self):
        # Warp bit 0 moves dim0 by 8: (8, 0) is lane 0, register 0 of warp 1.
        self.assertEqual(self.p.pixel("e-8-0"), self.p.pixel("legend-w1-t0"))
        self.assertTrue(far(self.p.pixel("e-8-0"), self.p.pixel("e-0-0")))

    def test_labels_are_selectable_text(self):
        self.assertIn("T9 R1", self.p.texts())
        self.assertIn("T0 R0", self.p.texts())
        self.assertEqual(len([e for e in self.p.root.iter(SVG + "rect") if e.get("class") == "cell"]),
                         256)

    def test_a_request_written_inline_draws_the_same(self):
        inline = subprocess.run([F2LAY, "show", "--svg", json.dumps(FIGURE1_A)],
                                capture_output=True, text=True, check=True).stdout
        self.assertEqual(inline, self.p.text)

    def test_broadcast_holders_are_listed(self):
        # A 16x16 tensor over a 2-warp 8x8 blocked tile: each element twice
        # (by the warps, or by repeats of the tile).
        p = Picture({"op": "blocked", "size_per_thread": [1, 1], "threads_per_warp": [4, 8],
                     "warps_per_cta": [2, 1], "order": [1, 0], "shape": [4, 8]})
        self.assertEqual(p.element("e-0-0").get("data-holders"), "2")
        lines = p.texts()
        self.assertTrue(any(t.startswith("Held more than once (broadcast): 32 elements") for t in lines))
        self.assertIn("(0, 0): W0 T0 R0, W1 T0 R0", lines)

    def test_large_tensors_drop_labels_not_colors(self):
        p = Picture({"op": "blocked", "size_per_thread": [1, 4], "threads_per_warp": [8, 4],
                     "warps_per_cta": [4, 1], "order": [1, 0], "shape": [128, 128]})
        self.assertNotIn("T0 R0", p.texts())
        # Lane bits move dim1 by 4, 8, then dim0 by 1, 2, 4: (0, 4) is lane 1's
        # first register, (4, 0) lane 16's.
        self.assertEqual(p.pixel("e-0-4"), p.pixel("legend-w0-t1"))
        self.assertEqual(p.pixel("e-4-0"), p.pixel("legend-w0-t16"))
        self.assertTrue(far(p.pixel("e-4-0"), p.pixel("e-0-0")))


class MemoryLayout(unittest.TestCase):
    def test_banks_of_the_seed_swizzle(self):
        # offset = 32m + (n xor m): (3, 5) is at 96 + 6 = 102, 4-byte bank 6.
        p = Picture(swizzled(16))
        self.assertEqual(p.element("e-3-5").get("data-offset"), "102")
        self.assertIn("102", p.texts())
        self.assertEqual(p.pixel("e-3-5"), p.pixel("legend-bank-6"))
        self.assertTrue(far(p.pixel("legend-bank-6"), p.pixel("legend-bank-5")))

    def test_element_bytes_move_the_banks(self):
        # 2-byte elements: byte 204, bank 51 mod 32 = 19.
        p = Picture(swizzled(16), "--element-bytes", "2")
        self.assertEqual(p.pixel("e-3-5"), p.pixel("legend-bank-19"))
        self.assertTrue(far(p.pixel("e-3-5"), p.pixel("legend-bank-6")))


    def test_padded_layouts_at_their_padded_addresses(self):
        # Row-major 16x32 with one element of padding after every 32 (Gluon's
        # PaddedSharedLayout [[32, 1]]): row m starts at address 33m, so (m, 0)
        # is in bank m, where unpadded it would be in bank 0.
        p = Picture({"op": "padded_shared", "interval_padding_pairs": [[32, 1]],
                     "offset_bases": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0],
                                      [4, 0], [8, 0]],
                     "shape": [16, 32]})
        self.assertEqual(p.element("e-3-0").get("data-offset"), "96")
        self.assertEqual(p.pixel("e-3-0"), p.pixel("legend-bank-3"))
        self.assertEqual(p.pixel("e-5-0"), p.pixel("legend-bank-5"))
        self.assertTrue(far(p.pixel("e-3-0"), p.pixel("legend-bank-0")))


class BankScope(unittest.TestCase):
    def scope(self, max_phase, instruction=0):
        request = {"op": "bank_conflicts", "layout": SEED_B, "shared": oracle(swizzled(max_phase)),
                   "element_bytes": 4, "access": "load"}
        return Picture(request, "--instruction", str(instruction))

    def bars(self, p):
        return {e.get("id"): int(e.get("data-words")) for e in p.root.iter(SVG + "rect")
                if e.get("class") == "bank-bar"}

    def test_unswizzled_read_stacks_16_words_in_two_banks(self):
        # HARDWARE.md#seed-transpose: B's loads on 32m + n, 256 wavefronts in 16
        # instructions: lanes 0-15 read column 0 of rows 0-15 (bank 0), lanes
        # 16-31 column 1 (bank 1).
        p = self.scope(1)
        self.assertIn("16 wavefronts", "".join(p.element("bank-scope-title").itertext()))
        self.assertEqual(self.bars(p), {"bar-0": 16, "bar-1": 16})
        self.assertEqual(p.pixel("bar-0"), p.pixel("bank-0-row-5"))
        self.assertTrue(far(p.pixel("bank-0-row-5"), p.pixel("bank-2-row-5")))  # untouched

    def test_xor_m_read_two_hits_per_bank_sixteen_banks_dark(self):
        # HARDWARE.md#seed-transpose: on 32m + (n xor m) a read hits sixteen
        # banks twice each and leaves sixteen dark: 32 wavefronts in 16
        # instructions.
        p = self.scope(16, instruction=3)
        self.assertIn("2 wavefronts", "".join(p.element("bank-scope-title").itertext()))
        bars = self.bars(p)
        self.assertEqual(len(bars), 16)
        self.assertEqual(set(bars.values()), {2})


class OptimalSwizzle(unittest.TestCase):
    def test_optimum_beside_the_construction_and_unswizzled(self):
        # HARDWARE.md#seed-transpose: unswizzled stores 16, loads 256; §5.4's
        # construction 16 and 16. The optimum stores 16 bytes a lane: 4
        # instructions of 4 phases (HARDWARE.md#store-phases), no conflict.
        p = Picture({"op": "optimal_swizzle", "self": SEED_A, "other": SEED_B, "element_bytes": 4})
        text = {i: "".join(p.element(i).itertext()) for i in
                ("optimum-store", "optimum-load", "paper-store", "paper-load",
                 "unswizzled-store", "unswizzled-load")}
        self.assertIn(": 16 wavefronts (4 instructions, 0 conflicts), 16 bytes a lane",
                      text["optimum-store"])
        self.assertIn(": 16 wavefronts (16 instructions, 0 conflicts)", text["paper-store"])
        self.assertIn(": 16 wavefronts (16 instructions, 0 conflicts)", text["paper-load"])
        self.assertIn(": 16 wavefronts (16 instructions, 0 conflicts)", text["unswizzled-store"])
        self.assertIn(": 256 wavefronts (16 instructions, 240 conflicts)", text["unswizzled-load"])
        # Unswizzled, (3, 5) is at 101: bank 5.
        self.assertEqual(p.pixel("unswizzled-e-3-5"), p.pixel("unswizzled-legend-bank-5"))
        self.assertTrue(far(p.pixel("unswizzled-e-3-5"), p.pixel("unswizzled-legend-bank-6")))


class Conversion(unittest.TestCase):
    def test_a_beside_b(self):
        p = Picture({"op": "classify_conversion", "self": oracle(FIGURE1_A),
                     "other": oracle(FIGURE1_A_COLUMN_MAJOR)})
        self.assertTrue("".join(p.element("conversion-kind").itertext()).startswith(
            "Conversion A -> B: "))
        self.assertEqual(p.element("a-e-2-3").get("data-holder"), "warp 0, lane 9, register 1")
        self.assertEqual(p.pixel("a-e-2-3"), p.pixel("a-legend-w0-t9"))
        # In B, (2, 3) = lane bit 0 (2, 0) + register bit 1 (0, 1) + lane bit 3 (0, 2).
        self.assertEqual(p.element("b-e-2-3").get("data-holder"), "warp 0, lane 9, register 2")
        self.assertEqual(p.pixel("b-e-2-3"), p.pixel("b-legend-w0-t9"))
        # B's (0, 8) is warp 1's.
        self.assertEqual(p.pixel("b-e-0-8"), p.pixel("b-legend-w1-t0"))
        self.assertTrue(far(p.pixel("b-e-0-8"), p.pixel("a-e-0-8")))


class ReadmePictures(unittest.TestCase):
    def test_the_committed_pictures_are_what_the_command_draws(self):
        # scripts/pictures makes them: docs/pictures/NAME.json -> NAME.svg, NAME.png.
        folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                              "pictures")
        names = sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".json"))
        self.assertGreaterEqual(len(names), 2)
        for name in names:
            with self.subTest(name=name):
                with open(os.path.join(folder, name + ".json")) as f:
                    now = Picture(json.load(f))
                with open(os.path.join(folder, name + ".svg")) as f:
                    self.assertEqual(f.read(), now.text, "run scripts/pictures")
                png = Image.open(os.path.join(folder, name + ".png"))
                self.assertEqual(png.size, now.image.size)


class BadInput(unittest.TestCase):
    def refused(self, request, *options):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "in.json")
            with open(path, "w") as f:
                f.write(request if isinstance(request, str) else json.dumps(request))
            return subprocess.run([F2LAY, "show", "--svg", path, *options], capture_output=True,
                                  text=True)

    def test_errors_name_the_problem_and_exit_2(self):
        cases = [
            ({"op": "tensor_memory", "block": [128, 128], "col_stride": 1, "shape": [128, 128]}, (),
             "in dims are row, col"),
            ({"op": "blocked", "size_per_thread": [1, 1], "threads_per_warp": [4, 8],
              "warps_per_cta": [4, 1], "order": [1, 0], "shape": [512, 256]}, (), "at most 65536"),
            ({"op": "bank_conflicts", "layout": SEED_B, "shared": oracle(swizzled(1)),
              "element_bytes": 4, "access": "load"}, ("--instruction", "16"), "has 16 instructions"),
            ({"op": "vectorization", "layout": SEED_A, "shared": oracle(swizzled(1))}, (),
             "does not answer with a layout"),
            ({"in_dims": 3}, (), "layout: missing key \"out_dims\""),
            ("{\"op\": \"blocked\"", (), "JSON"),
        ]
        for request, options, message in cases:
            with self.subTest(message=message):
                r = self.refused(request, *options)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertEqual(r.stdout, "")


if __name__ == "__main__":
    unittest.main()
