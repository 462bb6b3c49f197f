#!/usr/bin/env python3
"""Runs the audit corpus's kernels (audit/corpus) on an NVIDIA H100 and has ncu measure
their shared-memory traffic.

usage: audit_kernels.py build OUT [--only NAME...]   here, with .venv's Triton 3.9.0 (no GPU)
       audit_kernels.py run DIR [--only NAME...] [--dry-run]
                                                     on the GPU: numpy and cupy, no Triton
       audit_kernels.py report DIR NCU.csv           join a run with ncu's measurement of it
       audit_kernels.py sources DIR NCU_SOURCE.csv   the same, per SASS instruction

build compiles every corpus entry whose target is CUDA sm_80, sm_89 or sm_90 with
audit/corpus/compile.py's own functions (same specialization, environment and options, so
the TTGIR is the corpus's: each entry's "ttgir_as_corpus" says it was), and writes
OUT/<entry>.cubin for sm_90 (sm_90a SASS), OUT/<entry>.ptx for sm_80 and sm_89 (their cubins
cannot run on sm_90; the driver JIT-compiles the PTX for the H100, mma.sync and cp.async
included) and OUT/manifest.json: per entry the function, num_warps, shared bytes, the scratch
sizes, the grid and every runtime argument (pointer or scalar, numpy dtype), in launch order;
under "skipped", the entries an H100 cannot run (sm_100, AMD) and why. It compiles with
USE_IR_LOC=ttgir, so a cubin's line table names lines of the entry's TTGIR (the code is the
same); each sm_90 entry's "sass_lines" lists [SASS byte offset, TTGIR line] where the line
changes (nvdisasm -g), which maps ncu's per-instruction counts to TTGIR ops.

run launches each entry of DIR/manifest.json once, in order: inputs from the kernel file's
make_inputs(cfg, numpy.random.default_rng(seed 0)), grid(cfg), blocks of 32 * num_warps
threads, the runtime arguments then Triton's two scratch pointers (global scratch: a buffer
of global_scratch_size bytes a program, what triton.set_allocator would give, where the TMA
kernels build their descriptors; profile scratch the same; each null when its size is 0),
dynamic shared memory = the metadata's "shared". It compares the outputs with
reference(cfg, inputs) (_common.compare_outputs) and writes DIR/launched.json, one record
per entry in order: {name, launched, ok, error?}; launched is false when the entry failed
before its launch (then ncu has no row for it). The kernel files' `import triton` gets a
stand-in (the decorator only): no Triton is imported. --dry-run prepares every launch
(inputs, reference, arguments) without a GPU and writes nothing.

report joins DIR/launched.json with ncu's `--csv --page raw` output of that run (one row per
launch, in launch order; rows of kernels not in the manifest are ignored) and writes
DIR/measured.json, per entry the counts below (null where ncu gave none), and a Markdown
table on stdout. The first six metrics are compare_banks.py's, checked on the H100
(device_tests/HARDWARE.md); the last two count cp.async (LDGSTS): its warp instructions, and
the shared-memory wavefronts of its writes. wgmma's operand reads and TMA's writes are not
LSU instructions, so these counts should not include that traffic (not checked).

Commands. OUT under build/, which git ignores, so `run` must carry it to the GPU machine:

    .venv/bin/python device_tests/audit_kernels.py build build/audit-kernels
    # on the GPU machine, from the repository root (ncu may be /opt/nvidia/nsight-compute/*/ncu):
    python3 device_tests/audit_kernels.py run build/audit-kernels
    ncu --csv --page raw --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,sm__sass_inst_executed_op_ldsm.sum,sm__sass_inst_executed_op_shared_stsm.sum,smsp__inst_executed_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum python3 device_tests/audit_kernels.py run build/audit-kernels > build/audit-kernels/ncu.csv
    python3 device_tests/audit_kernels.py report build/audit-kernels build/audit-kernels/ncu.csv

sources joins DIR/launched.json with ncu's SourceCounters page of another run (per SASS
instruction; `ncu --section SourceCounters --page source --csv --print-source sass python3
device_tests/audit_kernels.py run DIR`, one table per launch, in launch order) and writes
DIR/sources.json: per entry each instruction that moved shared-memory wavefronts ("L1
Wavefronts Shared"; with its byte offset in the kernel) and their sums by class: load (LDS, LDSM), store (STS, STSM), cp_async
(LDGSTS), mma_operands (wgmma reading shared memory), other. Unlike the raw
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st counter, which on the H100 counts a few
to a few hundred wavefronts more than the instructions move in some kernels, differently
from run to run (device_tests/RESULTS.md, "Counting by instruction"), these sums repeat
exactly.

Should this ncu not know a metric (it then profiles nothing), leave that one out: report
gives null for a metric the CSV lacks.

Exit status: build 0, or 1 when an entry failed to compile; run 0, or 1 when an output is
wrong or a launch failed; report 0; any of them 2 on bad arguments or
unreadable input.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

from compare_banks import INSTRUCTIONS, WAVEFRONTS, number, read_ncu

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "audit" / "corpus"
SEED = 0  # compile.py specializes on make_inputs(cfg, seed 0): run launches those same inputs
# What each CUDA target an H100 (sm_90) can run is built to: sm_90 code is sm_90a SASS; an
# sm_80/sm_89 cubin does not load on sm_90, their PTX does (the driver compiles it).
BINARY = {80: "ptx", 89: "ptx", 90: "cubin"}
H100_SHARED_OPTIN = 227 * 1024  # the most dynamic shared memory a block may opt in to
# measured.json's fields: (field, ncu metric, column title of the table).
MEASURES = [
    ("shared_load_wavefronts", WAVEFRONTS["load"], "ld wavefronts"),
    ("shared_store_wavefronts", WAVEFRONTS["store"], "st wavefronts"),
    ("ld_shared_instructions", INSTRUCTIONS[("load", "vector")], "ld.shared"),
    ("st_shared_instructions", INSTRUCTIONS[("store", "vector")], "st.shared"),
    ("ldmatrix_instructions", INSTRUCTIONS[("load", "matrix")], "ldmatrix"),
    ("stmatrix_instructions", INSTRUCTIONS[("store", "matrix")], "stmatrix"),
    ("cp_async_instructions", "smsp__inst_executed_op_ldgsts.sum", "cp.async"),
    ("cp_async_shared_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
     "cp.async wavefronts"),
]
METRICS = ",".join(metric for _, metric, _ in MEASURES)


def import_corpus():
    """audit/corpus/compile.py: the loader, the selection and the compile (it imports only the
    standard library at the top, so `run` can use its loader without Triton)."""
    if str(CORPUS) not in sys.path:
        sys.path.insert(0, str(CORPUS))
    import compile as corpus
    return corpus


def first_line(error):
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[-1][:300] if text else ''}"


# ---- build (here, with Triton 3.9.0) ----------------------------------------------------

def not_on_h100(cfg):
    """Why an H100 cannot run this config's target, or None."""
    t = cfg["target"]
    if t["backend"] != "cuda":
        return f"AMD target {t['arch']}: not an NVIDIA GPU"
    if t["arch"] not in BINARY:
        return f"sm_{t['arch']} code runs on sm_{t['arch']} GPUs and later; an H100 is sm_90"
    return None


def ptx_parameters(ptx, name):
    """The bit widths of the kernel's .param list in its PTX."""
    params = re.search(r"\.entry\s+%s\s*\((.*?)\)" % re.escape(name), ptx, re.S)
    return [int(bits) for bits in re.findall(r"\.param\s+\.[a-z]+(\d+)", params.group(1))]


def launch_problem(meta, arguments, ptx):
    """Why run could not launch this kernel as Triton's launcher would, or None."""
    if meta["num_ctas"] != 1 or meta["launch_cooperative_grid"] or meta["launch_pdl"]:
        return "needs launch attributes (cluster, cooperative or PDL) that run does not set"
    if meta["shared"] > H100_SHARED_OPTIN:
        return f"{meta['shared']} bytes of shared memory: more than an H100 block may have"
    for a in arguments:
        if a["kind"] == "scalar" and a["type"] in ("bf16", "fp8e4nv", "fp8e5", "fp8e4b15"):
            return f"scalar {a['name']} of type {a['type']}: no numpy scalar passes it"
    # The kernel's parameters are the runtime arguments, then the global and profile scratch
    # pointers; a difference means Triton's launcher does something run does not.
    widths = [64 if a["kind"] == "pointer" else 8 * a["itemsize"] for a in arguments] + [64, 64]
    if ptx_parameters(ptx, meta["name"]) != widths:
        return "the PTX parameters are not the runtime arguments and two scratch pointers"
    return None


def runtime_arguments(described):
    """compile.describe_arguments's list, constexprs left out: what run passes, in order."""
    from _common import numpy_dtype
    out = []
    for a in described:
        if a["role"] == "constexpr":
            continue
        pointer = a["type"].startswith("*")
        arg = {"name": a["name"], "type": a["type"], "kind": "pointer" if pointer else "scalar",
               "dtype": str(numpy_dtype(a["type"])), "itemsize": numpy_dtype(a["type"]).itemsize}
        if pointer:
            arg.update(role=a["role"], shape=a["shape"])
        out.append(arg)
    return out


def build(out, only):
    corpus = import_corpus()
    os.chdir(corpus.REPO)  # as compile.py: the TTGIR locations are repository-relative
    corpus.clean_environment()  # before triton is imported
    # The cubins' line tables name TTGIR lines, not Python ones (the code is the same):
    # each SASS instruction maps to the TTGIR op it came from (sass_lines below).
    os.environ["USE_IR_LOC"] = "ttgir"

    def error(message):
        print(f"audit_kernels.py build: error: {message}", file=sys.stderr)
        sys.exit(2)

    entries = corpus.select(corpus.corpus_entries(), only, error)
    out.mkdir(parents=True, exist_ok=True)
    built, skipped, failed = [], [], []
    started = time.monotonic()
    for name, module, cfg in entries:
        why = not_on_h100(cfg)
        if why:
            skipped.append({"name": name, "reason": why})
            continue
        t0 = time.monotonic()
        try:
            fn = corpus.kernel_function(module, cfg)
            described, attrs = corpus.describe_arguments(module, cfg, fn)
            kernel = corpus.compile_kernel(cfg, fn, attrs)
            meta = kernel.metadata._asdict()
            arguments = runtime_arguments(described)
            why = launch_problem(meta, arguments, kernel.asm["ptx"])
            ttgir = (corpus.TTGIR_DIR / f"{name}.ttgir")
            as_corpus = ttgir.exists() and corpus.relocate(kernel.asm["ttgir"]) == ttgir.read_text()
        except Exception as e:  # noqa: BLE001 - report it and go on with the others
            failed.append(f"{name}: {first_line(e)}")
            print(f"FAIL {failed[-1]}", file=sys.stderr)
            continue
        if why:
            skipped.append({"name": name, "reason": why})
            continue
        kind = BINARY[cfg["target"]["arch"]]
        binary = f"{name}.{kind}"
        lines = []
        if kind == "cubin":
            (out / binary).write_bytes(kernel.asm["cubin"])
            lines = sass_lines(out / binary)
        else:
            (out / binary).write_text(kernel.asm["ptx"])
        if not as_corpus:
            print(f"note: {name}: TTGIR differs from audit/corpus/ttgir (rerun compile.py?)",
                  file=sys.stderr)
        built.append({
            "name": name, "kernel": Path(module.__file__).stem, "config": cfg["name"],
            "function": meta["name"], "target": f"sm_{cfg['target']['arch']}",
            "binary": binary, "num_warps": meta["num_warps"],
            "threads_per_warp": cfg["target"]["warp_size"], "shared": meta["shared"],
            "global_scratch_size": meta["global_scratch_size"],
            "global_scratch_align": meta["global_scratch_align"],
            "profile_scratch_size": meta["profile_scratch_size"],
            "profile_scratch_align": meta["profile_scratch_align"],
            "grid": list(module.grid(cfg)), "arguments": arguments, "outputs": cfg["outputs"],
            "ttgir_as_corpus": as_corpus, "sass_lines": lines,
        })
        print(f"{time.monotonic() - t0:6.2f}s  {name}  ({binary}, shared {meta['shared']})")
    import triton
    manifest = {"generated_by": "device_tests/audit_kernels.py build",
                "triton_version": triton.__version__, "seed": SEED,
                "entries": built, "skipped": skipped}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{len(built)} built, {len(skipped)} skipped, {len(failed)} failed, "
          f"in {time.monotonic() - started:.1f}s: {out / 'manifest.json'}")
    for f in failed:
        print(f"  failed: {f}")
    return 1 if failed else 0


def sass_lines(cubin):
    """[[SASS byte offset, TTGIR line], ...] from the cubin's line table (nvdisasm -g, as
    Triton ships it): each line holds from its offset up to the next one."""
    import triton
    nvdisasm = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "nvdisasm"
    text = subprocess.run([str(nvdisasm), "-g", "-c", str(cubin)], capture_output=True,
                          text=True, check=True).stdout
    out, pending = [], None
    for row in text.splitlines():
        marker = re.search(r'//## File ".*\.ttgir", line (\d+)', row)
        at = re.match(r"\s*/\*([0-9a-f]+)\*/", row)
        if marker:
            pending = int(marker.group(1))
        elif at and pending is not None:
            if not out or out[-1][1] != pending:
                out.append([int(at.group(1), 16), pending])
            pending = None
    return out


# ---- run (on the GPU machine: numpy and cupy, no Triton) -------------------------------

def stand_in_triton():
    """The kernel files import triton for @triton.jit and tl.constexpr annotations only. run
    needs their make_inputs, grid and reference, not the kernels (those are the binaries),
    and the GPU machine has no Triton 3.9: a stand-in whose decorator does nothing."""
    triton = types.ModuleType("triton")
    language = types.ModuleType("triton.language")
    language.__getattr__ = lambda name: object  # tl.constexpr and the like, in annotations
    triton.language = language
    triton.jit = lambda fn=None, **options: fn if fn is not None else (lambda f: f)
    sys.modules["triton"], sys.modules["triton.language"] = triton, language


def launch_arguments(entry, inputs, xp):
    """The runtime arguments as the kernel takes them (arrays on the device, scalars as numpy
    scalars of the signature's type), and the device arrays by name."""
    import numpy
    if len(inputs) != len(entry["arguments"]):
        raise ValueError(f"make_inputs gave {len(inputs)} values for "
                         f"{len(entry['arguments'])} runtime arguments")
    args, device = [], {}
    for spec, value in zip(entry["arguments"], inputs):
        dtype = numpy.dtype(spec["dtype"])
        if spec["kind"] == "pointer":
            if value.dtype != dtype or list(value.shape) != spec["shape"]:
                raise ValueError(f"{spec['name']}: make_inputs gives {value.dtype} "
                                 f"{list(value.shape)}, the build had {dtype} {spec['shape']}")
            device[spec["name"]] = xp.asarray(numpy.ascontiguousarray(value))
            args.append(device[spec["name"]])
        else:
            args.append(dtype.type(value))
    return args, device


def scratch(size, align, programs, xp):
    """A scratch pointer as Triton's launcher passes it: size bytes a program from the
    allocator (triton.set_allocator's, for global scratch), or null when size is 0."""
    import numpy
    if size == 0:
        return numpy.uint64(0)
    buffer = xp.empty(size * programs, dtype=xp.uint8)
    # cupy's pool hands out 512-byte aligned blocks; a host array (--dry-run) need not be.
    if hasattr(buffer.data, "ptr") and buffer.data.ptr % align:
        raise ValueError(f"scratch at {buffer.data.ptr:#x} is not {align}-byte aligned")
    return buffer


def launch(entry, module, seed, folder, cupy, compare_outputs):
    """Launch one entry once (with cupy None, only prepare it): its launched.json record."""
    import numpy
    record = {"name": entry["name"], "launched": False, "ok": False}
    try:
        cfg = next(c for c in module.CONFIGS if c["name"] == entry["config"])
        inputs = module.make_inputs(cfg, numpy.random.default_rng(seed))
        expected = module.reference(cfg, inputs)  # before the launch, as interpret.py
        grid = tuple(module.grid(cfg))
        grid += (1,) * (3 - len(grid))
        if list(grid) != entry["grid"]:
            raise ValueError(f"grid {grid}, the build had {entry['grid']}")
        programs = grid[0] * grid[1] * grid[2]
        xp = cupy or numpy
        args, device = launch_arguments(entry, inputs, xp)
        args.append(scratch(entry["global_scratch_size"], entry["global_scratch_align"],
                            programs, xp))
        args.append(scratch(entry["profile_scratch_size"], entry["profile_scratch_align"],
                            programs, xp))
        if cupy is None:
            record["ok"] = True
            return record
        function = cupy.RawModule(path=str(folder / entry["binary"])).get_function(
            entry["function"])
        if entry["shared"] > 48 * 1024:  # past 48 KiB a kernel must opt in
            function.max_dynamic_shared_size_bytes = entry["shared"]
        function(grid, (entry["threads_per_warp"] * entry["num_warps"], 1, 1), tuple(args),
                 shared_mem=entry["shared"])
        record["launched"] = True
        cupy.cuda.Device().synchronize()
        outputs = dict(zip([a["name"] for a in entry["arguments"]], inputs))
        outputs.update({name: device[name].get() for name in cfg["outputs"]})
        with numpy.errstate(all="ignore"):  # NaN/inf in masked lanes, as interpret.py
            problems = compare_outputs(cfg, outputs, expected)
        record["ok"] = not problems
        if problems:
            record["error"] = "; ".join(problems)
    except Exception as e:  # noqa: BLE001 - record it; the caller goes on with the others
        record["error"] = first_line(e)
    return record


def run(folder, only, dry_run):
    folder = Path(folder).resolve()
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError) as e:
        print(f"audit_kernels.py run: {folder / 'manifest.json'}: {e}", file=sys.stderr)
        return 2
    entries = [e for e in manifest["entries"]
               if not only or e["name"] in only or e["kernel"] in only]
    unknown = set(only or ()) - {e["name"] for e in entries} - {e["kernel"] for e in entries}
    if unknown:
        print(f"audit_kernels.py run: not in the manifest: {' '.join(sorted(unknown))}",
              file=sys.stderr)
        return 2
    cupy = None
    if not dry_run:
        import cupy
    stand_in_triton()
    corpus = import_corpus()
    os.chdir(corpus.REPO)  # the kernel files are loaded by their repository-relative path
    sys.path.insert(0, corpus.KERNELS_REL)  # as load_kernel_module does, for _common
    from _common import compare_outputs
    modules, launched = {}, []
    for entry in entries:
        kernel = entry["kernel"]
        try:
            if kernel not in modules:
                modules[kernel] = corpus.load_kernel_module(
                    corpus.REPO / corpus.KERNELS_REL / f"{kernel}.py")
        except Exception as e:  # noqa: BLE001 - every entry of that file fails, unlaunched
            modules[kernel] = e
        if isinstance(modules[kernel], Exception):
            record = {"name": entry["name"], "launched": False, "ok": False,
                      "error": first_line(modules[kernel])}
        else:
            record = launch(entry, modules[kernel], manifest["seed"], folder, cupy,
                            compare_outputs)
        launched.append(record)
        if not record["ok"] or not dry_run:
            # No line may start with '"': ncu's CSV shares this stdout (read_ncu keeps those).
            print(("ok   " if record["ok"] else "FAIL ") + entry["name"]
                  + (f": {record['error']}" if "error" in record else ""))
    failed = sum(1 for r in launched if not r["ok"])
    if dry_run:
        print(f"dry run: {len(launched) - failed} of {len(launched)} launches prepared")
        return 1 if failed else 0
    (folder / "launched.json").write_text(json.dumps(launched, indent=1) + "\n")
    not_launched = sum(1 for r in launched if not r["launched"])
    print(f"{len(launched)} entries: {len(launched) - failed} right, "
          f"{failed - not_launched} wrong or failed after the launch, {not_launched} not "
          f"launched ({len(manifest['skipped'])} skipped by the build)")
    return 1 if failed else 0


# ---- report ----------------------------------------------------------------------------

def kernel_name(text):
    """ncu's Kernel Name, demangled ("void f(int *)" for C++): the bare function name."""
    return text.split("(")[0].split()[-1] if text.strip() else ""


def measure(row, metric):
    try:
        return number(row[metric])
    except (KeyError, ValueError):  # a metric not collected, or "n/a"
        return None


def report(folder, ncu_path):
    folder = Path(folder)
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
        launched = json.loads((folder / "launched.json").read_text())
        rows = read_ncu(ncu_path)
        entries = {e["name"]: e for e in manifest["entries"]}
        if any(r["name"] not in entries or "launched" not in r for r in launched):
            raise ValueError("launched.json is not of this manifest's run")
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"audit_kernels.py report: {e}", file=sys.stderr)
        return 2
    # Without ncu's Kernel Name column, every row is taken for a launch of the corpus's.
    named = not rows or "Kernel Name" in rows[0]
    functions = {e["function"] for e in entries.values()}
    rows = [r for r in rows if not named or kernel_name(r["Kernel Name"]) in functions]
    # Row n is launch n; a launch ncu did not measure (a kernel that faulted) has no row.
    measured, i = [], 0
    for record in launched:
        entry = entries[record["name"]]
        item = {"name": record["name"], "function": entry["function"], "target": entry["target"],
                "num_warps": entry["num_warps"], "launched": record["launched"],
                "ok": record["ok"], "measured": False}
        item.update({field: None for field, _, _ in MEASURES})
        if record["launched"] and i < len(rows) and \
                (not named or kernel_name(rows[i]["Kernel Name"]) == entry["function"]):
            item["measured"] = True
            item.update({field: measure(rows[i], metric) for field, metric, _ in MEASURES})
            i += 1
        elif record["launched"]:
            print(f"note: {record['name']}: launched, but ncu has no row for it", file=sys.stderr)
        measured.append(item)
    if i != len(rows):
        print(f"audit_kernels.py report: {len(rows) - i} ncu row(s) of the corpus's kernels "
              f"match no launch: the CSV is not of this run", file=sys.stderr)
        return 2
    (folder / "measured.json").write_text(json.dumps(measured, indent=1) + "\n")
    print("| kernel | warps | output | " + " | ".join(t for _, _, t in MEASURES) + " |")
    print("|---|---:|---|" + "---:|" * len(MEASURES))
    for m in measured:
        state = "right" if m["ok"] else ("wrong" if m["launched"] else "not launched")
        cells = ["" if m[f] is None else str(m[f]) for f, _, _ in MEASURES]
        print(f"| {m['name']} | {m['num_warps']} | {state} | " + " | ".join(cells) + " |")
    return 0


# ---- sources ---------------------------------------------------------------------------

# What issues a SASS instruction's shared-memory wavefronts: the classes ncu's SourceCounters
# lets apart, by the instruction's opcode (its first upper-case word, after any predicate).
SOURCE_CLASSES = [
    ("cp_async", ("LDGSTS",)),                         # cp.async's writes
    ("mma_operands", ("HGMMA", "QGMMA", "IGMMA", "BGMMA")),  # wgmma reading its operands
    ("load", ("LDSM", "LDS")),                         # ldmatrix, ld.shared
    ("store", ("STSM", "STS")),                        # stmatrix, st.shared
]


def source_class(opcode):
    for name, prefixes in SOURCE_CLASSES:
        if opcode.startswith(prefixes):
            return name
    return "other"


def read_source_tables(path):
    """ncu --page source --csv: one table per profiled kernel, each after its "Kernel Name"
    line, in launch order; each row a SASS instruction with its counters."""
    tables = []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith('"Kernel Name"'):
                tables.append({"kernel": next(csv.reader([line]))[1], "lines": []})
            elif tables and line.startswith('"'):
                tables[-1]["lines"].append(line)
    for t in tables:
        rows = list(csv.reader(t.pop("lines")))
        t["rows"] = [dict(zip(rows[0], r)) for r in rows[1:]] if rows else []
    return tables


def sources(folder, ncu_path):
    """Join DIR/launched.json with ncu's SourceCounters page of that run: per entry, each SASS
    instruction that moved shared-memory wavefronts, and their sums by class."""
    folder = Path(folder)
    try:
        launched = json.loads((folder / "launched.json").read_text())
        tables = read_source_tables(ncu_path)
    except (OSError, ValueError) as e:
        print(f"audit_kernels.py sources: {e}", file=sys.stderr)
        return 2
    runs = [r for r in launched if r["launched"]]
    if len(tables) != len(runs):
        print(f"audit_kernels.py sources: {len(tables)} kernels profiled, {len(runs)} launched: "
              f"the CSV is not of this run", file=sys.stderr)
        return 2
    out = []
    for record, table in zip(runs, tables):
        item = {"name": record["name"], "kernel": table["kernel"], "instructions": [],
                **{name: 0 for name, _ in SOURCE_CLASSES}, "other": 0}
        first = None
        for row in table["rows"]:
            address = int(row["Address"], 16) if row.get("Address", "").startswith("0x") else None
            first = address if first is None else first
            wavefronts = number(row.get("L1 Wavefronts Shared", "") or "0")
            if not wavefronts:
                continue
            words = [w for w in row["Source"].split() if w[:1].isupper()]
            opcode = words[0] if words else "?"
            item[source_class(opcode)] += wavefronts
            item["instructions"].append({
                "offset": None if address is None else address - first,
                "sass": row["Source"].strip(),
                "executed": number(row.get("Instructions Executed", "") or "0"),
                "wavefronts": wavefronts,
                "ideal": number(row.get("L1 Wavefronts Shared Ideal", "") or "0")})
        out.append(item)
    (folder / "sources.json").write_text(json.dumps(out, indent=1) + "\n")
    print("| kernel | ld | st | cp.async | wgmma operands | other |")
    print("|---|---:|---:|---:|---:|---:|")
    for m in out:
        print(f"| {m['name']} | {m['load']} | {m['store']} | {m['cp_async']} | "
              f"{m['mma_operands']} | {m['other']} |")
    return 0


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile the runnable entries into OUT (here)")
    b.add_argument("out", type=Path)
    b.add_argument("--only", nargs="+", metavar="NAME", help="kernels (file stems) or entries")
    r = sub.add_parser("run", help="launch each entry once (on the GPU)")
    r.add_argument("dir")
    r.add_argument("--only", nargs="+", metavar="NAME", help="kernels (file stems) or entries")
    r.add_argument("--dry-run", action="store_true", help="prepare the launches; no GPU")
    rep = sub.add_parser("report", help="join launched.json with ncu's CSV")
    rep.add_argument("dir")
    rep.add_argument("ncu_csv")
    src = sub.add_parser("sources", help="join launched.json with ncu's SourceCounters page")
    src.add_argument("dir")
    src.add_argument("ncu_csv")
    args = p.parse_args(argv)
    if args.command == "build":
        return build(args.out.resolve(), args.only)
    if args.command == "run":
        return run(args.dir, args.only, args.dry_run)
    if args.command == "report":
        return report(args.dir, args.ncu_csv)
    return sources(args.dir, args.ncu_csv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
