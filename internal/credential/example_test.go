// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package credential_test

import (
	"fmt"

	"guard/internal/credential"
)

func ExampleFind() {
	// The token is built from two parts so that this file holds none.
	content := []byte("export GITHUB_TOKEN=ghp_" + "0123456789abcdefghijKLMNOPQRSTUVWXYZ\n")
	if m, ok := credential.Find(content); ok {
		fmt.Printf("%s at byte %d (rule %s)\n", m.Kind, m.Offset, m.Rule)
	}

	// A placeholder has too little entropy to be a credential.
	_, ok := credential.Find([]byte("export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"))
	fmt.Println(ok)
	// Output:
	// a GitHub personal access token at byte 20 (rule github-pat)
	// false
}
