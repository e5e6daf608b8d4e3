// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// A scripted OpenAI Responses API on loopback, for Codex CLI 0.169
// (model_provider with wire_api = "responses"). Its first streamed
// request (POST /v1/responses) that offers the scripted tool is answered
// with the first scripted function_call, and each request that brings a
// function_call_output back with the next one, or a text message. Every
// request is recorded, so that a test can read the function_call_output
// Codex sent back.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// codexItem is an item of a Responses API request's input.
type codexItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Name      string          `json:"name"`
	CallID    string          `json:"call_id"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Output    json.RawMessage `json:"output"`
}

// outputText returns a function_call_output's output as text.
func (it codexItem) outputText() string {
	var s string
	if json.Unmarshal(it.Output, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(it.Output, &parts) == nil {
		var texts []string
		for _, p := range parts {
			texts = append(texts, p.Text)
		}
		return strings.Join(texts, "\n")
	}
	return string(it.Output)
}

type codexRequest struct {
	URL    string
	Body   []byte
	Tools  []string
	Input  []codexItem
	Answer string
}

// fakeCodexAPI is the scripted model.
type fakeCodexAPI struct {
	t     *testing.T
	calls []scriptedCall
	srv   *httptest.Server

	mu       sync.Mutex
	requests []*codexRequest
	next     int
}

// newFakeCodexAPI starts a server whose model makes the tool calls given
// as pairs of a tool name and its arguments (a JSON object, or a string
// for a freeform tool), one after the other.
func newFakeCodexAPI(t *testing.T, pairs ...any) *fakeCodexAPI {
	t.Helper()
	f := &fakeCodexAPI{t: t}
	for i := 0; i+1 < len(pairs); i += 2 {
		in, ok := pairs[i+1].(string)
		if !ok {
			b, err := json.Marshal(pairs[i+1])
			if err != nil {
				t.Fatal(err)
			}
			in = string(b)
		}
		f.calls = append(f.calls, scriptedCall{tool: pairs[i].(string), input: in})
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeCodexAPI) URL() string { return f.srv.URL + "/v1" }

func (f *fakeCodexAPI) Requests() []*codexRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*codexRequest(nil), f.requests...)
}

// Outputs returns the function_call_output items the requests brought
// back, once each.
func (f *fakeCodexAPI) Outputs() []codexItem {
	var out []codexItem
	seen := map[string]bool{}
	for _, r := range f.Requests() {
		for _, it := range r.Input {
			if (it.Type == "function_call_output" || it.Type == "custom_tool_call_output") && !seen[it.CallID] {
				seen[it.CallID] = true
				out = append(out, it)
			}
		}
	}
	return out
}

func (f *fakeCodexAPI) Summary() string {
	var b strings.Builder
	for i, r := range f.Requests() {
		fmt.Fprintf(&b, "  #%d POST %s tools=%d input=%d answer=%s\n", i, r.URL, len(r.Tools), len(r.Input), r.Answer)
	}
	return b.String()
}

func (f *fakeCodexAPI) serve(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := &codexRequest{URL: hr.URL.RequestURI(), Body: body}
	f.mu.Lock()
	f.requests = append(f.requests, r)
	f.mu.Unlock()
	var req struct {
		Input []codexItem `json:"input"`
		Tools []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tools"`
	}
	if hr.Method != http.MethodPost || hr.URL.Path != "/v1/responses" || json.Unmarshal(body, &req) != nil {
		r.Answer = "404"
		http.Error(w, `{"error":{"message":"not in the fake API","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	r.Input = req.Input
	offered := map[string]string{}
	for _, tl := range req.Tools {
		if tl.Name != "" {
			r.Tools = append(r.Tools, tl.Name)
			offered[tl.Name] = tl.Type
		}
	}
	brings := false
	if n := len(req.Input); n > 0 {
		last := req.Input[n-1].Type
		brings = last == "function_call_output" || last == "custom_tool_call_output"
	}
	f.mu.Lock()
	var call scriptedCall
	ok := false
	if f.next < len(f.calls) && offered[f.calls[f.next].tool] != "" && brings == (f.next > 0) {
		call, ok = f.calls[f.next], true
		f.next++
	}
	n := f.next
	f.mu.Unlock()
	var item map[string]any
	switch {
	case ok && offered[call.tool] == "custom":
		r.Answer = "custom_tool_call " + call.tool
		item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%d", n), "call_id": fmt.Sprintf("call_%d", n), "name": call.tool, "input": call.input, "status": "completed"}
	case ok:
		r.Answer = "function_call " + call.tool
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", n), "call_id": fmt.Sprintf("call_%d", n), "name": call.tool, "arguments": call.input, "status": "completed"}
	default:
		r.Answer = "text"
		item = map[string]any{"type": "message", "id": "msg_e2e", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": finalText, "annotations": []any{}}}}
	}
	id := fmt.Sprintf("resp_e2e_%d", len(f.Requests()))
	events := []map[string]any{
		{"type": "response.created", "response": map[string]any{"id": id}},
		{"type": "response.output_item.added", "output_index": 0, "item": item},
		{"type": "response.output_item.done", "output_index": 0, "item": item},
		{"type": "response.completed", "response": map[string]any{"id": id, "usage": map[string]any{
			"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 5, "output_tokens_details": nil, "total_tokens": 15}}},
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e["type"], data)
	}
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}
