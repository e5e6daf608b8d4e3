#!/usr/bin/env bash
# Installs the Claude Code CLI that the end-to-end tests drive, pinned, into
# ${GUARD_E2E_CACHE:-$HOME/.cache/guard-e2e}. Idempotent: does nothing when
# that version's native binary is already there. The tests then find it at
#   $GUARD_E2E_CACHE/node_modules/@anthropic-ai/claude-code-linux-<arch>/claude
# (the platform package; the postinstall script is not needed).
set -euo pipefail

version=2.1.332
cache="${GUARD_E2E_CACHE:-$HOME/.cache/guard-e2e}"
case "$(uname -m)" in
	x86_64 | amd64) arch=x64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) echo "e2e/install.sh: no Claude Code package for $(uname -m)" >&2; exit 1 ;;
esac
platform="$cache/node_modules/@anthropic-ai/claude-code-linux-$arch"

installed() {
	[ -x "$platform/claude" ] &&
		grep -q "\"version\": *\"$version\"" "$platform/package.json" 2>/dev/null
}

if installed; then
	echo "Claude Code $version already in $platform"
	exit 0
fi
command -v npm >/dev/null || { echo "e2e/install.sh: npm is needed (apt-get install npm)" >&2; exit 1; }
mkdir -p "$cache"
npm install --no-audit --no-fund --save-exact --prefix "$cache" "@anthropic-ai/claude-code@$version"
if ! installed; then
	echo "e2e/install.sh: npm ran, but $platform/claude ($version) is not there" >&2
	exit 1
fi
echo "Claude Code $version installed: $platform/claude"
