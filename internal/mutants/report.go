package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// The results a mutant can have, as gremlins names them.
const (
	killed     = "KILLED"
	lived      = "LIVED"
	notCovered = "NOT COVERED"
	timedOut   = "TIMED OUT"
	notViableS = "NOT VIABLE"
	skipped    = "SKIPPED" // its operator was not found where gremlins said
)

// A result is what became of one mutant.
type result struct {
	File    string  `json:"file"`
	Line    int     `json:"line"`
	Col     int     `json:"col"`
	Kind    string  `json:"kind"`
	Status  string  `json:"status"`
	Killer  string  `json:"killed_by,omitempty"` // the first test that failed
	Seconds float64 `json:"seconds"`
	Why     string  `json:"why,omitempty"` // why it was skipped, or built alone
}

func (r result) String() string {
	killer := r.Killer
	if killer == "" {
		killer = "-"
	}
	line := fmt.Sprintf("%s:%d:%d %s | %s | %s | %s s", r.File, r.Line, r.Col, r.Kind, r.Status, killer, seconds(r.Seconds))
	switch {
	case r.Why == "":
	case r.Status == skipped:
		line += " | skipped: " + r.Why
	default:
		line += " | built alone: " + r.Why
	}
	return line
}

// A summary counts the results as gremlins does. Efficacy is killed /
// (killed + lived); KilledOfViable is killed / every mutant that builds.
type summary struct {
	Mutants        int     `json:"mutants"`
	Killed         int     `json:"killed"`
	Lived          int     `json:"lived"`
	NotCovered     int     `json:"not_covered"`
	TimedOut       int     `json:"timed_out"`
	NotViable      int     `json:"not_viable"`
	Skipped        int     `json:"skipped"`
	Efficacy       float64 `json:"efficacy_percent"`
	KilledOfViable float64 `json:"killed_of_viable_percent"`
}

func summarize(results []result) summary {
	s := summary{Mutants: len(results)}
	count := map[string]*int{killed: &s.Killed, lived: &s.Lived, notCovered: &s.NotCovered,
		timedOut: &s.TimedOut, notViableS: &s.NotViable, skipped: &s.Skipped}
	for _, r := range results {
		*count[r.Status]++
	}
	s.Efficacy = percent(s.Killed, s.Killed+s.Lived)
	s.KilledOfViable = percent(s.Killed, s.Mutants-s.NotViable-s.Skipped)
	return s
}

func percent(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

func (s summary) String() string {
	return fmt.Sprintf("Killed: %d, Lived: %d, Not covered: %d\nTimed out: %d, Not viable: %d, Skipped: %d\nTest efficacy: %.2f%%\nKilled of viable: %.2f%%\n",
		s.Killed, s.Lived, s.NotCovered, s.TimedOut, s.NotViable, s.Skipped, s.Efficacy, s.KilledOfViable)
}

// A report is the JSON the command writes.
type report struct {
	Package string   `json:"package"`
	Results []result `json:"mutants"`
	Summary summary  `json:"summary"`
}

func writeText(w io.Writer, results []result) error {
	var b strings.Builder
	for _, r := range results {
		b.WriteString(r.String() + "\n")
	}
	b.WriteString(summarize(results).String())
	_, err := io.WriteString(w, b.String())
	return err
}

func writeJSON(path string, v any) (string, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", err
	}
	return path, os.WriteFile(path, append(data, '\n'), 0o644)
}
