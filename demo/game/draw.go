package game

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/moonmind-ai/moonmind/demo/sim"
)

// The debug font's glyph cell, in pixels.
const (
	glyphW = 6
	glyphH = 16
)

var (
	grassA     = color.RGBA{0x3f, 0x6e, 0x35, 0xff}
	grassB     = color.RGBA{0x44, 0x75, 0x39, 0xff}
	chalk      = color.NRGBA{0xd8, 0xe8, 0xd0, 0x60}
	crateWood  = color.RGBA{0x9a, 0x6a, 0x36, 0xff}
	crateEdge  = color.RGBA{0x5a, 0x3a, 0x1a, 0xff}
	labelBack  = color.RGBA{0x10, 0x14, 0x10, 0xa0}
	hpBack     = color.RGBA{0x20, 0x20, 0x20, 0xc0}
	hpFront    = color.RGBA{0x6c, 0xe0, 0x5a, 0xff}
	hpLow      = color.RGBA{0xf0, 0xa0, 0x30, 0xff}
	tracerHit  = color.NRGBA{0xff, 0xf2, 0x80, 0xff}
	tracerMiss = color.NRGBA{0xff, 0xc0, 0x50, 0xff}
	rockFill   = color.RGBA{0x8a, 0x8a, 0x80, 0xff}
	rockEdge   = color.RGBA{0x4a, 0x4a, 0x44, 0xff}
	poleColor  = color.RGBA{0xe0, 0xe0, 0xd8, 0xff}
	selectRing = color.RGBA{0xff, 0xe0, 0x40, 0xff}
	teamColor  = [2]color.RGBA{{0x3c, 0x8c, 0xf0, 0xff}, {0xe8, 0x48, 0x40, 0xff}}
	teamDark   = [2]color.RGBA{{0x1a, 0x3c, 0x70, 0xff}, {0x70, 0x1e, 0x1a, 0xff}}
)

func (g *Game) draw(screen *ebiten.Image) {
	s := g.sim
	drawField(screen)
	for _, c := range s.Crates {
		drawCrate(screen, float32(c.X), float32(c.Y))
	}
	for _, r := range s.Rallies {
		drawRally(screen, r)
	}
	for _, c := range s.Covers {
		drawCover(screen, c)
	}
	// The fallen first, so the living walk over them.
	for _, so := range s.Soldiers {
		if so.Dead {
			drawFallen(screen, so)
		}
	}
	for _, t := range s.Tracers {
		drawTracer(screen, t)
	}
	var sel *sim.Soldier
	for _, so := range s.Soldiers {
		if so.Name == g.sel && g.overlay {
			sel = so
			vector.StrokeCircle(screen, float32(so.X), float32(so.Y), 16, 2, selectRing, true)
		}
		if !so.Dead {
			drawSoldier(screen, so)
		}
	}
	g.drawHUD(screen)
	if sel != nil {
		drawOverlay(screen, s.Overlay(sel, overlayRecords))
	}
}

// drawCover draws a low wall (a grey bar across the line of fire) or a
// rock (a grey disc), with a small mark on the spot behind it where a
// soldier takes cover.
func drawCover(screen *ebiten.Image, c sim.Cover) {
	x, y := float32(c.X), float32(c.Y)
	if c.Wall {
		vector.DrawFilledRect(screen, x-5, y-20, 10, 40, rockFill, true)
		vector.StrokeRect(screen, x-5, y-20, 10, 40, 2, rockEdge, true)
	} else {
		vector.DrawFilledCircle(screen, x, y, 13, rockFill, true)
		vector.StrokeCircle(screen, x, y, 13, 2, rockEdge, true)
	}
	vector.StrokeCircle(screen, float32(c.SpotX), float32(c.SpotY), 3, 1, chalk, true)
}

// drawRally draws a team's rally point: a ring where the medic heals, and
// a flag in the team colour.
func drawRally(screen *ebiten.Image, r sim.Rally) {
	x, y := float32(r.X), float32(r.Y)
	vector.StrokeCircle(screen, x, y, sim.RallyRadius, 2, chalk, true)
	vector.StrokeLine(screen, x, y, x, y-30, 2, poleColor, true)
	vector.DrawFilledRect(screen, x+1, y-30, 15, 9, teamColor[r.Team], true)
	label(screen, "rally", x, y+sim.RallyRadius+2)
}

func drawField(screen *ebiten.Image) {
	screen.Fill(grassA)
	const stripe = 60
	for x := 0; x < Width; x += 2 * stripe {
		vector.DrawFilledRect(screen, float32(x+stripe), 0, stripe, Height, grassB, false)
	}
	vector.StrokeLine(screen, Width/2, 0, Width/2, Height, 2, chalk, true)
	vector.StrokeCircle(screen, Width/2, Height/2, 60, 2, chalk, true)
	vector.StrokeRect(screen, 8, 24, Width-16, Height-32, 2, chalk, true)
}

func drawCrate(screen *ebiten.Image, x, y float32) {
	const h = 12 // half the side
	vector.DrawFilledRect(screen, x-h, y-h, 2*h, 2*h, crateWood, true)
	vector.StrokeRect(screen, x-h, y-h, 2*h, 2*h, 2, crateEdge, true)
	vector.StrokeLine(screen, x-h, y-h, x+h, y+h, 2, crateEdge, true)
	vector.StrokeLine(screen, x-h, y+h, x+h, y-h, 2, crateEdge, true)
	label(screen, "ammo", x, y+h+2)
}

func drawTracer(screen *ebiten.Image, t sim.Tracer) {
	c := tracerMiss
	if t.Hit {
		c = tracerHit
	}
	fade := 1 - t.Age/sim.TracerLife
	c.A = uint8(80 + 175*math.Max(0, fade))
	vector.StrokeLine(screen, float32(t.X0), float32(t.Y0), float32(t.X1), float32(t.Y1), 2, c, true)
	if t.Hit {
		vector.DrawFilledCircle(screen, float32(t.X1), float32(t.Y1), 4, c, true)
	}
}

// drawSoldier draws a living soldier: a body in the team colour with its
// rifle towards its target, a health bar, and above it the action it runs
// and its ammo.
func drawSoldier(screen *ebiten.Image, so *sim.Soldier) {
	x, y := float32(so.X), float32(so.Y)
	const r = 10
	dx, dy := float32(1), float32(0)
	if so.Team == 1 {
		dx = -1
	}
	if t := so.Target; t != nil {
		if d := math.Hypot(t.X-so.X, t.Y-so.Y); d > 0 {
			dx, dy = float32((t.X-so.X)/d), float32((t.Y-so.Y)/d)
		}
	}
	vector.StrokeLine(screen, x, y, x+dx*(r+9), y+dy*(r+9), 4, teamDark[so.Team], true)
	vector.DrawFilledCircle(screen, x, y, r, teamColor[so.Team], true)
	vector.StrokeCircle(screen, x, y, r, 2, teamDark[so.Team], true)
	vector.DrawFilledCircle(screen, x+dx*4, y+dy*4, 3, teamDark[so.Team], true)

	const barW, barH = 28, 4
	bx, by := x-barW/2, y-r-8
	vector.DrawFilledRect(screen, bx, by, barW, barH, hpBack, false)
	hc := hpFront
	if so.Health < 35 {
		hc = hpLow
	}
	vector.DrawFilledRect(screen, bx, by, float32(barW*so.Health/100), barH, hc, false)
	label(screen, fmt.Sprintf("%s %g", so.Doing(), so.Ammo()), x, by-glyphH-1)
}

// drawFallen draws a dead soldier lying on the ground.
func drawFallen(screen *ebiten.Image, so *sim.Soldier) {
	x, y := float32(so.X), float32(so.Y)
	c := teamDark[so.Team]
	vector.StrokeLine(screen, x-11, y+3, x+11, y-3, 9, c, true)
	vector.DrawFilledCircle(screen, x+12, y-3, 5, c, true)
	label(screen, "down", x, y+10)
}

// label prints text centred on x with its top at y, on a dark plate.
func label(screen *ebiten.Image, text string, x, y float32) {
	w := float32(len(text) * glyphW)
	left := x - w/2
	vector.DrawFilledRect(screen, left-2, y, w+4, glyphH, labelBack, false)
	ebitenutil.DebugPrintAt(screen, text, int(left), int(y)-1)
}

func (g *Game) drawHUD(screen *ebiten.Image) {
	s := g.sim
	alive := s.Alive()
	vector.DrawFilledRect(screen, 0, 0, Width, 20, labelBack, false)
	hud := fmt.Sprintf("moonmind  round %d at %.1fs  blue: %d alive, %d won  red: %d alive, %d won  seed %d",
		s.Round, s.World.Time, alive[0], s.Wins[0], alive[1], s.Wins[1], s.Config.Seed)
	ebitenutil.DebugPrintAt(screen, hud, 6, 2)
	help := "space: pause  d: overlay  tab/click: select  r: reload  esc: quit"
	if g.paused {
		help = "PAUSED  " + help
	}
	ebitenutil.DebugPrintAt(screen, help, Width-len(help)*glyphW-6, 2)
	if g.note != "" && g.frames-g.noteAt < 5*TPS {
		note := g.note
		if max := (Width - 12) / glyphW; len(note) > max {
			note = note[:max-3] + "..."
		}
		vector.DrawFilledRect(screen, 0, Height-20, Width, 20, labelBack, false)
		ebitenutil.DebugPrintAt(screen, note, 6, Height-18)
	}
	if s.Winner >= 0 {
		msg := "draw: both squads are down"
		if s.Winner < 2 {
			msg = sim.TeamName(s.Winner) + " wins the round"
		}
		label(screen, msg+"; next round soon", Width/2, Height/2-40)
	}
}
