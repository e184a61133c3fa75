package llm

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// UnknownAction is the action name given to a step the model wrote
// without one.
const UnknownAction = "unknown"

var (
	fenced   = regexp.MustCompile("(?s)```[A-Za-z]*[ \t]*\r?\n?(.*?)```")
	numbered = regexp.MustCompile(`^\s*(\d+)[.)]\s+(.+?)\s*$`)
	// "search_web: look it up", "search_web - look it up", "**search_web**: ..."
	namedItem = regexp.MustCompile("^[*`_]*([A-Za-z][A-Za-z0-9_.-]*)[*`_]*\\s*(?::|\\s-|\\s–|\\s—)\\s*(.+)$")
)

// ParseReply reads a model's reply as a plan for goal, the way the
// planner does: JSON from the first fenced block that holds a plan, else
// from the raw reply (the text from its first "{" or "[" to the matching
// last "}" or "]"), either an object {"reasoning", "steps": [...]} or a
// bare list of steps; else a numbered list, one step per item ("1. name:
// what to do" names the action). A step without an action gets
// UnknownAction. Arguments written as a JSON-encoded string are decoded;
// a string that holds no JSON object is kept under ArgumentsTextKey. ok is
// false when nothing could be read: the plan is then empty.
func ParseReply(goal, reply string) (plan Plan, ok bool) {
	plan = Plan{Goal: goal, Steps: []PlanStep{}}
	for _, m := range fenced.FindAllStringSubmatch(reply, -1) {
		if steps, reasoning, ok := parseJSONPlan(m[1]); ok {
			plan.Reasoning = reasoning
			return plan.renumbered(steps), true
		}
	}
	if steps, reasoning, ok := parseJSONPlan(reply); ok {
		plan.Reasoning = reasoning
		return plan.renumbered(steps), true
	}
	if steps := parseNumbered(reply); len(steps) > 0 {
		return plan.renumbered(steps), true
	}
	return plan, false
}

// parseJSONPlan tries the text as it is, then its outermost object, then
// its outermost list.
func parseJSONPlan(text string) ([]PlanStep, string, bool) {
	text = strings.TrimSpace(text)
	cands := []string{text}
	for _, br := range [][2]string{{"{", "}"}, {"[", "]"}} {
		i, j := strings.Index(text, br[0]), strings.LastIndex(text, br[1])
		if i >= 0 && j > i {
			cands = append(cands, text[i:j+1])
		}
	}
	for _, c := range cands {
		var v any
		dec := json.NewDecoder(bytes.NewReader([]byte(c)))
		if err := dec.Decode(&v); err != nil || dec.More() {
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			list, ok := x["steps"].([]any)
			if !ok {
				continue
			}
			reasoning, _ := x["reasoning"].(string)
			return stepsOf(list), reasoning, true
		case []any:
			return stepsOf(x), "", true
		}
	}
	return nil, "", false
}

func stepsOf(list []any) []PlanStep {
	steps := make([]PlanStep, 0, len(list))
	for _, item := range list {
		switch x := item.(type) {
		case map[string]any:
			s := PlanStep{Arguments: map[string]any{}}
			s.Action, _ = x["action"].(string)
			s.Description, _ = x["description"].(string)
			s.Reasoning, _ = x["reasoning"].(string)
			switch args := x["arguments"].(type) {
			case map[string]any:
				s.Arguments = args
			case string:
				s.Arguments = argumentsFromText(args)
			}
			s.Action = strings.TrimSpace(s.Action)
			if s.Action == "" {
				s.Action = UnknownAction
			}
			steps = append(steps, s)
		case string:
			steps = append(steps, stepFromText(x))
		}
	}
	return steps
}

func parseNumbered(reply string) []PlanStep {
	var steps []PlanStep
	for _, line := range strings.Split(reply, "\n") {
		if m := numbered.FindStringSubmatch(line); m != nil {
			steps = append(steps, stepFromText(m[2]))
		}
	}
	return steps
}

func stepFromText(text string) PlanStep {
	text = strings.TrimSpace(text)
	if m := namedItem.FindStringSubmatch(text); m != nil {
		return PlanStep{Action: m[1], Description: strings.TrimSpace(m[2]), Arguments: map[string]any{}}
	}
	return PlanStep{Action: UnknownAction, Description: text, Arguments: map[string]any{}}
}

// ArgumentsTextKey is the argument under which a step keeps arguments the
// model wrote as a string that is not a JSON object (see ParseReply).
const ArgumentsTextKey = "text"

// argumentsFromText reads arguments the model wrote as a string, as some
// models do for tool calls ("arguments": "{\"target\": \"north\"}"): a
// JSON object in the string becomes the arguments; any other text is kept
// whole under ArgumentsTextKey, so nothing the model said is dropped.
func argumentsFromText(text string) map[string]any {
	var args map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &args); err == nil && args != nil {
		return args
	}
	if strings.TrimSpace(text) == "" {
		return map[string]any{}
	}
	return map[string]any{ArgumentsTextKey: text}
}
