#!/usr/bin/env bash
# The language server through a real LSP client: tests/lsp/test_server.py
# (pytest-lsp) starts the built `replay-audit lsp`, opens the bundled
# example, receives RH001 at its line, hovers, applies the quick fix and
# receives no RH001.
#
# Needs Python 3 with pytest-lsp. When it is missing the script tries
# `pip install pytest-lsp` (PyPI); only when that is impossible does it skip,
# with a message, and exit 0. Any other failure exits 1.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"

if ! command -v python3 >/dev/null 2>&1; then
  echo "tests/lsp: skipped: python3 is not installed"
  exit 0
fi
if ! python3 -c 'import pytest_lsp' >/dev/null 2>&1; then
  python3 -m pip install --quiet pytest-lsp >/dev/null 2>&1 || true
  if ! python3 -c 'import pytest_lsp' >/dev/null 2>&1; then
    echo "tests/lsp: skipped: pytest-lsp cannot be installed (pip install pytest-lsp)"
    exit 0
  fi
fi
cargo build --quiet
REPLAY_AUDIT_BIN="$target/debug/replay-audit" python3 -m pytest -q -p no:cacheprovider tests/lsp
