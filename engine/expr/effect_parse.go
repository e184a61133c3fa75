package expr

import "slices"

// EffectSyntax is a parsed effect whose words are not yet bound to
// variables. A domain parses every effect first, interns every target, then
// compiles, so that a word naming a variable that only some later effect
// assigns still reads that variable.
type EffectSyntax struct {
	src     string
	assigns []assignSyntax
}

type assignSyntax struct {
	target   string
	col      int
	terms    []termSyntax
	from, to int // the terms' window of the parser's one array
}

type termSyntax struct {
	sub    bool
	isWord bool
	word   string
	lit    Value
	col    int
}

// Targets returns the variables the effect assigns, in order.
func (es *EffectSyntax) Targets() []string {
	out := make([]string, len(es.assigns))
	for i, a := range es.assigns {
		out[i] = a.target
	}
	return out
}

// Words returns the bare words the right-hand sides use, in order; a word
// names a variable when the schema has it, else it is a string.
func (es *EffectSyntax) Words() []string {
	var out []string
	for _, a := range es.assigns {
		for _, t := range a.terms {
			if t.isWord {
				out = append(out, t.word)
			}
		}
	}
	return out
}

// CompileEffect parses src, interns its targets into s (which must not be
// nil) and compiles it; see Effect for the language. The error is a
// *ParseError. CompileEffect never panics, whatever src holds.
func CompileEffect(src string, s *Schema) (*Effect, error) {
	es, err := ParseEffect(src)
	if err != nil {
		return nil, err
	}
	return es.Compile(s)
}

// Compile binds the effect to s (which must not be nil): every target is
// interned first, then a word that s has reads that variable and any other
// word is a string constant. An arithmetic operand that is neither a number
// nor a variable is a *ParseError at the operand's column.
func (es *EffectSyntax) Compile(s *Schema) (*Effect, error) {
	e := &Effect{src: es.src, assigns: make([]assign, 0, len(es.assigns)), names: make([]string, 0, len(es.assigns))}
	slots := make([]int, len(es.assigns))
	for i := range es.assigns {
		a := &es.assigns[i]
		if f, ok := s.FamilyOf(a.target); ok {
			return nil, &ParseError{Source: es.src, Col: a.col, Expected: "a variable an effect may assign",
				Found: "\"" + a.target + "\" (no effect may assign a name that begins with \"" + f.Prefix + "\")"}
		}
		slots[i] = s.Intern(a.target)
	}
	var reads, writes slotList
	n := 0
	for i := range es.assigns {
		n += len(es.assigns[i].terms)
	}
	all := make([]eterm, 0, n)
	for i := range es.assigns {
		a := &es.assigns[i]
		from := len(all)
		arith := len(a.terms) > 1 || a.terms[0].sub
		for j := range a.terms {
			t := &a.terms[j]
			ct := eterm{Term: Term{Sub: t.sub, Lit: t.lit}}
			if t.isWord {
				if _, ok := s.FamilyOf(t.word); ok {
					if pe := s.checkName(t.word, 0, t.word); pe != nil {
						pe.Source, pe.Col = es.src, t.col+pe.Col-1
						return nil, pe
					}
					s.Intern(t.word)
				}
				if slot, ok := s.Lookup(t.word); ok {
					ct.IsVar, ct.Slot, ct.name = true, slot, t.word
					reads.add(slot)
				} else if arith {
					return nil, &ParseError{Source: es.src, Col: t.col, Expected: "a number or a numeric variable for \"" + a.target + "\"", Found: "\"" + t.word + "\", which is not a variable"}
				} else {
					ct.Lit = StringValue(t.word)
				}
			} else if arith && !t.lit.isNumber() {
				return nil, &ParseError{Source: es.src, Col: t.col, Expected: "a number or a numeric variable for \"" + a.target + "\"", Found: t.lit.String()}
			}
			all = append(all, ct)
		}
		ca := assign{slot: slots[i], col: a.col, terms: all[from:len(all):len(all)]}
		e.assigns = append(e.assigns, ca)
		e.names = append(e.names, a.target)
		writes.add(ca.slot)
	}
	e.reads, e.writes = reads.list, writes.list
	e.mask = SlotMask(e.reads)
	// direct: no right-hand side reads a slot an earlier assignment writes.
	e.direct = true
	var earlier slotList
	for _, a := range e.assigns {
		for _, t := range a.terms {
			if t.IsVar && earlier.has(t.Slot) {
				e.direct = false
			}
		}
		earlier.add(a.slot)
	}
	for _, x := range e.writes {
		e.need = max(e.need, x+1)
	}
	for _, x := range e.reads {
		e.need = max(e.need, x+1)
	}
	return e, nil
}

// grow returns s with room for one more element, doubling its capacity
// when it is full (append alone grows large slices by a quarter, copying
// them many times over).
func grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	n := make([]T, len(s), max(8, 2*cap(s)))
	copy(n, s)
	return n
}

// slotList collects slots in first-use order without repeats, in time
// linear in the number of slots added: a short list is scanned, a long one
// keeps a seen-set indexed by slot. So the small lists of most conditions
// cost no more than the list, and a condition of 200,000 variables no
// more than linear time.
type slotList struct {
	list []int
	seen []bool // nil while list is short; then has scans list
}

// slotScan is the longest list has scans.
const slotScan = 16

// slotListOf returns a list that starts with the slots of out, which must
// hold no repeats.
func slotListOf(out []int) slotList {
	l := slotList{list: out}
	if len(out) > slotScan {
		for _, s := range out {
			l.setSeen(s)
		}
	}
	return l
}

func (l *slotList) has(slot int) bool {
	if l.seen == nil {
		return slices.Contains(l.list, slot)
	}
	return slot < len(l.seen) && l.seen[slot]
}

func (l *slotList) add(slot int) {
	if l.has(slot) {
		return
	}
	l.list = append(l.list, slot)
	switch {
	case l.seen != nil:
		l.setSeen(slot)
	case len(l.list) > slotScan:
		for _, s := range l.list {
			l.setSeen(s)
		}
	}
}

func (l *slotList) setSeen(slot int) {
	if slot >= len(l.seen) {
		l.seen = append(l.seen, make([]bool, slot+1-len(l.seen))...)
	}
	l.seen[slot] = true
}

// ParseEffect parses an effect without binding it to a schema. Empty or
// blank text is the empty effect. The error is a *ParseError. ParseEffect
// never panics, whatever src holds.
func ParseEffect(src string) (*EffectSyntax, error) {
	p := &cparser{lex: lexer{src: src}}
	p.advance()
	es := &EffectSyntax{src: src}
	if p.tok.kind == tEOF {
		return es, nil
	}
	// The terms of every assignment go into one array, which doubles when
	// full: a long effect costs a few allocations and at most twice its
	// terms in copying, and memory follows the terms actually parsed, not
	// a guess from the text (which a hostile text could inflate).
	var all []termSyntax
	for {
		if p.tok.kind != tIdent || isKeyword(p.tok.text) {
			return nil, p.fail("a variable name to assign")
		}
		a := assignSyntax{target: p.tok.text, col: p.lex.colAt(p.tok.off), from: len(all)}
		p.advance()
		if p.tok.kind != tAssign {
			if p.tok.kind == tEq {
				return nil, p.fail("\"=\" (an effect assigns; \"==\" compares)")
			}
			return nil, p.fail("\"=\"")
		}
		p.advance()
		sub := false
		for {
			t, err := p.term(sub)
			if err != nil {
				return nil, err
			}
			all = append(grow(all), t)
			if p.tok.kind == tPlus || p.tok.kind == tMinus {
				sub = p.tok.kind == tMinus
				p.advance()
				continue
			}
			break
		}
		a.to = len(all)
		es.assigns = append(grow(es.assigns), a)
		switch p.tok.kind {
		case tEOF:
			// Every assignment's terms are a window of one array: two
			// allocations for the whole effect, however long.
			for i := range es.assigns {
				a := &es.assigns[i]
				a.terms = all[a.from:a.to:a.to]
			}
			return es, nil
		case tComma:
			p.advance()
		default:
			return nil, p.fail("\",\", \"+\", \"-\" or end of text")
		}
	}
}

func isKeyword(w string) bool {
	switch w {
	case "true", "false", "nil", "null":
		return true
	}
	return false
}

func (p *cparser) term(sub bool) (termSyntax, error) {
	t := p.tok
	col := p.lex.colAt(t.off)
	switch t.kind {
	case tNumber:
		p.advance()
		return termSyntax{sub: sub, lit: NumberValue(t.num), col: col}, nil
	case tMinus:
		p.advance()
		if p.tok.kind == tNumber {
			n := p.tok.num
			p.advance()
			return termSyntax{sub: sub, lit: NumberValue(-n), col: col}, nil
		}
		if p.tok.kind == tIdent && !isKeyword(p.tok.text) {
			w, wcol := p.tok.text, p.lex.colAt(p.tok.off)
			p.advance()
			return termSyntax{sub: !sub, isWord: true, word: w, col: wcol}, nil
		}
		return termSyntax{}, p.fail("a number or a variable after \"-\"")
	case tString:
		p.advance()
		return termSyntax{sub: sub, lit: StringValue(t.str), col: col}, nil
	case tIdent:
		p.advance()
		switch t.text {
		case "true":
			return termSyntax{sub: sub, lit: BoolValue(true), col: col}, nil
		case "false":
			return termSyntax{sub: sub, lit: BoolValue(false), col: col}, nil
		case "nil", "null":
			return termSyntax{sub: sub, lit: NilValue(), col: col}, nil
		}
		return termSyntax{sub: sub, isWord: true, word: t.text, col: col}, nil
	}
	return termSyntax{}, p.fail("a value (a number, a string, true, false, nil or a name)")
}

// ParseLiteral parses one value written as an effect's right-hand side
// would write it: a number ("3", "-2.5", "1e3"), true, false, nil or null,
// a quoted string ("'a b'" or "\"a\\tb\""), or a bare word, which is the
// string it spells ("ATTACK"). Surrounding blanks are ignored. Anything
// else, such as empty text, two words or "-" before a word, is a
// *ParseError. Unlike in an effect, a bare word never reads a variable.
// ParseLiteral(v.String()) returns v for every known v except NaN and
// infinities.
func ParseLiteral(text string) (Value, error) {
	p := &cparser{lex: lexer{src: text}}
	p.advance()
	if p.tok.kind == tEOF {
		return Value{}, p.fail("a value (a number, a string, true, false, nil or a word)")
	}
	t, err := p.term(false)
	if err != nil {
		return Value{}, err
	}
	if t.isWord && t.sub {
		return Value{}, &ParseError{Source: text, Col: t.col, Expected: "a number after \"-\"", Found: quote(t.word)}
	}
	if p.tok.kind != tEOF {
		return Value{}, p.fail("end of text (quote a string that holds blanks or symbols)")
	}
	if t.isWord {
		return StringValue(t.word), nil
	}
	return t.lit, nil
}
