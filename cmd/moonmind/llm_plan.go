package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/llm/openaichat"
)

func init() {
	commands["llm-plan"] = command{what: "ask an OpenAI-compatible chat server (MOONMIND_LLM_BASE_URL) for a plan toward a goal in plain text",
		usage: "llm-plan [--base-url URL] [--model M] [--capability name=description]... [--temperature T] [--context TEXT] [--max-goal-chars N] [--deny WORD]... [--timeout S] [--json] GOAL",
		run:   llmPlanCmd,
	}
}

// repeated collects a repeatable string flag.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// llmPlanJSON is the --json output: steps is always a list.
type llmPlanJSON struct {
	Goal      string         `json:"goal"`
	Steps     []llm.PlanStep `json:"steps"`
	Reasoning string         `json:"reasoning"`
}

func llmPlanCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("llm-plan", stderr)
	baseURL := fs.String("base-url", "", "the server's API root, e.g. http://127.0.0.1:8080/v1 (default $"+llm.EnvBaseURL+")")
	model := fs.String("model", "", "the model name (default $"+llm.EnvModel+", else "+openaichat.DefaultModel+")")
	var caps, deny repeated
	fs.Var(&caps, "capability", "an action the model may use, name=description (repeatable)")
	temp := fs.Float64("temperature", llm.DefaultTemperature, "sampling temperature, 0..2")
	extra := fs.String("context", "", "extra text for the prompt")
	maxChars := fs.Int("max-goal-chars", 0, "refuse a goal longer than this many characters (0: no limit)")
	fs.Var(&deny, "deny", "refuse a goal holding this word (repeatable)")
	timeout := fs.Float64("timeout", 60, "seconds to wait for the server")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	goal := strings.TrimSpace(strings.Join(pos, " "))
	if goal == "" {
		fmt.Fprintln(stderr, "moonmind llm-plan: expected a goal, in plain text")
		return 2
	}
	if *maxChars < 0 {
		fmt.Fprintf(stderr, "moonmind llm-plan: --max-goal-chars must be >= 0, not %d\n", *maxChars)
		return 2
	}
	if !(*timeout > 0) {
		fmt.Fprintf(stderr, "moonmind llm-plan: --timeout must be a number of seconds > 0, not %v\n", *timeout)
		return 2
	}
	client := openaichat.New(openaichat.Options{BaseURL: *baseURL, Model: *model})
	b := llm.NewDynamicPlanner(client).Temperature(*temp).AdditionalContext(*extra).
		Logger(slog.New(slog.NewTextHandler(stderr, nil)))
	for _, c := range caps {
		name, desc, _ := strings.Cut(c, "=")
		if strings.TrimSpace(name) == "" {
			fmt.Fprintf(stderr, "moonmind llm-plan: --capability %q: expected name=description\n", c)
			return 2
		}
		b.Capability(strings.TrimSpace(name), strings.TrimSpace(desc))
	}
	if *maxChars > 0 {
		b.GuardRails(llm.MaxLength(*maxChars))
	}
	if len(deny) > 0 {
		b.GuardRails(llm.DenyWords(deny...))
	}
	planner, err := b.Build()
	if err != nil {
		fmt.Fprintf(stderr, "moonmind llm-plan: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*timeout*float64(time.Second)))
	defer cancel()
	plan, err := planner.GeneratePlan(ctx, goal)
	if err != nil {
		fmt.Fprintf(stderr, "moonmind llm-plan: %v\n", err)
		if errors.Is(err, llm.ErrRefused) {
			return 2
		}
		return 1
	}
	if *asJSON {
		writeJSON(stdout, llmPlanJSON{Goal: plan.Goal, Steps: plan.Steps, Reasoning: plan.Reasoning})
		return 0
	}
	fmt.Fprint(stdout, plan.DisplayString())
	return 0
}
