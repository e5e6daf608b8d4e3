// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// growStack grows the main goroutine's stack to 64 KiB in one step, while
// it holds a few frames. A goroutine starts with 2 KiB and doubles it as it
// needs; each doubling copies the stack and adjusts every frame on it,
// decoding each function's tables, and the last ones happen deep in the
// parser and the engine. A typical guard hook call copied its stack five
// times (to 4, 8, 16, 32 and 64 KiB; perf probe on runtime.copystack);
// with this, three: twice during package init, then once here. The 40 KiB
// frame is zeroed in pages the decision then uses.
//
//go:noinline
func growStack() {
	var pad [40 << 10]byte
	keepPad(pad[:])
}

// keepPad keeps the compiler from dropping growStack's frame.
//
//go:noinline
func keepPad(b []byte) { b[0] = 1 }
