// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package harness

// GlobsKeep is globsKeep, for the external tests.
var GlobsKeep = globsKeep
