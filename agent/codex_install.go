// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// Codex runs a hook of hooks.json only once the user has trusted it: a
// hook without a trust record in config.toml, or whose record's hash is
// stale, is skipped without a word. guard init writes the record Codex
// itself would: under [hooks.state."HOOKS.JSON:EVENT:GROUP:HANDLER"],
// trusted_hash = "sha256:" and the sha256 of the handler's identity (the
// event and the handler, compact JSON with its keys in order, async and
// timeout always there).

// Install registers guard in Codex's hooks.json (in $CODEX_HOME, else
// ~/.codex) for PreToolUse, PermissionRequest (to approve what guard allows
// where Codex would ask), PostToolUse and SessionEnd, and trusts the hooks
// in config.toml. Only the user's layer: a project's .codex/hooks.json needs
// the project trusted in the user's configuration too.
func (Codex) Install(dir string, project bool, guard string) ([]FileChange, error) {
	if project {
		return nil, errors.New("for Codex, guard installs itself in the user's layer: --scope user (a project's hooks need the project trusted in the user's configuration as well)")
	}
	home := filepath.Join(dir, ".codex")
	if v := os.Getenv("CODEX_HOME"); filepath.IsAbs(v) {
		home = v
	}
	f := hooksFile{
		path:   filepath.Join(home, "hooks.json"),
		events: []hookEvent{{"PreToolUse", "", true}, {"PermissionRequest", "", false}, {"PostToolUse", "", false}, {"SessionEnd", "", false}},
		handler: func(command string, ev hookEvent) map[string]any {
			return map[string]any{"type": "command", "command": command, "timeout": codexTimeout(ev.name)}
		},
	}
	changes, err := installHooks(f, guard, "codex")
	if err != nil {
		return nil, err
	}
	var root map[string]any
	if err := json.Unmarshal(changes[0].New, &root); err != nil {
		return nil, err
	}
	hooks := root["hooks"].(map[string]any)
	trust := map[string]string{}
	for _, ev := range f.events {
		g, h, handler := findGuardHandler(hooks[ev.name])
		if handler == nil {
			return nil, fmt.Errorf("%s: guard's %s hook is not where init put it", f.path, ev.name)
		}
		event := codexEventName(ev.name)
		sum, err := codexHookHash(event, handler)
		if err != nil {
			return nil, err
		}
		trust[fmt.Sprintf("%s:%s:%d:%d", f.path, event, g, h)] = "sha256:" + sum
	}
	cfg, err := trustRecords(filepath.Join(home, "config.toml"), trust)
	if err != nil {
		return nil, err
	}
	return append(changes, cfg), nil
}

// codexSessionEndTimeout is the longest timeout Codex takes for a
// SessionEnd hook, in seconds: Codex 0.169 clamps a longer one to it, and
// says so in every run ("clamping SessionEnd hook timeout to 3s", an error
// item of codex exec --json). It bounds no other event's timeout (checked
// up to 10^8 s for PreToolUse, PermissionRequest, PostToolUse,
// SessionStart, UserPromptSubmit, Stop and PreCompact). At SessionEnd
// guard only ends the session's grants.
const codexSessionEndTimeout = 3

// codexTimeout is the timeout guard init gives its hook for a Codex
// event, in seconds: HookTimeout, or as long as Codex takes, where that is
// shorter.
func codexTimeout(event string) int {
	if event == "SessionEnd" {
		return codexSessionEndTimeout
	}
	return HookTimeout
}

// codexEventName is Codex's own name of a hook event: pre_tool_use.
func codexEventName(name string) string {
	var b strings.Builder
	for i, r := range name {
		if 'A' <= r && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// findGuardHandler returns the group and handler index of guard's handler
// in an event's groups.
func findGuardHandler(v any) (int, int, map[string]any) {
	groups, _ := v.([]any)
	for g, gv := range groups {
		group, _ := gv.(map[string]any)
		handlers, _ := group["hooks"].([]any)
		for h, hv := range handlers {
			if hm, ok := hv.(map[string]any); ok && IsGuardHook(hm["command"]) {
				return g, h, hm
			}
		}
	}
	return 0, 0, nil
}

// codexHookHash is the sha256, in hex, of a handler's identity as Codex
// hashes it for its trust record.
func codexHookHash(event string, handler map[string]any) (string, error) {
	id := map[string]any{"type": handler["type"], "command": handler["command"], "timeout": handler["timeout"], "async": false}
	if a, ok := handler["async"]; ok {
		id["async"] = a
	}
	if m, ok := handler["statusMessage"]; ok {
		id["statusMessage"] = m
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"event_name": event, "hooks": []any{id}}); err != nil {
		return "", err
	}
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return hex.EncodeToString(sum[:]), nil
}

// codexTrust is the part of Codex's config.toml that trusts hooks.
type codexTrust struct {
	Hooks struct {
		State map[string]struct {
			TrustedHash string `toml:"trusted_hash"`
		} `toml:"state"`
	} `toml:"hooks"`
}

// trustRecords returns config.toml with a trust record for each key: a
// record there already gets its hash replaced, a missing one is added at
// the end. Everything else in the file stays as it is; a file that is not
// TOML is left alone, with an error.
func trustRecords(name string, trust map[string]string) (FileChange, error) {
	old, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return FileChange{}, err
	}
	var cfg codexTrust
	if _, err := toml.Decode(string(old), &cfg); err != nil {
		return FileChange{}, fmt.Errorf("%s is not TOML guard can read (%v); fix it, or move it aside", name, err)
	}
	text := string(old)
	for _, key := range slices.Sorted(maps.Keys(trust)) {
		header := fmt.Sprintf("[hooks.state.%q]", key)
		line := fmt.Sprintf("trusted_hash = %q", trust[key])
		rec, ok := cfg.Hooks.State[key]
		switch {
		case ok && rec.TrustedHash == trust[key]:
		case ok && strings.Contains(text, header):
			i := strings.Index(text, header)
			rest := text[i+len(header):]
			j := strings.Index(rest, "trusted_hash")
			end := strings.IndexByte(rest[j:], '\n')
			if j < 0 || end < 0 {
				return FileChange{}, fmt.Errorf("%s: the record %s is written in a way guard does not change; remove it, and run guard init again", name, header)
			}
			text = text[:i+len(header)] + rest[:j] + line + rest[j+end:]
		case ok:
			return FileChange{}, fmt.Errorf("%s: the record for %s is written in a way guard does not change; remove it, and run guard init again", name, key)
		default:
			if text != "" && !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			if text != "" {
				text += "\n"
			}
			text += header + "\n" + line + "\n"
		}
	}
	var oldBytes []byte
	if old != nil {
		oldBytes = old
	}
	return FileChange{Path: name, Old: oldBytes, New: []byte(text)}, nil
}
