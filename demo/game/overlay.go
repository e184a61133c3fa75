package game

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/moonmind-ai/moonmind/assets/sprites"
	"github.com/moonmind-ai/moonmind/demo/internal/layout"
	"github.com/moonmind-ai/moonmind/demo/sim"
)

// Panel layout, in logical pixels. The panel is PanelW x Height of them
// at the default size; on a larger screen it may be wider and taller
// (layout.Fit), and its lines wrap at its width.
const (
	lineH    = 15 // line height
	panelPad = 8
	barW     = 60 // a score bar at 1.0
	records  = 12 // flight-recorder records asked for
	// panelEvery is how often, in frames, the panel is rebuilt (it is an
	// image drawn once per frame in between).
	panelEvery = 6
)

var (
	panelBack = color.RGBA{0x14, 0x18, 0x14, 0xff}
	textMain  = color.RGBA{0xe8, 0xec, 0xe4, 0xff}
	textDim   = color.RGBA{0x6c, 0x72, 0x6a, 0xff}
	textHead  = color.RGBA{0xff, 0xe0, 0x40, 0xff}
	textWarn  = color.RGBA{0xff, 0x90, 0x60, 0xff}
	barBack   = color.RGBA{0x30, 0x34, 0x30, 0xff}
	barScore  = color.RGBA{0x6c, 0xc0, 0xf0, 0xff}
	barPicked = color.RGBA{0xff, 0xe0, 0x40, 0xff}
	barOutput = color.RGBA{0x90, 0xb0, 0x90, 0xff}
	rule      = color.RGBA{0x50, 0x58, 0x50, 0xff}
)

// pline is one line of the panel: text in a colour, optionally a bar at
// the right (bar < 0 for none), or a rule.
type pline struct {
	text   string
	col    color.RGBA
	bar    float64
	barCol color.RGBA
	rule   bool
}

// panelText collects the panel's lines, wrapping text at words at chars
// characters.
type panelText struct {
	lines []pline
	chars int
}

// newPanelText returns an empty panelText that wraps at the panel's width.
func (g *Game) newPanelText() *panelText {
	w, _ := g.gfx.screen.PanelSize()
	return &panelText{chars: layout.PanelChars(w, panelPad)}
}

// add wraps text to the panel's width (indent spaces before every line)
// and adds it in colour c.
func (p *panelText) add(text string, c color.RGBA, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, l := range layout.Wrap(text, max(p.chars-indent, 1)) {
		p.lines = append(p.lines, pline{text: pad + l, col: c, bar: -1})
	}
}

// addBar adds one line with a bar of v in [0, 1] at the right; the text
// is cut to leave room for it (callers keep it short).
func (p *panelText) addBar(text string, c color.RGBA, v float64, bc color.RGBA) {
	p.lines = append(p.lines, pline{text: text, col: c, bar: math.Max(0, math.Min(1, v)), barCol: bc})
}

func (p *panelText) rule() { p.lines = append(p.lines, pline{rule: true}) }

// Help is the panel's help line: every key of the demo.
const Help = "keys: space pause  . step  s slow  f fast  d details  n new round  r reload  tab/click select  esc quit"

// panelLines builds the panel's lines: the score, the legend, the
// selected soldier (when details are on), the reload note and the help
// line at the bottom.
func (g *Game) panelLines() []pline {
	s := g.sim
	p := g.newPanelText()
	alive := s.Alive()
	p.add("moonmind: soldiers whose minds are Lua", textHead, 0)
	state := ""
	switch {
	case g.paused:
		state = "  PAUSED"
	case g.speed < 0:
		state = "  slow x1/4"
	case g.speed > 0:
		state = "  fast x4"
	}
	p.add(fmt.Sprintf("round %d at %.1fs  seed %d%s", s.Round, s.World.Time, s.Config.Seed, state), textMain, 0)
	p.add(fmt.Sprintf("blue %d alive, %d won  |  red %d alive, %d won", alive[0], s.Wins[0], alive[1], s.Wins[1]), textMain, 0)
	p.rule()
	p.add("legend: a label is number, action, rounds in the magazine (b3 atk 24: blue3 attacks, 24 rounds). "+
		"atk attack, cover takeCover, adv advance, fetch fetchMagazine. Bar: health. Ring: selected. "+
		"Crates show their magazines; sandbags give cover; walls stop sight and rounds.", textDim, 0)
	p.rule()
	var so *sim.Soldier
	if g.details {
		so = s.Soldier(g.sel)
	}
	if so == nil {
		p.add("click a soldier (or Tab, or D for the ringed one) for its mind: state, plan, scores, records", textDim, 0)
	} else {
		g.soldierLines(p, s.Overlay(so, records))
	}
	return p.lines
}

// soldierLines adds the selected soldier's mind to p.
func (g *Game) soldierLines(p *panelText, o sim.Overlay) {
	cover := ""
	if o.InCover {
		cover = ", in cover"
	}
	p.add(fmt.Sprintf("%s: health %s, ammo %s, magazines %s%s", o.Soldier, num(o.Health), num(o.Ammo), num(o.Magazines), cover),
		sprites.TeamColor[o.Team], 0)
	if o.Doing == "dead" {
		p.add("down: out of the round; its last records:", textMain, 0)
		for _, e := range o.Records {
			p.add(sim.RecordLine(e, 0), textDim, 2)
		}
		return
	}
	// DecidedBy, not the goal alone, says which side decides, as the
	// soldier's plan and pick records do.
	byGoal := o.DecidedBy == "goal"
	p.add(o.Decision(), textHead, 0)
	g.thinkLine(p)

	// The GOAP side.
	c := textMain
	if !byGoal {
		c = textDim
	}
	p.add(o.GOAPLine(), c, 0)
	if so := g.sim.Soldier(o.Soldier); so != nil {
		coordinationLines(p, g.sim.Coordination(so))
	}

	// The utility side.
	c, hi := textMain, barPicked
	if byGoal {
		c, hi = textDim, barScore
	}
	pick := orDash(o.Pick)
	if o.Kept {
		pick += " (kept: within the margin)"
	}
	p.add(fmt.Sprintf("utility (%s, margin %s): pick %s", o.Mode, num(o.Commitment), pick), c, 0)
	for _, a := range o.Scores {
		bc := barScore
		if a.Action == o.Pick {
			bc = hi
		}
		if byGoal {
			bc = barBack
		}
		p.addBar(fmt.Sprintf("  %-14s %5.3f", a.Action, a.Score), c, a.Score, bc)
		for _, cs := range a.Considerations {
			oc := barOutput
			if byGoal {
				oc = barBack
			}
			p.addBar(fmt.Sprintf("    %-17s in %-5s out %4.2f w%s", cutName(cs.Name, 17), num(cs.Input), cs.Output, num(cs.Weight)), c, cs.Output, oc)
		}
	}
	var blocked []string
	for _, b := range o.Blocked {
		blocked = append(blocked, b.Action+" ("+b.Pre+")")
	}
	if len(blocked) > 0 {
		p.add("not now: "+strings.Join(blocked, "; "), textDim, 2)
	}
	p.rule()
	if o.LastReplan != "" {
		p.add(fmt.Sprintf("last replan at %.1fs: %s", o.LastReplanAt, o.LastReplan), textMain, 0)
	}
	p.add("flight recorder, newest last:", textMain, 0)
	var rec []pline
	for _, e := range o.Records {
		q := g.newPanelText()
		q.add(sim.RecordLine(e, 0), textDim, 2)
		rec = append(rec, q.lines...)
	}
	// Keep the newest records that fit above the help lines.
	_, h := g.gfx.screen.PanelSize()
	room := int(h-2*panelPad)/lineH - len(p.lines) - 6
	if len(rec) > room {
		rec = rec[len(rec)-max(room, 0):]
		for len(rec) > 0 && !strings.HasPrefix(rec[0].text, "  ") || len(rec) > 0 && strings.HasPrefix(rec[0].text, "   ") {
			rec = rec[1:] // start at a whole record, not the middle of one
		}
	}
	p.lines = append(p.lines, rec...)
}

// drawPanel draws the side panel from its cached image, rebuilding the
// image every panelEvery frames when its lines changed.
func (g *Game) drawPanel(screen *ebiten.Image) {
	x := g.gfx
	if x.panel == nil {
		x.panel = ebiten.NewImage(max(x.screen.Panel.Dx(), 1), max(x.screen.Panel.Dy(), 1))
	}
	if x.panelKey == "" || g.frames%panelEvery == 0 || g.paused {
		lines := g.panelLines()
		foot := g.newPanelText()
		if g.note != "" && g.frames-g.noteAt < 8*TPS {
			c := textMain
			if strings.HasPrefix(g.note, "reload failed") {
				c = textWarn
			}
			foot.add(g.note, c, 0)
		}
		foot.rule()
		foot.add(Help, textDim, 0)
		var key strings.Builder
		for _, l := range append(lines, foot.lines...) {
			fmt.Fprintf(&key, "%s|%d|%.2f|%v\n", l.text, l.col.R, l.bar, l.barCol)
		}
		if k := key.String(); k != x.panelKey {
			x.panelKey = k
			g.renderPanel(lines, foot.lines)
			x.panelShown = false
		}
	}
	// The screen is not cleared between frames, so the panel stays on it
	// until it changes: a third of the screen not drawn again every frame.
	if x.panelShown && screen == x.shownOn {
		return
	}
	op := ebiten.DrawImageOptions{Blend: ebiten.BlendCopy}
	op.GeoM.Translate(float64(x.screen.Panel.Min.X), float64(x.screen.Panel.Min.Y))
	screen.DrawImage(x.panel, &op)
	x.panelShown, x.shownOn = true, screen
}

// renderPanel draws lines from the top and foot at the bottom of the
// panel image.
func (g *Game) renderPanel(lines, foot []pline) {
	x, img := g.gfx, g.gfx.panel
	x.setView(x.screen.TextScale, 0, 0)
	pw, ph := x.screen.PanelSize()
	img.Fill(panelBack)
	x.rect(img, 0, 0, 2, ph, rule)
	maxLines := int(ph-2*panelPad) / lineH
	if room := maxLines - len(foot); len(lines) > room {
		lines = lines[:room]
	}
	draw := func(l pline, y float64) {
		if l.rule {
			x.rect(img, panelPad, y+lineH/2, pw-2*panelPad, 1, rule)
			return
		}
		x.drawText(img, l.text, panelPad, y, l.col)
		if l.bar >= 0 {
			bx := pw - panelPad - barW
			x.rect(img, bx, y+5, barW, 6, barBack)
			x.rect(img, bx, y+5, barW*l.bar, 6, l.barCol)
		}
	}
	for i, l := range lines {
		draw(l, float64(panelPad+i*lineH))
	}
	for i, l := range foot {
		draw(l, ph-panelPad-float64((len(foot)-i)*lineH))
	}
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

// cutName shortens a consideration's name to n characters at a word
// boundary where it can.
func cutName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], ' '); i > 0 {
		return s[:i]
	}
	return s[:n]
}

// thinkLine adds how often the soldiers think under the level of detail
// around the selected one (sim.LODLine).
func (g *Game) thinkLine(p *panelText) { p.add(g.sim.LODLine(), textDim, 0) }
