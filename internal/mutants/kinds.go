package main

import (
	"go/scanner"
	"go/token"
)

// replacements says, for each kind of mutant gremlins makes by default,
// which operator takes the place of which.
var replacements = map[string]map[token.Token]token.Token{
	"ARITHMETIC_BASE": {
		token.ADD: token.SUB, token.SUB: token.ADD,
		token.MUL: token.QUO, token.QUO: token.MUL, token.REM: token.MUL,
	},
	"CONDITIONALS_BOUNDARY": {
		token.LSS: token.LEQ, token.LEQ: token.LSS,
		token.GTR: token.GEQ, token.GEQ: token.GTR,
	},
	"CONDITIONALS_NEGATION": {
		token.EQL: token.NEQ, token.NEQ: token.EQL,
		token.LSS: token.GEQ, token.GEQ: token.LSS,
		token.GTR: token.LEQ, token.LEQ: token.GTR,
	},
	"INCREMENT_DECREMENT": {token.INC: token.DEC, token.DEC: token.INC},
	"INVERT_NEGATIVES":    {token.SUB: token.ADD},
}

// replacement returns the operator a mutant of kind puts in place of op,
// and false if that kind does not change op.
func replacement(kind string, op token.Token) (token.Token, bool) {
	to, ok := replacements[kind][op]
	return to, ok
}

// operatorAt returns the token that starts at offset off of src.
func operatorAt(src []byte, off int) token.Token {
	if off < 0 || off >= len(src) {
		return token.ILLEGAL
	}
	rest := src[off:]
	var s scanner.Scanner
	s.Init(token.NewFileSet().AddFile("", -1, len(rest)), rest, nil, 0)
	_, tok, _ := s.Scan()
	return tok
}
