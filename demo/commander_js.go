//go:build js

package main

import "github.com/moonmind-ai/moonmind/engine/llm"

// commander has no model in the browser: the page cannot reach a model
// server of its own, and leaving the SDK out keeps the WebAssembly small.
func commander() (*llm.DynamicPlanner, error) { return nil, nil }
