// Package game is the demo's window: an ebiten.Game that steps a sim.Sim at
// a fixed 60 ticks per second and draws the field, the crates, the cover,
// the rally points, the soldiers in their team colours with their current
// action and ammo, the tracers, a HUD line and, on request, the debug
// overlay: for the selected soldier, its utility scores with each
// consideration, its goal and plan, and its latest flight-recorder
// records (the data comes from sim.Sim.Overlay). Everything it draws is
// made here in code; the only font is ebiten's debug font.
//
// Keys: Space pauses, D shows or hides the overlay, Tab selects the next
// living soldier (a click selects the soldier under the cursor), Escape
// or Q quits.
package game

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/moonmind-ai/moonmind/demo/sim"
)

// TPS is the demo's fixed tick rate; each Update steps the battle by
// 1/TPS seconds, so a run is the same for a seed whatever the frame rate.
const TPS = 60

// Screen size in pixels: the battlefield fills it.
const (
	Width  = 960
	Height = 540
)

// Options configures the demo. The zero value runs seed 0 from "scripts"
// until the window is closed.
type Options struct {
	Seed       uint64 // the battle's random seed
	ScriptsDir string // the folder holding soldier.lua; empty means "scripts"
	// Frames, when > 0, quits after that many frames (ticks).
	Frames int
	// Screenshot, when set, is a PNG file the last frame is saved to: the
	// frame at Frames, or the one shown when the window is closed.
	Screenshot string
	// Overlay starts with the debug overlay shown (D toggles it).
	Overlay bool
	// Select names the soldier the overlay shows first ("blue1" when
	// empty).
	Select string
	// NoGOAP turns GOAP planning off (see sim.Config.NoGOAP).
	NoGOAP bool
}

// Game is the demo as an ebiten.Game. Not safe for concurrent use: ebiten
// calls Update and Draw from one goroutine.
type Game struct {
	opts    Options
	sim     *sim.Sim
	frames  int  // Updates run so far
	quit    bool // set when the run should end after the next Draw
	saved   bool
	paused  bool
	saveErr error
	overlay bool   // the debug overlay is shown
	sel     string // the selected soldier's name

	watch  *sim.Watcher // soldier.lua, polled once a second for live reload
	note   string       // the last reload's outcome, shown in the HUD
	noteAt int          // the frame note was set
}

// New loads the soldiers' script and sets up the battle. The error is a
// script that does not load.
func New(opts Options) (*Game, error) {
	s, err := sim.New(sim.Config{Seed: opts.Seed, ScriptsDir: opts.ScriptsDir, Width: Width, Height: Height, NoGOAP: opts.NoGOAP})
	if err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	sel := opts.Select
	if sel == "" {
		sel = "blue1"
	}
	return &Game{opts: opts, sim: s, overlay: opts.Overlay, sel: sel, watch: sim.NewWatcher(s.ScriptPath())}, nil
}

// reload swaps an edited soldier.lua into the running battle; a script
// that does not load leaves the old one running, and its first problem
// shows in the HUD.
func (g *Game) reload() {
	n, err := g.sim.Reload()
	if err != nil {
		msg := err.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i] + " (and more)"
		}
		g.note = "reload failed, the old script runs on: " + msg
	} else {
		g.note = fmt.Sprintf("reloaded %s into %d soldiers", filepath.Base(g.sim.ScriptPath()), n)
	}
	g.noteAt = g.frames
}

// Sim returns the battle the game shows.
func (g *Game) Sim() *sim.Sim { return g.sim }

// Close releases the battle's Lua state.
func (g *Game) Close() { g.sim.Close() }

// Run opens the window and runs the demo until it quits: after
// opts.Frames frames, on Escape or Q, or when the window is closed. The
// error is a script that does not load, a window that cannot open, or a
// screenshot that cannot be written.
func Run(opts Options) error {
	g, err := New(opts)
	if err != nil {
		return err
	}
	defer g.Close()
	ebiten.SetWindowSize(Width, Height)
	ebiten.SetWindowTitle("moonmind demo: soldiers in Lua")
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetTPS(TPS)
	ebiten.SetWindowClosingHandled(true)
	if err := ebiten.RunGame(g); err != nil {
		return fmt.Errorf("game: %w", err)
	}
	return g.saveErr
}

// Update implements ebiten.Game: one fixed step of 1/TPS seconds. Space
// pauses, D toggles the overlay, Tab or a click selects a soldier (also
// while paused), Escape or Q quits.
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
	if inpututil.IsKeyJustPressed(ebiten.KeySpace) {
		g.paused = !g.paused
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyD) {
		g.overlay = !g.overlay
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyTab) {
		g.selectNext()
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyR) || g.frames%TPS == 0 && g.watch.Changed() {
		g.reload()
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		if so := g.soldierAt(float64(x), float64(y)); so != nil {
			g.sel, g.overlay = so.Name, true
		}
	}
	if g.paused || g.quit {
		return nil
	}
	g.sim.Step(1.0 / TPS)
	g.frames++
	if g.opts.Frames > 0 && g.frames >= g.opts.Frames {
		g.quit = true
	}
	return nil
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
	if g.quit && g.opts.Screenshot != "" && !g.saved {
		g.saved = true
		g.saveErr = savePNG(screen, g.opts.Screenshot)
	}
}

// Layout implements ebiten.Game: the field is always Width x Height,
// scaled to the window.
func (g *Game) Layout(int, int) (int, int) { return Width, Height }

func savePNG(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
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
