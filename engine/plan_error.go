package engine

import "strconv"

// Reason is why planning or plan execution failed, one of the constants
// below (docs/semantics.md lists them with their source).
type Reason string

// The failure reasons. When each is returned is documented on Planner and
// PlanExecutor.
const (
	Unreachable                   Reason = "UNREACHABLE"
	CyclicPrecondition            Reason = "CYCLIC_PRECONDITION"
	MaxDepthExceeded              Reason = "MAX_DEPTH_EXCEEDED"
	SearchBudgetExceeded          Reason = "SEARCH_BUDGET_EXCEEDED"
	PreconditionStale             Reason = "PRECONDITION_STALE"
	GoalUnsatisfiedAfterExecution Reason = "GOAL_UNSATISFIED_AFTER_EXECUTION"
)

// PlanError is a planning or plan-execution failure with its Reason and
// details. Fields that do not apply are empty or zero.
type PlanError struct {
	Reason       Reason
	Goal         string // the goal being planned
	Action       string // the action whose precondition blocked, when one did
	Precondition string // that action's precondition text
	MaxDepth     int    // the depth limit in force
	Expansions   int    // search nodes expanded before giving up
	Detail       string // a sentence for a person
}

func (e *PlanError) Error() string {
	s := "engine: " + string(e.Reason) + ": goal \"" + e.Goal + "\""
	if e.Action != "" {
		s += ", action \"" + e.Action + "\""
	}
	if e.Precondition != "" {
		s += ", precondition \"" + e.Precondition + "\""
	}
	if e.Reason == MaxDepthExceeded {
		s += ", maxDepth " + strconv.Itoa(e.MaxDepth)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}
