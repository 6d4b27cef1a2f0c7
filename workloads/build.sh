#!/usr/bin/env bash
# Builds wpp's workload programs: real C programs compiled to wasm32-wasi
# command modules, plus the inputs they run on.  See workloads/README.md.
#
#   workloads/build.sh [-f|--force] [-g|--debug] [-j N] [NAME...]
#
#   NAME...      build only these programs (default: all); "inputs" = only the inputs
#   -f, --force  rebuild even when outputs are up to date
#   -g, --debug  also compile with -g (DWARF) and write to build/debug/NAME.wasm
#                instead of build/NAME.wasm
#   -j N         parallel compiler jobs (default 2, or $WPP_WORKLOADS_JOBS)
#
# Everything it writes goes under workloads/build/ (git-ignored): the modules
# (build/NAME.wasm), the inputs (build/inputs/), objects (build/obj/), the
# scratch Cargo project that fetches the sources (build/src/) and logs
# (build/logs/).  Sources come only from crates.io: a scratch manifest depends
# on the -sys/-src crates at exact versions, `cargo fetch` downloads them and
# `cargo metadata` says where they are.  Only their C sources are used; no
# build script runs.  A program is rebuilt only when its .wasm is missing or
# older than this script or one of its own files (driver, compat headers).
set -euo pipefail

WL=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$WL"   # the compiler records the working directory in DWARF (-g); -ffile-prefix-map maps it
SCRIPT="$WL/build.sh"
B="$WL/build"
JOBS=${WPP_WORKLOADS_JOBS:-2}
FORCE=0
DEBUG=0
ONLY=()

ALL_PROGRAMS=(bzip2 zlib zstd lz4 xz lua sqlite tree-sitter-c pcre2 cjpeg)

while [ $# -gt 0 ]; do
    case "$1" in
        -f|--force) FORCE=1 ;;
        -g|--debug) DEBUG=1 ;;
        -j) JOBS=$2; shift ;;
        -j*) JOBS=${1#-j} ;;
        -h|--help) sed -n '2,20p' "$SCRIPT" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "build.sh: unknown option $1" >&2; exit 2 ;;
        *) ONLY+=("$1") ;;
    esac
    shift
done
if [ ${#ONLY[@]} -eq 0 ]; then ONLY=("${ALL_PROGRAMS[@]}" inputs); fi
for p in "${ONLY[@]}"; do
    case " ${ALL_PROGRAMS[*]} inputs " in
        *" $p "*) ;;
        *) echo "build.sh: unknown program '$p' (known: ${ALL_PROGRAMS[*]} inputs)" >&2; exit 2 ;;
    esac
done

# Debian's wasi-libc.a carries DWARF for its own functions; without -g the
# linker drops all DWARF (--strip-debug), so that a module has either full
# DWARF (--debug) or none.  The name section stays in both.
if [ "$DEBUG" = 1 ]; then
    OUTDIR="$B/debug"; OBJROOT="$B/obj-debug"; DBGFLAGS=(-g); LDDBG=()
else
    OUTDIR="$B"; OBJROOT="$B/obj"; DBGFLAGS=(); LDDBG=(-Wl,--strip-debug)
fi
INPUTS="$B/inputs"
LOGS="$B/logs"
mkdir -p "$B" "$OUTDIR" "$OBJROOT" "$INPUTS" "$LOGS"

log() { printf '[workloads] %s\n' "$*" >&2; }
die() { printf '[workloads] error: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------------------
# Staleness

# newer_than_all TARGET FILE...: TARGET exists and is newer than every FILE.
newer_than_all() {
    local target=$1; shift
    [ -e "$target" ] || return 1
    local f
    for f in "$@"; do
        [ "$target" -nt "$f" ] || return 1
    done
}

# Files each program depends on, besides the sources fetched from crates.io
# (which are immutable at a pinned version).
program_deps() {
    local c="$WL/compat"
    case "$1" in
        bzip2)         echo "$c/wasi_compat.h $c/wasi_stubs.c" ;;
        zlib)          echo "$c/wasi_compat.h $WL/drivers/zlib_driver.c" ;;
        zstd)          echo "$c/wasi_compat.h $WL/drivers/zstd_driver.c" ;;
        lz4)           echo "$c/wasi_compat.h $c/wasi_stubs.c" ;;
        xz)            echo "$c/wasi_compat.h $c/wasi_stubs.c $c/xz/config.h $c/xz/sigcompat.h $c/xz/file_io_compat.h" ;;
        lua)           echo "$c/wasi_compat.h $c/lua/setjmp.h $c/lua/lua_compat.h $WL/drivers/lua_driver.c" ;;
        sqlite)        echo "$c/wasi_compat.h $c/wasi_stubs.c $WL/drivers/sqlite_driver.c" ;;
        tree-sitter-c) echo "$c/wasi_compat.h $WL/drivers/tree_sitter_driver.c" ;;
        pcre2)         echo "$c/wasi_compat.h $WL/drivers/pcre2_driver.c" ;;
        cjpeg)         echo "$c/wasi_compat.h $c/wasi_stubs.c $c/mozjpeg/jconfig.h $c/mozjpeg/jconfigint.h $c/mozjpeg/jversion.h" ;;
    esac
}

program_stale() {
    [ "$FORCE" = 1 ] && return 0
    # shellcheck disable=SC2046
    ! newer_than_all "$OUTDIR/$1.wasm" "$SCRIPT" $(program_deps "$1")
}

# The inputs, each with what it is made from (besides this script).
INPUT_FILES=(sqlite3.c small.txt sqlite3-100k.c small.txt.bz2 sqlite3.c.bz2 picture.ppm picture-small.ppm)
inputs_stale() {
    [ "$FORCE" = 1 ] && return 0
    local f
    for f in "${INPUT_FILES[@]}"; do
        newer_than_all "$INPUTS/$f" "$SCRIPT" || return 0
    done
    newer_than_all "$INPUTS/picture.ppm" "$WL/inputs/genppm.c" || return 0
    return 1
}

want() { case " ${ONLY[*]} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

TODO=()
for p in "${ALL_PROGRAMS[@]}"; do
    if want "$p" && program_stale "$p"; then TODO+=("$p"); fi
done
NEED_INPUTS=0
if want inputs && inputs_stale; then NEED_INPUTS=1; fi

if [ ${#TODO[@]} -eq 0 ] && [ "$NEED_INPUTS" = 0 ]; then
    log "everything is up to date in ${OUTDIR#"$WL"/}/ (use --force to rebuild)"
    exit 0
fi
WHAT=("${TODO[@]}")
[ "$NEED_INPUTS" = 1 ] && WHAT+=(inputs)
log "to build: ${WHAT[*]}"

# ---------------------------------------------------------------------------
# Toolchain: clang 14 + lld + Debian's wasi-libc + compiler-rt for wasm32.

WASI_SYSROOT_INC=/usr/include/wasm32-wasi
WASI_LIB=/usr/lib/wasm32-wasi

toolchain_ok() {
    command -v clang >/dev/null 2>&1 || return 1
    command -v wasm-ld >/dev/null 2>&1 || return 1
    [ -f "$WASI_SYSROOT_INC/stdio.h" ] && [ -f "$WASI_LIB/libc.a" ] || return 1
    local rt
    rt=$(clang --target=wasm32-wasi -print-libgcc-file-name 2>/dev/null) || return 1
    [ -f "$rt" ] || return 1
}

if ! toolchain_ok; then
    log "installing clang, lld, wasi-libc and libclang-rt-dev-wasm32 with apt-get"
    if [ "$(id -u)" != 0 ]; then
        die "the wasm32-wasi toolchain is missing and we are not root; run: apt-get update && apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32"
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >"$LOGS/apt.log" 2>&1 || { tail -20 "$LOGS/apt.log" >&2; die "apt-get update failed"; }
    apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32 >>"$LOGS/apt.log" 2>&1 \
        || { tail -20 "$LOGS/apt.log" >&2; die "apt-get install failed"; }
    toolchain_ok || die "toolchain still incomplete after apt-get install (see $LOGS/apt.log)"
fi
command -v cargo >/dev/null 2>&1 || die "cargo is needed to fetch the sources from crates.io"

# A C compiler for the build machine (for the input generators).
HOST_CC=${HOST_CC:-}
if [ -z "$HOST_CC" ]; then
    for c in cc gcc clang; do
        if command -v "$c" >/dev/null 2>&1; then HOST_CC=$c; break; fi
    done
fi

# ---------------------------------------------------------------------------
# Sources from crates.io

SRCPROJ="$B/src"
declare -A CRATE_DIR=()

fetch_sources() {
    mkdir -p "$SRCPROJ/src"
    cat >"$SRCPROJ/Cargo.toml.new" <<'EOF'
# Written by workloads/build.sh: a scratch project whose only purpose is to
# make cargo download these crates' sources.  Nothing here is ever built.
[package]
name = "wpp-workload-sources"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[lib]
path = "src/lib.rs"

[dependencies]
bzip2-sys = { version = "=0.1.13", default-features = false }
libz-sys = { version = "=1.1.31", default-features = false }
zstd-sys = { version = "=2.1.2", default-features = false }
lz4-sys = { version = "=1.11.1", default-features = false }
lzma-sys = { version = "=0.1.20", default-features = false }
lua-src = { version = "=551.1.0", default-features = false }
libsqlite3-sys = { version = "=0.39.1", default-features = false, features = ["bundled"] }
tree-sitter = { version = "=0.27.1", default-features = false }
tree-sitter-c = { version = "=0.24.2", default-features = false }
pcre2-sys = { version = "=0.2.10", default-features = false }
mozjpeg-sys = { version = "=2.2.3", default-features = false }
EOF
    if ! cmp -s "$SRCPROJ/Cargo.toml.new" "$SRCPROJ/Cargo.toml" 2>/dev/null; then
        mv "$SRCPROJ/Cargo.toml.new" "$SRCPROJ/Cargo.toml"
    else
        rm -f "$SRCPROJ/Cargo.toml.new"
    fi
    [ -f "$SRCPROJ/src/lib.rs" ] || : >"$SRCPROJ/src/lib.rs"

    log "cargo fetch (crates.io)"
    cargo fetch --manifest-path "$SRCPROJ/Cargo.toml" >"$LOGS/cargo-fetch.log" 2>&1 \
        || { tail -30 "$LOGS/cargo-fetch.log" >&2; die "cargo fetch failed"; }
    cargo metadata --format-version 1 --manifest-path "$SRCPROJ/Cargo.toml" \
        >"$SRCPROJ/metadata.json" 2>"$LOGS/cargo-metadata.log" \
        || { cat "$LOGS/cargo-metadata.log" >&2; die "cargo metadata failed"; }

    # Each package's "manifest_path" lies in a directory named NAME-VERSION
    # (VERSION may carry +build metadata, e.g. bzip2-sys-0.1.13+1.0.8).
    local paths crate want dir
    paths=$(grep -o '"manifest_path":"[^"]*"' "$SRCPROJ/metadata.json" | sed 's/^"manifest_path":"//; s/"$//')
    for want in bzip2-sys@0.1.13 libz-sys@1.1.31 zstd-sys@2.1.2 lz4-sys@1.11.1 lzma-sys@0.1.20 \
                lua-src@551.1.0 libsqlite3-sys@0.39.1 tree-sitter@0.27.1 tree-sitter-c@0.24.2 \
                pcre2-sys@0.2.10 mozjpeg-sys@2.2.3; do
        crate=${want%@*}
        dir=$(printf '%s\n' "$paths" | grep -E "/${crate}-${want#*@}(\+[^/]*)?/Cargo\.toml$" | head -1 || true)
        [ -n "$dir" ] || die "cargo metadata does not list $want"
        CRATE_DIR[$crate]=$(dirname "$dir")
    done
    # Sources live under cargo's registry; map that prefix away so that the
    # modules do not depend on where they are.
    REGISTRY_SRC=$(dirname "${CRATE_DIR[bzip2-sys]}")
}

# ---------------------------------------------------------------------------
# Compiling and linking

EMU_DEFS=(-D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_MMAN -D_WASI_EMULATED_GETPID)
EMU_LIBS=(-lwasi-emulated-signal -lwasi-emulated-process-clocks -lwasi-emulated-mman -lwasi-emulated-getpid)

common_cflags() {
    # -nostdlibinc: without it Debian's clang falls back to the build machine's
    # /usr/include when wasi-libc lacks a header, which fails confusingly.
    CFLAGS_COMMON=(--target=wasm32-wasi -O2 "${DBGFLAGS[@]}" -DNDEBUG
        -nostdlibinc -isystem "$WASI_SYSROOT_INC"
        "-ffile-prefix-map=$REGISTRY_SRC=/crates" "-ffile-prefix-map=$WL=/workloads"
        -include "$WL/compat/wasi_compat.h" -w)
}

# compile NAME -- CFLAGS... -- SOURCES...
# Compiles every source to $OBJROOT/NAME/, at most $JOBS at a time; the
# objects' paths are appended to OBJS.  Each object name is derived from the
# source's path, so equal file names in different directories do not clash.
compile() {
    local name=$1; shift
    [ "$1" = -- ] || die "compile: usage"; shift
    local flags=()
    while [ "$1" != -- ]; do flags+=("$1"); shift; done
    shift
    local objdir="$OBJROOT/$name"
    mkdir -p "$objdir"
    local src obj rel pids=() failed=0
    for src in "$@"; do
        rel=${src#"$REGISTRY_SRC"/}; rel=${rel#"$WL"/}
        obj="$objdir/$(printf '%s' "${rel%.c}" | tr '/+' '__').o"
        OBJS+=("$obj")
        clang "${CFLAGS_COMMON[@]}" "${flags[@]}" -c "$src" -o "$obj" 2>>"$LOGS/$name.log" &
        pids+=($!)
        if [ ${#pids[@]} -ge "$JOBS" ]; then
            wait "${pids[0]}" || failed=1
            pids=("${pids[@]:1}")
        fi
    done
    local p
    for p in "${pids[@]}"; do wait "$p" || failed=1; done
    if [ "$failed" != 0 ]; then
        tail -40 "$LOGS/$name.log" >&2
        die "compiling $name failed (full log: ${LOGS#"$WL"/}/$name.log)"
    fi
}

# link NAME EXTRA_LINK_FLAGS... : links OBJS into $OUTDIR/NAME.wasm.
# Linking is a separate step without -O: clang 14 runs binaryen's wasm-opt on
# its own when it links with optimization flags and wasm-opt is installed,
# which rewrites the code and drops the name section.
link() {
    local name=$1; shift
    local tmp="$OUTDIR/.$name.wasm.tmp"
    clang --target=wasm32-wasi "${DBGFLAGS[@]}" "${LDDBG[@]}" -Wl,-z,stack-size=8388608 -Wl,--stack-first \
        "${OBJS[@]}" "$@" -o "$tmp" 2>>"$LOGS/$name.log" \
        || { tail -40 "$LOGS/$name.log" >&2; die "linking $name failed (full log: ${LOGS#"$WL"/}/$name.log)"; }
    mv -f "$tmp" "$OUTDIR/$name.wasm"
}

# files DIR NAME... : prints DIR/NAME for each NAME.
files() { local d=$1; shift; local f; for f in "$@"; do printf '%s\n' "$d/$f"; done; }

# ---------------------------------------------------------------------------
# The programs

build_bzip2() {   # bzip2 1.0.8, the real command-line tool
    local s="${CRATE_DIR[bzip2-sys]}/bzip2-1.0.8"
    OBJS=()
    compile bzip2 -- "${EMU_DEFS[@]}" -I"$s" -- \
        $(files "$s" blocksort.c huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c bzip2.c) \
        "$WL/compat/wasi_stubs.c"
    link bzip2 "${EMU_LIBS[@]}"
}

build_zlib() {    # zlib 1.3.2 + drivers/zlib_driver.c
    local s="${CRATE_DIR[libz-sys]}/src/zlib"
    OBJS=()
    compile zlib -- -I"$s" -- \
        $(files "$s" adler32.c compress.c crc32.c deflate.c infback.c inffast.c inflate.c inftrees.c trees.c uncompr.c zutil.c) \
        "$WL/drivers/zlib_driver.c"
    link zlib
}

build_zstd() {    # zstd 1.5.7 (single-threaded, no assembly) + drivers/zstd_driver.c
    local s="${CRATE_DIR[zstd-sys]}/zstd/lib"
    OBJS=()
    compile zstd -- -I"$s" -I"$s/common" -DZSTD_DISABLE_ASM -DZSTD_LEGACY_SUPPORT=0 -- \
        "$s"/common/*.c "$s"/compress/*.c "$s"/decompress/*.c "$WL/drivers/zstd_driver.c"
    link zstd
}

build_lz4() {     # lz4 1.10.0, the real command-line tool (programs/)
    local s="${CRATE_DIR[lz4-sys]}/liblz4"
    OBJS=()
    compile lz4 -- "${EMU_DEFS[@]}" -I"$s/lib" -DLZ4IO_MULTITHREAD=0 -- \
        $(files "$s/lib" lz4.c lz4hc.c lz4frame.c xxhash.c) \
        $(files "$s/programs" bench.c lorem.c lz4cli.c lz4io.c threadpool.c timefn.c util.c) \
        "$WL/compat/wasi_stubs.c"
    link lz4 "${EMU_LIBS[@]}"
}

build_xz() {      # xz 5.2.5 (liblzma + the xz tool), single-threaded
    local x="${CRATE_DIR[lzma-sys]}/xz-5.2/src"
    local l="$x/liblzma"
    local inc=(-std=gnu99 -DHAVE_CONFIG_H -I"$WL/compat/xz" -I"$l/api" -I"$l/common" -I"$l/check"
               -I"$l/lz" -I"$l/rangecoder" -I"$l/lzma" -I"$l/delta" -I"$l/simple" -I"$x/common")
    local lib=() f b
    for f in "$l"/common/*.c "$l"/check/*.c "$l"/lz/*.c "$l"/lzma/*.c "$l"/rangecoder/*.c "$l"/delta/*.c "$l"/simple/*.c; do
        b=$(basename "$f" .c)
        case "$b" in
            *tablegen|crc32_small|crc64_small) continue ;;                 # alternatives / generators
            stream_encoder_mt|outqueue|hardware_cputhreads) continue ;;    # need threads
        esac
        lib+=("$f")
    done
    OBJS=()
    compile xz -- "${EMU_DEFS[@]}" "${inc[@]}" -- "${lib[@]}" "$WL/compat/wasi_stubs.c"
    local cli=()
    for f in "$x"/xz/*.c; do [ "$(basename "$f")" = file_io.c ] || cli+=("$f"); done
    compile xz -- "${EMU_DEFS[@]}" "${inc[@]}" -include "$WL/compat/xz/sigcompat.h" -- \
        "${cli[@]}" $(files "$x/common" tuklib_open_stdxxx.c tuklib_progname.c tuklib_exit.c \
                      tuklib_mbstr_width.c tuklib_mbstr_fw.c tuklib_physmem.c tuklib_cpucores.c)
    compile xz -- "${EMU_DEFS[@]}" "${inc[@]}" -include "$WL/compat/xz/sigcompat.h" \
        -include "$WL/compat/xz/file_io_compat.h" -- "$x/xz/file_io.c"
    link xz "${EMU_LIBS[@]}"
}

build_lua() {     # Lua 5.4.9 (core + standard libraries) + drivers/lua_driver.c
    local s="${CRATE_DIR[lua-src]}/lua-5.4.9"
    local srcs=() f
    for f in "$s"/*.c; do
        case "$(basename "$f")" in lua.c|luac.c) continue ;; esac
        srcs+=("$f")
    done
    OBJS=()
    compile lua -- "${EMU_DEFS[@]}" -I"$WL/compat/lua" -include "$WL/compat/lua/lua_compat.h" -I"$s" -- \
        "${srcs[@]}" "$WL/drivers/lua_driver.c"
    link lua "${EMU_LIBS[@]}"
}

build_sqlite() {  # SQLite 3.54.1 amalgamation + drivers/sqlite_driver.c
    local s="${CRATE_DIR[libsqlite3-sys]}/sqlite3"
    OBJS=()
    compile sqlite -- "${EMU_DEFS[@]}" -I"$s" -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
        -DLONGDOUBLE_TYPE=double -DSQLITE_TEMP_STORE=3 -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_MATH_FUNCTIONS -- \
        "$s/sqlite3.c" "$WL/drivers/sqlite_driver.c" "$WL/compat/wasi_stubs.c"
    link sqlite "${EMU_LIBS[@]}"
}

build_tree-sitter-c() {  # tree-sitter 0.27.1 runtime + tree-sitter-c 0.24.2 grammar + driver
    local t="${CRATE_DIR[tree-sitter]}" g="${CRATE_DIR[tree-sitter-c]}"
    OBJS=()
    compile tree-sitter-c -- -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE -I"$t/src" -I"$t/include" -- \
        "$t/src/lib.c" "$WL/drivers/tree_sitter_driver.c"
    compile tree-sitter-c -- -I"$g/src" -- "$g/src/parser.c"
    link tree-sitter-c
}

build_pcre2() {   # PCRE2 10.46, 8-bit, Unicode, no JIT + drivers/pcre2_driver.c
    local s="${CRATE_DIR[pcre2-sys]}/upstream"
    local srcs=() f
    for f in "$s"/src/*.c; do
        case "$(basename "$f")" in
            pcre2_jit_*|pcre2_ucptables.c) continue ;;  # JIT off; ucptables is #included
        esac
        srcs+=("$f")
    done
    OBJS=()
    compile pcre2 -- -DPCRE2_CODE_UNIT_WIDTH=8 -DHAVE_CONFIG_H=1 -DPCRE2_STATIC=1 -DHAVE_STDLIB_H=1 \
        -DHAVE_MEMMOVE=1 -DSTDC_HEADERS=1 -DSUPPORT_PCRE2_8=1 -DSUPPORT_UNICODE=1 \
        -I"$s/src" -I"$s/include" -I"$s/deps" -- "${srcs[@]}" "$WL/drivers/pcre2_driver.c"
    link pcre2
}

MOZJPEG_LIB=(jcapimin jcapistd jccoefct jccolor jcdctmgr jcext jchuff jcinit jcmainct jcmarker jcmaster
    jcomapi jcparam jcphuff jcprepct jcsample jctrans jdapimin jdapistd jdatadst jdatasrc jdcoefct
    jdcolor jddctmgr jdhuff jdinput jdmainct jdmarker jdmaster jdmerge jdphuff jdpostct jdsample
    jdtrans jerror jfdctflt jfdctfst jfdctint jidctflt jidctfst jidctint jidctred jmemmgr jmemnobs
    jquant1 jquant2 jutils jcicc jdicc jaricom jcarith jdarith jsimd_none)

build_cjpeg() {   # mozjpeg (mozjpeg-sys 2.2.3), the real cjpeg tool, plain C (no SIMD)
    local s="${CRATE_DIR[mozjpeg-sys]}/vendor"
    local srcs=() f
    for f in "${MOZJPEG_LIB[@]}" cdjpeg rdswitch rdppm rdbmp rdgif rdtarga rdjpeg cjpeg; do srcs+=("$s/$f.c"); done
    OBJS=()
    compile cjpeg -- "${EMU_DEFS[@]}" -I"$WL/compat/mozjpeg" -I"$s" \
        -DBMP_SUPPORTED -DGIF_SUPPORTED -DPPM_SUPPORTED -DTARGA_SUPPORTED -- \
        "${srcs[@]}" "$WL/compat/wasi_stubs.c"
    link cjpeg "${EMU_LIBS[@]}"
}

# ---------------------------------------------------------------------------
# Inputs

# native_tool NAME SOURCES... : builds a tool for the build machine into
# build/host/NAME (for making inputs only).
native_tool() {
    local name=$1; shift
    [ -n "$HOST_CC" ] || die "no C compiler for the build machine (cc, gcc or clang) to make the inputs"
    mkdir -p "$B/host"
    "$HOST_CC" -O2 -w -o "$B/host/$name" "$@" 2>>"$LOGS/host-$name.log" \
        || { tail -20 "$LOGS/host-$name.log" >&2; die "building the host tool $name failed"; }
}

build_inputs() {
    local sq="${CRATE_DIR[libsqlite3-sys]}/sqlite3/sqlite3.c"
    local tmp="$INPUTS/.tmp"
    # The SQLite amalgamation (9.5 MB of real C) is the text corpus.
    cp "$sq" "$tmp" && mv -f "$tmp" "$INPUTS/sqlite3.c"
    head -n 2000 "$sq" >"$tmp" && mv -f "$tmp" "$INPUTS/small.txt"          # 95 KB
    head -n 100000 "$sq" >"$tmp" && mv -f "$tmp" "$INPUTS/sqlite3-100k.c"   # 3.7 MB

    # Compressed inputs for the decompression runs, made by a build-machine
    # bzip2 built from the same sources (its output is byte-identical).
    local s="${CRATE_DIR[bzip2-sys]}/bzip2-1.0.8"
    native_tool bzip2 $(files "$s" blocksort.c huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c bzip2.c)
    "$B/host/bzip2" -9 -c <"$INPUTS/small.txt" >"$tmp" && mv -f "$tmp" "$INPUTS/small.txt.bz2"
    "$B/host/bzip2" -9 -c <"$INPUTS/sqlite3.c" >"$tmp" && mv -f "$tmp" "$INPUTS/sqlite3.c.bz2"

    # Pictures for cjpeg.
    native_tool genppm "$WL/inputs/genppm.c"
    "$B/host/genppm" 2048 1536 >"$tmp" && mv -f "$tmp" "$INPUTS/picture.ppm"
    "$B/host/genppm" 256 192 >"$tmp" && mv -f "$tmp" "$INPUTS/picture-small.ppm"
}

# ---------------------------------------------------------------------------

fetch_sources
common_cflags

start=$SECONDS
for p in "${TODO[@]}"; do
    t=$SECONDS
    : >"$LOGS/$p.log"
    rm -rf "${OBJROOT:?}/$p"
    log "building $p"
    "build_$p"
    log "  $p: ${OUTDIR#"$WL"/}/$p.wasm ($(wc -c <"$OUTDIR/$p.wasm") bytes, $((SECONDS - t)) s)"
done
if [ "$NEED_INPUTS" = 1 ]; then
    log "making inputs in ${INPUTS#"$WL"/}/"
    build_inputs
fi
rm -f "$INPUTS/.tmp"
log "done in $((SECONDS - start)) s"
