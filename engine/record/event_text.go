package record

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// lineText is s with every character that could break a one-line record
// written as an escape: control characters (newline as \n, carriage
// return as \r, tab as \t, the others as \xNN or \uNNNN), the Unicode
// line and paragraph separators, and bytes that are not UTF-8 (\xNN).
// So a name or a printed text cannot start a line of its own in a text
// trace and pass for another agent's record. Text without such
// characters is returned as it is, without allocating.
func lineText(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if breaksLine(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !breaksLine(r, n) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 || r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			if s[i] < 0x10 {
				b.WriteByte('0')
			}
			b.WriteString(strconv.FormatUint(uint64(s[i]), 16))
		default:
			b.WriteString(`\u`)
			h := strconv.FormatUint(uint64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)) + h)
		}
		i += n
	}
	return b.String()
}

// breaksLine reports whether the rune r, n bytes long, is escaped by
// lineText: a C0 or C1 control character, DEL, the line or paragraph
// separator, or a byte that is not UTF-8.
func breaksLine(r rune, n int) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r == '\u2028' || r == '\u2029' || r == utf8.RuneError && n == 1
}
