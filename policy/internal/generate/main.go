// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Command generate writes policy/default_policy.go from the built-in
// policies, and policy/guard.schema.json from the file format's types. go generate ./policy runs it in the policy directory, with the
// guardgen tag:
//
//	go run -tags guardgen ./internal/generate
package main

import (
	"fmt"
	"go/format"
	"os"

	"guard/policy"
)

func main() {
	src, err := policy.Generate(os.DirFS("."))
	if err == nil {
		src, err = format.Source(src)
	}
	if err == nil {
		err = os.WriteFile("default_policy.go", src, 0o644)
	}
	if err == nil {
		err = os.WriteFile("guard.schema.json", policy.Schema(), 0o644)
	}
	if err != nil {
		// Only guard's own main exits by os.Exit; a panic exits 2.
		panic(fmt.Sprintf("generate: %v", err))
	}
}
