#!/usr/bin/env bash
# Rebuilds the wheels in wheels/ from the public repositories' release tags
# (see PROVENANCE.md). Not run by CI: the wheels are kept as fixtures.
#   build-wheels.sh <python-sdk git dir> <servers git dir>
# Build backends (hatchling) come from pip's configured index. Releases that
# version themselves with uv-dynamic-versioning (not on the local index) get
# their tag written in as a static version before the build.
set -euo pipefail
sdk_git=$1
servers_git=$2
out=$(cd "$(dirname "$0")" && pwd)/wheels
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

build() { # <git dir> <tag> <subdir or .> <version>
  local git=$1 tag=$2 sub=$3 version=$4
  local dir="$work/$tag-${sub//\//_}"
  mkdir -p "$dir"
  git --git-dir="$git" archive "$tag" | tar -x -C "$dir"
  local src="$dir/$sub"
  if grep -q 'uv-dynamic-versioning' "$src/pyproject.toml"; then
    python3 - "$src/pyproject.toml" "$version" <<'PY'
import re, sys
path, version = sys.argv[1], sys.argv[2]
text = open(path).read()
text = text.replace('dynamic = ["version"]', f'version = "{version}"', 1)
text = re.sub(r'requires = \["hatchling", "uv-dynamic-versioning"\]', 'requires = ["hatchling"]', text)
text = re.sub(r'\n\[tool\.hatch\.version\]\n[^\[]*', '\n', text)
text = re.sub(r'\n\[tool\.uv-dynamic-versioning\]\n[^\[]*', '\n', text)
open(path, 'w').write(text)
PY
  fi
  pip wheel --no-deps --quiet -w "$out" "$src"
}

for v in 1.1.3 1.3.0 1.6.0 1.9.3 1.12.4; do build "$sdk_git" "v$v" . "$v"; done
for s in git sqlite sentry time; do build "$servers_git" 2025.1.14 "src/$s" -; done
(cd "$out" && sha256sum ./*.whl)
