package llm

import (
	"testing"
)

// FuzzParseReply: any reply reads as a plan or as nothing, never a panic;
// steps are numbered from 0 and every step has an action name.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		"```json\n{\"steps\": [{\"action\": \"a\"}]}\n```",
		`{"reasoning": "r", "steps": [{"action": "a", "arguments": {"x": [1, {"y": null}]}}, "do b"]}`,
		`[{"description": "no action"}]`,
		"1. reload: load\n2) wait\n",
		"garbage {[}]",
		"```\n[1, 2, 3]\n``` then ```json\n{\"steps\": []}\n```",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		p, ok := ParseReply("g", reply)
		if p.Steps == nil {
			t.Fatal("steps is nil, not an empty list")
		}
		if !ok && len(p.Steps) > 0 {
			t.Fatalf("not read, yet %d steps", len(p.Steps))
		}
		for i, s := range p.Steps {
			if s.Index != i {
				t.Fatalf("step %d has index %d", i, s.Index)
			}
			if s.Action == "" {
				t.Fatalf("step %d has no action", i)
			}
		}
	})
}
