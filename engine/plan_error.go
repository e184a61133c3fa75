package engine

import "strconv"

// Reason is why planning or plan execution failed, one of the constants
// below (docs/semantics.md lists them with their source).
// Its values are immutable and safe to share between goroutines.
type Reason string

// The failure reasons. When each is returned is documented on Planner and
// on the executor of package engine/executor.
const (
	Unreachable                   Reason = "UNREACHABLE"
	CyclicPrecondition            Reason = "CYCLIC_PRECONDITION"
	MaxDepthExceeded              Reason = "MAX_DEPTH_EXCEEDED"
	SearchBudgetExceeded          Reason = "SEARCH_BUDGET_EXCEEDED"
	PreconditionStale             Reason = "PRECONDITION_STALE"
	GoalUnsatisfiedAfterExecution Reason = "GOAL_UNSATISFIED_AFTER_EXECUTION"

	// BackedOff: the goal has a plan only through an action that is backed
	// off after a failure (Planner.exclude); Action names it.
	BackedOff Reason = "BACKED_OFF"
	// NotAuthorized: the goal has a plan only through an action that the
	// planner's Policy forbids; Action names it and Authority the
	// authority it needs ("" for a Restricted action).
	NotAuthorized Reason = "NOT_AUTHORIZED"
	// CannotRerun: the goal has a plan only through an action with
	// can_rerun = false that already ran while the goal is pursued.
	CannotRerun Reason = "CANNOT_RERUN"
)

// PlanError is a planning or plan-execution failure with its Reason and
// details. Fields that do not apply are empty or zero.
// Like every error of package engine it is not changed after it is returned,
// so it is safe to read from any goroutine.
type PlanError struct {
	Reason       Reason
	Goal         string // the goal being planned
	Action       string // the action whose precondition blocked, when one did
	Precondition string // that action's precondition text
	MaxDepth     int    // the depth limit in force
	Expansions   int    // search nodes expanded before giving up
	Detail       string // a sentence for a person

	// Authority is, for NOT_AUTHORIZED, the authority the action needs.
	Authority string
	// Wait is, for BACKED_OFF, the seconds until the action may run
	// again, when the caller knows it (an agent does); else 0.
	Wait float64
}

func (e *PlanError) Error() string { return "engine: " + e.Message() }

// Message is the error without the package prefix: the reason, the goal,
// the action and precondition when there are, and the detail.
func (e *PlanError) Message() string {
	s := string(e.Reason) + ": goal \"" + e.Goal + "\""
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
