//go:build !js

package main

import (
	"time"

	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/llm/openaichat"
)

// commander returns the squad leaders' language model when
// MOONMIND_LLM_BASE_URL is set (with MOONMIND_LLM_MODEL and OPENAI_API_KEY
// as openaichat reads them), else nil: the demo then runs unchanged.
func commander() (*llm.DynamicPlanner, error) {
	if !llm.EnvConfigured() {
		return nil, nil
	}
	client := openaichat.New(openaichat.Options{Timeout: 30 * time.Second})
	return llm.NewDynamicPlanner(client).
		AdditionalContext("You command a squad of soldiers in a top-down battle on a tile map with walls, sandbags and ammunition crates. Give the squad's first order as the first step.").
		GuardRails(llm.MaxLength(300)).
		Build()
}
