// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// Each adapter installs guard hook into its agent's settings (Install)
// and says what guard doctor checks of it (Doctor). The helpers here read
// and merge the agents' JSON settings files.

// HookTimeout is the timeout guard init gives the hook, in seconds: well
// above guard hook's own deadline (3 s), so that guard, not the agent, ends
// a slow decision, in a deny.
const HookTimeout = 30

// DefaultScope is where guard init installs guard for an agent when it
// is not told: "user", the user's settings, for Codex and Copilot, which
// run a project's hooks only once their user has trusted the project (for
// Copilot, the whole folder: then it runs every hook and setting the
// project ships, a step that is the user's to take); elsewhere
// "project". Copilot runs the user's hooks in every folder, trusted or
// not; Codex trusts the user's hooks by the records guard init writes.
func DefaultScope(agentName string) string {
	switch agentName {
	case "codex", "copilot":
		return "user"
	}
	return "project"
}

// FileChange is a file guard init writes: what is there (nil: nothing)
// and what it will hold.
type FileChange struct {
	Path     string
	Old, New []byte
	// Mode is the file's permissions; 0 keeps a file's own, or makes a
	// new one 0644.
	Mode fs.FileMode
}

// hookEvent is an event init registers guard for: the agent's name of it,
// the matcher of guard's group ("" for none), and whether a failing hook
// must block (where the agent has the option).
type hookEvent struct {
	name, matcher string
	block         bool
}

// hooksFile is the settings file of an agent whose hooks are JSON in the
// shape Claude Code set: hooks, then events, then matcher groups, then
// handlers.
type hooksFile struct {
	path    string
	events  []hookEvent
	handler func(command string, ev hookEvent) map[string]any
	// emptyMatcher writes a matcher of "" where an event's is "", for an
	// agent whose catch-all is the empty matcher.
	emptyMatcher bool
	// args are guard hook's arguments after --agent (--read-only).
	args string
	// more changes the rest of the settings, after the hooks.
	more func(root map[string]any) error
}

// installHooks merges guard's handlers into an agent's hooks file.
func installHooks(f hooksFile, guard, agentName string) ([]FileChange, error) {
	old, root, err := ReadJSONObject(f.path)
	if err != nil {
		return nil, err
	}
	hooks, _ := root["hooks"].(map[string]any)
	if root["hooks"] != nil && hooks == nil {
		return nil, fmt.Errorf("%s: \"hooks\" is not an object", f.path)
	}
	if hooks == nil {
		hooks = map[string]any{}
	}
	command := quote(guard) + " hook --agent " + agentName + f.args
	for _, ev := range f.events {
		groups, err := mergeHandler(hooks[ev.name], ev.matcher, f.emptyMatcher, f.handler(command, ev))
		if err != nil {
			return nil, fmt.Errorf("%s: hooks.%s: %v", f.path, ev.name, err)
		}
		hooks[ev.name] = groups
	}
	root["hooks"] = hooks
	if f.more != nil {
		if err := f.more(root); err != nil {
			return nil, fmt.Errorf("%s: %v", f.path, err)
		}
	}
	data, err := EncodeJSON(root)
	if err != nil {
		return nil, err
	}
	return []FileChange{{Path: f.path, Old: old, New: data}}, nil
}

// encodeJSON is a settings file's JSON: indented, && and <> as they are.
func EncodeJSON(v any) ([]byte, error) {
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return data.Bytes(), nil
}

// mergeHandler puts guard's handler in an event's list of matcher groups:
// in place of the guard hook there is (one whose command runs guard hook),
// else in a group of its own. Other groups and handlers stay as they are.
// An empty matcher is written only where always says so.
func mergeHandler(v any, matcher string, always bool, handler map[string]any) ([]any, error) {
	var groups []any
	if v != nil {
		var ok bool
		if groups, ok = v.([]any); !ok {
			return nil, errors.New("not a list of matcher groups")
		}
	}
	for _, g := range groups {
		group, ok := g.(map[string]any)
		if !ok {
			continue
		}
		handlers, _ := group["hooks"].([]any)
		for i, h := range handlers {
			if hm, ok := h.(map[string]any); ok && IsGuardHook(hm["command"]) {
				handlers[i] = handler
				if matcher != "" || always {
					group["matcher"] = matcher
				}
				return groups, nil
			}
		}
	}
	group := map[string]any{"hooks": []any{handler}}
	if matcher != "" || always {
		group["matcher"] = matcher
	}
	return append(groups, group), nil
}

// IsGuardHook reports whether a hook command runs guard hook.
func IsGuardHook(v any) bool {
	cmd, ok := v.(string)
	if !ok {
		return false
	}
	bin, rest := HookBinary(cmd)
	f := strings.Fields(rest)
	return strings.HasSuffix(bin, "guard") && len(f) >= 1 && f[0] == "hook" && strings.HasPrefix(rest, " ")
}

// HookBinary splits a hook command into the program it runs and the rest:
// the single-quoted path guard init writes (spaces and quotes in it too),
// else the first word, its quotes trimmed.
func HookBinary(cmd string) (bin, rest string) {
	if bin, rest, ok := quotedWord(cmd); ok {
		return bin, rest
	}
	cmd = strings.TrimLeft(cmd, " \t")
	i := strings.IndexAny(cmd, " \t")
	if i < 0 {
		i = len(cmd)
	}
	return strings.Trim(cmd[:i], `'"`), cmd[i:]
}

// quotedWord reads the single-quoted word that starts cmd, as quote writes
// it (a quote inside ends the quotes, is escaped, and opens them again):
// guard's path, which may hold spaces. It
// returns the word unquoted and the rest, or false where cmd does not
// start with one.
func quotedWord(cmd string) (word, rest string, ok bool) {
	if !strings.HasPrefix(cmd, "'") {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; ; {
		j := strings.IndexByte(cmd[i:], '\'')
		if j < 0 {
			return "", "", false
		}
		b.WriteString(cmd[i : i+j])
		i += j + 1
		if !strings.HasPrefix(cmd[i:], `\''`) {
			return b.String(), cmd[i:], true
		}
		b.WriteByte('\'')
		i += 3
	}
}

// readJSONObject reads a settings file: its bytes (nil when it is not
// there) and its object. A file that is not a JSON object is an error, and
// init leaves it as it is.
func ReadJSONObject(name string) ([]byte, map[string]any, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, map[string]any{}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var root map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil || root == nil || dec.More() {
		return nil, nil, fmt.Errorf("%s is not a JSON object guard can read (%v); fix it, or move it aside", name, err)
	}
	return data, root, nil
}

// quote quotes a word for sh.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
