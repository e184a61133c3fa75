package engine

import (
	"encoding/json"
	"reflect"
)

// FactCodec writes an agent's typed facts (Agent.SetFact) into a snapshot
// and reads them back: World.Snapshot calls EncodeFact for every fact an
// agent holds, in the order of Domain.Types, and Restore and
// World.AddSnapshot call DecodeFact for each, before any body restarts.
// Set one as Domain.Facts after Compile, before the domain is shared
// (package luabind does, for Lua values); a nil Domain.Facts means
// JSONFacts{}. Both methods are called from the goroutine that calls
// Snapshot or Restore, between ticks.
type FactCodec interface {
	// EncodeFact returns v, agent a's value of type typ, as JSON. An error
	// stops the snapshot with a message naming the agent and the type.
	EncodeFact(a *Agent, typ string, v any) (json.RawMessage, error)
	// DecodeFact returns the value that data, written by EncodeFact,
	// stands for. An error stops the restore the same way; a nil value
	// leaves the agent without that fact.
	DecodeFact(a *Agent, typ string, data json.RawMessage) (any, error)
}

// JSONFacts is the default FactCodec: it writes each fact with
// encoding/json (so exported struct fields, maps, slices, strings, numbers
// and booleans are saved; unexported fields are not) and reads a type
// listed in Types back into a new value of the same Go type as its entry
// (give a zero value: "DraftSchedule": Draft{}; a pointer entry decodes to
// a pointer). A type not listed decodes as encoding/json decodes into an
// any: map[string]any, []any, float64, string or bool. It is plain data:
// safe for concurrent use while nobody changes Types.
type JSONFacts struct {
	Types map[string]any
}

// EncodeFact returns json.Marshal(v).
func (c JSONFacts) EncodeFact(_ *Agent, _ string, v any) (json.RawMessage, error) {
	return json.Marshal(v)
}

// DecodeFact unmarshals data into a new value of the Go type of
// c.Types[typ], or into an any when typ is not listed.
func (c JSONFacts) DecodeFact(_ *Agent, typ string, data json.RawMessage) (any, error) {
	proto, ok := c.Types[typ]
	if !ok || proto == nil {
		var v any
		err := json.Unmarshal(data, &v)
		return v, err
	}
	t := reflect.TypeOf(proto)
	p := reflect.New(t)
	if err := json.Unmarshal(data, p.Interface()); err != nil {
		return nil, err
	}
	return p.Elem().Interface(), nil
}

// factCodec is d's FactCodec, JSONFacts{} when it has none.
func (d *Domain) factCodec() FactCodec {
	if d.Facts != nil {
		return d.Facts
	}
	return JSONFacts{}
}

// factSnap is one typed fact of an agent in a snapshot.
type factSnap struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// saveFacts encodes the agent's facts in the order of d.Types.
func (a *Agent) saveFacts() ([]factSnap, error) {
	if len(a.facts) == 0 {
		return nil, nil
	}
	codec := a.Domain.factCodec()
	var out []factSnap
	for _, typ := range a.Domain.Types() {
		v := a.facts[typ]
		if v == nil {
			continue
		}
		data, err := codec.EncodeFact(a, typ, v)
		if err != nil {
			return nil, newError("snapshot: agent " + a.Name + ": fact " + typ + ": " + err.Error())
		}
		if !json.Valid(data) {
			return nil, newError("snapshot: agent " + a.Name + ": fact " + typ + ": the codec wrote invalid JSON")
		}
		out = append(out, factSnap{Type: typ, Value: data})
	}
	return out, nil
}

// loadFacts decodes saved facts; a type the domain no longer has is
// dropped, as other names the domain lacks are.
func (a *Agent) loadFacts(saved []factSnap) error {
	a.facts = nil
	codec := a.Domain.factCodec()
	for _, f := range saved {
		if !a.Domain.IsType(f.Type) {
			continue
		}
		v, err := codec.DecodeFact(a, f.Type, f.Value)
		if err != nil {
			return newError("restore: agent " + a.Name + ": fact " + f.Type + ": " + err.Error())
		}
		if v == nil {
			continue
		}
		if a.facts == nil {
			a.facts = map[string]any{}
		}
		a.facts[f.Type] = v
	}
	return nil
}
