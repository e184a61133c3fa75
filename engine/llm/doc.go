// Package llm lets a language model propose high-level plans for a goal
// written in plain text (a squad commander, a quest director), with a
// person or a rule approving them and the model revising a plan when a
// step fails. It has a planner (DynamicPlanner), an approval gate
// (PlanApprovalGate), a replanning engine (AdaptiveReplanEngine) and guard
// rails on the raw goal text; docs/llm.md and docs/semantics.md give where
// each rule comes from.
//
// A model may propose; the engine decides. GroundingRule checks a plan
// against a role's compiled engine.Domain: every step's action exists, its
// precondition holds in the state the steps before it leave (simulated
// with their effects from the current state), and the goal's condition
// holds at the end; it names the first step that does not hold and can
// trim the plan to its valid prefix or fall back to the GOAP planner.
//
// The shipped Client is in the sub-package engine/llm/openaichat: it
// speaks the OpenAI-compatible chat completions API through the official
// Go SDK, so a local server (llama.cpp's server, Ollama, vLLM) works as
// well as OpenAI's. This package does not import the SDK, so a program
// that only uses the planner's types (luabind, a WebAssembly build) does
// not link it; one that imports openaichat does:
//
//	client := openaichat.New(openaichat.Options{BaseURL: "http://127.0.0.1:8080/v1"})
//	planner, err := llm.NewDynamicPlanner(client).
//		Capabilities(llm.CapabilitiesOf(domain)).
//		GuardRails(llm.MaxLength(500), llm.DenyWords("ignore previous")).
//		Build()
//	if err != nil { ... }
//	rule := llm.GroundingRule{Domain: domain, State: agent.State.Clone(),
//		Goal: domain.Goal("armed"), OnInvalid: llm.FallBackToGOAP}
//	verdict, err := llm.NewPlanApprovalGate(rule.Review).GenerateAndReview(ctx, planner, "get armed")
//
// The engine package does not import this one. Every call into the model
// takes a context and may take seconds: never call it from a game tick;
// from Lua, npc:llm_plan (package luabind) runs the request off the game
// loop while the body waits.
package llm
