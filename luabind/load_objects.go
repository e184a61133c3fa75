package luabind

import (
	"errors"
	"math"
	"sort"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	lua "github.com/yuin/gopher-lua"
)

var objectKeys = []string{"name", "kind", "slots", "data", "offers"}

// objectDecl is one smart object a role file declares in its objects
// list: what Runtime.Objects makes an engine.Object from.
type objectDecl struct {
	name, kind string
	slots      int
	data       map[string]expr.Value
	offers     *lua.LFunction // nil: the object always offers its slots
	pos        engine.Pos
	offersAt   engine.Pos // where offers is declared
}

// ObjectData is the Data of a smart object a role file declares
// (Runtime.Objects): the values of its data table, by name, which the
// game may read and change between ticks. After a change, UpdateObjects
// asks the object's offers function what it offers now.
type ObjectData struct {
	Values map[string]expr.Value
	decl   *objectDecl
}

// objects reads objects = { { name = "crate1", kind = "crate", slots = 1,
// data = { magazines = 4 }, offers = function(data) ... end }, ... }.
func (rd *roleReader) objects(t *lua.LTable, top engine.Pos) []*objectDecl {
	at := rd.find(top, `objects\s*=`)
	seen := map[string]engine.Pos{}
	var out []*objectDecl
	for i, ot := range rd.list(t, "objects", top) {
		name, pos, what := rd.entry(ot, "object", objectKeys, i, at)
		at = after(at, pos)
		o := &objectDecl{name: name, kind: rd.str(ot, "kind", what, pos), slots: 1, pos: pos}
		if o.kind == "" {
			rd.add(pos, what+": kind is required (what actions name in uses, such as \"crate\")")
		}
		switch v := ot.RawGetString("slots").(type) {
		case *lua.LNilType:
		case lua.LNumber:
			if f := float64(v); f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
				rd.add(rd.find(pos, `slots\s*=`), what+": slots must be a whole number of agents, 0 or more, not "+luaShow(v))
			} else {
				o.slots = int(f)
			}
		default:
			rd.add(rd.find(pos, `slots\s*=`), what+": slots must be a whole number of agents, not "+v.Type().String())
		}
		o.data = rd.objectData(ot, what, pos)
		o.offers = rd.fn(ot, "offers", what, pos)
		o.offersAt = rd.find(pos, `offers\s*=`)
		if rd.unique(seen, "object", name, pos) && name != "" && o.kind != "" {
			out = append(out, o)
		}
	}
	return out
}

// objectData reads an object's data = { name = value, ... }: numbers,
// strings and booleans.
func (rd *roleReader) objectData(t *lua.LTable, what string, pos engine.Pos) map[string]expr.Value {
	data := map[string]expr.Value{}
	switch dt := t.RawGetString("data").(type) {
	case *lua.LNilType:
	case *lua.LTable:
		at := rd.find(pos, `data\s*=`)
		rd.nameValues(dt, at, what+": data", "names", func(name string, val expr.Value) {
			data[name] = val
		})
	default:
		rd.add(rd.find(pos, `data\s*=`), what+": data must be a table of name = value, not "+dt.Type().String())
	}
	return data
}

// noteObjects keeps a role file's objects for its domain: the parent's
// first, each replaced in place by the child's object of the same name,
// then the child's new ones.
func (r *Runtime) noteObjects(path string, own []*objectDecl, parentFile string) {
	if r.objectSets == nil {
		r.objectSets = map[string][]*objectDecl{}
	}
	var out []*objectDecl
	if parentFile != "" {
		out = append(out, r.objectSets[parentFile]...)
	}
	r.objectSets[path] = mergeObjects(out, own)
}

// mergeObjects returns base with each of over's objects replacing the
// one of its name in place, or appended.
func mergeObjects(base, over []*objectDecl) []*objectDecl {
	out := append([]*objectDecl(nil), base...)
next:
	for _, o := range over {
		for i, b := range out {
			if b.name == o.name {
				out[i] = o
				continue next
			}
		}
		out = append(out, o)
	}
	return out
}

// Objects returns new smart objects for the ones the role files of d
// declare in their objects lists (a file's own after those of the role it
// extends; of several files of one domain, a later file's object replaces
// an earlier one of the same name), in declaration order, for the game to
// add to its world (engine.World.AddObject, or AddObjects). Each has its
// declared Name, Kind and Slots, and an *ObjectData as its Data; an object
// with an offers function offers what it answers for its data (see
// UpdateObjects). d must come from this runtime's LoadDomain; another
// domain declares nothing. The error, an *engine.CompileError at the
// offers function, is one that fails or answers something else.
func (r *Runtime) Objects(d *engine.Domain) ([]*engine.Object, error) {
	rec := r.domains[d]
	if rec == nil {
		return nil, nil
	}
	out := make([]*engine.Object, 0, len(rec.objects))
	for _, decl := range rec.objects {
		data := make(map[string]expr.Value, len(decl.data))
		for k, v := range decl.data {
			data[k] = v
		}
		o := &engine.Object{Name: decl.name, Kind: decl.kind, Slots: decl.slots, Data: &ObjectData{Values: data, decl: decl}}
		if err := r.offer(o); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// AddObjects adds to w the objects d's role files declare (Objects) that
// w has none of the same name of yet, so agents of several roles, or
// of one role added many times, share one set. An object of that name
// and kind without Data (one a snapshot restored: snapshots keep no
// Data) keeps its slots and holders and gets the declared data, so
// UpdateObjects asks its offers function again. Call it between ticks.
func (r *Runtime) AddObjects(w *engine.World, d *engine.Domain) error {
	objs, err := r.Objects(d)
	if err != nil {
		return err
	}
	for _, o := range objs {
		if had := w.Object(o.Name); had != nil {
			if had.Data == nil && had.Kind == o.Kind {
				had.Data = o.Data
			}
			continue
		}
		if err := w.AddObject(o); err != nil {
			return errors.New("luabind: " + err.Error())
		}
	}
	return nil
}

// UpdateObjects asks every object of w that a role file of this runtime
// declares with an offers function what it offers now, and sets its
// Slots: offers(data) gets a copy of the object's data (ObjectData.Values)
// and answers true (its declared slots), false or nil (none: it has run
// out), or a number of slots (at most the declared ones). The game calls
// it between ticks after changing an object's data. The error names the
// object and the file and line of the function that failed or answered
// something else (an *engine.CompileError); the objects before it are
// updated.
func (r *Runtime) UpdateObjects(w *engine.World) error {
	for _, o := range w.Objects() {
		if err := r.offer(o); err != nil {
			return err
		}
	}
	return nil
}

// offer sets o's Slots from its offers function, when o is declared by a
// role file with one.
func (r *Runtime) offer(o *engine.Object) error {
	od, ok := o.Data.(*ObjectData)
	if !ok || od.decl == nil || od.decl.offers == nil || r.closed {
		return nil
	}
	tbl := r.L.NewTable()
	keys := make([]string, 0, len(od.Values))
	for k := range od.Values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		tbl.RawSetString(k, r.toLua(od.Values[k]))
	}
	fail := func(msg string) error {
		return &engine.CompileError{Problems: []engine.Problem{{Pos: od.decl.offersAt,
			Msg: "object " + strconv.Quote(o.Name) + ": offers " + msg}}}
	}
	rets, err := r.call(nil, modeCallback, od.decl.offers, 1, tbl)
	if err != nil {
		return fail("failed on its data: " + err.Error())
	}
	switch v := rets[0].(type) {
	case lua.LBool:
		o.Slots = 0
		if v {
			o.Slots = od.decl.slots
		}
	case *lua.LNilType:
		o.Slots = 0
	case lua.LNumber:
		f := float64(v)
		if f != math.Trunc(f) || math.IsInf(f, 0) {
			return fail("answered " + luaShow(v) + ", not a whole number of slots")
		}
		o.Slots = int(max(0, min(f, float64(od.decl.slots))))
	default:
		return fail("answered a " + v.Type().String() + ", not true, false or a number of slots")
	}
	return nil
}
