package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

type worldSnap struct {
	Format  string     `json:"format"`
	Version int        `json:"version"`
	Time    float64    `json:"time"`
	Ticks   int        `json:"ticks"`
	Seed    uint64     `json:"seed"`
	Rand    []byte     `json:"rand"`
	Workers int        `json:"workers,omitempty"`
	Timing  bool       `json:"timing,omitempty"`
	Clock   *clockSnap `json:"clock,omitempty"` // the world's exact clock; absent: count on from Time
	// The plan budget and its queue's cursor and debt (world_slice.go).
	PlanBudget int `json:"planBudget,omitempty"`
	PlanNext   int `json:"planNext,omitempty"`
	PlanDebt   int `json:"planDebt,omitempty"`
	// The level of detail: on at the last tick, its budget's cursor and
	// its clock, which the agents' times are on (world_lod.go). LOD itself
	// (a function) is the game's to set again.
	LODOn   bool    `json:"lodOn,omitempty"`
	LODNext int     `json:"lodNext,omitempty"`
	LODTime snapNum `json:"lodTime,omitempty"`
	// NextID is the ID the next added agent gets (IDs are never reused);
	// absent in older snapshots: one past the highest agent ID.
	NextID int         `json:"nextID,omitempty"`
	Agents []agentSnap `json:"agents"`
	// Groups are the groups of the saved agents, with their boards (group.go).
	Groups []groupSnap `json:"groups,omitempty"`
	// Objects are the smart objects of a whole world, with their holders (object.go).
	Objects []objectSnap `json:"objects,omitempty"`
}

type agentSnap struct {
	// Holds names the smart object the running step holds, or is empty.
	Holds        string             `json:"holds,omitempty"`
	Name         string             `json:"name"`
	Domain       string             `json:"domain"`
	ID           int                `json:"id"`
	Pin          int                `json:"pin"`
	Tick         int                `json:"tick"`
	Time         float64            `json:"time"`
	State        []varSnap          `json:"state"`
	Rand         []byte             `json:"rand"`
	RetryDelay   snapNum            `json:"retryDelay,omitempty"`
	StuckAfter   snapNum            `json:"stuckAfter,omitempty"`
	Commitment   snapNum            `json:"commitment,omitempty"`
	RethinkEvery snapNum            `json:"rethinkEvery,omitempty"`
	MaxDepth     int                `json:"maxDepth,omitempty"`
	Budget       int                `json:"budget,omitempty"`
	Chaining     bool               `json:"chaining"`
	Planning     bool               `json:"planning"`
	Goal         string             `json:"goal,omitempty"`
	Picked       bool               `json:"picked,omitempty"`
	Plan         []string           `json:"plan,omitempty"`
	Step         int                `json:"step"`
	Running      string             `json:"running,omitempty"`
	Satisfied    []string           `json:"satisfied,omitempty"`
	Cooldown     map[string]snapNum `json:"cooldown,omitempty"`
	Broken       map[string]int     `json:"brokenPromises,omitempty"`
	SensorNext   map[string]snapNum `json:"sensorNext,omitempty"`
	SensorLast   map[string]snapNum `json:"sensorLast,omitempty"`
	SenseErr     []string           `json:"senseErrors,omitempty"`
	FailedState  []varSnap          `json:"failedState,omitempty"`
	RetryAt      snapNum            `json:"retryAt"`
	RethinkAt    snapNum            `json:"rethinkAt"`
	LastProgress snapNum            `json:"lastProgress"`
	Stuck        bool               `json:"stuck,omitempty"`
	Idle         bool               `json:"idle,omitempty"`
	Seen         []varSnap          `json:"seen,omitempty"`
	Inbox        []toldSnap         `json:"inbox,omitempty"`
	Pursued      map[string]string  `json:"pursued,omitempty"`
	Recorder     *recorderSnap      `json:"recorder,omitempty"`
	Reactive     []goalSnap         `json:"reactiveGoals,omitempty"`
	Clock        clockSnap          `json:"clock"`
	Pursuit      string             `json:"pursuit,omitempty"`
	Authorities  []string           `json:"authorities,omitempty"`
	Facts        []factSnap         `json:"factValues,omitempty"`
	Ran          []string           `json:"ran,omitempty"`
	LOD          *lodSnap           `json:"lod,omitempty"`    // its level of detail (world_lod.go)
	Memory       *memorySnap        `json:"memory,omitempty"` // its perception memory (perception.go)
}

// clockSnap is an agent's or the world's exact clock (see clock): the time its current
// run of equal dt began, that dt, its rate when whole, and the ticks of
// the run.
type clockSnap struct {
	Base float64 `json:"base"`
	DT   float64 `json:"dt"`
	Rate float64 `json:"rate,omitempty"`
	N    int     `json:"n"`
}

type toldSnap struct {
	From  string  `json:"from"`
	Var   string  `json:"var"`
	Value varSnap `json:"value"`
}

type recorderSnap struct {
	Size   int            `json:"size"`
	Ring   []record.Event `json:"ring,omitempty"`
	Counts map[string]int `json:"counts,omitempty"`
}

type goalSnap struct {
	Tuple bool      `json:"tuple,omitempty"`
	Terms []varSnap `json:"terms"`
}

// varSnap is one value, with the variable's name when it is one: exactly
// one of Bool, Number, String and Nil is set, or none for Unknown (a
// missing value). Special holds "NaN", "+Inf" or "-Inf", which JSON has no
// number for.
type varSnap struct {
	Name    string   `json:"name,omitempty"`
	Bool    *bool    `json:"bool,omitempty"`
	Number  *float64 `json:"number,omitempty"`
	Special string   `json:"special,omitempty"`
	String  *string  `json:"string,omitempty"`
	Nil     bool     `json:"nil,omitempty"`
}

func saveValue(name string, v expr.Value) varSnap {
	s := varSnap{Name: name}
	switch v.Kind() {
	case expr.Bool:
		b, _ := v.AsBool()
		s.Bool = &b
	case expr.Number:
		f, _ := v.AsNumber()
		if s.Special = specialName(f); s.Special == "" {
			s.Number = &f
		}
	case expr.String:
		str, _ := v.AsString()
		s.String = &str
	case expr.Nil:
		s.Nil = true
	}
	return s
}

func (s varSnap) value() (expr.Value, error) {
	n := 0
	var v expr.Value
	if s.Bool != nil {
		n++
		v = expr.BoolValue(*s.Bool)
	}
	if s.Number != nil {
		n++
		v = expr.NumberValue(*s.Number)
	}
	if s.Special != "" {
		n++
		f, ok := specialNumber(s.Special)
		if !ok {
			return expr.Value{}, fmt.Errorf("special number %q is none of NaN, +Inf, -Inf", s.Special)
		}
		v = expr.NumberValue(f)
	}
	if s.String != nil {
		n++
		v = expr.StringValue(*s.String)
	}
	if s.Nil {
		n++
		v = expr.NilValue()
	}
	if n > 1 {
		return expr.Value{}, errors.New("more than one of bool, number, special, string, nil")
	}
	if s.String != nil && len(*s.String) > maxRestoreString {
		return expr.Value{}, fmt.Errorf("a string of %d bytes is longer than %d, the longest a snapshot may hold", len(*s.String), maxRestoreString)
	}
	return v, nil
}

func saveState(d *Domain, st expr.State) []varSnap {
	out := make([]varSnap, 0, len(st))
	for i, v := range st {
		out = append(out, saveValue(d.Schema.Name(i), v))
	}
	return out
}

// loadState writes the saved variables the domain has into st, by name.
func loadState(d *Domain, st expr.State, vars []varSnap, agent, field string) error {
	for _, vs := range vars {
		v, err := vs.value()
		if err == nil && d.SafeNumbers {
			err = safeNumber(v)
		}
		if err != nil {
			return fmt.Errorf("engine: restore: agent %s: %s %s: %w", agent, field, vs.Name, err)
		}
		if slot, ok := d.Schema.Lookup(vs.Name); ok && slot < len(st) {
			st[slot] = v
		}
	}
	return nil
}

func formatSnapFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// snapNum is an agent's setting or timer in seconds (or score units) as a
// snapshot holds it: a JSON number when finite, else the string "+Inf",
// "-Inf" or "NaN", which JSON has no number for. An agent may hold any of
// them (StuckAfter = +Inf never marks it STUCK), so its snapshot keeps them
// exactly, as varSnap's Special does for state values.
type snapNum float64

// MarshalJSON writes f as encoding/json writes a float64, or as one of the
// three strings.
func (f snapNum) MarshalJSON() ([]byte, error) {
	if name := specialName(float64(f)); name != "" {
		return []byte(`"` + name + `"`), nil
	}
	return json.Marshal(float64(f))
}

// UnmarshalJSON reads a number or one of the three strings; any other
// string is a *json.UnmarshalTypeError naming it (and, once encoding/json
// adds it, the field).
func (f *snapNum) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '"' {
		var x float64
		err := json.Unmarshal(b, &x)
		*f = snapNum(x)
		return err
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	x, ok := specialNumber(s)
	if !ok {
		// encoding/json adds the field's path to this error.
		return &json.UnmarshalTypeError{Value: "string " + strconv.Quote(s) + " (a number, or one of NaN, +Inf, -Inf)", Type: reflect.TypeFor[float64]()}
	}
	*f = snapNum(x)
	return nil
}

// specialName is "NaN", "+Inf" or "-Inf" for the numbers JSON has no
// number for, else "": how a snapshot writes them (varSnap.Special,
// snapNum).
func specialName(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return ""
}

// specialNumber is specialName's inverse; ok is false for any other text.
func specialNumber(name string) (f float64, ok bool) {
	switch name {
	case "NaN":
		return math.NaN(), true
	case "+Inf":
		return math.Inf(1), true
	case "-Inf":
		return math.Inf(-1), true
	}
	return 0, false
}

// safeNumber refuses, for a domain with SafeNumbers, a number its state
// may not hold (expr.SafeNumber): NaN, or one that may have lost digits.
func safeNumber(v expr.Value) error {
	if f, ok := v.AsNumber(); ok {
		if err := expr.CheckNumber(f); err != nil {
			return errors.New(err.(*expr.NumberError).Message())
		}
	}
	return nil
}
