package engine

import (
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Priority orders goals: a higher number is planned first. The named
// priorities leave room for numbers between them.
// Its values are immutable and safe to share between goroutines.
type Priority int

// The named priorities, lowest first.
const (
	Low      Priority = 10
	Normal   Priority = 20
	High     Priority = 30
	Critical Priority = 40
)

// ParsePriority reads "low", "normal", "high" or "critical" in any case, or
// an integer.
func ParsePriority(s string) (Priority, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "low":
		return Low, true
	case "normal", "":
		return Normal, true
	case "high":
		return High, true
	case "critical":
		return Critical, true
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return Priority(n), err == nil
}

func (p Priority) String() string {
	switch p {
	case Low:
		return "low"
	case Normal:
		return "normal"
	case High:
		return "high"
	case Critical:
		return "critical"
	}
	return strconv.Itoa(int(p))
}

// Pos is a place in a source file, for error messages. Line and Col are
// 1-based; zero means unknown.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	s := p.File
	if p.Line > 0 {
		s += ":" + strconv.Itoa(p.Line)
		if p.Col > 0 {
			s += ":" + strconv.Itoa(p.Col)
		}
	}
	return s
}

// GoalSpec declares a goal. The zero Priority means Normal.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type GoalSpec struct {
	Name        string
	Condition   string // the condition language; see Condition
	Priority    Priority
	Description string
	Persistent  bool    // kept for the user; does not affect planning
	Deadline    float64 // seconds; kept for the user; does not affect planning
	Pos         Pos     // where the goal is declared
	ConditionAt Pos     // where the condition text starts, when known
}

// Goal is a compiled goal of a Domain. Read-only.
type Goal struct {
	Name        string
	Index       int // position in Domain.Goals (declaration order)
	Priority    Priority
	Condition   *expr.Condition
	Description string
	Persistent  bool
	Deadline    float64
	Pos         Pos
}

// Satisfied reports whether the goal's condition holds in st.
func (g *Goal) Satisfied(st expr.State) bool { return g.Condition.Eval(st) }

// NewGoal returns a goal spec with the given name, condition and priority;
// a zero priority means Normal (as in GoalSpec).
func NewGoal(name, condition string, priority Priority) GoalSpec {
	return GoalSpec{Name: name, Condition: condition, Priority: priority}
}
