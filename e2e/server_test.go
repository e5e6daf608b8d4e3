// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// A scripted Anthropic Messages API on loopback. The first request of the
// main loop (the one that declares the scripted tool) is answered with the
// first scripted tool_use, and each request that brings a tool's result
// back with the next one; every other request gets a short text answer. Every request is
// recorded, so that a test can read the tool_result Claude Code sent back.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// toolUseID is the id of the first scripted tool_use block.
const toolUseID = "toolu_e2e_1"

// finalText is the model's answer once the tool call has come back.
const finalText = "e2e: done"

// request is one request the fake API received.
type request struct {
	Method string
	URL    string // path and query
	Body   []byte
	// Parsed from a Messages API body (zero for other requests).
	Stream   bool
	Model    string
	Tools    []string
	Messages []message
	Answer   string // what the server answered: "tool_use", "text", "count_tokens", "404"
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// block is a content block of a message, as far as the tests read it.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func (m message) blocks() []block {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []block{{Type: "text", Text: s}}
	}
	var bs []block
	json.Unmarshal(m.Content, &bs)
	return bs
}

// toolResult is a tool_result block as the model receives it.
type toolResult struct {
	Text    string // the text of its content, parts joined by newlines
	IsError bool
}

func (b block) result() toolResult {
	r := toolResult{IsError: b.IsError}
	var s string
	if json.Unmarshal(b.Content, &s) == nil {
		r.Text = s
		return r
	}
	var parts []block
	json.Unmarshal(b.Content, &parts)
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	r.Text = strings.Join(texts, "\n")
	return r
}

// fakeAPI is the scripted model.
type fakeAPI struct {
	t     *testing.T
	calls []scriptedCall
	srv   *httptest.Server

	mu       sync.Mutex
	requests []*request
	next     int // the scripted calls sent so far
}

// scriptedCall is one tool call of the model: its tool, and its input as
// JSON. The first has the id toolUseID, the next toolu_e2e_2, ...
type scriptedCall struct {
	tool, input string
}

// callID is the id of the tool_use block of the i-th scripted call.
func callID(i int) string { return fmt.Sprintf("toolu_e2e_%d", i+1) }

// newFakeAPI starts a server whose model calls tool with input (a JSON
// object) once.
func newFakeAPI(t *testing.T, tool string, input map[string]any) *fakeAPI {
	t.Helper()
	return newFakeAPISeq(t, tool, input)
}

// newFakeAPISeq starts a server whose model makes the tool calls given as
// pairs of a tool name and its input, one after the other: each once the
// previous one's result has come back.
func newFakeAPISeq(t *testing.T, pairs ...any) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t}
	for i := 0; i+1 < len(pairs); i += 2 {
		in, err := json.Marshal(pairs[i+1])
		if err != nil {
			t.Fatal(err)
		}
		f.calls = append(f.calls, scriptedCall{tool: pairs[i].(string), input: string(in)})
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) URL() string { return f.srv.URL }

// Requests returns a copy of the requests received so far.
func (f *fakeAPI) Requests() []*request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*request(nil), f.requests...)
}

// ToolResults returns the tool_result blocks for the scripted call in the
// requests received so far.
func (f *fakeAPI) ToolResults() []toolResult {
	var out []toolResult
	for _, r := range f.Requests() {
		if len(r.Messages) == 0 {
			continue
		}
		last := r.Messages[len(r.Messages)-1]
		if last.Role != "user" {
			continue
		}
		for _, b := range last.blocks() {
			if b.Type == "tool_result" && b.ToolUseID == toolUseID {
				out = append(out, b.result())
			}
		}
	}
	return out
}

// Summary describes the requests for a failure message.
func (f *fakeAPI) Summary() string {
	var b strings.Builder
	for i, r := range f.Requests() {
		fmt.Fprintf(&b, "  #%d %s %s stream=%v model=%q tools=%d messages=%d answer=%s\n",
			i, r.Method, r.URL, r.Stream, r.Model, len(r.Tools), len(r.Messages), r.Answer)
	}
	return b.String()
}

func (f *fakeAPI) serve(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := &request{Method: hr.Method, URL: hr.URL.RequestURI(), Body: body}
	f.mu.Lock()
	f.requests = append(f.requests, r)
	f.mu.Unlock()

	switch {
	case hr.Method == http.MethodPost && hr.URL.Path == "/v1/messages/count_tokens":
		r.Answer = "count_tokens"
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":42}`)
		return
	case hr.Method == http.MethodPost && hr.URL.Path == "/v1/messages":
	default:
		r.Answer = "404"
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"not in the fake API"}}`)
		return
	}

	var req struct {
		Model    string    `json:"model"`
		Stream   bool      `json:"stream"`
		Messages []message `json:"messages"`
		Tools    []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		r.Answer = "400"
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":%q}}`, err.Error())
		return
	}
	r.Model, r.Stream, r.Messages = req.Model, req.Stream, req.Messages
	offered := map[string]bool{}
	for _, tl := range req.Tools {
		r.Tools = append(r.Tools, tl.Name)
		offered[tl.Name] = true
	}

	// The first scripted call goes to the first request that offers its
	// tool and carries no tool result; each next one to a request that
	// brings a result back. A request without the tool (a title, a summary,
	// a quota probe) gets text.
	f.mu.Lock()
	var call scriptedCall
	id := ""
	if f.next < len(f.calls) && offered[f.calls[f.next].tool] && carriesToolResult(req.Messages) == (f.next > 0) {
		call, id = f.calls[f.next], callID(f.next)
		f.next++
	}
	f.mu.Unlock()
	callTool := id != ""

	var blk, delta map[string]any
	stop := "end_turn"
	if callTool {
		r.Answer = "tool_use " + call.tool
		blk = map[string]any{"type": "tool_use", "id": id, "name": call.tool, "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": call.input}
		stop = "tool_use"
	} else {
		r.Answer = "text"
		blk = map[string]any{"type": "text", "text": ""}
		delta = map[string]any{"type": "text_delta", "text": finalText}
	}
	model := req.Model
	if model == "" {
		model = "claude-e2e"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}

	if !req.Stream {
		// A non-streamed answer: the whole message at once.
		content := blk
		if callTool {
			var input map[string]any
			json.Unmarshal([]byte(call.input), &input)
			content = map[string]any{"type": "tool_use", "id": id, "name": call.tool, "input": input}
		} else {
			content = map[string]any{"type": "text", "text": finalText}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
			"content": []any{content}, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	events := []struct {
		name string
		data map[string]any
	}{
		{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": "msg_e2e", "type": "message", "role": "assistant", "model": model, "content": []any{},
			"stop_reason": nil, "stop_sequence": nil, "usage": usage}}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": blk}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": 5}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	}
	var buf bytes.Buffer
	for _, e := range events {
		data, _ := json.Marshal(e.data)
		fmt.Fprintf(&buf, "event: %s\ndata: %s\n\n", e.name, data)
	}
	w.Write(buf.Bytes())
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// carriesToolResult reports whether the last message is a user message
// holding a tool_result.
func carriesToolResult(msgs []message) bool {
	if len(msgs) == 0 {
		return false
	}
	last := msgs[len(msgs)-1]
	if last.Role != "user" {
		return false
	}
	for _, b := range last.blocks() {
		if b.Type == "tool_result" {
			return true
		}
	}
	return false
}
