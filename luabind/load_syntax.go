package luabind

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// syntaxAt reads the position and token of a syntax error as luaError
// writes it: "file:line:col: syntax error near 'tok'".
var syntaxAt = regexp.MustCompile(`^(.*?):(\d+):(\d+): syntax error near '(.*?)'$`)

// blockWords names the Lua blocks that an "end" closes, by token type.
var blockWords = map[int]string{
	parse.TFunction: "function", parse.TIf: "if", parse.TWhile: "while",
	parse.TFor: "for", parse.TDo: "do",
}

// missingEnd adds a hint to a syntax error that a missing "end" causes:
// a function (or if, for, while, do) written inside a table or a call,
// whose "end" is missing, runs on into the next field, so Lua stops at a
// "}", ",", "=" or ")" of the table it sits in. msg is the error as
// luaError writes it; src is the file. Any other error is returned as it
// is.
func missingEnd(msg, src string) string {
	m := syntaxAt.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	switch m[4] {
	case "}", ",", "=", ")":
	default:
		return msg
	}
	line, _ := strconv.Atoi(m[2]) // the pattern matched digits
	col, _ := strconv.Atoi(m[3])
	type block struct {
		word           string
		line           int
		braces, parens int // open "{" and "(" when the block began
	}
	var open []block
	braces, parens, loopDo := 0, 0, 0
	sc := parse.NewScanner(strings.NewReader(src), "")
	lx := &parse.Lexer{}
	for {
		tok, err := sc.Scan(lx)
		if err != nil || tok.Type < 0 || before(tok, line, col) {
			break
		}
		switch tok.Type {
		case '{':
			braces++
		case '}':
			braces--
		case '(':
			parens++
		case ')':
			parens--
		case parse.TWhile, parse.TFor:
			loopDo++ // its "do" belongs to it
			open = append(open, block{blockWords[tok.Type], tok.Pos.Line, braces, parens})
		case parse.TDo:
			if loopDo > 0 {
				loopDo--
				continue
			}
			open = append(open, block{"do", tok.Pos.Line, braces, parens})
		case parse.TFunction, parse.TIf:
			open = append(open, block{blockWords[tok.Type], tok.Pos.Line, braces, parens})
		case parse.TRepeat:
			open = append(open, block{"repeat", tok.Pos.Line, braces, parens})
		case parse.TEnd, parse.TUntil:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	if len(open) == 0 {
		return msg
	}
	b := open[len(open)-1]
	if b.word == "repeat" || b.braces == 0 && b.parens == 0 || braces != b.braces || parens != b.parens {
		return msg
	}
	return msg + ": is an \"end\" missing? the " + b.word + " that begins on line " + strconv.Itoa(b.line) +
		" is still open here"
}

// before reports whether tok is at or past the error at line:col, where
// gopher-lua places an error at the last character of its token.
func before(tok ast.Token, line, col int) bool {
	if tok.Pos.Line != line {
		return tok.Pos.Line > line
	}
	return tok.Pos.Column+max(len(tok.Str), 1)-1 >= col
}
