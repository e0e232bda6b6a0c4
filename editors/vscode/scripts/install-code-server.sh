#!/usr/bin/env bash
# Installs code-server (VS Code in a browser, from npm) into $1 for the real-editor test
# (test/vscode.e2e.test.ts), without the downloads its postinstall would make (unreachable here):
# 4.100.3 is the last release that runs on Node 20. Its postinstall (`npm install` in lib/vscode,
# native modules, @vscode/ripgrep's binary from GitHub) is done by hand: dependencies installed
# without scripts, the native modules the editor loads rebuilt against this Node's headers
# (/usr/include/node: no header download), Debian's ripgrep as `rg`, and the postinstall's symlinks.
# Needs Debian's libkrb5-dev (kerberos), g++, make, python3 and ripgrep (see .ci/run).
# Idempotent: a complete install (the stamp file) is kept.
set -euo pipefail
dir="${1:?usage: install-code-server.sh <dir>}"
version=4.100.3
stamp="$dir/.installed-$version"
[ -f "$stamp" ] && exit 0
rm -rf "$dir"
mkdir -p "$dir"
export npm_config_nodedir="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
export npm_config_yes=true npm_config_audit=false npm_config_fund=false npm_config_loglevel=error
npm install -g --prefix "$dir" --ignore-scripts "code-server@$version" >&2
cs="$dir/lib/node_modules/code-server"
(cd "$cs" && npm rebuild argon2 >&2)
cd "$cs/lib/vscode"
npm install --omit=dev --ignore-scripts >&2
# The native modules VS Code's server loads (node-pty's own postinstall only writes compile_commands.json).
npm rebuild @vscode/spdlog native-watchdog @vscode/deviceid kerberos >&2
npm rebuild node-pty >&2 || test -f node_modules/node-pty/build/Release/pty.node
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sf code-linux.sh code-server)
(cd bin/helpers && ln -sf browser-linux.sh browser.sh)
(cd extensions && npm install --omit=dev --ignore-scripts >&2)
"$dir/bin/code-server" --version >&2
touch "$stamp"
