package expr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind is a token of the condition and effect languages.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tString
	tEq    // ==
	tNe    // != or ~=
	tLt    // <
	tLe    // <=
	tGt    // >
	tGe    // >=
	tAnd   // && or and (in conditions)
	tOr    // || or or (in conditions)
	tNot   // ! or not (in conditions)
	tLP    // (
	tRP    // )
	tComma // ,
	tAssign
	tPlus
	tMinus
	tBad
)

type token struct {
	kind tokKind
	off  int    // byte offset in the source
	text string // the token as written
	str  string // decoded string literal
	num  float64
}

// lexer splits a source text into tokens. Lexing errors are reported as
// tBad tokens carrying the message in str.
type lexer struct {
	src string
	pos int

	// words makes the words and, or and not the operators "&&", "||" and
	// "!", as Lua spells them. Conditions set it; effects and literals,
	// where a bare word is a string, do not.
	words bool

	// colOff and col cache the column of one byte offset, so that columns
	// asked for in increasing order cost time linear in the text in all.
	colOff, col int
}

// colAt converts a byte offset of the source into a 1-based character
// column (runes; an invalid UTF-8 byte counts as one). Offsets past the
// end give the column just past the last character.
func (l *lexer) colAt(off int) int {
	off = min(max(off, 0), len(l.src))
	if l.col == 0 || off < l.colOff {
		l.colOff, l.col = 0, 1
	}
	l.col += utf8.RuneCountInString(l.src[l.colOff:off])
	l.colOff = off
	return l.col
}

// wordOp returns the operator a word spells in a condition (tAnd, tOr or
// tNot for and, or and not), or tIdent for any other word.
func wordOp(w string) tokKind {
	switch w {
	case "and":
		return tAnd
	case "or":
		return tOr
	case "not":
		return tNot
	}
	return tIdent
}

// IsOperatorWord reports whether name is one of the words a condition
// reads as an operator (and, or, not), so a state variable of that name
// cannot be read by a condition.
func IsOperatorWord(name string) bool { return wordOp(name) != tIdent }

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c == '.' || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (l *lexer) next() token {
	for l.pos < len(l.src) && (l.src[l.pos] == ' ' || l.src[l.pos] == '\t' || l.src[l.pos] == '\n' || l.src[l.pos] == '\r') {
		l.pos++
	}
	start := l.pos
	if l.pos >= len(l.src) {
		return token{kind: tEOF, off: start}
	}
	c := l.src[l.pos]
	two := func(k tokKind) token { l.pos += 2; return token{kind: k, off: start, text: l.src[start:l.pos]} }
	one := func(k tokKind) token { l.pos++; return token{kind: k, off: start, text: l.src[start:l.pos]} }
	peek := byte(0)
	if l.pos+1 < len(l.src) {
		peek = l.src[l.pos+1]
	}
	switch {
	case isIdentStart(c):
		for l.pos < len(l.src) && isIdentPart(l.src[l.pos]) {
			l.pos++
		}
		t := token{kind: tIdent, off: start, text: l.src[start:l.pos]}
		if l.words {
			t.kind = wordOp(t.text)
		}
		return t
	case isDigit(c) || c == '.' && isDigit(peek):
		return l.number(start)
	case c == '"' || c == '\'':
		return l.str(start, c)
	case c == '=' && (peek == '>' || peek == '<'):
		l.pos += 2
		return token{kind: tBad, off: start, text: l.src[start:l.pos], str: `">=" or "<=" (the "=" comes last)`}
	case c == '*' || c == '/' || c == '%':
		l.pos++
		return token{kind: tBad, off: start, text: l.src[start:l.pos], str: `"+" or "-" (conditions and effects have no "*", "/" or "%"; compute such values in a run body or a sensor)`}
	case c == '=' && peek == '=':
		return two(tEq)
	case (c == '!' || c == '~') && peek == '=':
		return two(tNe)
	case c == '<' && peek == '=':
		return two(tLe)
	case c == '>' && peek == '=':
		return two(tGe)
	case c == '&' && peek == '&':
		return two(tAnd)
	case c == '|' && peek == '|':
		return two(tOr)
	case c == '<':
		return one(tLt)
	case c == '>':
		return one(tGt)
	case c == '!':
		return one(tNot)
	case c == '(':
		return one(tLP)
	case c == ')':
		return one(tRP)
	case c == ',':
		return one(tComma)
	case c == '=':
		return one(tAssign)
	case c == '+':
		return one(tPlus)
	case c == '-':
		return one(tMinus)
	}
	// One whole character, so a multi-byte rune is shown intact.
	_, size := utf8.DecodeRuneInString(l.src[l.pos:])
	l.pos += size
	want := "an operator, a name, a number or a string"
	switch c {
	case '&':
		want = `"&&"`
	case '|':
		want = `"||"`
	case '~':
		want = `"~=" or "!="`
	}
	return token{kind: tBad, off: start, text: l.src[start:l.pos], str: want}
}

// bigNumber is what the lexer expects in place of a number beyond
// MaxSafeInteger.
const bigNumber = "a number of magnitude at most 2^53 - 1 = 9007199254740991 (larger ones may lose digits in a float64; keep big ids as strings)"

func (l *lexer) number(start int) token {
	for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
		l.pos++
	}
	if l.pos < len(l.src) && l.src[l.pos] == '.' {
		l.pos++
		for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
			l.pos++
		}
	}
	if l.pos < len(l.src) && (l.src[l.pos] == 'e' || l.src[l.pos] == 'E') {
		p := l.pos + 1
		if p < len(l.src) && (l.src[p] == '+' || l.src[p] == '-') {
			p++
		}
		if p < len(l.src) && isDigit(l.src[p]) {
			for p < len(l.src) && isDigit(l.src[p]) {
				p++
			}
			l.pos = p
		}
	}
	text := l.src[start:l.pos]
	if l.pos < len(l.src) && isIdentStart(l.src[l.pos]) {
		for l.pos < len(l.src) && isIdentPart(l.src[l.pos]) {
			l.pos++
		}
		return token{kind: tBad, off: start, text: l.src[start:l.pos], str: "a number"}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return token{kind: tBad, off: start, text: text, str: "a number in range"}
	}
	if !SafeNumber(f) {
		return token{kind: tBad, off: start, text: text, str: bigNumber}
	}
	return token{kind: tNumber, off: start, text: text, num: f}
}

func (l *lexer) str(start int, q byte) token {
	l.pos++
	var b strings.Builder
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case q:
			l.pos++
			return token{kind: tString, off: start, text: l.src[start:l.pos], str: b.String()}
		case '\\':
			if l.pos+1 >= len(l.src) {
				l.pos++
				return token{kind: tBad, off: len(l.src), text: "", str: "a closing quote"}
			}
			e := l.src[l.pos+1]
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '"', '\'':
				b.WriteByte(e)
			default:
				esc := l.pos
				l.pos += 2
				return token{kind: tBad, off: esc, text: l.src[esc:l.pos], str: `an escape (\n \t \r \\ \" \')`}
			}
			l.pos += 2
		default:
			b.WriteByte(c)
			l.pos++
		}
	}
	return token{kind: tBad, off: len(l.src), text: "", str: "a closing quote"}
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of text"
	case tBad:
		if t.text == "" {
			return "end of text"
		}
	}
	return strconv.Quote(t.text)
}
