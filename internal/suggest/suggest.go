// Package suggest finds, among known names, the one a mistyped name most
// likely meant: the did-you-mean of every "unknown name" message of the
// engine, the Lua loader and the command line.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the closest of names within two edits of name
// (ignoring case), or "". Its work is linear in the lengths involved: a
// name whose length differs from name's by more than two is skipped at
// once, and the edit distance only looks two edits to either side of
// the diagonal, so a script that asks for a 256 KiB unknown name costs a
// pass over it, not its length squared.
func Closest(name string, names []string) string {
	best, bestD := "", maxEdits+1
	longest := 0
	for _, n := range names {
		longest = max(longest, utf8.RuneCountInString(n))
	}
	if utf8.RuneCountInString(name) > longest+maxEdits+1 { // +1: lower case may differ by a rune
		return "" // nothing is near; no copy of a long name is made
	}
	lower := []rune(strings.ToLower(name))
	for _, n := range names {
		if d := editDistanceWithin(lower, []rune(strings.ToLower(n)), maxEdits); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// maxEdits is how many edits apart a name may be from the one
// asked for to be suggested.
const maxEdits = 2

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// DidYouMean is the suffix every "unknown name" message ends with:
// ` (did you mean "x"?)` for the Closest of names, or "" when none is
// that close.
func DidYouMean(name string, names []string) string {
	if s := Closest(name, names); s != "" {
		return " (did you mean \"" + s + "\"?)"
	}
	return ""
}

// editDistanceWithin is the edit distance between a and b when it is at
// most k, and k+1 otherwise. It fills only the band of the table within k
// of the diagonal: O(k·len) time.
func editDistanceWithin(a, b []rune, k int) int {
	if abs(len(a)-len(b)) > k {
		return k + 1
	}
	const far = 1 << 30
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
		if j > k {
			prev[j] = far
		}
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		cur[lo-1] = far
		if lo == 1 {
			cur[0] = i
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if hi < len(b) {
			cur[hi+1] = far
		}
		if rowMin > k {
			return k + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], k+1)
}
