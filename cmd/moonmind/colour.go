package main

import (
	"io"
	"os"
)

// ANSI colours for the few words worth them: error, warning, fail.
const (
	colourRed    = "\x1b[31m"
	colourYellow = "\x1b[33m"
	colourReset  = "\x1b[0m"
)

// colourOK reports whether output may be coloured: only on a terminal,
// never when NO_COLOR is set to anything but "" (https://no-color.org) or
// TERM is "dumb".
func colourOK(isTerminal bool, getenv func(string) string) bool {
	return isTerminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// colourFor reports whether w, the output of a command, may be coloured:
// w is a terminal and the environment allows it.
func colourFor(w io.Writer) bool {
	return colourOK(isTerminal(w), os.Getenv)
}

// paint wraps s in colour when on is true.
func paint(on bool, colour, s string) string {
	if !on {
		return s
	}
	return colour + s + colourReset
}
