package main

import (
	"os"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
)

// newAgent returns an agent over d for the commands that tick or plan
// through one. MOONMIND_GOAP=off (any case) turns its GOAP planning off,
// as a switch for trying a role's utility choices alone: the engine reads
// no environment variable, so the command line does it here.
func newAgent(name string, d *engine.Domain) *engine.Agent {
	a := engine.NewAgent(name, d)
	if strings.EqualFold(os.Getenv("MOONMIND_GOAP"), "off") {
		a.SetPlannerHandle(nil)
	}
	return a
}
