package expr

// EffectSyntax is a parsed effect whose words are not yet bound to
// variables. A domain parses every effect first, interns every target, then
// compiles, so that a word naming a variable that only some later effect
// assigns still reads that variable.
type EffectSyntax struct {
	src     string
	assigns []assignSyntax
}

type assignSyntax struct {
	target string
	col    int
	terms  []termSyntax
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
	for _, t := range es.Targets() {
		s.Intern(t)
	}
	return es.Compile(s)
}

// Compile binds the effect to s (which must not be nil): every target is
// interned first, then a word that s has reads that variable and any other
// word is a string constant. An arithmetic operand that is neither a number
// nor a variable is a *ParseError at the operand's column.
func (es *EffectSyntax) Compile(s *Schema) (*Effect, error) {
	e := &Effect{src: es.src}
	for _, a := range es.assigns {
		s.Intern(a.target)
	}
	for _, a := range es.assigns {
		ca := assign{slot: s.Intern(a.target), col: a.col}
		arith := len(a.terms) > 1 || a.terms[0].sub
		for _, t := range a.terms {
			ct := eterm{Term: Term{Sub: t.sub, Lit: t.lit}}
			if t.isWord {
				if slot, ok := s.Lookup(t.word); ok {
					ct.IsVar, ct.Slot, ct.name = true, slot, t.word
					e.reads = appendUnique(e.reads, slot)
				} else if arith {
					return nil, &ParseError{Source: es.src, Col: t.col, Expected: "a number or a numeric variable for \"" + a.target + "\"", Found: "\"" + t.word + "\", which is not a variable"}
				} else {
					ct.Lit = StringValue(t.word)
				}
			} else if arith && t.lit.k != Number {
				return nil, &ParseError{Source: es.src, Col: t.col, Expected: "a number or a numeric variable for \"" + a.target + "\"", Found: t.lit.String()}
			}
			ca.terms = append(ca.terms, ct)
		}
		e.assigns = append(e.assigns, ca)
		e.names = append(e.names, a.target)
		e.writes = appendUnique(e.writes, ca.slot)
	}
	e.direct = true
	for i, a := range e.assigns {
		for _, t := range a.terms {
			for _, earlier := range e.assigns[:i] {
				if t.IsVar && t.Slot == earlier.slot {
					e.direct = false
				}
			}
		}
	}
	for _, x := range e.writes {
		e.need = max(e.need, x+1)
	}
	for _, x := range e.reads {
		e.need = max(e.need, x+1)
	}
	return e, nil
}

func appendUnique(xs []int, x int) []int {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
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
	for {
		if p.tok.kind != tIdent || isKeyword(p.tok.text) {
			return nil, p.fail("a variable name to assign")
		}
		a := assignSyntax{target: p.tok.text, col: colOf(src, p.tok.off)}
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
			a.terms = append(a.terms, t)
			if p.tok.kind == tPlus || p.tok.kind == tMinus {
				sub = p.tok.kind == tMinus
				p.advance()
				continue
			}
			break
		}
		es.assigns = append(es.assigns, a)
		switch p.tok.kind {
		case tEOF:
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
	col := colOf(p.lex.src, t.off)
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
			w, wcol := p.tok.text, colOf(p.lex.src, p.tok.off)
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
