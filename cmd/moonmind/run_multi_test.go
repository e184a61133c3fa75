package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	pingFile    = "../../scripts/examples/ping.lua"
	pongFile    = "../../scripts/examples/pong.lua"
	baristaFile = "../../scripts/examples/barista.lua"
)

func printLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "tick ") {
			lines = append(lines, l)
		}
	}
	return lines
}

func TestRunSeveralAgentsTellEachOther(t *testing.T) {
	out, errOut, code := runMain("run", pingFile, pongFile, "--ticks", "16")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, []string{
		"Pong pong 1", "Ping ping 2", "Pong pong 3", "Ping ping 4", "Pong pong 5", "Ping ping 6",
		"Pong pong 7", "Ping ping 8", "Pong pong 9", "Ping ping 10", "Pong pong 11", "Ping game over at 12",
	}, printLines(out))
	assert.Contains(t, out, "Ping         tell        belief=ball value=1 to=Pong")
	assert.Contains(t, out, "Pong         belief-added belief=ball value=1 old=0 from=Ping")
}

func TestRunTracesAreTheSameWithOneAndFourWorkers(t *testing.T) {
	args := []string{"run", pingFile, pongFile, baristaFile, "B2=" + baristaFile, "--ticks", "30"}
	one, errOut, code := runMain(append(args, "--workers", "1")...)
	require.Equal(t, 0, code, errOut)
	four, errOut, code := runMain(append(args, "--workers", "4")...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, one, four)
	assert.Contains(t, one, "Barista served a cup of espresso")
	assert.Contains(t, one, "B2 served a cup of espresso")
}

func TestRunNamesAgents(t *testing.T) {
	out, errOut, code := runMain("run", "Alice="+pingFile, pongFile, pongFile, "--ticks", "1")
	require.Equal(t, 0, code, errOut)
	for _, name := range []string{"Alice ", "Pong#1 ", "Pong#2 "} {
		assert.Contains(t, out, "  "+name)
	}
	// Alice's partner is called Pong, and no agent is: a clear error in
	// her trace, and the others run on.
	assert.Contains(t, out, `npc:tell: tell Pong: no agent \"Pong\" in the world`)
}

func TestRunRefusesBadAgentLists(t *testing.T) {
	_, errOut, code := runMain("run", pingFile, pongFile, "--agents", "2")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--agents is for one role file")
	_, errOut, code = runMain("run", "A="+pingFile, "A="+pongFile)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "two agents are named A")
	_, errOut, code = runMain("run")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "expected one or more role files")
}

func TestRunPrintRecordsReachTheTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	_, errOut, code := runMain("run", pingFile, pongFile, "--ticks", "3", "--trace", path)
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"agent":"Pong","kind":"print","reason":"Pong pong 1"`)
}

func TestTracePrintsReactiveRecordsAsTheRunDid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	out, errOut, code := runMain("run", pingFile, pongFile, baristaFile, "--ticks", "12", "--trace", path)
	require.Equal(t, 0, code, errOut)
	back, errOut, code := runMain("trace", path)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, out, back)
	prints, _, code := runMain("trace", path, "--kind", "print", "--agent", "Barista")
	require.Equal(t, 0, code)
	assert.Equal(t, "Barista I could not prepare the espresso: buying beans and trying again\nBarista served a cup of espresso\n", prints)
}

func TestRunSquadExampleReacts(t *testing.T) {
	squad := "../../scripts/examples/squad.lua"
	out, errOut, code := runMain("run", "Alpha="+squad, "Bravo="+squad, "--ticks", "40")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, []string{
		"Alpha shot heard at 50 0 - taking cover",
		"Bravo shot heard at 50 0 - taking cover",
		"Alpha crate 1 was empty: trying crate 2",
		"Bravo crate 1 was empty: trying crate 2",
		"Alpha Bravo ran dry: covering",
		"Bravo Alpha ran dry: covering",
	}, printLines(out))
	assert.NotContains(t, out, "no-plan", "quiet_beliefs leaves out the refused ammo events")
}

func TestRunSummaryCountsLiveIntentionsAsRunning(t *testing.T) {
	out, errOut, code := runMain("run", baristaFile, "--ticks", "3")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "status=RUNNING", "the barista's intentions are still waiting")
	out, errOut, code = runMain("run", baristaFile, "--ticks", "12")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "status=IDLE")
}
