// Package layout places the demo's text without ebiten, so it is tested
// headless: labels beside soldiers that never overlap one another, and
// text wrapped at words.
package layout

import (
	"image"
	"strings"
)

// Label is a label to place: the anchor (a soldier's centre, in pixels),
// the label's size in pixels, and Avoid, the rectangle its own soldier
// covers (other labels may not cover it; its own label may touch it).
type Label struct {
	X, Y  int
	W, H  int
	Avoid image.Rectangle
}

// Placed is where a label goes. Faint says no free place was found: the
// label sits at its first choice and should be drawn faint, so that it
// does not hide another.
type Placed struct {
	Rect  image.Rectangle
	Faint bool
}

// Place puts each label, in order (the first wins), at the first of four
// places around its anchor (above, below, right, left) that stays inside
// bounds and overlaps neither a label placed before it nor another
// label's Avoid rectangle. The result has one entry per label; the
// rectangles of labels that are not Faint never overlap.
func Place(labels []Label, bounds image.Rectangle) []Placed {
	out := make([]Placed, len(labels))
	var taken []image.Rectangle
	for i, l := range labels {
		cands := []image.Point{
			{l.X - l.W/2, l.Y - 19 - l.H}, // above, over the health bar
			{l.X - l.W/2, l.Y + 11},       // below
			{l.X + 12, l.Y - l.H/2},       // right
			{l.X - 12 - l.W, l.Y - l.H/2}, // left
		}
		out[i] = Placed{Rect: image.Rect(cands[0].X, cands[0].Y, cands[0].X+l.W, cands[0].Y+l.H), Faint: true}
		for _, p := range cands {
			r := image.Rect(p.X, p.Y, p.X+l.W, p.Y+l.H)
			if !r.In(bounds) || hits(r, taken) || hitsOthers(r, labels, i) {
				continue
			}
			out[i] = Placed{Rect: r}
			taken = append(taken, r)
			break
		}
	}
	return out
}

func hits(r image.Rectangle, rs []image.Rectangle) bool {
	for _, o := range rs {
		if r.Overlaps(o) {
			return true
		}
	}
	return false
}

func hitsOthers(r image.Rectangle, labels []Label, self int) bool {
	for j, o := range labels {
		if j != self && r.Overlaps(o.Avoid) {
			return true
		}
	}
	return false
}

// Wrap breaks s into lines of at most n characters at spaces (and at
// newlines); only a word longer than n is split. Runs of spaces between
// words become one.
func Wrap(s string, n int) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			for len(w) > n {
				if line != "" {
					lines = append(lines, line)
					line = ""
				}
				lines = append(lines, w[:n])
				w = w[n:]
			}
			switch {
			case line == "":
				line = w
			case len(line)+1+len(w) <= n:
				line += " " + w
			default:
				lines = append(lines, line)
				line = w
			}
		}
		lines = append(lines, line)
	}
	return lines
}
