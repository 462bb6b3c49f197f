#!/usr/bin/env python3
"""scripts/layers can fail: on a copy of the repository's code with one upward
include or one upward link planted, it names it and exits 1; on the copy as it
is, and on a made-up tree of allowed uses (a test folder using the properties),
it passes. ctest `layers_check`."""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
LAYERS = os.path.join(ROOT, "scripts", "layers")
FOLDERS = ["formats", "testkit", "analysis", "reference", "optimized", "definitions", "oracle",
           "properties", "tools", "python", "fuzz", "device_tests", "bench", "examples"]


def run(root):
    p = subprocess.run([sys.executable, LAYERS, root], capture_output=True, text=True)
    return p.returncode, p.stdout


def copy_code(to):
    for folder in FOLDERS:
        src = os.path.join(ROOT, folder)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(to, folder),
                            ignore=shutil.ignore_patterns("corpus", "regressions", "*.json*"))


def append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    failures = []

    def expect(what, ok):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        copy_code(tmp)
        code, out = run(tmp)
        expect("the repository's code passes", code == 0)

        planted = os.path.join(tmp, "testkit", "columns.cpp")
        original = open(planted, encoding="utf-8").read()
        append(planted, '#include "oracle/op_table.h"\n')
        code, out = run(tmp)
        expect("an include of the oracle from testkit/ fails",
               code == 1 and "testkit/columns.cpp" in out and "includes oracle/" in out)
        write(planted, original)

        cmake = os.path.join(tmp, "testkit", "CMakeLists.txt")
        append(cmake, "target_link_libraries(f2lay_testkit PUBLIC f2lay_oracle)\n")
        code, out = run(tmp)
        expect("a link of f2lay_oracle from f2lay_testkit fails",
               code == 1 and "f2lay_testkit (testkit/" in out and "links f2lay_oracle" in out)

    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "properties", "laws.h"), '#include "oracle/op_table.h"\n')
        write(os.path.join(tmp, "optimized", "tests", "t.cpp"), '#include "properties/laws.h"\n')
        code, out = run(tmp)
        expect("a test folder may use the properties", code == 0)
        write(os.path.join(tmp, "optimized", "tests", "u.cpp"), '#include "tools/show.h"\n')
        code, out = run(tmp)
        expect("a test folder may not use tools/", code == 1 and "u.cpp" in out)
        write(os.path.join(tmp, "fuzz", "f.cpp"), '#include "device_tests/gpu.h"\n')
        code, out = run(tmp)
        expect("folders of one layer do not include each other", code == 1 and "f.cpp" in out)

    code, _ = run(os.path.join(ROOT, "no-such-folder"))
    expect("a missing folder is a usage error (exit 2)", code == 2)

    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
