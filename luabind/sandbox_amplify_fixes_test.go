package luabind

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// defaultLimits are the limits a game gets without setting any.
var defaultLimits = Options{MaxStringBytes: DefaultMaxStringBytes, MemoryLimit: DefaultMemoryLimit}

// timeBound is the wall time a single attack may take: the larger of a
// floor (1 s, 10 s under the race detector) and fifty times what three
// ticks of a script that only spends its instruction budget take in the
// same test binary (the fastest of three runs), so a slower machine, a
// busier one or the race detector moves the bound with it. The attacks it
// guards against took hundreds of budgets (seconds) before they were
// charged.
func timeBound(t *testing.T) time.Duration {
	t.Helper()
	boundOnce.Do(func() {
		best := time.Duration(1 << 62)
		for range 3 {
			res := runAttack(t, t.TempDir(), `while true do end`, defaultLimits)
			require.Len(t, res.fails, 1)
			require.Contains(t, res.fails[0], "instruction budget exceeded")
			best = min(best, res.elapsed)
		}
		floor := time.Second
		if raceEnabled {
			floor = 10 * time.Second
		}
		boundValue = max(50*best, floor)
	})
	return boundValue
}

var (
	boundOnce  sync.Once
	boundValue time.Duration
)

// TestGsubMeasuresAStringReplacementFirst: "%0" repeated 2^23 times on a
// 1 KiB match would be an 8 GiB replacement; it is refused from its
// measured size before any of it is built (the process died of it).
func TestGsubMeasuresAStringReplacementFirst(t *testing.T) {
	opts := defaultLimits
	opts.InstructionBudget = 1e9 // the size check, not the budget, refuses it
	res := runAttack(t, t.TempDir(), `string.gsub(string.rep("x", 1024), "^.+", string.rep("%0", 2^23))`, opts)
	require.Len(t, res.fails, 1)
	assert.Contains(t, res.fails[0], "attack.lua:9: string too long: string.gsub would build more than 8589934592 bytes, "+
		"more than the sandbox allows (16777216, luabind.Options.MaxStringBytes)")
	assert.Less(t, res.alloc, uint64(2*DefaultMemoryLimit), "the 8 GiB were never allocated")
}

// TestPrintChecksTheJoinedTextFirst: print and npc:print of 1,000
// references to one 16 MiB string would join 16 GB; the length is summed
// and refused before joining.
func TestPrintChecksTheJoinedTextFirst(t *testing.T) {
	for _, fn := range []string{"print", "npc:print"} {
		t.Run(fn, func(t *testing.T) {
			res := runAttack(t, t.TempDir(), `local l, s = {}, string.rep("x", 2^24) for i = 1, 1000 do l[i] = s end `+fn+`(unpack(l))`, defaultLimits)
			require.Len(t, res.fails, 1)
			assert.Regexp(t, `attack\.lua:9: string too long: `+regexp.QuoteMeta(fn)+` would join more than 1677\d{4} bytes, more than the sandbox allows \(16777216`, res.fails[0])
			assert.Less(t, res.alloc, uint64(2*DefaultMemoryLimit))
		})
	}
}

// TestPrintIsChargedBeforeItIsBuilt: each print of a 15 MiB string,
// under the string limit, builds a 15 MiB text in Go (the line with its
// file:line for Options.Print, the record's text for npc:print); each is
// charged to the memory limit before it is built, so a body printing it
// again and again is stopped at the print that would pass the limit,
// and Options.Print got only the lines before it, whole.
func TestPrintIsChargedBeforeItIsBuilt(t *testing.T) {
	for _, fn := range []string{"print", "npc:print"} {
		t.Run(fn, func(t *testing.T) {
			var lines []int
			opts := defaultLimits
			opts.InstructionBudget = 1e9 // the memory limit, not the budget, stops it
			opts.Print = func(line string) { lines = append(lines, len(line)) }
			dir := t.TempDir()
			res := runAttack(t, dir, `local L = string.rep("y", 15 * 2^20) for i = 1, 10 do `+fn+`(L) end`, opts)
			require.Len(t, res.fails, 1)
			where := filepath.Join(dir, "attack.lua") + ":9: "
			assert.Equal(t, where+"memory limit exceeded (64 MiB): built-ins would allocate 69 MiB in one resume, on top of the 0 MiB the body holds (see luabind.Options.MemoryLimit)",
				res.fails[0])
			if fn == "print" {
				assert.Equal(t, []int{len(where) + 15<<20, len(where) + 15<<20}, lines, "two whole lines, then the refusal")
			}
			assert.Less(t, res.alloc, uint64(2*DefaultMemoryLimit))
		})
	}
}

// TestScriptFilesAreSizedBeforeTheyAreRead: require of a file larger
// than MaxScriptBytes is refused before it is read (a 7 GB file was read
// whole), with the require's line.
func TestScriptFilesAreSizedBeforeTheyAreRead(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.lua"))
	require.NoError(t, err)
	require.NoError(t, f.Truncate(7<<30)) // sparse: no disk used
	require.NoError(t, f.Close())
	res := runAttack(t, dir, `require("big")`, defaultLimits)
	require.Len(t, res.fails, 1)
	assert.Contains(t, res.fails[0], `attack.lua:9: require "big": `+filepath.Join(dir, "big.lua")+
		" is 7516192768 bytes or more, larger than a script file may be (8388608 bytes, luabind.MaxScriptBytes)")
	assert.Less(t, res.alloc, uint64(2*DefaultMemoryLimit))

	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	_, err = rt.LoadDomain("big.lua")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "big.lua is 7516192768 bytes or more, larger than a script file may be", "a role file too")
	_, err = rt.LoadDomain(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), dir+" is a folder, not a regular file: scripts are read only from plain files")
}

// TestLongMessagesCostTheirLength: tostring of a table whose __tostring
// returns 16 MiB (20 times: 7.9 s) and catching a 16 MiB error (10 times:
// 8.3 s) scanned the text with a regular expression for heap addresses,
// uncharged. The scan is now one linear search, charged per byte, so the
// budget stops the loop within a resume's time.
func TestLongMessagesCostTheirLength(t *testing.T) {
	for _, body := range []string{
		`local s = string.rep("x", 2^24) local t = setmetatable({}, { __tostring = function() return s end }) for i = 1, 20 do tostring(t) end`,
		`local s = string.rep("x", 2^24) for i = 1, 10 do pcall(error, s, 0) end`,
	} {
		res := runAttack(t, t.TempDir(), body, defaultLimits)
		require.Len(t, res.fails, 1, body)
		assert.Contains(t, res.fails[0], "attack.lua:9: instruction budget exceeded", body)
		assert.Less(t, res.elapsed, timeBound(t), body)
	}
}

// TestScrubAddressesIsTheRegexpItReplaced: the linear scrub gives what the
// regular expression \b(table|function|userdata|thread|channel): 0x[0-9a-f]+
// replaced by its type gave, on messages with and around addresses.
func TestScrubAddressesIsTheRegexpItReplaced(t *testing.T) {
	re := regexp.MustCompile(`\b(table|function|userdata|thread|channel): 0x[0-9a-f]+`)
	for _, s := range []string{
		"", "plain", "table: 0xc000123456", "with key 'table: 0xc0001' and function: 0xabc.",
		"xtable: 0x12", "_table: 0x12", "-table: 0x12", "table: 0x", "table: 0xZ", "table: 0x1fthread: 0x2",
		"table: 0xfunction: 0x2", "thread: 0x1 channel: 0x2 userdata: 0xdeadbeef", "table: 0x12: 0x34",
		"Table: 0x12", "table:  0x12", "table: 0X12", "função table: 0xa", strings.Repeat("table: 0x1 ", 100),
	} {
		assert.Equal(t, re.ReplaceAllString(s, "$1"), scrubAddresses(s), "%q", s)
	}
}

// TestAFailingSensorsLongMessageIsClipped: a sensor that fails with a
// 15 MiB message every tick (3-4 s a tick to format) fails with its first
// 8 KiB and a note of the rest, located, and the ticks stay quick.
func TestAFailingSensorsLongMessageIsClipped(t *testing.T) {
	dir := t.TempDir()
	src := `return {
  name = "Loud",
  state = { n = 0 },
  goals = { { name = "g", condition = "n > 100" } },
  sensors = {
    { name = "loud", every = 0,
      run = function(npc)
        error(string.rep("x", 15 * 2^20))
      end },
  },
  actions = { { name = "a", effects = "n = n + 1" } },
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "loud.lua"), []byte(src), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("loud.lua")
	require.NoError(t, err)
	var reasons []string
	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) {
		if strings.Contains(e.Reason, "loud.lua") {
			reasons = append(reasons, e.Reason)
		}
	}
	w.Add(engine.NewAgent("loud", d))
	for range 5 {
		start := time.Now()
		w.Tick(0.1)
		assert.Less(t, time.Since(start), timeBound(t), "one tick")
	}
	require.NotEmpty(t, reasons)
	for _, r := range reasons {
		assert.Contains(t, r, "loud.lua:8: "+strings.Repeat("x", 100))
		assert.Regexp(t, ` \.\.\. \(157\d{5} more bytes cut\)$`, r, "the first 8 KiB and the count of the rest")
		assert.Less(t, len(r), 2*maxErrorBytes)
	}
}

// TestUnknownLongStateNameIsCheap: the did-you-mean suggestion on a
// 256 KiB unknown state name (three lookups: 7.3 s of CPU) returns at
// once: no name is near.
func TestUnknownLongStateNameIsCheap(t *testing.T) {
	res := runAttack(t, t.TempDir(), `local k = string.rep("y", 2^18) for i = 1, 3 do pcall(function() return npc.state[k] end) end `+
		`local ok, e = pcall(function() return npc.state[k] end) npc.state.out = e:sub(-40)`, defaultLimits)
	assert.Empty(t, res.fails)
	assert.True(t, res.done)
	assert.Less(t, res.elapsed, timeBound(t))
}

// TestALargeModelReplyIsCharged: a legal reply with 400,000 argument
// values (300-400 ms to convert on the game's goroutine) is charged per
// value before it becomes Lua tables, so the budget refuses it.
func TestALargeModelReplyIsCharged(t *testing.T) {
	args := "[" + strings.Repeat("1,", 400_000) + "1]"
	reply := "```json\n{\"reasoning\": \"r\", \"steps\": [{\"action\": \"fetchMagazine\", \"arguments\": {\"crate\": " + args + "}}]}\n```"
	m := newFakeModel(t, reply, false)
	wd, _ := commanders(t, 1, "plain", LLMOptions{Planner: m.planner(t), DeliverAfterTicks: 1})
	wd.run(4, 0.1)
	fail := wd.first("c0", record.EventFail)
	require.NotNil(t, fail, "the body fails")
	assert.Contains(t, fail.Reason, "llm_commander.lua:")
	assert.Contains(t, fail.Reason, "instruction budget exceeded")
}
