package llm

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// GuardRail checks the raw goal text before any model call (a user-input
// guard rail, docs/llm.md). Check returns nil to let the goal through,
// else the reason it is refused. Guard rails must be safe for concurrent
// use.
type GuardRail interface {
	Name() string
	Check(goal string) error
}

// ErrRefused is matched (errors.Is) by every *RefusedError.
var ErrRefused = errors.New("llm: goal refused")

// RefusedError says which guard rail refused a goal and why; no model
// call was made.
type RefusedError struct {
	Rail   string
	Reason string
}

func (e *RefusedError) Error() string {
	return "llm: goal refused by guard rail " + e.Rail + ": " + e.Reason
}

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// checkGoal runs the rails in order; the first refusal wins.
func checkGoal(rails []GuardRail, goal string) error {
	for _, r := range rails {
		if err := r.Check(goal); err != nil {
			return &RefusedError{Rail: r.Name(), Reason: err.Error()}
		}
	}
	return nil
}

// MaxLength refuses a goal longer than n characters (Unicode code points).
func MaxLength(n int) GuardRail { return maxLength(n) }

type maxLength int

func (m maxLength) Name() string { return "max-length" }
func (m maxLength) Check(goal string) error {
	if c := utf8.RuneCountInString(goal); c > int(m) {
		return fmt.Errorf("the goal is %d characters long, more than %d", c, int(m))
	}
	return nil
}

// DenyWords refuses a goal that contains any of the words, matched as
// whole words and ignoring case ("kill" refuses "Kill them", not
// "skill"). A word of several words ("drop table") matches that phrase.
func DenyWords(words ...string) GuardRail {
	d := denyWords{}
	for _, w := range words {
		if f := wordsOf(w); len(f) > 0 {
			d = append(d, f)
		}
	}
	return d
}

type denyWords [][]string

func (d denyWords) Name() string { return "deny-words" }
func (d denyWords) Check(goal string) error {
	words := wordsOf(goal)
	for _, phrase := range d {
		for i := 0; i+len(phrase) <= len(words); i++ {
			match := true
			for k, w := range phrase {
				match = match && words[i+k] == w
			}
			if match {
				return fmt.Errorf("the goal contains the denied word %q", strings.Join(phrase, " "))
			}
		}
	}
	return nil
}

func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
}

// GuardRailFunc makes a guard rail of a function: name names it in
// refusals, check returns nil to let the goal through.
func GuardRailFunc(name string, check func(goal string) error) GuardRail {
	return funcRail{name, check}
}

type funcRail struct {
	name  string
	check func(string) error
}

func (f funcRail) Name() string            { return f.name }
func (f funcRail) Check(goal string) error { return f.check(goal) }
