#!/usr/bin/env bash
# Builds the C++ workload `calc` (calc.cpp) for wasm32-wasi with WebAssembly exception
# handling in its standardized form (try_table, throw, throw_ref, exnref):
#
#   workloads/cxx/build.sh        → workloads/build/calc.wasm
#
# Needs clang-22 and lld-22 (Debian 12's bookworm-security suite), Debian's wasi-libc,
# libc++-22-dev-wasm32 (headers) and libclang-rt-22-dev-wasm32, and unzip; `$WPP_PYTHON`
# (or python3) with pip, to download the runtime's sources. clang-22 emits the
# standardized form with `-fwasm-exceptions -mllvm -wasm-use-legacy-eh=false`.
#
# Debian builds its wasm32 libc++ and libc++abi without exceptions and ships no libunwind
# for wasm, so the C++ runtime is compiled here, with exceptions, from the LLVM 22 sources
# of libc++, libc++abi and libunwind that PyPI's ziglang 0.17.0 wheel bundles (the same
# LLVM release as Debian's headers). Everything goes under workloads/build/cxx/; the
# module is rebuilt only when it is older than this script or calc.cpp.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WL=$(dirname "$HERE")
B="$WL/build/cxx"
OUT="$WL/build/calc.wasm"
PY=${WPP_PYTHON:-python3}
JOBS=${WPP_WORKLOADS_JOBS:-2}
ZIG=0.17.0

if [ -e "$OUT" ] && [ "$OUT" -nt "$HERE/build.sh" ] && [ "$OUT" -nt "$HERE/calc.cpp" ]; then
    echo "calc.wasm is up to date"
    exit 0
fi
mkdir -p "$B/dl" "$B/src" "$B/lib"
cd "$B"   # relative paths in the objects: -ffile-prefix-map below

# The runtime's sources.
S="$B/src/ziglang/lib"
if ! [ -d "$S/libcxxabi" ]; then
    "$PY" -m pip download -q --no-deps "ziglang==$ZIG" -d "$B/dl"
    unzip -q -o "$B"/dl/ziglang-"$ZIG"-*.whl -d "$B/src" \
        'ziglang/lib/libcxxabi/*' 'ziglang/lib/libunwind/*' 'ziglang/lib/libcxx/src/*' 'ziglang/lib/libcxx/libc/*'
fi

CC=clang-22
CXX=clang++-22
AR=/usr/lib/llvm-22/bin/llvm-ar
TARGET=(--target=wasm32-wasi -Wno-deprecated)   # the triple that finds Debian's wasi-libc
EH=(-fwasm-exceptions -mllvm -wasm-use-legacy-eh=false)
RT=("${TARGET[@]}" "${EH[@]}" -O2 -DNDEBUG "-ffile-prefix-map=$B=.")

# compile_all OBJDIR SRCDIR FLAGS... -- FILES...
compile_all() {
    local objdir=$1 srcdir=$2; shift 2
    local flags=(); while [ "$1" != "--" ]; do flags+=("$1"); shift; done; shift
    mkdir -p "$objdir"
    printf '%s\n' "$@" | xargs -P "$JOBS" -I{} sh -c \
        'f={}; o='"$objdir"'/$(echo $f | tr / _).o; '"$CXX"' "$@" -c '"$srcdir"'/$f -o $o' sh "${flags[@]}"
}

# libunwind: only its wasm part. Debian's libclang_rt.builtins-wasm32.a has an empty
# __cpp_exception member (built without exception handling), so the C++ exception tag is
# defined here as compiler-rt's lib/builtins/wasm/__cpp_exception.S defines it.
mkdir -p obj/unwind
$CC "${RT[@]}" -std=c23 -D_LIBUNWIND_HIDE_SYMBOLS -D_LIBUNWIND_HAS_NO_THREADS \
    -I"$S/libunwind/include" -c "$S/libunwind/src/Unwind-wasm.c" -o obj/unwind/Unwind-wasm.o
printf '%s\n' '.globl __cpp_exception' '.tagtype __cpp_exception i32' '__cpp_exception:' > obj/unwind/__cpp_exception.S
$CC "${TARGET[@]}" -mexception-handling -c obj/unwind/__cpp_exception.S -o obj/unwind/__cpp_exception.o
rm -f lib/libunwind.a; $AR rcs lib/libunwind.a obj/unwind/*.o

# libc++abi with exceptions.
compile_all obj/cxxabi "$S/libcxxabi/src" "${RT[@]}" -std=c++23 \
    -D_LIBCXXABI_BUILDING_LIBRARY -D_LIBCPP_BUILDING_LIBRARY -D_LIBCXXABI_HAS_NO_THREADS \
    -I"$S/libunwind/include" -I"$S/libcxxabi/include" -I"$S/libcxx/src" -- \
    abort_message.cpp cxa_aux_runtime.cpp cxa_default_handlers.cpp cxa_demangle.cpp \
    cxa_exception.cpp cxa_exception_storage.cpp cxa_guard.cpp cxa_handlers.cpp \
    cxa_personality.cpp cxa_vector.cpp cxa_virtual.cpp fallback_malloc.cpp \
    private_typeinfo.cpp stdlib_exception.cpp stdlib_new_delete.cpp \
    stdlib_stdexcept.cpp stdlib_typeinfo.cpp
rm -f lib/libc++abi.a; $AR rcs lib/libc++abi.a obj/cxxabi/*.o

# libc++ with exceptions (the files of Debian's wasm32 libc++.a). Without
# LIBCXX_BUILDING_LIBCXXABI, std::exception_ptr falls back to a stub.
compile_all obj/cxx "$S/libcxx/src" "${RT[@]}" -std=c++23 \
    -D_LIBCPP_BUILDING_LIBRARY -DLIBCXX_BUILDING_LIBCXXABI \
    -I"$S/libcxx/src" -I"$S/libcxx/libc" -I"$S/libcxxabi/include" -Wno-user-defined-literals -- \
    algorithm.cpp any.cpp bind.cpp call_once.cpp charconv.cpp chrono.cpp \
    error_category.cpp exception.cpp expected.cpp filesystem/filesystem_clock.cpp \
    filesystem/filesystem_error.cpp filesystem/path.cpp functional.cpp hash.cpp \
    memory.cpp memory_resource.cpp new_handler.cpp new_helpers.cpp optional.cpp \
    print.cpp random_shuffle.cpp ryu/d2fixed.cpp ryu/d2s.cpp ryu/f2s.cpp \
    stdexcept.cpp string.cpp system_error.cpp typeinfo.cpp valarray.cpp variant.cpp \
    vector.cpp verbose_abort.cpp random.cpp fstream.cpp ios.cpp \
    ios.instantiations.cpp iostream.cpp locale.cpp ostream.cpp regex.cpp strstream.cpp
rm -f lib/libc++.a; $AR rcs lib/libc++.a obj/cxx/*.o

# The program: compile, then link without -O (clang would run a wasm-opt it finds) and
# with -nostdlib++, so that Debian's libraries without exceptions stay out.
$CXX "${TARGET[@]}" "${EH[@]}" -O2 -std=c++20 "-ffile-prefix-map=$HERE=." -c "$HERE/calc.cpp" -o calc.o
$CXX "${TARGET[@]}" -fwasm-exceptions -nostdlib++ calc.o -L lib -lc++ -lc++abi -lunwind \
    -Wl,-z,stack-size=1048576 -Wl,--stack-first -Wl,--strip-debug -o "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "built $OUT"
