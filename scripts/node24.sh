#!/usr/bin/env bash
# Makes Node 24 (the Node inside Electron 45) the first `node` on PATH, for this shell.
#
#   source scripts/node24.sh     # a developer, once per shell
#   bash scripts/node24.sh       # prints the folder to put first on PATH (CI)
#
# When the machine's own node is already 24 or newer this does nothing. Otherwise it installs
# the npm registry's own binary package of Node (node-<platform>-<arch>, the official build
# repackaged by the Node.js project) into .node/ beside the project, once; the machine's npm runs
# on it. No download besides the npm registry is needed.
NODE24_VERSION="${NODE24_VERSION:-24.22.3}"

node24_main() {
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  local have
  have="$(node --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/')"
  if [ -n "$have" ] && [ "$have" -ge 24 ]; then
    dirname "$(command -v node)"
    return 0
  fi
  local os arch
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) echo "scripts/node24.sh: no Node 24 package for $(uname -s); install Node 24 from nodejs.org" >&2; return 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "scripts/node24.sh: no Node 24 package for $(uname -m); install Node 24 from nodejs.org" >&2; return 1 ;;
  esac
  local package="node-${os}-${arch}"
  local bin="$root/.node/node_modules/$package/bin"
  if ! "$bin/node" --version 2>/dev/null | grep -q "^v${NODE24_VERSION}$"; then
    echo "scripts/node24.sh: installing $package@$NODE24_VERSION into .node/ (from the npm registry)" >&2
    mkdir -p "$root/.node"
    if ! npm install --prefix "$root/.node" --no-save --no-audit --no-fund --loglevel=error \
      "$package@$NODE24_VERSION" >&2; then
      cat >&2 <<TXT
scripts/node24.sh: could not install $package@$NODE24_VERSION from the npm registry.
Agent Teams needs Node 24 (the Node inside Electron 45). Install it another way (nodejs.org,
nvm: 'nvm install 24', or your system's packages), put it first on PATH, and run the command
again; this script then does nothing.
TXT
      return 1
    fi
  fi
  echo "$bin"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  node24_main
else
  if node24_dir="$(node24_main)"; then
    case ":$PATH:" in *":$node24_dir:"*) ;; *) export PATH="$node24_dir:$PATH" ;; esac
    echo "node $(node --version) from $(command -v node)" >&2
  fi
  unset node24_dir
fi
