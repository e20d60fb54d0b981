#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks that the C and C++ sources under include/, lib/, tools/, examples/,
# python/ and bench/
# are formatted as .clang-format says (clang-format --dry-run -Werror), and
# lists those that are not; exits 1 if any. CLANG_FORMAT names another
# clang-format than the one on PATH. To format a file: clang-format -i FILE.
set -euo pipefail

cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
if ! command -v "$clang_format" >/dev/null; then
  echo "check-format: $clang_format not found (Debian package clang-format)" >&2
  exit 2
fi

# Hand-written sources only: generated files (.inc, .h.inc, the configured
# op shards) live under build/.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard \
    -- include lib tools examples python bench | grep -E '\.(h|cpp|c)$')
else
  mapfile -t files < <(find include lib tools examples python bench -type f \
    \( -name '*.h' -o -name '*.cpp' -o -name '*.c' \) | sort)
fi

bad=()
for f in "${files[@]}"; do
  [[ -f $f ]] || continue
  if ! "$clang_format" --dry-run -Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done

echo "$("$clang_format" --version | head -1): ${#files[@]} files, ${#bad[@]} not formatted"
if ((${#bad[@]})); then
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
