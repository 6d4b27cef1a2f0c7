#!/usr/bin/env bash
# Builds wpp and installs it for the current user: the binary in PREFIX/bin, a man page per
# command in PREFIX/share/man/man1 (`man wpp`, `man wpp-record`), and completions for bash,
# zsh and fish. PREFIX is the first argument, ~/.local by default.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-$HOME/.local}"
cargo build --release --bin wpp
wpp="${CARGO_TARGET_DIR:-target}/release/wpp"
mkdir -p "$prefix/bin" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 755 "$wpp" "$prefix/bin/wpp"
"$wpp" man "$prefix/share/man/man1"
"$wpp" completions bash > "$prefix/share/bash-completion/completions/wpp"
"$wpp" completions zsh > "$prefix/share/zsh/site-functions/_wpp"
"$wpp" completions fish > "$prefix/share/fish/vendor_completions.d/wpp.fish"
echo "wpp: installed $("$prefix/bin/wpp" --version) in $prefix/bin, its man pages and completions"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "wpp: add $prefix/bin to PATH to run it as \`wpp\`" ;;
esac
