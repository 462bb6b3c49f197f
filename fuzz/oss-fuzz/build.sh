#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build of f2lay's libFuzzer targets (fuzz/README.md,
# "OSS-Fuzz and ClusterFuzzLite"): the one build script of both
# (.clusterfuzzlite/build.sh runs it), checked without Docker by
# check_build.sh beside it. The contract: the source is at $SRC/f2lay, $CXX
# and $CXXFLAGS carry the sanitizer and -fsanitize=fuzzer-no-link flags, $LIB_FUZZING_ENGINE
# links the engine, and every fuzzer, seed corpus and dictionary goes to $OUT.
# The runners have none of the image's shared libraries: the fuzzers link only
# static ones (RapidCheck, built here) and header-only ones.

# RapidCheck (the fuzz targets share the properties' law checks), built with
# the same compiler, flags and C++ library as the targets, as a static library;
# Dockerfile clones it. Without the clone (a build outside the image), the
# installed one is used.
prefix=$WORK/prefix
if [ -d "$SRC/rapidcheck" ]; then
  cmake -S "$SRC/rapidcheck" -B "$WORK/rapidcheck" -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$CXXFLAGS" -DBUILD_SHARED_LIBS=OFF \
    -DRC_ENABLE_TESTS=OFF -DRC_ENABLE_EXAMPLES=OFF -DRC_INSTALL_ALL_EXTRAS=ON \
    -DCMAKE_INSTALL_PREFIX="$prefix"
  cmake --build "$WORK/rapidcheck" -j"$(nproc)"
  cmake --install "$WORK/rapidcheck"
fi

# Build type None: $CXXFLAGS alone sets optimization and debug information
# (the project's default, RelWithDebInfo, would add -O2 -DNDEBUG). $LDFLAGS,
# where set, goes to the link (fuzz/oss-fuzz/check_build.sh links its C++
# library statically that way).
cmake -S "$SRC/f2lay" -B "$WORK/f2lay" -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_EXE_LINKER_FLAGS="${LDFLAGS:-}" \
  -DF2LAY_FUZZ=ON -DF2LAY_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"
cmake --build "$WORK/f2lay" --target f2lay_fuzzers -j"$(nproc)"

fuzz=$SRC/f2lay/fuzz
# The one list of targets (fuzz/targets.txt; CMake and the scripts read it too).
targets=$(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$fuzz/targets.txt")
for t in $targets; do
  cp "$WORK/f2lay/fuzz/${t}_fuzzer" "$OUT/"
  rm -f "$OUT/${t}_fuzzer_seed_corpus.zip"
  # Flat (-j), as OSS-Fuzz unpacks it; the regressions seed too.
  mapfile -t seeds < <(find "$fuzz/corpus/$t" "$fuzz/regressions/$t" -type f ! -name .keep 2>/dev/null)
  if ((${#seeds[@]})); then
    zip -q -j "$OUT/${t}_fuzzer_seed_corpus.zip" "${seeds[@]}"
  fi
  if [ -f "$fuzz/dictionaries/$t.dict" ]; then
    cp "$fuzz/dictionaries/$t.dict" "$OUT/${t}_fuzzer.dict"
  fi
done
