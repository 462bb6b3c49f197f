#!/bin/bash -eu
# ClusterFuzzLite's build: the one build script of f2lay's fuzzers, which
# OSS-Fuzz runs too (fuzz/oss-fuzz/build.sh; fuzz/README.md).
exec "$SRC/f2lay/fuzz/oss-fuzz/build.sh"
