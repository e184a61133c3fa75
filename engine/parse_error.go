package engine

import (
	"strings"
	"unicode/utf8"
)

// ParseError is a condition or effect that does not parse. Col is the
// 1-based column, counted in characters, of the offending token in Source.
// Error prints the message, then the source with a caret under the column.
type ParseError struct {
	Source   string // the text that failed to parse
	Col      int    // 1-based column of the problem, in characters
	Expected string // what the parser expected there, such as "a value"
	Found    string // what it found, such as `"&&"` or "end of text"
}

// Message is the one-line form: "col N: expected X, found Y".
func (e *ParseError) Message() string {
	return "col " + itoa(e.Col) + ": expected " + e.Expected + ", found " + e.Found
}

// Caret returns the source and a line with a caret under the column.
func (e *ParseError) Caret() string {
	src := strings.NewReplacer("\n", " ", "\t", " ", "\r", " ").Replace(e.Source)
	return src + "\n" + strings.Repeat(" ", max(e.Col-1, 0)) + "^"
}

func (e *ParseError) Error() string {
	return "engine: " + e.Message() + "\n\t" + strings.ReplaceAll(e.Caret(), "\n", "\n\t")
}

// colOf converts a byte offset in src into a 1-based character column.
func colOf(src string, off int) int {
	if off > len(src) {
		off = len(src)
	}
	return utf8.RuneCountInString(src[:off]) + 1
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
