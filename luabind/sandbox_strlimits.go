package luabind

import (
	"math"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/pm"
)

// maxPatternSteps bounds the estimated backtracking steps of one pattern
// match (see patternCost). A match runs inside one Go call, where neither
// the instruction budget nor the time budget can stop it; gopher-lua's
// matcher takes about 30-60 ns a step, so 2e7 steps is about a second in
// the worst case (the estimate is usually far above the real count).
const maxPatternSteps = 2e7

// gsubChunk is how many matches string.gsub asks the matcher for at once,
// so a pattern matching every byte of a long string does not hold one
// record per match.
const gsubChunk = 1024

// limitStrings replaces string.format, gsub, find, match and gmatch (and
// its old name gfind) with
// versions that refuse to build a string longer than
// Options.MaxStringBytes and refuse patterns whose backtracking could run
// for seconds inside one Go call (see checkPattern).
func (r *Runtime) limitStrings(str *lua.LTable) {
	format := str.RawGetString("format").(*lua.LFunction).GFunction
	str.RawSetString("format", r.L.NewFunction(func(L *lua.LState) int {
		r.checkFormat(L)
		return format(L)
	}))
	for _, name := range []string{"find", "match"} {
		orig := str.RawGetString(name).(*lua.LFunction).GFunction
		what := "string." + name
		str.RawSetString(name, r.L.NewFunction(func(L *lua.LState) int {
			s := L.CheckString(1)
			p := L.CheckString(2)
			if name != "find" || !lua.LVAsBool(L.Get(4)) { // find's plain search has no pattern
				r.chargePattern(L, what, p, s)
			} else {
				r.charge(L, bytesWork(len(s)))
			}
			return orig(L)
		}))
	}
	str.RawSetString("gsub", r.L.NewFunction(r.strGsub))
	gmatch := r.L.NewFunction(r.strGmatch)
	str.RawSetString("gmatch", gmatch)
	// gfind is Lua 5.0's name of gmatch; gopher-lua's was its own
	// unchecked gmatch, which matched every start position at once.
	str.RawSetString("gfind", gmatch)
}

// checkFormat raises an error for a string.format call whose result could
// be longer than Options.MaxStringBytes, before formatting, and for a
// width or precision of more than two digits (as Lua 5.1 does). gopher-lua
// formats with Go's fmt, so the bound also covers %q and %x of a string
// (at most four and five bytes per byte).
func (r *Runtime) checkFormat(L *lua.LState) {
	f := L.CheckString(1)
	size := int64(len(f))
	arg, specs := 1, int64(0)
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		start := i
		for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
			i++
		}
		if i-start > 5 {
			L.RaiseError("invalid format (repeated flags)")
		}
		width := 0
		digits := func() {
			d := 0
			for i < len(f) && f[i] >= '0' && f[i] <= '9' {
				width = width*10 + int(f[i]-'0')
				i++
				d++
			}
			if d > 2 {
				L.RaiseError("invalid format (width or precision too long)")
			}
		}
		digits()
		if i < len(f) && f[i] == '.' {
			i++
			digits()
		}
		if i >= len(f) {
			L.RaiseError("%s", "invalid option '%' to 'format' (the format ends after %)")
		}
		c := f[i]
		if strings.IndexByte("cdiouxXeEfgGqs", c) < 0 {
			L.RaiseError("invalid option '%%%c' to 'format'", c)
		}
		arg++
		specs++
		if c == 's' {
			switch v := L.Get(arg); v.(type) {
			case *lua.LTable, *lua.LFunction, *lua.LState, *lua.LUserData, lua.LChannel:
				// gopher-lua writes these as "table: 0x...": a heap address
				// in a trace. Name them as tostring does ("table: #1", or
				// what __tostring says).
				L.Replace(arg, r.tostringValue(L, v))
			}
		}
		n := int64(width) + 512 // a number, a boolean, nil
		if s, ok := L.Get(arg).(lua.LString); ok {
			switch c {
			case 's', 'd', 'i':
				n += int64(len(s))
			default: // Go's %q writes at most \xNN per byte; % #x, 0xNN and a space
				n += 5*int64(len(s)) + 2
			}
		}
		size += n
	}
	if size > int64(r.opts.MaxStringBytes) {
		L.RaiseError("string too long: string.format could build up to %d bytes, more than the sandbox allows (%d, luabind.Options.MaxStringBytes)",
			size, r.opts.MaxStringBytes)
	}
	r.chargeBytes(L, int(size))
	r.charge(L, formatSpecUnits*specs)
}

// strGsub is string.gsub(s, pattern, repl [, n]) that builds its result
// in one pass, refusing it once it passes Options.MaxStringBytes (a string
// replacement with %0 references, a function's or a table's values all
// count), and asks the matcher for matches in chunks. As in gopher-lua it
// returns the string and the number of matches; a function or table value
// of nil or false keeps the match; %0-%9 in a string replacement are
// captures, %% is a percent sign and any other %x stays as written. As in
// Lua 5.1, n <= 0 replaces nothing (gopher-lua's own gsub replaced all).
func (r *Runtime) strGsub(L *lua.LState) int {
	s := L.CheckString(1)
	pat := L.CheckString(2)
	L.CheckTypes(3, lua.LTString, lua.LTTable, lua.LTFunction)
	repl := L.Get(3)
	if _, ok := repl.(*lua.LTable); ok {
		// A table's __index may reach the fast npc.state: look it up
		// through stateIndex (see slowState).
		defer r.fastStateAgain(r.slowState())
	}
	limit := -1
	if L.Get(4) != lua.LNil {
		limit = max(L.CheckInt(4), 0)
	}
	r.chargePattern(L, "string.gsub", pat, s)
	src := luavm.StringBytes(s) // read only, as gopher-lua does
	var b strings.Builder
	add := func(piece string) {
		r.chargeBytes(L, len(piece))
		if b.Len()+len(piece) > r.opts.MaxStringBytes {
			L.RaiseError("string too long: string.gsub would build more than %d bytes, more than the sandbox allows (%d, luabind.Options.MaxStringBytes)",
				b.Len()+len(piece), r.opts.MaxStringBytes)
		}
		b.WriteString(piece)
	}
	prev, count, pos := 0, 0, 0
	for limit < 0 || count < limit {
		want := gsubChunk
		if limit >= 0 {
			want = min(want, limit-count)
		}
		mds, err := pm.Find(pat, src, pos, want)
		if err != nil {
			L.RaiseError("%s", err.Error())
		}
		for _, md := range mds {
			start, end := md.Capture(0), md.Capture(1)
			add(s[prev:start])
			if rs, ok := repl.(lua.LString); ok {
				// Reading the replacement for its % references is work
				// per match, whatever the match builds.
				r.charge(L, bytesWork(len(rs)))
			}
			if rep, ok := gsubValue(L, s, md, repl, b.Len(), r.opts.MaxStringBytes); ok {
				add(rep)
			} else {
				add(s[start:end])
			}
			prev, pos = end, max(start+1, end)
			count++
		}
		if len(mds) < want || strings.HasPrefix(pat, "^") || pos > len(s) {
			break
		}
	}
	if count == 0 {
		L.SetTop(1)
		L.Push(lua.LNumber(0))
		return 2
	}
	add(s[prev:])
	L.Push(lua.LString(b.String()))
	L.Push(lua.LNumber(count))
	return 2
}

// gsubValue returns the replacement of one match, or false to keep it. A
// string replacement is measured before it is built: one that would take
// the result (built bytes so far) past limit bytes is refused, so "%0"
// repeated a million times on a long match never builds gigabytes.
func gsubValue(L *lua.LState, s string, md *pm.MatchData, repl lua.LValue, built, limit int) (string, bool) {
	switch repl := repl.(type) {
	case lua.LString:
		if n := replacementSize(L, s, md, string(repl)); int64(built)+n > int64(limit) {
			L.RaiseError("string too long: string.gsub would build more than %d bytes, more than the sandbox allows (%d, luabind.Options.MaxStringBytes)",
				int64(built)+n, limit)
		}
		var b strings.Builder
		for i := 0; i < len(repl); i++ {
			c := repl[i]
			if c != '%' || i == len(repl)-1 {
				b.WriteByte(c)
				continue
			}
			i++
			switch d := repl[i]; {
			case d == '%':
				b.WriteByte('%')
			case d >= '0' && d <= '9':
				b.WriteString(capture(L, s, md, 2*int(d-'0')))
			default:
				b.WriteByte('%')
				b.WriteByte(d)
			}
		}
		return b.String(), true
	case *lua.LTable:
		v := L.GetTable(repl, firstCapture(s, md))
		return lua.LVAsString(v), !lua.LVIsFalse(v)
	case *lua.LFunction:
		L.Push(repl)
		n := 1
		if md.CaptureLength() > 2 {
			n = 0
			for i := 2; i < md.CaptureLength(); i += 2 {
				L.Push(captureValue(s, md, i))
				n++
			}
		} else {
			L.Push(lua.LString(s[md.Capture(0):md.Capture(1)]))
		}
		L.Call(n, 1)
		v := L.Get(-1)
		L.Pop(1)
		return lua.LVAsString(v), !lua.LVIsFalse(v)
	}
	return "", false
}

// replacementSize is the length of the string replacement repl for one
// match, without building it, in 64 bits on every machine (so a 32-bit
// build measures what a 64-bit one does); it stops counting past 1 TiB,
// far beyond any string limit, so the sum cannot overflow.
func replacementSize(L *lua.LState, s string, md *pm.MatchData, repl string) int64 {
	const enough = 1 << 40
	var n int64
	for i := 0; i < len(repl) && n < enough; i++ {
		if repl[i] != '%' || i == len(repl)-1 {
			n++
			continue
		}
		i++
		switch d := repl[i]; {
		case d == '%':
			n++
		case d >= '0' && d <= '9':
			n += int64(len(capture(L, s, md, 2*int(d-'0'))))
		default:
			n += 2
		}
	}
	return n
}

// capture is %idx/2 of a string replacement: %0 and, without captures, %1
// are the whole match.
func capture(L *lua.LState, s string, md *pm.MatchData, idx int) string {
	if idx > 2 && idx >= md.CaptureLength() {
		L.RaiseError("invalid capture index")
	}
	if idx >= md.CaptureLength() {
		idx = 0
	}
	if md.IsPosCapture(idx) {
		return strconv.Itoa(md.Capture(idx))
	}
	return s[md.Capture(idx):md.Capture(idx+1)]
}

func captureValue(s string, md *pm.MatchData, i int) lua.LValue {
	if md.IsPosCapture(i) {
		return lua.LNumber(md.Capture(i))
	}
	return lua.LString(s[md.Capture(i):md.Capture(i+1)])
}

func firstCapture(s string, md *pm.MatchData) lua.LValue {
	if md.CaptureLength() > 2 {
		return captureValue(s, md, 2)
	}
	return lua.LString(s[md.Capture(0):md.Capture(1)])
}

// strGmatch is string.gmatch(s, pattern), finding one match per call of
// the iterator (gopher-lua's finds every match first, one record each).
// A pattern starting with ^ matches at most once, as in gopher-lua.
func (r *Runtime) strGmatch(L *lua.LState) int {
	s := L.CheckString(1)
	pat := L.CheckString(2)
	// The iterations together scan the subject once: charge it now.
	r.chargePattern(L, "string.gmatch", pat, s)
	r.chargeBytes(L, len(s))
	src := []byte(s)
	pos, done := 0, false
	L.Push(L.NewFunction(func(L *lua.LState) int {
		if done || pos > len(src) {
			return 0
		}
		r.charge(L, 1)
		mds, err := pm.Find(pat, src, pos, 1)
		if err != nil {
			L.RaiseError("%s", err.Error())
		}
		if len(mds) == 0 {
			done = true
			return 0
		}
		md := mds[0]
		pos = max(md.Capture(0)+1, md.Capture(1))
		done = strings.HasPrefix(pat, "^")
		if md.CaptureLength() == 2 {
			L.Push(lua.LString(s[md.Capture(0):md.Capture(1)]))
			return 1
		}
		for i := 2; i < md.CaptureLength(); i += 2 {
			L.Push(captureValue(s, md, i))
		}
		return md.CaptureLength()/2 - 1
	}))
	return 1
}

// maxPatternDepth bounds how deep gopher-lua's matcher may recurse in one
// match: it recurses once per character a repetition takes (a few hundred
// bytes of Go stack each), so ".*" on a 16 MiB string would need gigabytes
// of stack. 100,000 levels is some tens of MiB at most.
const maxPatternDepth = 100_000

// Work of a pattern match. The estimate of patternCost is usually far above
// the real count (the 4 KB trim "^%s*(.-)%s*$" is estimated at 1.7e7 steps
// and takes about 1 ms), so it is charged at one unit per 128 estimated
// steps; maxPatternSteps still caps it.
const (
	matchUnitsPerByte      = 10
	patternEstimatePerUnit = 128
)

// chargePattern checks a pattern match (see checkPattern) and charges its
// worst-case steps, one work unit per step: every start position of an
// unanchored pattern, or the estimated backtracking when that is more.
func (r *Runtime) chargePattern(L *lua.LState, what, pat, subject string) {
	units := checkPattern(L, what, pat, subject)
	r.charge(L, int64(units)+int64(len(pat))/bytesPerUnit+1)
}

// checkPattern raises an error for a pattern whose backtracking could take
// more than maxPatternSteps on subject (see patternCost), or whose
// recursion could go deeper than maxPatternDepth, and returns the work
// units the match may cost: matchUnitsPerByte per start position, plus
// the backtracking estimate over patternEstimatePerUnit.
func checkPattern(L *lua.LState, what, pat, subject string) float64 {
	n := len(subject)
	items, anchored := scanPattern(pat)
	depth := len(items)
	for _, it := range items {
		if it.quant != 0 {
			depth += longestRun(it.set, subject)
		}
	}
	if depth > maxPatternDepth {
		shown := pat
		if len(shown) > 40 {
			shown = shown[:40] + "..."
		}
		L.RaiseError("%s: pattern %q on a %d-byte string could make the matcher recurse %d levels deep, more than the sandbox allows (%d); "+
			"each level holds Go stack, so match a shorter string or a repetition that cannot run over the whole of it", what, shown, n, depth, maxPatternDepth)
	}
	steps := patternCost(pat, subject)
	if steps <= maxPatternSteps {
		// gopher-lua's matcher costs 250-350 ns per start position (it
		// allocates a record each): ten work units. An anchored pattern
		// starts once and can run at most depth bytes.
		scan := float64(n + 1)
		if anchored {
			scan = float64(min(n, depth) + 1)
		}
		return scan*matchUnitsPerByte + steps/patternEstimatePerUnit
	}
	shown := pat
	if len(shown) > 40 {
		shown = shown[:40] + "..."
	}
	L.RaiseError("%s: pattern %q on a %d-byte string could take about %.0e matching steps; a pattern match runs in Go, "+
		"outside the instruction budget, so the sandbox refuses more than %.0e (anchor the pattern with ^, "+
		"use fewer repetitions that can match the same characters, or match a shorter string)",
		what, shown, n, steps, float64(maxPatternSteps))
	return steps
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(c byte) { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) union(o byteSet) {
	s[0], s[1], s[2], s[3] = s[0]|o[0], s[1]|o[1], s[2]|o[2], s[3]|o[3]
}
func (s byteSet) meets(o byteSet) bool { return s[0]&o[0]|s[1]&o[1]|s[2]&o[2]|s[3]&o[3] != 0 }
func (s *byteSet) complement()         { s[0], s[1], s[2], s[3] = ^s[0], ^s[1], ^s[2], ^s[3] }
func allBytes() byteSet                { return byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} }
func (s *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
}
func (s *byteSet) addIf(f func(byte) bool) {
	for c := 0; c < 256; c++ {
		if f(byte(c)) {
			s.add(byte(c))
		}
	}
}

// classSet is the set of %c (c a letter of Lua's classes; its upper case
// is the complement; anything else stands for itself). Bytes above 127
// are in every letter class: an over-estimate only makes the guard stricter.
func classSet(c byte) byteSet {
	var s byteSet
	lower := c | 0x20
	is := map[byte]func(byte) bool{
		'a': func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80 },
		'd': func(b byte) bool { return b >= '0' && b <= '9' },
		'l': func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 0x80 },
		'u': func(b byte) bool { return b >= 'A' && b <= 'Z' || b >= 0x80 },
		's': func(b byte) bool { return b == ' ' || b >= '\t' && b <= '\r' || b >= 0x80 },
		'w': func(b byte) bool {
			return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
		},
		'x': func(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' },
		'p': func(b byte) bool {
			return b > ' ' && b < 0x7f && !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9') || b >= 0x80
		},
		'c': func(b byte) bool { return b < ' ' || b == 0x7f || b >= 0x80 },
		'z': func(b byte) bool { return b == 0 }, // gopher-lua's %z is \0, and its %g the letter g
	}[lower]
	if is == nil {
		s.add(c)
		return s
	}
	s.addIf(is)
	if c != lower {
		s.complement()
	}
	return s
}

// patternItem is one single-character item of a pattern and its
// quantifier, or another item that must match (a %b, a back reference).
type patternItem struct {
	set   byteSet
	quant byte // 0, '*', '+', '-' or '?'
}

// patternCost estimates the worst number of steps gopher-lua's
// backtracking matcher may take for pat on a subject of n bytes: n raised
// to the number of repetitions (* + -) that can match a character that
// what follows them could also start with (so the matcher may try every
// split between them), plus one unless the pattern starts with ^ (every
// start position is tried), times 2 for each such optional item (?).
// The last repetition of such a run counts too when an item that must
// match follows it ("a*a*b" costs n³). A repetition followed by something
// it cannot match, like the %w+ in "(%w+)=", multiplies by the longest
// run of the subject's bytes it matches (the word length); so
// "^%s*(.-)%s*$" costs n², "(%w+)=(%w+)" costs n times the longest word,
// and ".-.-.-.-b" costs n⁵. Patterns that cost at most n (one pass) are
// never refused. It is an estimate, not a bound: the last repetition
// before a final $ is not counted ("^a*a*$" on "aaa...ab" is quadratic,
// estimated n).
func patternCost(pat, subject string) float64 {
	n := len(subject)
	items, anchored := scanPattern(pat)
	exp, opt := 0, 0
	overlaps := make([]bool, len(items)) // the item may match what follows it
	mustFollow := make([]bool, len(items))
	var follow byteSet // what may come first after the item
	must := false      // an item that must match comes after the item
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		overlaps[i] = it.quant != 0 && it.set.meets(follow)
		mustFollow[i] = must
		if it.quant == 0 || it.quant == '+' {
			follow, must = it.set, true
		} else {
			follow.union(it.set)
		}
	}
	var before byteSet // what the overlapping repetitions before the item match
	for i, it := range items {
		// The last repetition of an overlapping run (as the second a* in
		// "a*a*b") also multiplies when something that must match follows.
		if overlaps[i] || it.quant != 0 && it.quant != '?' && mustFollow[i] && it.set.meets(before) {
			if it.quant == '?' {
				opt++
			} else {
				exp++
			}
		}
		if overlaps[i] {
			before.union(it.set)
		}
	}
	// A repetition that cannot match what must follow it backs off over
	// its whole run before failing: its factor is the subject's longest
	// run of bytes it matches, not n.
	runs := 1.0
	for i, it := range items {
		if it.quant == '*' || it.quant == '+' || it.quant == '-' {
			if !overlaps[i] && mustFollow[i] && !it.set.meets(before) {
				runs *= float64(max(longestRun(it.set, subject), 1))
			}
		}
	}
	if !anchored {
		exp++
	}
	if exp <= 1 && opt == 0 && runs <= 1 {
		return 0
	}
	return math.Pow(float64(max(n, 1)), float64(exp)) * math.Pow(2, float64(opt)) * runs
}

// longestRun returns the length of the longest run of bytes of s in set.
func longestRun(set byteSet, s string) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if set[s[i]>>6]&(1<<(s[i]&63)) != 0 {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// scanPattern splits a Lua pattern into items; a malformed pattern gives
// some items and is left to the matcher to report.
func scanPattern(p string) (items []patternItem, anchored bool) {
	i := 0
	if strings.HasPrefix(p, "^") {
		anchored, i = true, 1
	}
	for i < len(p) {
		var set byteSet
		single := true
		switch c := p[i]; {
		case c == '(' || c == ')':
			i++
			continue
		case c == '$' && i == len(p)-1:
			i++
			continue
		case c == '.':
			set = allBytes()
			i++
		case c == '%' && i+1 < len(p):
			switch d := p[i+1]; {
			case d == 'b':
				if i+2 < len(p) {
					set.add(p[i+2])
				}
				i += 4
				single = false
			case d >= '0' && d <= '9':
				set = allBytes()
				i += 2
				single = false
			default:
				set = classSet(d)
				i += 2
			}
		case c == '[':
			set, i = scanSet(p, i)
		default:
			set.add(c)
			i++
		}
		it := patternItem{set: set}
		if single && i < len(p) && strings.IndexByte("*+-?", p[i]) >= 0 {
			it.quant = p[i]
			i++
		}
		items = append(items, it)
	}
	return items, anchored
}

// scanSet reads the set [...] starting at p[i] and returns it and the
// index after it.
func scanSet(p string, i int) (byteSet, int) {
	var s byteSet
	j := i + 1
	neg := j < len(p) && p[j] == '^'
	if neg {
		j++
	}
	for first := true; j < len(p) && (p[j] != ']' || first); first = false {
		switch {
		case p[j] == '%' && j+1 < len(p):
			s.union(classSet(p[j+1]))
			j += 2
		case j+2 < len(p) && p[j+1] == '-' && p[j+2] != ']':
			if p[j] <= p[j+2] {
				s.addRange(p[j], p[j+2])
			}
			j += 3
		default:
			s.add(p[j])
			j++
		}
	}
	if neg {
		s.complement()
	}
	return s, j + 1
}
