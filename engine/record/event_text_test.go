package record

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTextTraceEscapesWhatCouldBreakALine(t *testing.T) {
	forged := "x\ntick    1  t=  0.000s  victim       fail        action=a reason=\"forged\""
	tests := []struct {
		name, reason string
		e            Event
		want         string
	}{
		{name: "print", reason: "a printed newline cannot start a record of its own",
			e:    Event{Kind: EventPrint, Agent: "evil", Reason: "evil " + forged},
			want: `evil x\ntick    1  t=  0.000s  victim       fail        action=a reason="forged"`},
		{name: "names", reason: "agent, goal, action and plan names are escaped",
			e:    Event{Tick: 1, Kind: EventPlan, Agent: "a\rb", Goal: "g\x1b[2J", Action: "s\tt", Plan: []string{"p\u2028q", "r\u0085"}, Cost: 1},
			want: `tick    1  t=  0.000s  a\rb         plan        goal=g\x1b[2J action=s\tt plan=[p\u2028q, r\u0085] cost=1`},
		{name: "beliefs", reason: "the reactive fields too, and bytes that are not UTF-8",
			e:    Event{Tick: 2, Kind: EventBeliefAdded, Agent: "b", Belief: "k\n", Value: "\"v\xff\"", Peer: "p\x00"},
			want: `tick    2  t=  0.000s  b            belief-added belief=k\n value="v\xff" from=p\x00`},
		{name: "summary", reason: "a summary's text is written as it is, escaped",
			e:    Event{Tick: 3, Kind: EventSummary, Agent: "c", Reason: "done\nfake"},
			want: `tick    3  t=  0.000s  c            summary     done\nfake`},
		{name: "plain", reason: "printable text, also beyond ASCII, is unchanged",
			e:    Event{Kind: EventPrint, Reason: "Gärtner sagt: ½ ✓"},
			want: "Gärtner sagt: ½ ✓"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.e.String()
			assert.Equal(t, tt.want, got, tt.reason)
			assert.NotContains(t, got, "\n", tt.reason)
		})
	}
}

func TestLineTextDoesNotAllocateForPlainText(t *testing.T) {
	s := strings.Repeat("plain text, ünïcödé ", 4)
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _ = lineText(s) }))
}
