#!/usr/bin/env bash
# Installs the agent CLIs that the end-to-end tests drive, pinned, into
# ${GUARD_E2E_CACHE:-$HOME/.cache/guard-e2e}. Idempotent: a CLI whose pinned
# version is already there is left alone. A CLI that fails to install does
# not stop the others; the script then exits 1, and the tests of that agent
# skip (or fail under GUARD_E2E=require). The tests find them at
#   Claude Code  $GUARD_E2E_CACHE/node_modules/@anthropic-ai/claude-code-linux-<arch>/claude
#                (the platform package; the postinstall script is not needed)
#   Gemini CLI   $GUARD_E2E_CACHE/node_modules/@google/gemini-cli/bundle/gemini.js (run with node)
#   Codex CLI    $GUARD_E2E_CACHE/node_modules/@openai/codex-linux-<arch>/vendor/<triple>/bin/codex
#                (the platform package, about 400 MB)
#   Copilot CLI  $GUARD_E2E_CACHE/node_modules/@github/copilot-linux-<arch>/copilot
#                (the platform package, about 190 MB; the tests unpack its
#                runtime, another 235 MB, into $GUARD_E2E_CACHE/copilot-runtime)
#   Qwen Code    $GUARD_E2E_CACHE/node_modules/@qwen-code/qwen-code/cli-entry.js (run with node;
#                it asks for Node.js 22 and runs the tests on 20)
#   OpenCode     $GUARD_E2E_CACHE/node_modules/opencode-linux-<arch>/bin/opencode
#                (the platform package, about 185 MB; opencode-ai's install
#                script, which npm does not run, is not needed)
#   Cline CLI    $GUARD_E2E_CACHE/node_modules/cline/bin/cline (run with node: it
#                runs the binary of @cline/cli-linux-<arch>, about 150 MB; its
#                postinstall script, which npm 11 does not run, only links
#                that binary beside it, and is not needed)
#   Amp          $GUARD_E2E_CACHE/node_modules/@ampcode/cli-linux-<arch>/amp (the platform package)
#   Droid        $GUARD_E2E_CACHE/node_modules/@factory/cli-linux-<arch>/bin/droid (the platform package)
# Name the agents to install only some of them: e2e/install.sh gemini codex.
set -uo pipefail

claude_version=2.1.332
gemini_version=0.61.0
codex_version=0.169.0
copilot_version=1.0.102
qwen_version=0.24.4
opencode_version=1.18.33
cline_version=3.0.65
amp_version=0.0.1790142911-g7618fb
droid_version=0.215.0
cache="${GUARD_E2E_CACHE:-$HOME/.cache/guard-e2e}"
case "$(uname -m)" in
	x86_64 | amd64) arch=x64 triple=x86_64-unknown-linux-musl ;;
	aarch64 | arm64) arch=arm64 triple=aarch64-unknown-linux-musl ;;
	*) echo "e2e/install.sh: no agent packages for $(uname -m)" >&2; exit 1 ;;
esac
claude_dir="$cache/node_modules/@anthropic-ai/claude-code-linux-$arch"
gemini_dir="$cache/node_modules/@google/gemini-cli"
codex_dir="$cache/node_modules/@openai/codex-linux-$arch"
copilot_dir="$cache/node_modules/@github/copilot-linux-$arch"
qwen_dir="$cache/node_modules/@qwen-code/qwen-code"
opencode_dir="$cache/node_modules/opencode-linux-$arch"
cline_dir="$cache/node_modules/cline"
amp_dir="$cache/node_modules/@ampcode/cli-linux-$arch"
droid_dir="$cache/node_modules/@factory/cli-linux-$arch"

# has_version DIR VERSION: DIR/package.json says VERSION (the Codex platform
# package is an alias of @openai/codex@VERSION-linux-<arch>).
has_version() {
	grep -q "\"version\": *\"$2\(-linux-$arch\)\?\"" "$1/package.json" 2>/dev/null
}

installed() {
	case $1 in
	claude) [ -x "$claude_dir/claude" ] && has_version "$claude_dir" "$claude_version" ;;
	gemini) [ -f "$gemini_dir/bundle/gemini.js" ] && has_version "$gemini_dir" "$gemini_version" ;;
	codex) [ -x "$codex_dir/vendor/$triple/bin/codex" ] && has_version "$codex_dir" "$codex_version" ;;
	copilot) [ -x "$copilot_dir/copilot" ] && has_version "$copilot_dir" "$copilot_version" ;;
	qwen) [ -f "$qwen_dir/cli-entry.js" ] && has_version "$qwen_dir" "$qwen_version" ;;
	opencode) [ -x "$opencode_dir/bin/opencode" ] && has_version "$opencode_dir" "$opencode_version" ;;
	cline) [ -f "$cline_dir/bin/cline" ] && [ -x "$cache/node_modules/@cline/cli-linux-$arch/bin/cline" ] && has_version "$cline_dir" "$cline_version" ;;
	amp) [ -x "$amp_dir/amp" ] && has_version "$amp_dir" "$amp_version" ;;
	droid) [ -x "$droid_dir/bin/droid" ] && has_version "$droid_dir" "$droid_version" ;;
	esac
}

package() {
	case $1 in
	claude) echo "@anthropic-ai/claude-code@$claude_version" ;;
	gemini) echo "@google/gemini-cli@$gemini_version" ;;
	codex) echo "@openai/codex@$codex_version" ;;
	copilot) echo "@github/copilot@$copilot_version" ;;
	qwen) echo "@qwen-code/qwen-code@$qwen_version" ;;
	opencode) echo "opencode-ai@$opencode_version" ;;
	cline) echo "cline@$cline_version" ;;
	amp) echo "@sourcegraph/amp@$amp_version" ;;
	droid) echo "droid@$droid_version" ;;
	esac
}

where() {
	case $1 in
	claude) echo "$claude_dir/claude" ;;
	gemini) echo "$gemini_dir/bundle/gemini.js" ;;
	codex) echo "$codex_dir/vendor/$triple/bin/codex" ;;
	copilot) echo "$copilot_dir/copilot" ;;
	qwen) echo "$qwen_dir/cli-entry.js" ;;
	opencode) echo "$opencode_dir/bin/opencode" ;;
	cline) echo "$cline_dir/bin/cline" ;;
	amp) echo "$amp_dir/amp" ;;
	droid) echo "$droid_dir/bin/droid" ;;
	esac
}

agents=("$@")
[ ${#agents[@]} -gt 0 ] || agents=(claude gemini codex copilot qwen opencode cline amp droid)
failed=()
for agent in "${agents[@]}"; do
	case $agent in
	claude | gemini | codex | copilot | qwen | opencode | cline | amp | droid) ;;
	*) echo "e2e/install.sh: unknown agent $agent (claude, gemini, codex, copilot, qwen, opencode, cline, amp, droid)" >&2; failed+=("$agent"); continue ;;
	esac
	if installed "$agent"; then
		echo "$(package "$agent") already in $(where "$agent")"
		continue
	fi
	if ! command -v npm >/dev/null; then
		echo "e2e/install.sh: npm is needed for $(package "$agent") (apt-get install npm)" >&2
		failed+=("$agent")
		continue
	fi
	mkdir -p "$cache"
	# Each package on its own: one that fails leaves the others as they
	# were. --save-exact records the pin in $cache/package.json, so that
	# the next install keeps the packages already there.
	if ! npm install --no-audit --no-fund --save-exact --prefix "$cache" "$(package "$agent")"; then
		echo "e2e/install.sh: npm install $(package "$agent") failed" >&2
		failed+=("$agent")
		continue
	fi
	if ! installed "$agent"; then
		echo "e2e/install.sh: npm ran, but $(where "$agent") ($(package "$agent")) is not there" >&2
		failed+=("$agent")
		continue
	fi
	echo "$(package "$agent") installed: $(where "$agent")"
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "e2e/install.sh: not installed: ${failed[*]}" >&2
	exit 1
fi
