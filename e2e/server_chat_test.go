// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// A scripted OpenAI Chat Completions API on loopback, for the agents that
// speak it to a configurable base URL (Qwen Code, OpenCode, Cline, Factory
// Droid with a custom model). The first request (POST .../chat/completions)
// that offers the scripted tool and carries no tool result is answered
// with the first scripted tool call, and each request whose last message
// is a tool result with the next one, or a text answer. Streamed requests
// get server-sent chunks, the others one JSON completion. Every request is
// recorded, so that a test can read the tool message the agent sent back.
// GET .../models lists one model, for agents that ask.

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

// chatMessage is a message of a Chat Completions request, as far as the
// tests read it.
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// Text returns the message's content as text: a string, or the text
// parts of a list of parts.
func (m chatMessage) Text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &parts) == nil {
		var texts []string
		for _, p := range parts {
			texts = append(texts, p.Text)
		}
		return strings.Join(texts, "\n")
	}
	return string(m.Content)
}

// chatRequest is one request the fake received.
type chatRequest struct {
	Method   string
	URL      string
	Body     []byte
	Stream   bool
	Model    string
	Tools    []string
	Messages []chatMessage
	Answer   string // "tool_call NAME", "text", "models", "404", "400"
}

// fakeChatAPI is the scripted model.
type fakeChatAPI struct {
	t     *testing.T
	calls []scriptedCall
	srv   *httptest.Server

	mu       sync.Mutex
	requests []*chatRequest
	next     int
}

// chatCallID is the id of the i-th scripted tool call.
func chatCallID(i int) string { return fmt.Sprintf("call_e2e_%d", i+1) }

// newFakeChatAPI starts a server whose model makes the tool calls given
// as pairs of a tool name and its arguments (a JSON object), one after
// the other: each once the previous one's result has come back.
func newFakeChatAPI(t *testing.T, pairs ...any) *fakeChatAPI {
	t.Helper()
	f := &fakeChatAPI{t: t}
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

// URL is the API's base URL, with its /v1.
func (f *fakeChatAPI) URL() string { return f.srv.URL + "/v1" }

// Requests returns a copy of the requests received so far.
func (f *fakeChatAPI) Requests() []*chatRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*chatRequest(nil), f.requests...)
}

// ToolResults returns the text of the tool messages the requests brought
// back for the scripted calls, once per call id, in order.
func (f *fakeChatAPI) ToolResults() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range f.Requests() {
		for _, m := range r.Messages {
			if m.Role == "tool" && strings.HasPrefix(m.ToolCallID, "call_e2e_") && !seen[m.ToolCallID] {
				seen[m.ToolCallID] = true
				out = append(out, m.Text())
			}
		}
	}
	return out
}

// Summary describes the requests for a failure message.
func (f *fakeChatAPI) Summary() string {
	var b strings.Builder
	for i, r := range f.Requests() {
		fmt.Fprintf(&b, "  #%d %s %s stream=%v model=%q tools=%v messages=%d answer=%s\n",
			i, r.Method, r.URL, r.Stream, r.Model, r.Tools, len(r.Messages), r.Answer)
	}
	return b.String()
}

func (f *fakeChatAPI) serve(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := &chatRequest{Method: hr.Method, URL: hr.URL.RequestURI(), Body: body}
	f.mu.Lock()
	f.requests = append(f.requests, r)
	f.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	switch {
	case hr.Method == http.MethodGet && strings.HasSuffix(hr.URL.Path, "/models"):
		r.Answer = "models"
		io.WriteString(w, `{"object":"list","data":[{"id":"e2e-model","object":"model","created":0,"owned_by":"e2e"}]}`)
		return
	case hr.Method == http.MethodPost && strings.HasSuffix(hr.URL.Path, "/chat/completions"):
	default:
		r.Answer = "404"
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"type":"not_found","message":"not in the fake API"}}`)
		return
	}

	var req struct {
		Model    string        `json:"model"`
		Stream   bool          `json:"stream"`
		Messages []chatMessage `json:"messages"`
		Tools    []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		r.Answer = "400"
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"type":"invalid_request_error","message":%q}}`, err.Error())
		return
	}
	r.Model, r.Stream, r.Messages = req.Model, req.Stream, req.Messages
	offered := map[string]bool{}
	for _, tl := range req.Tools {
		r.Tools = append(r.Tools, tl.Function.Name)
		offered[tl.Function.Name] = true
	}
	toolResult := len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == "tool"

	f.mu.Lock()
	var call scriptedCall
	id := ""
	if f.next < len(f.calls) && offered[f.calls[f.next].tool] && toolResult == (f.next > 0) {
		call, id = f.calls[f.next], chatCallID(f.next)
		f.next++
	}
	f.mu.Unlock()

	model := req.Model
	if model == "" {
		model = "e2e-model"
	}
	finish := "stop"
	msg := map[string]any{"role": "assistant", "content": finalText}
	if id != "" {
		r.Answer = "tool_call " + call.tool
		finish = "tool_calls"
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": id, "type": "function",
			"function": map[string]any{"name": call.tool, "arguments": call.input}}}}
	} else {
		r.Answer = "text"
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}

	if !req.Stream {
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-e2e", "object": "chat.completion", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	chunk := func(delta map[string]any, finish any, usage any) []byte {
		c := map[string]any{"id": "chatcmpl-e2e", "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		data, _ := json.Marshal(c)
		return data
	}
	var buf bytes.Buffer
	for _, data := range [][]byte{
		chunk(msg, nil, nil),
		chunk(map[string]any{}, finish, usage),
	} {
		fmt.Fprintf(&buf, "data: %s\n\n", data)
	}
	buf.WriteString("data: [DONE]\n\n")
	w.Write(buf.Bytes())
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// TestFakeChatAPI checks the scripted model's turns: text for a request
// that does not offer the tool, the call for the first that does, text
// after its result, in both the streamed and the whole form.
func TestFakeChatAPI(t *testing.T) {
	f := newFakeChatAPI(t, "run_shell_command", map[string]any{"command": "ls"})
	post := func(body string) string {
		t.Helper()
		resp, err := http.Post(f.URL()+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return string(data)
	}
	tools := `"tools":[{"type":"function","function":{"name":"run_shell_command"}}]`
	if got := post(`{"messages":[{"role":"user","content":"hi"}]}`); !strings.Contains(got, finalText) {
		t.Errorf("no tool offered: got %s, want the text answer", got)
	}
	if got := post(`{"stream":true,"messages":[{"role":"user","content":"hi"}],` + tools + `}`); !strings.Contains(got, `"id":"call_e2e_1"`) || !strings.Contains(got, `{\"command\":\"ls\"}`) || !strings.HasSuffix(got, "data: [DONE]\n\n") {
		t.Errorf("tool offered: got %s, want the streamed call", got)
	}
	if got := post(`{"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"call_e2e_1","content":[{"type":"text","text":"out"}]}],` + tools + `}`); !strings.Contains(got, finalText) {
		t.Errorf("after the result: got %s, want the text answer", got)
	}
	if got := f.ToolResults(); len(got) != 1 || got[0] != "out" {
		t.Errorf("ToolResults = %q, want [out]", got)
	}
}
