package engine

import (
	"slices"
	"strings"
)

// Policy is what an agent may run: which actions are restricted and which
// authorities are granted (TnsAI's execution policy and Embabel's
// @SecureAgentTool hasAuthority(...); see docs/semantics.md). An action with
// Restricted set is refused by every policy; an action with an Authority
// is refused unless the policy grants that authority; every other action
// is permitted. A nil *Policy permits everything: a Planner without one
// plans with every action, while executors
// still refuse what the agent's policy forbids.
//
// A Policy is read, never written, by the planner; it is safe to share
// between goroutines while nobody changes it.
type Policy struct {
	// Authorities are the granted authorities, such as "conf:premium".
	// Order does not matter; matching is exact.
	Authorities []string
}

// Permits reports whether the policy lets a run; a nil policy permits
// every action.
func (p *Policy) Permits(a *Action) bool { return p == nil || permitted(a, p.Authorities) }

// permitted is the rule behind Permits and refusalClause, without building
// the refusal's sentence (the planner asks it for every secured action of
// every plan).
func permitted(a *Action, authorities []string) bool {
	return !a.Restricted && (a.Authority == "" || slices.Contains(authorities, a.Authority))
}

// refusal returns why an agent with the given authorities may not run a
// ("" when it may): a sentence naming the action and, for a secured
// action, the authority it needs.
func refusal(a *Action, authorities []string) string {
	if c := refusalClause(a, authorities); c != "" {
		return "action \"" + a.Name + "\" " + c
	}
	return ""
}

// refusalClause is the verb phrase of refusal: "is restricted", "needs
// authority \"x\", and none is granted", or "".
func refusalClause(a *Action, authorities []string) string {
	switch {
	case permitted(a, authorities):
		return ""
	case a.Restricted:
		return "is restricted"
	}
	return "needs authority \"" + a.Authority + "\"" + grantedNote(authorities)
}

func grantedNote(authorities []string) string {
	if len(authorities) == 0 {
		return ", and none is granted"
	}
	return ", not granted (granted: " + strings.Join(authorities, ", ") + ")"
}

// Secured reports whether some policy could forbid a: it is Restricted or
// needs an Authority.
func (a *Action) Secured() bool { return a.Restricted || a.Authority != "" }
