"""What the "better version" scripts share (device_tests/better_transpose.py,
better_reduce.py): asking f2lay for a layout, and on the GPU launching each kernel of a build
once with its output checked, then timing them interleaved."""
import json
import os
import subprocess
import sys


def ask(f2lay, request):
    """f2lay oracle's answer to one request; exits naming the op on an error."""
    out = subprocess.run([f2lay, "oracle"], input=json.dumps(request) + "\n", capture_output=True,
                         text=True, check=True).stdout
    response = json.loads(out)
    if not response["ok"]:
        raise SystemExit(f"{request['op']}: {response['error']}")
    return response["result"]


def compile_for_h100(out, name, src, num_warps):
    """Triton-compiles a Gluon source for sm_90 into OUT/NAME.cubin and OUT/NAME.ttgir; its
    manifest entry."""
    import triton
    from triton.backends.compiler import GPUTarget
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": num_warps})
    with open(os.path.join(out, name + ".cubin"), "wb") as f:
        f.write(k.asm["cubin"])
    with open(os.path.join(out, name + ".ttgir"), "w") as f:
        f.write(k.asm["ttgir"])
    return {"name": name, "kernel": k.metadata.name, "shared": k.metadata.shared}


def run_kernels(folder, times, grid, block, arguments, new_output, is_right):
    """Each kernel of FOLDER/manifest.json (CuPy RawModule of NAME.cubin) launched once on a
    fresh output and checked, then TIMES launches of each, interleaved, the median in us.
    arguments(dst): the kernel's arguments; new_output(): a zeroed output; is_right(dst)."""
    import cupy
    import numpy
    manifest = json.load(open(os.path.join(folder, "manifest.json")))
    functions, wrong = {}, 0
    for k in manifest["kernels"]:
        f = cupy.RawModule(path=os.path.join(folder, k["name"] + ".cubin")).get_function(k["kernel"])
        functions[k["name"]] = (f, k["shared"])

    def launch(name, dst):
        f, shared = functions[name]
        f(grid, block, (*arguments(dst), numpy.uint64(0), numpy.uint64(0)), shared_mem=shared)
    for name in functions:  # once each, checked (ncu counts these launches)
        dst = new_output()
        launch(name, dst)
        cupy.cuda.Device().synchronize()
        ok = is_right(dst)
        wrong += not ok
        print(f"{name}: output {'right' if ok else 'WRONG'}")
    if times:
        dst = new_output()
        samples = {name: [] for name in functions}
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        for _ in range(times):  # interleaved: one launch of each in turn
            for name in functions:
                start.record()
                launch(name, dst)
                end.record()
                end.synchronize()
                samples[name].append(cupy.cuda.get_elapsed_time(start, end) * 1000)
        for name, s in samples.items():
            print(f"{name}: median {sorted(s)[len(s) // 2]:.1f} us over {times} launches "
                  f"({grid[0]} programs)")
    return 1 if wrong else 0


def main(argv, doc, build, run):
    """build F2LAY OUT | run DIR [TIMES]; the usage (doc) and exit 2 otherwise."""
    if len(argv) >= 4 and argv[1] == "build":
        return build(argv[2], argv[3])
    if len(argv) >= 3 and argv[1] == "run":
        return run(argv[2], int(argv[3]) if len(argv) > 3 else 0)
    print(doc, file=sys.stderr)
    return 2
