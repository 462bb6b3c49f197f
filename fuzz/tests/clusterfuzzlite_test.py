"""The ClusterFuzzLite and OSS-Fuzz files as their runners read them (fuzz/README.md,
"OSS-Fuzz and ClusterFuzzLite"): valid YAML, each workflow the mode, schedule and sanitizers
the README says, every action ClusterFuzzLite's own at v1, and one build script behind both.

A pytest module (the root conftest.py); it skips where PyYAML is not installed."""
import pathlib

import pytest

yaml = pytest.importorskip("yaml", reason="no PyYAML (scripts/setup installs it)")

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
ACTIONS = {"google/clusterfuzzlite/actions/build_fuzzers@v1",
           "google/clusterfuzzlite/actions/run_fuzzers@v1"}

# workflow file: (mode, the sanitizers it builds, its cron schedule or None)
EXPECTED = {
    "cflite_pr.yml": ("code-change", ["address", "undefined"], None),
    "cflite_batch.yml": ("batch", ["address", "undefined"], "0 2 * * *"),
    "cflite_prune.yml": ("prune", [None], "0 8 * * *"),
    "cflite_coverage.yml": ("coverage", ["coverage"], "0 6 * * 0"),
}


def load(path):
    return yaml.safe_load(path.read_text())


def test_the_workflows_are_the_four_documented():
    assert sorted(p.name for p in WORKFLOWS.glob("cflite_*.yml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_workflow(name):
    mode, sanitizers, cron = EXPECTED[name]
    flow = load(WORKFLOWS / name)
    triggers = flow[True]  # YAML 1.1 reads the key `on` as true
    assert "workflow_dispatch" in triggers
    if cron:
        assert triggers["schedule"] == [{"cron": cron}]
    else:
        assert "pull_request" in triggers
    (job,) = flow["jobs"].values()
    steps = job["steps"]
    assert {s["uses"] for s in steps} == ACTIONS
    build, run = steps
    assert build["with"]["language"] == "c++"
    assert run["with"]["mode"] == mode
    matrix = job.get("strategy", {}).get("matrix", {}).get("sanitizer")
    built = matrix or [build["with"].get("sanitizer")]
    assert built == sanitizers
    if matrix:
        assert build["with"]["sanitizer"] == run["with"]["sanitizer"] == "${{ matrix.sanitizer }}"
    # Every run keeps its corpora and coverage in the storage repository the variable names.
    assert "vars.CFLITE_STORAGE_REPO" in run["with"]["storage-repo"]


def test_one_build_script_behind_both():
    assert load(ROOT / ".clusterfuzzlite" / "project.yaml") == {"language": "c++"}
    oss_fuzz = load(ROOT / "fuzz" / "oss-fuzz" / "project.yaml")
    assert oss_fuzz["sanitizers"] == ["address", "undefined"]
    assert oss_fuzz["fuzzing_engines"] == ["libfuzzer"]
    script = (ROOT / ".clusterfuzzlite" / "build.sh").read_text()
    assert 'exec "$SRC/f2lay/fuzz/oss-fuzz/build.sh"' in script
    dockerfile = (ROOT / ".clusterfuzzlite" / "Dockerfile").read_text()
    assert "COPY . $SRC/f2lay" in dockerfile and "COPY .clusterfuzzlite/build.sh $SRC/" in dockerfile
    assert not (ROOT / "fuzz" / "oss-fuzz" / "Dockerfile").exists()  # one image, one place
