package record

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// drawEvent draws a record with any of Event's fields set: names from a
// small pool (so the recorder's name table is used) or made up (so it
// fills), nil and empty slices, negative and round numbers, long texts.
func drawEvent(t *rapid.T, i int) Event {
	name := func(label string) string {
		if rapid.Bool().Draw(t, label+"?") {
			return ""
		}
		if rapid.IntRange(0, 3).Draw(t, label+"-new") == 0 {
			return label + "-" + strconv.Itoa(i) + "-" + rapid.StringN(0, 5, -1).Draw(t, label+"-s")
		}
		return rapid.SampledFrom([]string{"attack", "reload", "armed", "s1", "fetchMagazine", "héllo"}).Draw(t, label)
	}
	num := func(label string) float64 {
		switch rapid.IntRange(0, 4).Draw(t, label+"-kind") {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return float64(rapid.IntRange(-100, 100).Draw(t, label+"-int"))
		case 3:
			return math.Inf(rapid.SampledFrom([]int{-1, 1}).Draw(t, label+"-inf"))
		}
		return rapid.Float64().Draw(t, label)
	}
	text := func(label string) string {
		if rapid.Bool().Draw(t, label+"?") {
			return ""
		}
		return strings.Repeat(rapid.String().Draw(t, label), rapid.IntRange(1, 40).Draw(t, label+"-times"))
	}
	e := Event{
		Tick: int(rapid.Int64Range(-5, min(1<<40, math.MaxInt)).Draw(t, "tick")), Time: num("time"),
		Agent: name("agent"), Kind: EventKind(rapid.IntRange(0, 255).Draw(t, "kind")),
		Goal: name("goal"), Action: name("action"), Cost: num("cost"),
		Expansions: rapid.IntRange(-3, 1<<20).Draw(t, "expansions"), Score: num("score"),
		Reason: text("reason"), Duration: time.Duration(rapid.Int64().Draw(t, "duration")),
		Belief: name("belief"), Value: text("value"), Old: text("old"), Peer: name("peer"),
		Intention: rapid.IntRange(-2, 1000).Draw(t, "intention"),
	}
	if rapid.Bool().Draw(t, "time-of-tick") { // as an agent's clock makes it
		e.Tick = rapid.IntRange(0, 100000).Draw(t, "tick-of-time")
		e.Time = float64(e.Tick-1) / rapid.SampledFrom([]float64{60, 10, 7}).Draw(t, "rate")
	}
	if n := rapid.IntRange(-1, 4).Draw(t, "plan"); n >= 0 {
		e.Plan = make([]string, n)
		for k := range e.Plan {
			e.Plan[k] = name("step")
		}
	}
	if n := rapid.IntRange(-1, 4).Draw(t, "scores"); n >= 0 {
		e.Scores = make([]ActionScore, n)
		for k := range e.Scores {
			e.Scores[k] = ActionScore{Action: name("scored"), Score: num("s")}
		}
	}
	if n := rapid.IntRange(-1, 4).Draw(t, "considerations"); n >= 0 {
		e.Considerations = make([]ConsiderationScore, n)
		for k := range e.Considerations {
			e.Considerations[k] = ConsiderationScore{Name: name("consideration"), Input: num("in"),
				Output: num("out"), Weight: num("weight"), Error: text("error")}
		}
	}
	return e
}

// sameRecords compares records field by field, floats by their bits (so
// -0 and NaN count), slices with nil apart from empty.
func sameRecords(t require.TestingT, want, got []Event) {
	require.Len(t, got, len(want))
	for i := range want {
		w, g := reflect.ValueOf(want[i]), reflect.ValueOf(got[i])
		sameValue(t, "record "+strconv.Itoa(i), w, g)
	}
}

func sameValue(t require.TestingT, path string, w, g reflect.Value) {
	switch w.Kind() {
	case reflect.Float64:
		require.Equal(t, math.Float64bits(w.Float()), math.Float64bits(g.Float()), path)
	case reflect.Slice:
		require.Equal(t, w.IsNil(), g.IsNil(), path+": nil")
		require.Equal(t, w.Len(), g.Len(), path+": length")
		for i := range w.Len() {
			sameValue(t, path+"["+strconv.Itoa(i)+"]", w.Index(i), g.Index(i))
		}
	case reflect.Struct:
		for i := range w.NumField() {
			sameValue(t, path+"."+w.Type().Field(i).Name, w.Field(i), g.Field(i))
		}
	default:
		require.Equal(t, w.Interface(), g.Interface(), path)
	}
}

func TestRecorderGivesBackWhatWasAdded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		size := rapid.IntRange(1, 9).Draw(t, "size")
		r := New(size)
		var all []Event
		for i := range rapid.IntRange(0, 40).Draw(t, "records") {
			e := drawEvent(t, i)
			all = append(all, e)
			r.Add(e)
			kept := all[max(0, len(all)-size):]
			sameRecords(t, kept, r.Records())

			last := "none"
			for k := len(kept) - 1; k >= 0; k-- {
				if kept[k].Action != "" {
					last = kept[k].Kind.String() + " " + kept[k].Action
					break
				}
			}
			require.Contains(t, r.Summary("RUNNING"), "last="+strconv.Quote(last))
		}
		for k := EventKind(0); k < 255; k++ {
			n := 0
			for _, e := range all {
				if e.Kind == k && countSlot(k) >= 0 {
					n++
				}
			}
			require.Equal(t, n, r.Count(k), "count of kind %d", k)
		}
		require.LessOrEqual(t, len(r.names), maxNames)
	})
}

func TestZeroRecorderKeepsTheDefaultNumber(t *testing.T) {
	var r Recorder
	for i := range 2 * DefaultSize {
		r.Add(Event{Tick: i, Kind: EventStart, Action: "a"})
	}
	recs := r.Records()
	require.Len(t, recs, DefaultSize)
	assert.Equal(t, DefaultSize, recs[0].Tick)
	assert.Equal(t, 2*DefaultSize, r.Count(EventStart))
}

// TestRecorderCodecCoversEveryField fails when Event or the records it
// holds gain a field, so the recorder's encoding (record_codec.go) is
// extended with it instead of silently dropping it.
func TestRecorderCodecCoversEveryField(t *testing.T) {
	assert.Equal(t, 19, reflect.TypeFor[Event]().NumField(), "Event changed: update encodeRecord and decodeRecord")
	assert.Equal(t, 2, reflect.TypeFor[ActionScore]().NumField(), "ActionScore changed: update the codec")
	assert.Equal(t, 5, reflect.TypeFor[ConsiderationScore]().NumField(), "ConsiderationScore changed: update the codec")
}

// soldierRecords are the records a soldier of scripts/soldier.lua makes in
// one attack-fetch-reload cycle, about 10 s of play.
func soldierRecords(tick int) []Event {
	at := func(dt int) (int, float64) { return tick + dt, float64(tick+dt-1) / 60 }
	ev := func(dt int, e Event) Event {
		e.Tick, e.Time = at(dt)
		e.Agent = "s3"
		return e
	}
	return []Event{
		ev(0, Event{Kind: EventPlan, Goal: "armed", Plan: []string{"fetchMagazine", "reload"}, Cost: 3, Expansions: 3}),
		ev(0, Event{Kind: EventStart, Goal: "armed", Action: "fetchMagazine"}),
		ev(150, Event{Kind: EventFinish, Goal: "armed", Action: "fetchMagazine"}),
		ev(151, Event{Kind: EventStart, Goal: "armed", Action: "reload"}),
		ev(241, Event{Kind: EventFinish, Goal: "armed", Action: "reload"}),
		ev(242, Event{Kind: EventPick, Action: "attack", Score: 0.98812345,
			Scores: []ActionScore{{"attack", 0.98812345}, {"takeCover", 0.0123}, {"retreat", 0.00091}, {"reload", 0}},
			Considerations: []ConsiderationScore{{Name: "has ammo", Input: 30, Output: 1, Weight: 1},
				{Name: "healthy", Input: 100, Output: 0.99752738, Weight: 1}, {Name: "in range", Input: 300, Output: 0.8175744, Weight: 1}}}),
		ev(242, Event{Kind: EventStart, Action: "attack"}),
		ev(590, Event{Kind: EventFinish, Action: "attack"}),
	}
}

// TestRecorderIsSmall holds the recorder of a soldier to its budget: a
// full ring of 64 such records in under 2.5 KB (an Event alone is 264
// bytes), and adding a record allocates nothing once the buffer has grown.
func TestRecorderIsSmall(t *testing.T) {
	r := New(0)
	var recs []Event
	for tick := 1; len(recs) < 10*DefaultSize; tick += 591 {
		recs = append(recs, soldierRecords(tick)...)
	}
	for _, e := range recs[:5*DefaultSize] {
		r.Add(e)
	}
	held := cap(r.buf) + 4*cap(r.offs) + 16*cap(r.names) + int(reflect.TypeFor[Recorder]().Size())
	assert.Less(t, held, 2500, "bytes a full recorder of a soldier holds (buffer %d of %d used)", len(r.buf), cap(r.buf))
	rest := recs[5*DefaultSize:]
	i := 0
	assert.Zero(t, testing.AllocsPerRun(200, func() {
		r.Add(rest[i%len(rest)])
		i++
	}))
	added := append([]Event(nil), recs[:5*DefaultSize]...)
	for j := range i {
		added = append(added, rest[j%len(rest)])
	}
	sameRecords(t, added[len(added)-DefaultSize:], r.Records())
}
