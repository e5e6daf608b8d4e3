// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// A scripted Gemini API on loopback, for Gemini CLI 0.61. The main loop
// streams (POST .../models/M:streamGenerateContent?alt=sse): its first
// request that declares the scripted tool is answered with the first
// scripted functionCall, and each request that brings a functionResponse
// back with the next one, or text. Other calls (the model router's and
// the next-speaker check's generateContent, with a JSON schema) get a
// JSON answer that fills the schema. Every request is recorded, so that
// a test can read the functionResponse Gemini CLI sent back.

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

// geminiContent is a content of a generateContent request.
type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text         string `json:"text,omitempty"`
	FunctionCall *struct {
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"functionCall,omitempty"`
	FunctionResponse *geminiFunctionResponse `json:"functionResponse,omitempty"`
}

type geminiFunctionResponse struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

// text returns the response's output or error as text, and whether it was
// an error.
func (r geminiFunctionResponse) text() (string, bool) {
	for _, k := range []string{"error", "output"} {
		if v, ok := r.Response[k]; ok {
			s, isString := v.(string)
			if !isString {
				b, _ := json.Marshal(v)
				s = string(b)
			}
			return s, k == "error"
		}
	}
	b, _ := json.Marshal(r.Response)
	return string(b), false
}

type geminiRequest struct {
	URL      string
	Body     []byte
	Tools    []string
	Contents []geminiContent
	Answer   string
}

// fakeGemini is the scripted model.
type fakeGemini struct {
	t     *testing.T
	calls []scriptedCall
	srv   *httptest.Server

	mu       sync.Mutex
	requests []*geminiRequest
	next     int
}

// newFakeGemini starts a server whose model makes the tool calls given as
// pairs of a tool name and its arguments, one after the other.
func newFakeGemini(t *testing.T, pairs ...any) *fakeGemini {
	t.Helper()
	f := &fakeGemini{t: t}
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

func (f *fakeGemini) URL() string { return f.srv.URL }

func (f *fakeGemini) Requests() []*geminiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*geminiRequest(nil), f.requests...)
}

// FunctionResponses returns the functionResponse parts the requests
// brought back, in order, once each (a later request repeats the history).
func (f *fakeGemini) FunctionResponses() []geminiFunctionResponse {
	var out []geminiFunctionResponse
	seen := map[string]bool{}
	for _, r := range f.Requests() {
		if len(r.Contents) == 0 {
			continue
		}
		for _, c := range r.Contents {
			for _, p := range c.Parts {
				if p.FunctionResponse == nil {
					continue
				}
				key := p.FunctionResponse.ID + "\x00" + p.FunctionResponse.Name
				if !seen[key] {
					seen[key] = true
					out = append(out, *p.FunctionResponse)
				}
			}
		}
	}
	return out
}

func (f *fakeGemini) Summary() string {
	var b strings.Builder
	for i, r := range f.Requests() {
		fmt.Fprintf(&b, "  #%d POST %s tools=%d contents=%d answer=%s\n", i, r.URL, len(r.Tools), len(r.Contents), r.Answer)
	}
	return b.String()
}

func (f *fakeGemini) serve(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := &geminiRequest{URL: hr.URL.RequestURI(), Body: body}
	f.mu.Lock()
	f.requests = append(f.requests, r)
	f.mu.Unlock()
	_, method, _ := strings.Cut(hr.URL.Path, ":")
	var req struct {
		Contents []geminiContent `json:"contents"`
		Tools    []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig struct {
			ResponseSchema     json.RawMessage `json:"responseSchema"`
			ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
		} `json:"generationConfig"`
	}
	if hr.Method != http.MethodPost || json.Unmarshal(body, &req) != nil {
		r.Answer = "404"
		http.Error(w, `{"error":{"code":404,"message":"not in the fake API","status":"NOT_FOUND"}}`, http.StatusNotFound)
		return
	}
	r.Contents = req.Contents
	offered := map[string]bool{}
	for _, tl := range req.Tools {
		for _, d := range tl.FunctionDeclarations {
			r.Tools = append(r.Tools, d.Name)
			offered[d.Name] = true
		}
	}
	usage := map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
	switch method {
	case "countTokens":
		r.Answer = "countTokens"
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"totalTokens":10}`)
		return
	case "generateContent":
		schema := req.GenerationConfig.ResponseJSONSchema
		if schema == nil {
			schema = req.GenerationConfig.ResponseSchema
		}
		r.Answer = "json"
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"candidates": []any{map[string]any{"content": map[string]any{"role": "model",
				"parts": []any{map[string]any{"text": fillSchema(schema)}}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": usage,
		})
		return
	case "streamGenerateContent":
	default:
		r.Answer = "404"
		http.Error(w, `{"error":{"code":404,"message":"not in the fake API","status":"NOT_FOUND"}}`, http.StatusNotFound)
		return
	}

	f.mu.Lock()
	var call scriptedCall
	ok := false
	if f.next < len(f.calls) && offered[f.calls[f.next].tool] && bringsFunctionResponse(req.Contents) == (f.next > 0) {
		call, ok = f.calls[f.next], true
		f.next++
	}
	f.mu.Unlock()
	var part map[string]any
	if ok {
		r.Answer = "functionCall " + call.tool
		var args map[string]any
		json.Unmarshal([]byte(call.input), &args)
		part = map[string]any{"functionCall": map[string]any{"name": call.tool, "args": args}}
	} else {
		r.Answer = "text"
		part = map[string]any{"text": finalText}
	}
	data, _ := json.Marshal(map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": usage,
	})
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "data: %s\n\n", data)
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// bringsFunctionResponse reports whether the last content holds a
// functionResponse.
func bringsFunctionResponse(cs []geminiContent) bool {
	if len(cs) == 0 {
		return false
	}
	for _, p := range cs[len(cs)-1].Parts {
		if p.FunctionResponse != nil {
			return true
		}
	}
	return false
}

// fillSchema returns a JSON object that fills an object schema's
// properties: the router gets the simplest task, the next-speaker check
// hands the turn to the user.
func fillSchema(schema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type string   `json:"type"`
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	json.Unmarshal(schema, &s)
	out := map[string]any{}
	for k, p := range s.Properties {
		switch {
		case k == "next_speaker":
			out[k] = "user"
		case len(p.Enum) > 0:
			out[k] = p.Enum[0]
		case strings.EqualFold(p.Type, "integer") || strings.EqualFold(p.Type, "number"):
			out[k] = 1
		case strings.EqualFold(p.Type, "boolean"):
			out[k] = false
		default:
			out[k] = "e2e"
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}
