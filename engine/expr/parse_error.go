package expr

import (
	"strings"
	"unicode/utf8"
)

// ParseError is a condition, effect or literal that does not parse. Col is
// the 1-based column, counted in characters (runes; an invalid UTF-8 byte
// counts as one), of the offending token in Source; it is at most the
// number of characters plus one, which points just past the end of the text.
// Error prints "expr: col N: expected X, found Y", then the source with a
// caret under the column:
//
//	expr: col 12: expected a value (...), found "&&"
//		ammo > 10 && && ready
//		          ^
type ParseError struct {
	Source   string // the text that failed to parse
	Col      int    // 1-based column of the problem, in characters
	Expected string // what the parser expected there, such as `")"`
	Found    string // what it found, such as `"&&"` or "end of text"
}

// Message is the one-line form: "col N: expected X, found Y".
func (e *ParseError) Message() string {
	return "col " + itoa(e.Col) + ": expected " + e.Expected + ", found " + e.Found
}

// Caret returns two lines: the source, with every control character (such
// as a newline or a tab) and every invalid byte shown as one blank so the
// columns stay aligned, and a caret under the column.
//
// A source longer than 100 characters is cut to the 100 around the column,
// with "..." where text was left out.
func (e *ParseError) Caret() string {
	runes := []rune(e.Source)
	col := max(e.Col-1, 0)
	from, to := 0, len(runes)
	const window = 100
	if len(runes) > window {
		from = max(0, min(col-window/2, len(runes)-window))
		to = min(len(runes), from+window)
	}
	var b strings.Builder
	pad := col - from
	if from > 0 {
		b.WriteString("...")
		pad += 3
	}
	for _, r := range runes[from:to] {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError {
			r = ' '
		}
		b.WriteRune(r)
	}
	if to < len(runes) {
		b.WriteString("...")
	}
	b.WriteByte('\n')
	b.WriteString(strings.Repeat(" ", pad))
	b.WriteByte('^')
	return b.String()
}

// Excerpt returns the source, cut to about 60 characters around the
// column when it is longer, for one-line messages.
func (e *ParseError) Excerpt() string { return excerptAt(e.Source, e.Col) }

// excerpt cuts a long source to its first 60 characters and "...".
func excerpt(src string) string { return excerptAt(src, 1) }

// excerptAt cuts src to about 60 characters around the 1-based column col
// when it is longer, marking the cuts with "...".
func excerptAt(src string, col int) string {
	const window = 60
	if len(src) <= window { // bytes >= characters: short enough
		return src
	}
	runes := []rune(src)
	if len(runes) <= window {
		return src
	}
	from := max(0, min(col-1-window/2, len(runes)-window))
	s := string(runes[from : from+window])
	if from > 0 {
		s = "..." + s
	}
	if from+window < len(runes) {
		s += "..."
	}
	return s
}

func (e *ParseError) Error() string {
	return "expr: " + e.Message() + "\n\t" + strings.ReplaceAll(e.Caret(), "\n", "\n\t")
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	p := len(b)
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		p--
		b[p] = '-'
	}
	return string(b[p:])
}
