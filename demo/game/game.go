// Package game is the demo's window: an ebiten.Game that steps a sim.Sim at
// a fixed 60 ticks per second and draws the field, the crates, the
// soldiers in their team colours with their current action and ammo, the
// tracers and a HUD line. Everything it draws is made here in code; the
// only font is ebiten's debug font.
package game

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"

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
}

// New loads the soldiers' script and sets up the battle. The error is a
// script that does not load.
func New(opts Options) (*Game, error) {
	s, err := sim.New(sim.Config{Seed: opts.Seed, ScriptsDir: opts.ScriptsDir, Width: Width, Height: Height})
	if err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	return &Game{opts: opts, sim: s}, nil
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
// pauses, Escape or Q quits.
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
