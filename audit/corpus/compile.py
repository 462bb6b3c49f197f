#!/usr/bin/env python3
"""Compile the audit corpus: every kernel file's CONFIGS, with Triton, to TTGIR.

    .venv/bin/python audit/corpus/compile.py                 # all; writes ttgir/ and manifest.json
    .venv/bin/python audit/corpus/compile.py --only NAME...  # a kernel (file stem) or an entry
    .venv/bin/python audit/corpus/compile.py --check         # recompile, compare, write nothing
    .venv/bin/python audit/corpus/compile.py --cubin DIR     # also each cubin/hsaco + metadata

Writes audit/corpus/ttgir/<kernel>-<config>.ttgir (the text of .asm["ttgir"]) and
audit/corpus/manifest.json. Exit status: 0 done (or --check found no difference), 1 a
kernel failed or --check found a difference, 2 bad arguments.

Reproducibility:
- Locations. Kernel files are imported by their repository-relative path with the working
  directory at the repository root, so Triton's loc("...") entries name them as
  "audit/corpus/kernels/x.py". Functions inlined from Triton itself (tl.max, tl.argmax,
  tl.softmax...) would name the installed package absolutely; that prefix is rewritten to
  "triton/..." (e.g. "triton/language/standard.py"). Any absolute path left is an error.
- Specialization. A real launch specializes on the arguments (tt.divisibility = 16 on
  16-aligned pointers and on integers divisible by 16), and that changes the layouts the
  compiler picks; we give the same attributes, computed from make_inputs(cfg, seed 0).
- Environment. A fresh cache directory each run (so everything is compiled, not loaded),
  and every TRITON_* variable of the caller is dropped, since several change compilation.

If a full compile fails after the TTGIR stage (say, no ROCm linker on the machine), the
backend's stages are run up to and including "ttgir" alone (compile_ttgir_only) and the
entry is recorded with "compiled_to": "ttgir" and "shared": null.
"""

import argparse
import atexit
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
REPO = CORPUS.parent.parent
# The repository as reached, perhaps through a symlink (then unlike REPO, which is resolved).
REPO_AS_GIVEN = Path(os.path.abspath(__file__)).parent.parent.parent
KERNELS_REL = "audit/corpus/kernels"
TTGIR_DIR = CORPUS / "ttgir"
MANIFEST = CORPUS / "manifest.json"


def clean_environment():
    """Drop the caller's TRITON_* settings and compile into a throwaway cache.
    Must run before triton is imported: some settings are read at import."""
    dropped = sorted(k for k in os.environ if k.startswith("TRITON_"))
    for k in dropped:
        del os.environ[k]
    cache = tempfile.mkdtemp(prefix="f2lay-corpus-cache-")
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    os.environ["TRITON_CACHE_DIR"] = cache
    os.environ["TRITON_DEFAULT_FP_FUSION"] = "1"  # the default; set to silence a warning
    return dropped


# ---- loading the kernel files ---------------------------------------------------------

def kernel_files():
    return sorted(p for p in (REPO / KERNELS_REL).glob("*.py") if not p.name.startswith("_"))


def load_kernel_module(path):
    """Import a kernel file by its repository-relative path (cwd is the repository root),
    so that the code objects, and hence the TTGIR locations, carry that relative path."""
    rel = path.relative_to(REPO).as_posix()
    if KERNELS_REL not in sys.path:
        sys.path.insert(0, KERNELS_REL)  # for `from _common import ...`
    spec = importlib.util.spec_from_file_location(f"corpus_{path.stem}", rel)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def corpus_entries():
    """(entry name, module, config) for every config of every kernel file, in name order."""
    entries = []
    for path in kernel_files():
        module = load_kernel_module(path)
        for cfg in module.CONFIGS:
            entries.append((f"{path.stem}-{cfg['name']}", module, cfg))
    names = [e[0] for e in entries]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise SystemExit(f"compile.py: duplicate entry names: {duplicates}")
    return sorted(entries, key=lambda e: e[0])


# ---- describing the arguments ---------------------------------------------------------

def kernel_function(module, cfg):
    return getattr(module, cfg["function"]) if cfg["function"] else module.KERNEL


def describe_arguments(module, cfg, fn):
    """The manifest's argument list, checked against make_inputs and reference, and the
    specialization attributes a launch with those inputs would get."""
    import numpy as np
    from _common import numpy_dtype

    sig = cfg["signature"]
    if list(sig) != list(fn.arg_names):
        raise ValueError(f"signature keys {list(sig)} differ from the parameters {fn.arg_names}")
    runtime = [n for n in sig if sig[n] != "constexpr"]
    inputs = module.make_inputs(cfg, np.random.default_rng(0))
    if len(inputs) != len(runtime):
        raise ValueError(f"make_inputs gave {len(inputs)} values for {len(runtime)} runtime arguments")
    values = dict(zip(runtime, inputs))
    expected = module.reference(cfg, inputs)
    if sorted(expected) != sorted(cfg["outputs"]):
        raise ValueError(f"reference gives {sorted(expected)}, outputs are {cfg['outputs']}")

    args, attrs = [], {}
    for index, (name, ty) in enumerate(sig.items()):
        arg = {"name": name, "type": ty}
        if ty == "constexpr":
            arg.update(role="constexpr", value=cfg["constexprs"][name])
        elif ty.startswith("*"):
            v = values[name]
            if not isinstance(v, np.ndarray) or v.dtype != numpy_dtype(ty):
                raise ValueError(f"{name}: make_inputs must give a numpy {numpy_dtype(ty)} array")
            role = "output" if name in cfg["outputs"] else "input"
            if role == "output" and expected[name].shape != v.shape:
                raise ValueError(f"{name}: reference shape {expected[name].shape} != {v.shape}")
            arg.update(role=role, shape=list(v.shape), dtype=str(v.dtype))
            attrs[(index,)] = [["tt.divisibility", 16]]  # device allocations are aligned
        else:
            v = values[name]
            arg.update(role="scalar", value=v.item() if hasattr(v, "item") else v)
            if ty[0] in "iu":
                if int(v) == 1:
                    # The JIT would turn it into a constant; the corpus must not rely on that.
                    raise ValueError(f"{name}: a runtime integer equal to 1; make it a constexpr")
                if int(v) % 16 == 0:
                    attrs[(index,)] = [["tt.divisibility", 16]]
        if (index,) in attrs:
            arg["divisibility"] = 16
        args.append(arg)
    return args, attrs


# ---- compiling ------------------------------------------------------------------------

def compile_ttgir_only(src, target, options):
    """Run the backend's stages up to and including "ttgir" and stop, as
    triton.compiler.compile does but without its later stages (the LLVM, PTX/AMDGCN and
    linker steps). The fallback when a full compile fails after the TTGIR stage."""
    from triton._C.libtriton import ir
    from triton.compiler.compiler import make_backend

    backend = make_backend(target)
    opts = backend.parse_options(dict(options))
    stages = {}
    backend.add_stages(stages, opts, src.language)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    module = src.make_ir(target, opts, backend.get_codegen_implementation(opts),
                         backend.get_module_map(), context)
    metadata = {"target": target, **opts.__dict__}
    for ext, stage in stages.items():
        module = stage(module, metadata)
        if ext == "ttgir":
            return str(module)
    raise RuntimeError("the backend has no ttgir stage")


def kernel_source(cfg, fn, attrs):
    """What triton.compile takes for one config: (the ASTSource, the GPUTarget)."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    t = cfg["target"]
    target = GPUTarget(t["backend"], t["arch"], t["warp_size"])
    source = ASTSource(fn=fn, signature=cfg["signature"], constexprs=cfg["constexprs"], attrs=attrs)
    return source, target


def compile_kernel(cfg, fn, attrs):
    """The full compile of one config (triton's CompiledKernel: .asm, .metadata), as every
    entry is compiled; device_tests/audit_kernels.py builds its binaries with it too."""
    import triton
    source, target = kernel_source(cfg, fn, attrs)
    return triton.compile(source, target=target, options=dict(cfg["options"]))


def compile_entry(module, cfg, fn, attrs):
    """Compile one config; returns (ttgir text, metadata dict or None, binary or None,
    how far it got: "cubin"/"hsaco"/"ttgir", and why it stopped at "ttgir" or None)."""
    t = cfg["target"]
    try:
        kernel = compile_kernel(cfg, fn, attrs)
    except Exception as full_error:  # noqa: BLE001 - any backend failure: try TTGIR alone
        try:
            text = compile_ttgir_only(*kernel_source(cfg, fn, attrs), cfg["options"])
        except Exception:
            raise full_error
        why = f"{type(full_error).__name__}: {str(full_error).strip().splitlines()[-1][:200]}"
        return text, None, None, "ttgir", why
    binary_kind = "cubin" if t["backend"] == "cuda" else "hsaco"
    meta = kernel.metadata._asdict()
    return kernel.asm["ttgir"], meta, kernel.asm[binary_kind], binary_kind, None


def relocate(text):
    """Make the loc("...") paths independent of where the repository and Triton live."""
    import triton
    package = Path(triton.__file__).parent
    for prefix in {package, package.resolve()}:  # as imported, and without symlinks
        text = text.replace(f'"{prefix}/', '"triton/')
    for prefix in {REPO, REPO_AS_GIVEN}:
        text = text.replace(f'"{prefix}/', '"')
    absolute = sorted(set(re.findall(r'loc\("(/[^"]*)"', text)))
    if absolute:
        raise ValueError(f"absolute paths left in the TTGIR locations: {absolute}")
    return text


# ---- what the TTGIR holds -------------------------------------------------------------

# Ops of Triton's own GPU dialects (ttg, ttng, amdg) are counted, except those that only
# synchronize; of the core dialect, those that move data or change a tensor's layout.
TT_DATA_OPS = {"tt.load", "tt.store", "tt.trans", "tt.reshape", "tt.join", "tt.split",
               "tt.cat", "tt.gather", "tt.histogram", "tt.reduce", "tt.scan", "tt.dot",
               "tt.dot_scaled", "tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_gather",
               "tt.descriptor_scatter"}
SYNC_ONLY = re.compile(r"barrier|fence|wait|commit_group")
OP_NAME = re.compile(r'(?:= |^\s+)"?((?:ttg|ttng|amdg|tt)\.[a-z_0-9]+)"?[ (<%:]', re.M)
MEMORY_SPACES = {"ttg.shared_memory", "ttng.tensor_memory"}


def data_op_counts(text):
    """How many times each data-moving or layout-changing op appears, by name."""
    counts = {}
    for op in OP_NAME.findall(text):
        if op.startswith("tt.") and op not in TT_DATA_OPS:
            continue
        if SYNC_ONLY.search(op):
            continue
        counts[op] = counts.get(op, 0) + 1
    return dict(sorted(counts.items()))


def layout_kinds(text):
    """The distinct layout attribute kinds (#dialect.name<...>) in the TTGIR; the memory
    spaces (#ttg.shared_memory, #ttng.tensor_memory) are not layouts."""
    return sorted(set(re.findall(r"#((?:ttg|ttng|amdg)\.\w+)\b", text)) - MEMORY_SPACES)


def missing_expectations(cfg, text):
    missing = []
    for item in cfg["expect"]:
        alternatives = item if isinstance(item, (list, tuple)) else (item,)
        if not any(a in text for a in alternatives):
            missing.append(" or ".join(alternatives))
    return missing


# ---- the manifest ---------------------------------------------------------------------

def manifest_entry(name, module, cfg, fn, args, meta, how_far, text):
    t = cfg["target"]
    entry = {
        "name": name,
        "kernel": Path(module.__file__).stem,
        "config": cfg["name"],
        "source": Path(module.__file__).resolve().relative_to(REPO).as_posix(),
        "function": fn.__name__,
        "target": {"backend": t["backend"], "arch": t["arch"], "warp_size": t["warp_size"]},
        "num_warps": cfg["options"]["num_warps"],
        "num_stages": cfg["options"]["num_stages"],
        "threads_per_warp": t["warp_size"],
        "options": cfg["options"],
        "compiled_to": how_far,
        "shared": meta["shared"] if meta else None,
        "ttgir": f"audit/corpus/ttgir/{name}.ttgir",
        "ttgir_sha256": hashlib.sha256(text.encode()).hexdigest(),
        "arguments": args,
        "outputs": cfg["outputs"],
        "problem": cfg["problem"],
        "tolerance": cfg["tolerance"],
        "grid": list(module.grid(cfg)),
        "data_ops": data_op_counts(text),
        "layout_kinds": layout_kinds(text),
    }
    if meta and meta.get("tmem_size"):
        entry["tmem_size"] = meta["tmem_size"]
    return entry


def manifest_text(entries):
    import triton
    doc = {
        "triton_version": triton.__version__,
        "generated_by": "audit/corpus/compile.py",
        "loc_paths": "repository-relative; Triton's own files as triton/...",
        "entries": sorted(entries, key=lambda e: e["name"]),
    }
    return dump_json(doc) + "\n"


def dump_json(value, indent=0, depth=0):
    """JSON with one line per manifest field and per argument: readable diffs, short file."""
    compact = json.dumps(value, separators=(", ", ": "))
    if (depth >= 4 or (depth == 3 and isinstance(value, dict))
            or not isinstance(value, (dict, list)) or len(compact) < 100):
        return compact
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dump_json(v, indent + 1, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dump_json(v, indent + 1, depth + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


# ---- the command ----------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="+", metavar="NAME",
                   help="compile only these kernels (file stems) or entries (<kernel>-<config>)")
    p.add_argument("--check", action="store_true",
                   help="recompile and report any file that differs from the one on disk; write nothing")
    p.add_argument("--cubin", metavar="DIR", type=Path,
                   help="also write each binary (cubin or hsaco) and its metadata JSON into DIR")
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems and the summary")
    return p.parse_args(argv)


def select(entries, only, error):
    if not only:
        return entries
    known = {e[0] for e in entries} | {Path(e[1].__file__).stem for e in entries}
    unknown = [n for n in only if n not in known]
    if unknown:
        error(f"unknown kernel or entry name(s): {' '.join(unknown)} "
              f"(see audit/corpus/manifest.json or the files in {KERNELS_REL})")
    return [e for e in entries if e[0] in only or Path(e[1].__file__).stem in only]


def write_binary(directory, name, binary, meta, entry):
    directory.mkdir(parents=True, exist_ok=True)
    suffix = ".cubin" if entry["target"]["backend"] == "cuda" else ".hsaco"
    (directory / (name + suffix)).write_bytes(binary)
    info = {"entry": entry, "metadata": meta}
    (directory / (name + ".json")).write_text(json.dumps(info, indent=1, default=str) + "\n")


def compile_all(entries, args):
    """Compile the selected entries: ({name: (ttgir text, manifest entry)}, failures)."""
    produced, failures = {}, []
    for name, module, cfg in entries:
        t0 = time.monotonic()
        fn = kernel_function(module, cfg)
        try:
            arguments, attrs = describe_arguments(module, cfg, fn)
            text, meta, binary, how_far, why = compile_entry(module, cfg, fn, attrs)
            text = relocate(text)
            if why:
                print(f"note: {name}: stopped after the TTGIR stage ({why})", file=sys.stderr)
        except Exception as e:  # noqa: BLE001 - report it and go on with the others
            failures.append(f"{name}: {type(e).__name__}: {str(e).strip().splitlines()[-1][:300]}")
            print(f"FAIL {failures[-1]}", file=sys.stderr)
            continue
        missing = missing_expectations(cfg, text)
        if missing:
            failures.append(f"{name}: TTGIR lacks {'; '.join(missing)}")
            print(f"FAIL {failures[-1]}", file=sys.stderr)
        entry = manifest_entry(name, module, cfg, fn, arguments, meta, how_far, text)
        produced[name] = (text, entry)
        if args.cubin is not None and binary is not None:
            write_binary(args.cubin, name, binary, meta, entry)
        if not args.quiet:
            print(f"{time.monotonic() - t0:6.2f}s  {name}  ({how_far}, shared {entry['shared']})")
    return produced, failures


def check_files(produced, new_manifest, whole_corpus):
    """--check: what differs between this compilation and the files on disk."""
    differences = []
    for name, (text, _) in produced.items():
        path = TTGIR_DIR / f"{name}.ttgir"
        if not path.exists():
            differences.append(f"missing: {path.relative_to(REPO)}")
        elif path.read_text() != text:
            differences.append(f"differs: {path.relative_to(REPO)}")
    if whole_corpus:
        stale = sorted(p.stem for p in TTGIR_DIR.glob("*.ttgir") if p.stem not in produced)
        differences += [f"not in the corpus: audit/corpus/ttgir/{s}.ttgir" for s in stale]
    if not MANIFEST.exists() or MANIFEST.read_text() != new_manifest:
        differences.append(f"differs: {MANIFEST.relative_to(REPO)}")
    return differences


def write_files(produced, new_manifest, remove_stale):
    TTGIR_DIR.mkdir(exist_ok=True)
    for name, (text, _) in produced.items():
        (TTGIR_DIR / f"{name}.ttgir").write_text(text)
    if remove_stale:
        for p in TTGIR_DIR.glob("*.ttgir"):
            if p.stem not in produced:
                p.unlink()  # an entry that left the corpus
    MANIFEST.write_text(new_manifest)


def main(argv=None):
    args = parse_args(argv)
    os.chdir(REPO)
    dropped = clean_environment()
    if dropped:
        print(f"note: ignoring {' '.join(dropped)} (they change compilation)", file=sys.stderr)

    def error(message):
        print(f"compile.py: error: {message}", file=sys.stderr)
        sys.exit(2)

    if args.cubin is not None and args.cubin.exists() and not args.cubin.is_dir():
        error(f"--cubin {args.cubin}: not a directory")
    all_entries = corpus_entries()
    entries = select(all_entries, args.only, error)
    old_manifest = {}
    if MANIFEST.exists():
        old_manifest = {e["name"]: e for e in json.loads(MANIFEST.read_text())["entries"]}

    started = time.monotonic()
    produced, failures = compile_all(entries, args)
    elapsed = time.monotonic() - started

    # Entries not compiled this time (left out by --only, or failed) keep their old record;
    # entries no longer in the corpus leave.
    all_names = {e[0] for e in all_entries}
    merged = {n: e for n, e in old_manifest.items() if n in all_names}
    merged.update({n: entry for n, (_, entry) in produced.items()})
    new_manifest = manifest_text(list(merged.values()))

    differences = []
    if args.check:
        differences = check_files(produced, new_manifest, whole_corpus=not args.only)
        for d in differences:
            print(d)
    else:
        write_files(produced, new_manifest, remove_stale=not args.only and not failures)

    print(f"{len(produced)} compiled, {len(failures)} failed, in {elapsed:.1f}s"
          + (f"; {len(differences)} difference(s)" if args.check else ""))
    for f in failures:
        print(f"  failed: {f}")
    return 1 if failures or differences else 0


if __name__ == "__main__":
    sys.exit(main())
