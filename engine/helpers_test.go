// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

// testInput reads a tool input the way the agent adapters read a tool
// they do not know: command, a path field, pattern and url.
func testInput(in map[string]any) Input {
	str := func(k string) string { s, _ := in[k].(string); return s }
	out := Input{Command: str("command"), Pattern: str("pattern"), URL: str("url")}
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		if s := str(k); s != "" {
			out.Path = s
		}
	}
	return out
}
