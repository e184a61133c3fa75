package game

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/moonmind-ai/moonmind/demo/sim"
)

// Overlay layout, in pixels and lines.
const (
	overlayW       = 372 // panel width
	overlayLine    = 15  // line height
	overlayPad     = 6
	overlayRecords = 6  // flight-recorder records shown
	overlayChars   = 60 // characters that fit on a line
	scoreBarW      = 80 // an action's score bar at 1.0
	outputBarW     = 40 // a consideration's output bar at 1.0
)

var (
	panelBack   = color.NRGBA{0x0c, 0x10, 0x0c, 0xc8}
	panelRule   = color.RGBA{0x80, 0x90, 0x80, 0xff}
	barBack     = color.RGBA{0x30, 0x34, 0x30, 0xff}
	barScore    = color.RGBA{0x6c, 0xc0, 0xf0, 0xff}
	barPicked   = color.RGBA{0xff, 0xe0, 0x40, 0xff}
	barOutput   = color.RGBA{0x90, 0xb0, 0x90, 0xff}
	pickedTint  = color.NRGBA{0xff, 0xe0, 0x40, 0x38}
	overlayText = [2]color.RGBA{{0x3c, 0x8c, 0xf0, 0xff}, {0xe8, 0x48, 0x40, 0xff}}
)

// panel writes lines and bars top-down inside the overlay.
type panel struct {
	screen *ebiten.Image
	x, y   float32 // the next line's top left
}

func (p *panel) text(s string) {
	ebitenutil.DebugPrintAt(p.screen, s, int(p.x), int(p.y)-1)
	p.y += overlayLine
}

// bar draws a bar of value v in [0, 1] at the right of the current line,
// w pixels at 1.
func (p *panel) bar(v float64, w float32, c color.Color) {
	x := p.x + overlayW - 2*overlayPad - w
	vector.DrawFilledRect(p.screen, x, p.y+4, w, 7, barBack, false)
	vector.DrawFilledRect(p.screen, x, p.y+4, w*float32(math.Max(0, math.Min(1, v))), 7, c, false)
}

func (p *panel) rule() {
	vector.StrokeLine(p.screen, p.x, p.y+3, p.x+overlayW-2*overlayPad, p.y+3, 1, panelRule, false)
	p.y += 7
}

// drawOverlay draws the debug panel for one soldier on the half of the
// field away from it: its state, goal and plan, the utility scores of the
// actions that apply (best first, the pick marked, each consideration's
// input, output and weight), the actions whose precondition fails, and
// its latest flight-recorder records.
func drawOverlay(screen *ebiten.Image, o sim.Overlay) {
	h := overlayHeight(o)
	x := float32(Width - overlayW - 8)
	if o.Team == 1 {
		x = 8 // red holds the right half: put the panel over blue's
	}
	y := float32(26)
	vector.DrawFilledRect(screen, x, y, overlayW, h, panelBack, false)
	vector.StrokeRect(screen, x, y, overlayW, h, 2, overlayText[o.Team], false)
	p := &panel{screen: screen, x: x + overlayPad, y: y + overlayPad}

	cover := ""
	if o.InCover {
		cover = "  in cover"
	}
	p.text(fmt.Sprintf("%s  health %s  ammo %s  mags %s%s", o.Soldier, num(o.Health), num(o.Ammo), num(o.Magazines), cover))
	goal := o.Goal
	if goal == "" {
		goal = "- (utility pick)"
		if o.Doing == "idle" || o.Doing == "dead" {
			goal = "-"
		}
	}
	p.text(fmt.Sprintf("doing %s   goal %s", o.Doing, goal))
	p.text(cut("plan  "+orDash(strings.Join(o.Plan, ", ")), overlayChars))
	p.rule()

	pick := orDash(o.Pick)
	if o.Kept {
		pick += " (kept: within the margin)"
	}
	p.text(fmt.Sprintf("utility %s, margin %s: pick %s", o.Mode, num(o.Commitment), pick))
	for _, a := range o.Scores {
		c := barScore
		if a.Action == o.Pick {
			c = barPicked
			vector.DrawFilledRect(screen, p.x-2, p.y, overlayW-2*overlayPad+4, overlayLine, pickedTint, false)
		}
		p.bar(a.Score, scoreBarW, c)
		p.text(fmt.Sprintf("%-14s %6.3f", a.Action, a.Score))
		for _, cs := range a.Considerations {
			p.bar(cs.Output, outputBarW, barOutput)
			p.text(fmt.Sprintf("  %-15s in %-6s out %5.3f  w %s", cut(cs.Name, 15), num(cs.Input), cs.Output, num(cs.Weight)))
		}
	}
	for _, b := range o.Blocked {
		if line := fmt.Sprintf("%-14s n/a: %s", b.Action, b.Pre); len(line) <= overlayChars {
			p.text(line)
		} else {
			p.text(b.Action + "  n/a, its precondition fails:")
			p.text(cut("  "+b.Pre, overlayChars))
		}
	}
	p.rule()
	p.text("flight recorder")
	for _, e := range o.Records {
		p.text(sim.RecordLine(e, overlayChars))
	}
}

// overlayHeight is the panel's height for o, in pixels.
func overlayHeight(o sim.Overlay) float32 {
	lines := 3 + 1 + 1 + len(o.Records)
	for _, b := range o.Blocked {
		lines++
		if len(fmt.Sprintf("%-14s n/a: %s", b.Action, b.Pre)) > overlayChars {
			lines++
		}
	}
	for _, a := range o.Scores {
		lines += 1 + len(a.Considerations)
	}
	return float32(lines*overlayLine + 2*7 + 2*overlayPad)
}

// num formats a number briefly: up to 4 significant digits, "-" for NaN.
func num(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
}
