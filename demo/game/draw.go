package game

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/moonmind-ai/moonmind/assets/sprites"
	"github.com/moonmind-ai/moonmind/demo/internal/layout"
	"github.com/moonmind-ai/moonmind/demo/sim"
)

var (
	labelBack  = color.RGBA{0x10, 0x14, 0x10, 0xb0}
	hpBack     = color.RGBA{0x20, 0x20, 0x20, 0xd0}
	hpFront    = color.RGBA{0x6c, 0xe0, 0x5a, 0xff}
	hpLow      = color.RGBA{0xf0, 0xa0, 0x30, 0xff}
	tracerHit  = color.RGBA{0xff, 0xf2, 0x80, 0xff}
	tracerMiss = color.RGBA{0xff, 0xc0, 0x50, 0xff}
	selectRing = color.RGBA{0xff, 0xe0, 0x40, 0xff}
	white      = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// gfx holds everything drawn more than once, made once: the sprites, the
// tile map's background, and text rendered to images (drawing glyph by
// glyph every frame is slow under software OpenGL). Every drawing method
// takes logical pixels (the field is FieldW x Height of them) and draws
// them scale times larger, moved by (ox, oy) device pixels (setView): the
// screen has as many pixels as the display shows it with, so text stays
// sharp on high-density screens.
type gfx struct {
	sprite  [sprites.Count]*ebiten.Image
	white   *ebiten.Image // a 1x1 white pixel for bars and lines
	field   *ebiten.Image // the map's tiles, drawn once per Sim
	fieldOf *sim.Field

	panel    *ebiten.Image // the side panel, rebuilt when its lines change
	panelKey string        // the lines the panel image shows
	// panelShown says the screen shows the panel image as it is (the
	// screen is not cleared between frames); shownOn is that screen.
	panelShown bool
	shownOn    *ebiten.Image

	font   *text.GoTextFaceSource
	scale  float64                   // device pixels per logical pixel of the view drawn now
	ox, oy float64                   // where the view's origin is, in device pixels
	screen layout.Screen             // the screen's layout the images are made for
	text   map[textKey]*ebiten.Image // white text on a clear ground, by content and size
	used   map[textKey]bool          // texts drawn since the last sweep
	op     ebiten.DrawImageOptions
}

func newGfx(sheet image.Image) *gfx {
	g := &gfx{text: map[textKey]*ebiten.Image{}, used: map[textKey]bool{}, font: newFontSource(), scale: 1, screen: layout.Fit(Width, Height, 1)}
	all := ebiten.NewImageFromImage(sheet)
	for i := range sprites.Count {
		g.sprite[i] = all.SubImage(sprites.Rect(i)).(*ebiten.Image)
	}
	r := sprites.Rect(sprites.White)
	g.white = all.SubImage(image.Rect(r.Min.X+1, r.Min.Y+1, r.Min.X+2, r.Min.Y+2)).(*ebiten.Image)
	return g
}

// setScreen sets the screen's layout; the images made for the old one
// (texts, the panel) are made again for the new one.
func (g *gfx) setScreen(s layout.Screen) {
	if s == g.screen {
		return
	}
	g.screen = s
	for k, img := range g.text {
		img.Deallocate()
		delete(g.text, k)
	}
	clear(g.used)
	if g.panel != nil {
		g.panel.Deallocate()
		g.panel, g.panelKey, g.panelShown = nil, "", false
	}
}

// setView makes the drawing methods draw a logical pixel as scale device
// pixels, with the logical origin at device pixel (ox, oy).
func (g *gfx) setView(scale, ox, oy float64) { g.scale, g.ox, g.oy = scale, ox, oy }

// fieldView draws on the field where the screen's layout puts it.
func (g *gfx) fieldView() {
	f := g.screen.Field
	g.setView(g.screen.FieldScale, float64(f.Min.X), float64(f.Min.Y))
}

// sweep drops cached texts that were not drawn since the last sweep.
func (g *gfx) sweep() {
	for k, img := range g.text {
		if !g.used[k] {
			img.Deallocate()
			delete(g.text, k)
		}
	}
	clear(g.used)
}

// drawText draws s with its top left at (x, y), tinted c.
func (g *gfx) drawText(dst *ebiten.Image, s string, x, y float64, c color.Color) {
	g.drawTextAt(dst, s, fontSize, x, y, c)
}

// drawTextAt draws s at size with its top left at (x, y), tinted c.
func (g *gfx) drawTextAt(dst *ebiten.Image, s string, size, x, y float64, c color.Color) {
	if s == "" {
		return
	}
	g.op = ebiten.DrawImageOptions{}
	g.op.GeoM.Translate(math.Round(x*g.scale+g.ox), math.Round(y*g.scale+g.oy))
	g.op.ColorScale.ScaleWithColor(c)
	dst.DrawImage(g.textImageAt(s, size), &g.op)
}

// rect fills a w x h rectangle at (x, y) with c.
func (g *gfx) rect(dst *ebiten.Image, x, y, w, h float64, c color.Color) {
	g.op = ebiten.DrawImageOptions{}
	g.op.GeoM.Scale(w, h)
	g.op.GeoM.Translate(x, y)
	g.op.GeoM.Scale(g.scale, g.scale)
	g.op.GeoM.Translate(g.ox, g.oy)
	g.op.ColorScale.ScaleWithColor(c)
	dst.DrawImage(g.white, &g.op)
}

// line draws a line w pixels wide from (x0, y0) to (x1, y1).
func (g *gfx) line(dst *ebiten.Image, x0, y0, x1, y1, w float64, c color.Color) {
	l := math.Hypot(x1-x0, y1-y0)
	g.op = ebiten.DrawImageOptions{}
	g.op.GeoM.Translate(0, -0.5)
	g.op.GeoM.Scale(l, w)
	g.op.GeoM.Rotate(math.Atan2(y1-y0, x1-x0))
	g.op.GeoM.Translate(x0, y0)
	g.op.GeoM.Scale(g.scale, g.scale)
	g.op.GeoM.Translate(g.ox, g.oy)
	g.op.ColorScale.ScaleWithColor(c)
	dst.DrawImage(g.white, &g.op)
}

// spriteAt draws sprite i centred on (x, y), turned by angle radians,
// scaled by scale, with alpha.
func (g *gfx) spriteAt(dst *ebiten.Image, i int, x, y, angle, scale, alpha float64) {
	g.op = ebiten.DrawImageOptions{}
	g.op.GeoM.Translate(-sprites.Cell/2, -sprites.Cell/2)
	g.op.GeoM.Scale(scale, scale)
	g.op.GeoM.Rotate(angle)
	g.op.GeoM.Translate(x, y)
	g.op.GeoM.Scale(g.scale, g.scale)
	g.op.GeoM.Translate(g.ox, g.oy)
	g.op.ColorScale.ScaleAlpha(float32(alpha))
	g.op.Filter = ebiten.FilterNearest
	dst.DrawImage(g.sprite[i], &g.op)
}

// background returns the map's tiles as one image, made on first use.
func (g *gfx) background(f *sim.Field) *ebiten.Image {
	if g.field != nil && g.fieldOf == f {
		return g.field
	}
	img := ebiten.NewImage(int(f.Width()), int(f.Height()))
	for r := range f.Rows {
		for c := range f.Cols {
			i := sprites.Ground
			if (c*7+r*13)%5 == 0 {
				i = sprites.Ground2
			}
			switch f.At(c, r) {
			case sim.WallTile:
				i = sprites.Wall
			case sim.LowCover:
				i = sprites.Sandbags
			}
			op := ebiten.DrawImageOptions{}
			op.GeoM.Translate(float64(c*sim.TileSize), float64(r*sim.TileSize))
			img.DrawImage(g.sprite[i], &op)
		}
	}
	for team, p := range f.Rallies {
		op := ebiten.DrawImageOptions{}
		op.GeoM.Translate(p.X-sprites.Cell/2, p.Y-sprites.Cell/2)
		img.DrawImage(g.sprite[sprites.RallyBlue+team], &op)
	}
	for team, spots := range f.CoverSpots { // a small chalk mark on each cover spot
		for _, p := range spots {
			c := sprites.TeamColor[team]
			c.A = 0x90
			op := ebiten.DrawImageOptions{}
			op.GeoM.Scale(4, 4)
			op.GeoM.Translate(p.X-2, p.Y-2)
			op.ColorScale.ScaleWithColor(c)
			img.DrawImage(g.white, &op)
		}
	}
	g.field, g.fieldOf = img, f
	return img
}

func (g *Game) draw(screen *ebiten.Image) {
	s, x := g.sim, g.gfx
	x.fieldView()
	g.drawMargins(screen)
	// The two big images replace what is under them: no blending, which
	// software OpenGL (Xvfb) pays for per pixel.
	x.op = ebiten.DrawImageOptions{Blend: ebiten.BlendCopy}
	x.op.GeoM.Scale(x.scale, x.scale) // the tiles are pixel art: scaled up, they keep their pixels
	x.op.GeoM.Translate(x.ox, x.oy)
	screen.DrawImage(x.background(s.Field), &x.op)
	for _, c := range s.Crates {
		i := sprites.Crate
		if c.Stock == 0 {
			i = sprites.CrateEmpty
		}
		x.spriteAt(screen, i, c.X, c.Y, 0, 1, 1)
	}
	// The fallen first, so the living walk over them; they fade over 10 s.
	for _, so := range s.Soldiers {
		if so.Dead {
			fade := math.Max(0.35, 1-(s.World.Time-so.DiedAt)/10)
			x.spriteAt(screen, sprites.FallenBlue+so.Team, so.X, so.Y, so.Facing, 1, fade)
		}
	}
	for _, t := range s.Tracers {
		c := tracerMiss
		if t.Hit {
			c = tracerHit
		}
		fade := math.Max(0, 1-t.Age/sim.TracerLife)
		c.A = uint8(60 + 195*fade)
		c.R, c.G, c.B = uint8(float64(c.R)*float64(c.A)/255), uint8(float64(c.G)*float64(c.A)/255), uint8(float64(c.B)*float64(c.A)/255)
		x.line(screen, t.X0, t.Y0, t.X1, t.Y1, 2, c)
		if t.Age < sim.FlashLife {
			a := math.Atan2(t.Y1-t.Y0, t.X1-t.X0)
			x.spriteAt(screen, sprites.Flash, t.X0+14*math.Cos(a), t.Y0+14*math.Sin(a), a, 0.8, 1)
		}
		if t.Hit {
			x.spriteAt(screen, sprites.Spark, t.X1, t.Y1, t.Age*20, 1, fade)
		} else if t.Wall {
			x.spriteAt(screen, sprites.Spark, t.X1, t.Y1, 0, 0.6, 0.6*fade)
		}
	}
	for _, so := range s.Soldiers {
		if so.Dead {
			continue
		}
		if so.Name == g.sel {
			ring(x, screen, so.X, so.Y, 15, selectRing)
		}
		x.spriteAt(screen, sprites.SoldierBlue+so.Team, so.X, so.Y, so.Facing, 1, 1)
		const barW, barH = 24.0, 3.0
		bx, by := so.X-barW/2, so.Y-17
		x.rect(screen, bx, by, barW, barH, hpBack)
		hc := hpFront
		if so.Health < 35 {
			hc = hpLow
		}
		x.rect(screen, bx, by, barW*so.Health/100, barH, hc)
	}
	g.drawLabels(screen)
	if s.Winner >= 0 {
		g.drawBanner(screen)
	}
	g.drawPanel(screen)
	if g.frames%(10*TPS) == 0 {
		x.sweep()
	}
}

// margin is the colour of the bands above and below the field when the
// screen is taller than the field.
var margin = color.RGBA{0x10, 0x14, 0x10, 0xff}

// drawMargins fills the bands of the field's column above and below the
// field, every frame: the screen is not cleared, and a sprite at the
// field's edge may reach into them.
func (g *Game) drawMargins(screen *ebiten.Image) {
	sc := g.gfx.screen
	f := sc.Field
	for _, r := range []image.Rectangle{image.Rect(0, 0, f.Max.X, f.Min.Y), image.Rect(0, f.Max.Y, f.Max.X, sc.H)} {
		if !r.Empty() {
			screen.SubImage(r).(*ebiten.Image).Fill(margin)
		}
	}
}

// ring draws a circle of radius r as 24 short lines.
func ring(x *gfx, dst *ebiten.Image, cx, cy, r float64, c color.Color) {
	const n = 24
	for i := range n {
		a0, a1 := 2*math.Pi*float64(i)/n, 2*math.Pi*float64(i+1)/n
		x.line(dst, cx+r*math.Cos(a0), cy+r*math.Sin(a0), cx+r*math.Cos(a1), cy+r*math.Sin(a1), 2, c)
	}
}

// short is an action's name in a label.
var short = map[string]string{"attack": "atk", "takeCover": "cover", "retreat": "retreat",
	"fetchMagazine": "fetch", "reload": "reload", "advance": "adv", "regroup": "regroup", "idle": "idle"}

// Label returns a living soldier's label: its number, what it does (an
// abbreviation) and the rounds in its magazine, e.g. "b2 atk 24".
func Label(so *sim.Soldier) string {
	doing := so.Doing()
	if s, ok := short[doing]; ok {
		doing = s
	}
	return fmt.Sprintf("%c%s %s %g", sim.TeamName(so.Team)[0], so.Name[len(sim.TeamName(so.Team)):], doing, so.Ammo())
}

// drawLabels draws a label for every living soldier where it overlaps no
// other label and no other soldier (layout.Place: above it, below, right
// or left, whichever is free first); a label with no free place is drawn
// faint. The selected soldier's label is placed first.
func (g *Game) drawLabels(screen *ebiten.Image) {
	order := make([]*sim.Soldier, 0, len(g.sim.Soldiers))
	for _, so := range g.sim.Soldiers {
		if so.Dead {
			continue
		}
		if so.Name == g.sel {
			order = append([]*sim.Soldier{so}, order...)
		} else {
			order = append(order, so)
		}
	}
	labels := make([]layout.Label, len(order))
	texts := make([]string, len(order))
	for i, so := range order {
		texts[i] = Label(so)
		x, y := int(so.X), int(so.Y)
		labels[i] = layout.Label{X: x, Y: y, W: int(math.Ceil(textWidth(texts[i]))) + 4, H: textH,
			Avoid: image.Rect(x-9, y-18, x+9, y+10)}
	}
	for i, p := range layout.Place(labels, image.Rect(0, 0, FieldW, Height)) {
		so, r := order[i], p.Rect
		back, fore := labelBack, sprites.TeamColor[so.Team]
		fore = color.RGBA{lighten(fore.R), lighten(fore.G), lighten(fore.B), 255}
		if p.Faint {
			back.A, fore = 0x30, color.RGBA{0x60, 0x60, 0x60, 0x60}
		}
		g.gfx.rect(screen, float64(r.Min.X), float64(r.Min.Y), float64(r.Dx()), float64(r.Dy()), back)
		g.gfx.drawText(screen, texts[i], float64(r.Min.X+2), float64(r.Min.Y), fore)
	}
}

// drawBanner shows the round's winner across the field, three times the
// font's size.
func (g *Game) drawBanner(screen *ebiten.Image) {
	s := g.sim
	msg := "DRAW: BOTH SQUADS ARE DOWN"
	c := color.RGBA{0xf0, 0xf0, 0xf0, 0xff}
	if s.Winner < 2 {
		msg = fmt.Sprintf("%s WINS ROUND %d", map[int]string{0: "BLUE", 1: "RED"}[s.Winner], s.Round)
		c = sprites.TeamColor[s.Winner]
	}
	const k = 3 // the banner's text is three times the size of the rest
	w := textWidth(msg)*k + 40
	x, y := (FieldW-w)/2, float64(Height/2-60)
	g.gfx.rect(screen, x, y, w, textH*k+44, color.RGBA{0x08, 0x0a, 0x08, 0xd8})
	g.gfx.rect(screen, x, y, w, 4, c)
	g.gfx.rect(screen, x, y+textH*k+40, w, 4, c)
	g.gfx.drawTextAt(screen, msg, fontSize*k, x+20, y+14, c)
	sub := "next round soon"
	if s.TimeUp {
		sub = "time is up: won on soldiers standing, then health; next round soon"
	}
	g.gfx.drawText(screen, sub, (FieldW-textWidth(sub))/2, y+textH*k+20, white)
}

// lighten raises a colour channel by 60, up to 255.
func lighten(v uint8) uint8 { return uint8(min(255, int(v)+60)) }
