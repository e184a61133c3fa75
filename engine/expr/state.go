package expr

import (
	"encoding/json"
	"sort"
)

// Schema names the state variables of a domain and fixes the slot of each
// one. Slots are assigned in the order names are first interned, so a
// schema built from the same declarations is always the same. A Schema is
// built while a domain compiles and is read-only afterwards; reading it is
// safe from many goroutines.
type Schema struct {
	names    []string
	index    map[string]int
	families []Family
}

// NewSchema returns a schema holding the given names, in order.
func NewSchema(names ...string) *Schema {
	s := &Schema{index: make(map[string]int)}
	for _, n := range names {
		s.Intern(n)
	}
	return s
}

// Intern returns the slot of name, adding it at the end when it is new.
func (s *Schema) Intern(name string) int {
	if i, ok := s.index[name]; ok {
		return i
	}
	s.names = append(s.names, name)
	s.index[name] = len(s.names) - 1
	return len(s.names) - 1
}

// Lookup returns the slot of name and whether the schema has it.
func (s *Schema) Lookup(name string) (int, bool) {
	i, ok := s.index[name]
	return i, ok
}

// Name returns the variable name of a slot.
func (s *Schema) Name(slot int) string { return s.names[slot] }

// Len returns the number of variables.
func (s *Schema) Len() int { return len(s.names) }

// Names returns the variable names in slot order. The slice is shared: do
// not modify it.
func (s *Schema) Names() []string { return s.names }

// NewState returns a state for this schema with every variable Unknown.
func (s *Schema) NewState() State { return make(State, len(s.names)) }

// State is a world state (a blackboard): one Value per schema slot. A
// variable whose Value is Unknown is missing. A State is a plain slice: copy
// it with Clone or copy before handing it to another goroutine.
type State []Value

// Clone returns a copy of the state.
func (st State) Clone() State {
	c := make(State, len(st))
	copy(c, st)
	return c
}

// Get returns the value of a variable by name; Unknown when the schema
// lacks the name.
func (st State) Get(s *Schema, name string) Value {
	if i, ok := s.Lookup(name); ok && i < len(st) {
		return st[i]
	}
	return Value{}
}

// Set stores a value by name and reports whether the schema has the name.
func (st State) Set(s *Schema, name string, v Value) bool {
	if i, ok := s.Lookup(name); ok && i < len(st) {
		st[i] = v
		return true
	}
	return false
}

// Map returns the known variables as a map of Go values (nil, bool,
// float64, string).
func (st State) Map(s *Schema) map[string]any {
	m := make(map[string]any, len(st))
	for i, v := range st {
		if v.IsKnown() {
			m[s.names[i]] = v.Interface()
		}
	}
	return m
}

// JSON returns the known variables as a JSON object with sorted keys.
func (st State) JSON(s *Schema) []byte {
	m := st.Map(s)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(m[k])
		if err != nil { // NaN or Inf: JSON has no literal for them
			vb, _ = json.Marshal(FormatNumber(m[k].(float64)))
		}
		out = append(out, kb...)
		out = append(out, ':')
		out = append(out, vb...)
	}
	return append(out, '}')
}

// Family is a family of variable names that no declaration provides and
// that a schema reserves (Schema.AddFamily): every name that begins with
// Prefix. A condition or an effect that reads such a name binds it to a
// slot as any other, once Check accepts it; an effect may not assign one.
// Whoever compiles the domain fills those slots (the perception memory's
// memory.<source>.<field> names are one family).
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Family struct {
	Prefix string
	// Check returns nil when name, which begins with Prefix, is one of
	// the family, else what is wrong with it.
	Check func(name string) *NameProblem
}

// NameProblem is what is wrong with a name of a Family: Off is the byte
// offset in the name where it goes wrong, Expected and Found are the
// halves of the ParseError the compile reports there.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type NameProblem struct {
	Off             int
	Expected, Found string
}

// AddFamily reserves a family of names in the schema. Call it before
// anything is compiled with the schema.
func (s *Schema) AddFamily(f Family) { s.families = append(s.families, f) }

// FamilyOf returns the family a name belongs to, or false.
func (s *Schema) FamilyOf(name string) (Family, bool) {
	for _, f := range s.families {
		if len(name) >= len(f.Prefix) && name[:len(f.Prefix)] == f.Prefix {
			return f, true
		}
	}
	return Family{}, false
}

// checkName is the ParseError for a name of a family that its Check
// refuses, at byte offset off of src where the name begins; nil when
// the name is fine or of no family.
func (s *Schema) checkName(src string, off int, name string) *ParseError {
	f, ok := s.FamilyOf(name)
	if !ok || f.Check == nil {
		return nil
	}
	p := f.Check(name)
	if p == nil {
		return nil
	}
	l := lexer{src: src}
	return &ParseError{Source: src, Col: l.colAt(off + p.Off), Expected: p.Expected, Found: p.Found}
}
