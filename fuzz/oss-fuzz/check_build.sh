#!/usr/bin/env bash
# OSS-Fuzz's and ClusterFuzzLite's build of f2lay, checked without Docker
# (fuzz/README.md, "The build, checked without Docker"; ctest oss_fuzz_build).
#
#   fuzz/oss-fuzz/check_build.sh [--sanitizers address,undefined] [--seconds S] [--keep DIR]
#
# For each sanitizer: the base builder's environment exported by hand (CC,
# CXX, CFLAGS, CXXFLAGS with OSS-Fuzz's flag set of that sanitizer,
# LIB_FUZZING_ENGINE, SANITIZER, SRC, OUT, WORK), a copy of this checkout as
# $SRC/f2lay, and fuzz/oss-fuzz/build.sh run on it. Then $SRC and $WORK are
# deleted, so that only $OUT is left, as on OSS-Fuzz's runners, and:
#   - every target of fuzz/targets.txt is in $OUT with its seed corpus zip
#     (and its dictionary where fuzz/dictionaries has one);
#   - each fuzzer needs no shared library but glibc's (the runners have no
#     other), and nothing was compiled with -march or -m<ISA> (the runners'
#     CPUs differ: f2lay picks its vector paths at run time);
#   - each fuzzer runs S seconds (5) from another working directory, on its
#     unzipped seed corpus and its dictionary, and neither crashes nor leaks.
#
# Two things differ from OSS-Fuzz, for want of its images here: the compiler
# is Debian's clang 14, and the C++ library is its libstdc++ (linked
# statically through $LDFLAGS) instead of OSS-Fuzz's own libc++, since
# RapidCheck, which the targets link, is Debian's build against libstdc++
# (build.sh compiles it from source only where the image has cloned it).
#
# Exit status: 0 when every check passes, 1 when one fails, 2 on bad
# arguments or a missing tool.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
sanitizers=address,undefined
seconds=5
keep=
usage() { sed -n '5p' "$0" | sed 's/^# *//' >&2; exit 2; }
while (($#)); do
  case $1 in
    --sanitizers) sanitizers=${2:?}; shift 2 ;;
    --seconds) seconds=${2:?}; shift 2 ;;
    --keep) keep=${2:?}; shift 2 ;;
    *) usage ;;
  esac
done
[[ $seconds =~ ^[0-9]+$ ]] || { echo "check_build: --seconds $seconds: not a whole number" >&2; exit 2; }
for tool in clang-14 clang++-14 readelf unzip zip git; do
  command -v "$tool" >/dev/null || { echo "check_build: $tool is missing (scripts/setup)" >&2; exit 2; }
done

# OSS-Fuzz's flags (infra/base-images: base-clang's CFLAGS, base-builder's
# SANITIZER_FLAGS_<sanitizer>, and compile's -fsanitize=fuzzer-no-link for
# libFuzzer).
common="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
ubsan_checks="array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr"
ubsan_fatal="array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr"
sanitizer_flags() {
  case $1 in
    address) echo "-fsanitize=address -fsanitize-address-use-after-scope" ;;
    undefined) echo "-fsanitize=$ubsan_checks -fno-sanitize-recover=$ubsan_fatal" ;;
    *) echo "check_build: --sanitizers: no sanitizer '$1' (address, undefined)" >&2; exit 2 ;;
  esac
}
# The runners' options (infra/base-images/base-runner): unsigned overflow is
# reported by UBSan's flag set but silenced at run time, as there.
run_env() {
  case $1 in
    address) echo "ASAN_OPTIONS=detect_leaks=1:alloc_dealloc_mismatch=0:allocator_may_return_null=1:detect_stack_use_after_return=1:handle_abort=1:symbolize=1" ;;
    undefined) echo "UBSAN_OPTIONS=print_stacktrace=1:print_summary=1:halt_on_error=1:silence_unsigned_overflow=1:symbolize=1" ;;
  esac
}
targets=$(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$repo/fuzz/targets.txt")
# glibc's libraries: all a runner has for a fuzzer to load.
allowed='^(libc|libm|libpthread|libdl|librt|ld-linux-x86-64)\.so\.[0-9]+$'

failures=0
fail() { echo "check_build: FAIL $*"; failures=$((failures + 1)); }

IFS=, read -ra chosen <<<"$sanitizers"
for sanitizer in "${chosen[@]}"; do
  flags="$common $(sanitizer_flags "$sanitizer") -fsanitize=fuzzer-no-link"
  root=$(mktemp -d /tmp/f2lay-oss-fuzz.XXXXXX)
  mkdir -p "$root/src/f2lay" "$root/work" "$root/out" "$root/run"
  # The checkout as it is (tracked and untracked files, not the ignored ones).
  (cd "$repo" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) |
    tar -xf - -C "$root/src/f2lay"
  echo "== check_build: $sanitizer: build.sh in $root"
  start=$SECONDS
  if ! env -i PATH="$PATH" HOME="${HOME:-/tmp}" \
      CC=clang-14 CXX=clang++-14 CFLAGS="$flags" CXXFLAGS="$flags" \
      LDFLAGS="-static-libstdc++ -static-libgcc" \
      LIB_FUZZING_ENGINE=-fsanitize=fuzzer FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=c++ \
      SANITIZER="$sanitizer" ARCHITECTURE=x86_64 \
      SRC="$root/src" OUT="$root/out" WORK="$root/work" \
      bash "$root/src/f2lay/fuzz/oss-fuzz/build.sh" >"$root/build.log" 2>&1; then
    tail -40 "$root/build.log"
    fail "$sanitizer: build.sh failed (log: $root/build.log)"
    continue
  fi
  echo "check_build: $sanitizer: built in $((SECONDS - start)) s"
  # The flags of every target that was built (a folder with objects): what
  # the fuzzers are made of, not the benchmark's M4RI flags, say.
  cpu_flags=$(find "$root/work/f2lay" -name flags.make | while read -r flags; do
    if [ -n "$(find "$(dirname "$flags")" -name '*.o' -print -quit)" ]; then
      grep -HEo -e '(^|[[:space:]])-(march|mtune|mavx[0-9a-z]*|msse[0-9.]*|mfma|mbmi2?)([=[:space:]]|$)' \
        "$flags" || true
    fi
  done)
  if [ -n "$cpu_flags" ]; then
    echo "$cpu_flags" | sed "s|$root/work/||"
    fail "$sanitizer: a compile command sets the target CPU (-march/-m<ISA>)"
  fi
  # Only $OUT is left, as on a runner.
  rm -rf "$root/src" "$root/work"
  for t in $targets; do
    fuzzer=$root/out/${t}_fuzzer
    if [ ! -x "$fuzzer" ]; then
      fail "$sanitizer: $t: no ${t}_fuzzer in \$OUT"
      continue
    fi
    [ -f "$root/out/${t}_fuzzer_seed_corpus.zip" ] || fail "$sanitizer: $t: no seed corpus zip"
    if [ -f "$repo/fuzz/dictionaries/$t.dict" ] && [ ! -f "$root/out/${t}_fuzzer.dict" ]; then
      fail "$sanitizer: $t: no dictionary beside the fuzzer"
    fi
    needed=$(readelf -d "$fuzzer" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    for lib in $needed; do
      [[ $lib =~ $allowed ]] || fail "$sanitizer: $t: needs the shared library $lib"
    done
    dir=$root/run/$t
    mkdir -p "$dir/corpus"
    unzip -q "$root/out/${t}_fuzzer_seed_corpus.zip" -d "$dir/corpus"
    options=(-max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 -print_final_stats=1)
    [ -f "$root/out/${t}_fuzzer.dict" ] && options+=(-dict="$root/out/${t}_fuzzer.dict")
    if (cd "$dir" && env "$(run_env "$sanitizer")" "$fuzzer" "${options[@]}" corpus \
        >"$dir/fuzz.log" 2>&1); then
      runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/fuzz.log")
      echo "check_build: $sanitizer: $t ran ${seconds} s from \$OUT alone: ${runs:-?} inputs"
    else
      tail -30 "$dir/fuzz.log"
      fail "$sanitizer: $t failed from \$OUT (log: $dir/fuzz.log)"
    fi
  done
  if [ -n "$keep" ]; then
    mkdir -p "$keep"
    rm -rf "${keep:?}/$sanitizer"
    mv "$root/out" "$keep/$sanitizer"
  fi
  ((failures)) || rm -rf "$root"
done
if ((failures)); then
  echo "check_build: $failures checks failed"
  exit 1
fi
echo "check_build: every check passed (${sanitizers})"
