// Package game is the demo's window: an ebiten.Game that steps a sim.Sim at
// a fixed 60 ticks per second and draws the tile map, the crates, the
// soldiers in their team colours (sprites from assets, turned the way they
// face), muzzle flashes, tracers, hits, the fallen, a winner banner, a
// short label per soldier that never overlaps another, and beside the
// field a side panel: the score, a legend, the selected soldier's state,
// which planner decides now (its GOAP goal and plan with costs, or its
// utility pick with every consideration; the other is greyed), the last
// replan's reason and its latest flight-recorder records, wrapped at
// words, and a help line with the keys.
//
// Keys: Space pauses, . (period) steps one tick while paused, S slow
// motion (a quarter speed), F fast forward (four times), D shows or hides
// the panel's soldier details, N restarts the round, R reloads
// soldier.lua at once (it also reloads by itself when the file changes),
// Tab selects the next living soldier (a click selects the one under the
// cursor), Escape or Q quits.
package game

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/moonmind-ai/moonmind/assets"
	"github.com/moonmind-ai/moonmind/demo/internal/layout"
	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/inspect"
)

// TPS is the demo's tick rate; each tick steps the battle by 1/TPS
// seconds, so a run is the same for a seed whatever the frame rate.
const TPS = 60

// The screen's default size in logical pixels: the field on the left,
// the side panel on the right. The window opens at this size and can be
// resized; in a window of any size or shape (and in a browser page) the
// screen has as many pixels as the display shows, the field keeps its
// aspect and the panel takes the rest (layout.Fit).
const (
	Width  = layout.Width
	Height = layout.Height
	FieldW = layout.FieldW // 36 tiles of 24 pixels
	PanelW = layout.PanelW
)

// Options configures the demo. The zero value runs seed 0 from "scripts"
// until the window is closed.
type Options struct {
	Seed       uint64 // the battle's random seed
	ScriptsDir string // the folder holding soldier.lua; empty means "scripts"
	// Frames, when > 0, quits after that many frames. Then every frame
	// is one tick (1/TPS seconds of battle) and frames run as fast as
	// they can be drawn, so the run, and each frame, is the same for a
	// seed on any machine; Run prints "frames N in S s, F fps".
	Frames int
	// Screenshot, when set, is a PNG file the last frame is saved to: the
	// frame at Frames, or the one shown when the window is closed.
	Screenshot string
	// Overlay starts with the selected soldier's details shown in the
	// panel (D toggles them).
	Overlay bool
	// Select names the soldier the panel shows first ("blue1" when
	// empty).
	Select string
	// Strip, when set, is a PNG file that gets a strip of StripShots
	// moments of the battle, taken evenly over the run (with Frames):
	// each the quarter of the field where soldiers of both squads are
	// nearest together, at full size, two by two.
	Strip      string
	StripShots int
	// NoGOAP turns GOAP planning off (see sim.Config.NoGOAP).
	NoGOAP bool
	// PlanBudget is the battle's planning budget per tick, in node
	// expansions (see sim.Config.PlanBudget); 0 is unlimited.
	PlanBudget int
	// Commander is the squad leaders' language model (see
	// sim.Config.Commander); the default (nil) has none.
	Commander *llm.DynamicPlanner
	// Inspect, when set, serves the live inspector at this address
	// ("127.0.0.1:8790") while the window runs; InspectControl lets its
	// page pause, step, set breakpoints and state, and reload the script.
	// An address other machines reach needs InspectToken.
	Inspect        string
	InspectControl bool
	InspectToken   string
}

// Game is the demo as an ebiten.Game. Not safe for concurrent use: ebiten
// calls Update and Draw from one goroutine.
type Game struct {
	opts    Options
	sim     *sim.Sim
	frames  int // frames run so far (Updates that were not paused)
	quit    bool
	saved   bool
	saveErr error
	paused  bool
	step    bool // single-step: run one tick although paused
	speed   int  // 0 normal, -1 slow (a tick every 4th frame), +1 fast (4 ticks a frame)
	details bool // the selected soldier's details are shown
	sel     string

	watch  *sim.Watcher // soldier.lua, for live reload
	note   string       // the last reload's outcome, shown in the panel
	noteAt int          // the frame note was set

	gfx   *gfx
	strip []*image.RGBA

	inspected *sim.Inspected // the live inspector's hold on the battle, or nil
	inspector *inspect.Server
}

// New loads the soldiers' script and sets up the battle. The error is a
// script that does not load, or a sprite sheet that does not decode.
func New(opts Options) (*Game, error) {
	s, err := sim.New(sim.Config{Seed: opts.Seed, ScriptsDir: opts.ScriptsDir, NoGOAP: opts.NoGOAP, PlanBudget: opts.PlanBudget, Commander: opts.Commander})
	if err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	sel := opts.Select
	if sel == "" {
		sel = "blue1"
	}
	sheet, err := png.Decode(bytes.NewReader(assets.SpritesPNG))
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("game: sprite sheet: %w", err)
	}
	g := &Game{opts: opts, sim: s, details: opts.Overlay, sel: sel, watch: sim.NewWatcher(s.ScriptPath())}
	g.gfx = newGfx(sheet)
	if opts.Inspect != "" {
		ins, in := s.NewInspector(inspect.Options{Control: opts.InspectControl, Token: opts.InspectToken})
		srv, err := ins.Listen(opts.Inspect)
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("game: %w", err)
		}
		g.inspected, g.inspector = in, srv
		fmt.Fprintln(os.Stderr, "demo: inspector at", srv.URL)
	}
	return g, nil
}

// reload swaps an edited soldier.lua into the running battle; a script
// that does not load leaves the old one running, and its problems show
// in the panel as file:line:col: message.
func (g *Game) reload() {
	n, err := g.sim.Reload()
	if err != nil {
		g.note = "reload failed, the old script runs on: " + err.Error()
	} else {
		g.note = fmt.Sprintf("reloaded %s into %d soldiers", filepath.Base(g.sim.ScriptPath()), n)
	}
	g.noteAt = g.frames
}

// Sim returns the battle the game shows.
func (g *Game) Sim() *sim.Sim { return g.sim }

// Close releases the battle's Lua state and the file watcher.
func (g *Game) Close() {
	if g.inspector != nil {
		_ = g.inspector.Close()
	}
	_ = g.watch.Close()
	g.sim.Close()
}

// Run opens the window and runs the demo until it quits: after
// opts.Frames frames, on Escape or Q, or when the window is closed. With
// Frames it prints "frames N in S s, F fps" to standard output at the end.
// The error is a script that does not load, a window that cannot open,
// or a screenshot that cannot be written.
func Run(opts Options) error {
	g, err := New(opts)
	if err != nil {
		return err
	}
	defer g.Close()
	ebiten.SetWindowSize(Width, Height)
	ebiten.SetWindowTitle("moonmind demo: soldiers in Lua")
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetWindowClosingHandled(true)
	ebiten.SetScreenClearedEveryFrame(false) // the field and the panel cover the whole screen
	if opts.Frames > 0 {
		ebiten.SetTPS(ebiten.SyncWithFPS)
		ebiten.SetVsyncEnabled(false)
	} else {
		ebiten.SetTPS(TPS)
	}
	start := time.Now()
	err = ebiten.RunGame(g)
	if opts.Frames > 0 {
		secs := time.Since(start).Seconds()
		fmt.Printf("frames %d in %.2f s, %.1f fps\n", g.frames, secs, float64(g.frames)/secs)
	}
	if err != nil {
		return fmt.Errorf("game: %w", err)
	}
	if g.saveErr == nil && opts.Strip != "" {
		g.saveErr = g.saveStrip()
	}
	return g.saveErr
}

// Update implements ebiten.Game.
func (g *Game) Update() error {
	if g.quit && (g.opts.Screenshot == "" || g.saved) {
		if g.saveErr != nil {
			return g.saveErr
		}
		return ebiten.Termination
	}
	if ebiten.IsWindowBeingClosed() || inpututil.IsKeyJustPressed(ebiten.KeyEscape) || inpututil.IsKeyJustPressed(ebiten.KeyQ) {
		g.quit = true
		return nil
	}
	g.keys()
	if g.frames%TPS == 0 && g.watch.Changed() {
		g.reload()
	}
	if g.quit {
		return nil
	}
	if g.paused && !g.step {
		if g.inspected != nil {
			g.inspected.Idle()
		}
		return nil
	}
	g.step = false
	g.sim.SetFocus(g.sel) // soldiers far from the selected one think less often
	ticks := 1
	switch {
	case g.opts.Frames > 0:
	case g.speed < 0:
		if g.frames%4 != 0 {
			ticks = 0
		}
	case g.speed > 0:
		ticks = 4
	}
	for range ticks {
		if g.inspected == nil {
			g.sim.Step(1.0 / TPS)
		} else if !g.inspected.Step(1.0 / TPS) {
			break // the inspector holds the battle paused
		}
	}
	g.frames++
	if g.opts.Frames > 0 && g.frames >= g.opts.Frames {
		g.quit = true
	}
	return nil
}

// keys reads the keyboard and the mouse (also while paused).
func (g *Game) keys() {
	just := inpututil.IsKeyJustPressed
	if just(ebiten.KeySpace) {
		g.paused = !g.paused
	}
	if just(ebiten.KeyPeriod) {
		g.paused, g.step = true, true
	}
	if just(ebiten.KeyS) {
		g.speed = map[bool]int{true: 0, false: -1}[g.speed < 0]
	}
	if just(ebiten.KeyF) {
		g.speed = map[bool]int{true: 0, false: 1}[g.speed > 0]
	}
	if just(ebiten.KeyD) {
		g.details = !g.details
	}
	if just(ebiten.KeyN) {
		g.sim.Restart()
	}
	if just(ebiten.KeyTab) {
		g.selectNext()
		g.details = true // as a click does: the panel's hint promises the mind
	}
	if just(ebiten.KeyR) {
		g.reload()
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition() // in screen pixels: where the field is, times its scale
		f, k := g.gfx.screen.Field, g.gfx.screen.FieldScale
		if so := g.soldierAt(float64(x-f.Min.X)/k, float64(y-f.Min.Y)/k); so != nil {
			g.sel, g.details = so.Name, true
		}
	}
}

// selectNext selects the living soldier after the selected one, in spawn
// order, wrapping round.
func (g *Game) selectNext() {
	ss := g.sim.Soldiers
	at := -1
	for i, so := range ss {
		if so.Name == g.sel {
			at = i
		}
	}
	for k := 1; k <= len(ss); k++ {
		if so := ss[(at+k+len(ss))%len(ss)]; !so.Dead {
			g.sel = so.Name
			return
		}
	}
}

// soldierAt returns the living soldier nearest (x, y) within 16 pixels, or
// nil.
func (g *Game) soldierAt(x, y float64) *sim.Soldier {
	var best *sim.Soldier
	bd := 16.0
	for _, so := range g.sim.Soldiers {
		if d := math.Hypot(so.X-x, so.Y-y); !so.Dead && d <= bd {
			best, bd = so, d
		}
	}
	return best
}

// Draw implements ebiten.Game; once the run is over it also saves the
// screenshot.
func (g *Game) Draw(screen *ebiten.Image) {
	g.draw(screen)
	if g.opts.Strip != "" && g.opts.Frames > 0 {
		n := max(g.opts.StripShots, 1)
		every := max(g.opts.Frames/n, 1)
		if g.frames > 0 && g.frames%every == 0 && len(g.strip) < n {
			g.strip = append(g.strip, grab(screen, g.onScreen(g.stripRect())))
		}
	}
	if g.quit && g.opts.Screenshot != "" && !g.saved {
		g.saved = true
		g.saveErr = savePNG(grab(screen, screen.Bounds()), g.opts.Screenshot)
	}
}

// Layout implements ebiten.Game; ebiten calls LayoutF instead.
func (g *Game) Layout(outsideW, outsideH int) (int, int) {
	w, h := g.LayoutF(float64(outsideW), float64(outsideH))
	return int(w), int(h)
}

// LayoutF implements ebiten.LayoutFer: the screen is the window's (or the
// browser page's) size times the display's device scale factor, so it
// fills the window at any shape with as many pixels as the display shows
// and text and lines stay sharp on high-density screens; layout.Fit
// places the field and the panel on it. A run with -frames draws at the
// default size, Width x Height, at scale 1, so its frames are the same
// everywhere.
func (g *Game) LayoutF(outsideW, outsideH float64) (float64, float64) {
	w, h, dsf := Width, Height, 1.0
	if g.opts.Frames == 0 {
		dsf = ebiten.Monitor().DeviceScaleFactor()
		w, h = int(math.Ceil(outsideW*dsf)), int(math.Ceil(outsideH*dsf))
	}
	sc := layout.Fit(w, h, dsf)
	g.gfx.setScreen(sc)
	return float64(sc.W), float64(sc.H)
}

// onScreen is r, a rectangle of the field in logical pixels, in screen
// pixels.
func (g *Game) onScreen(r image.Rectangle) image.Rectangle {
	f, k := g.gfx.screen.Field, g.gfx.screen.FieldScale
	at := func(p image.Point) image.Point {
		return image.Pt(f.Min.X+int(math.Round(float64(p.X)*k)), f.Min.Y+int(math.Round(float64(p.Y)*k)))
	}
	return image.Rectangle{Min: at(r.Min), Max: at(r.Max)}
}

func grab(screen *ebiten.Image, r image.Rectangle) *image.RGBA {
	full := image.NewRGBA(screen.Bounds())
	screen.ReadPixels(full.Pix)
	return full.SubImage(r).(*image.RGBA)
}

// The strip's frames: a quarter of the field each, where the fight is, at
// full size, two by two with a gap, so that the whole strip is about as
// wide as a page and its labels read at that width.
const (
	stripW, stripH = FieldW / 2, Height / 2
	stripGap       = 4
)

// stripRect is the part of the screen a strip frame keeps: the quarter
// of the field (on the tile grid) that best shows the fight: living
// soldiers of both squads well inside it (their labels whole), as many
// as can be, and few cut by its edges; the first such from the top left.
func (g *Game) stripRect() image.Rectangle {
	best, bestScore := image.Rect(0, 0, stripW, stripH), math.MinInt
	for y := 0; y+stripH <= Height; y += sim.TileSize {
		for x := 0; x+stripW <= FieldW; x += sim.TileSize {
			r := image.Rect(x, y, x+stripW, y+stripH)
			inner := image.Rect(x+56, y+28, x+stripW-56, y+stripH-24) // room for a label on every side
			var teams [2]int
			cut := 0
			for _, so := range g.sim.Soldiers {
				p := image.Pt(int(so.X), int(so.Y))
				switch {
				case so.Dead || so.Team > 1:
				case p.In(inner):
					teams[so.Team]++
				case p.In(r):
					cut++
				}
			}
			score := teams[0] + teams[1] - 2*cut
			if teams[0] > 0 && teams[1] > 0 {
				score += 100
			}
			if score > bestScore {
				best, bestScore = r, score
			}
		}
	}
	return best
}

// saveStrip writes the strip's frames two by two, in the order taken.
func (g *Game) saveStrip() error {
	if len(g.strip) == 0 {
		return nil
	}
	cols := min(len(g.strip), 2)
	rows := (len(g.strip) + 1) / 2
	out := image.NewRGBA(image.Rect(0, 0, cols*stripW+(cols-1)*stripGap, rows*stripH+(rows-1)*stripGap))
	for i, f := range g.strip {
		at := image.Pt(i%2*(stripW+stripGap), i/2*(stripH+stripGap))
		draw.Draw(out, image.Rectangle{Min: at, Max: at.Add(image.Pt(stripW, stripH))}, f, f.Bounds().Min, draw.Src)
	}
	return savePNG(out, g.opts.Strip)
}

func savePNG(img image.Image, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("game: screenshot: %w", err)
	}
	err = png.Encode(f, img)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errors.Join(fmt.Errorf("game: screenshot %s", path), err)
	}
	return nil
}
