// Command demo is moonmind's Ebiten demo: two squads of soldiers whose
// minds are scripts/soldier.lua fight on a tile map: they advance around
// the walls, attack, take cover behind sandbags when hurt, retreat to
// their rally point when badly hurt, fetch magazines from the crates and
// reload. A side panel shows the selected soldier's mind.
//
//	go run ./demo [-seed N] [-scripts DIR] [-frames N] [-screenshot FILE.png] [-overlay] [-select NAME] [-strip FILE.png] [-inspect ADDR [-inspect-control]]
//
// The flags are read before ebiten starts (package demo/internal/flags),
// so -h works without a display, and where no display is set (no DISPLAY
// on Linux) the demo says in one line how to run it under Xvfb and exits
// with status 2. With -frames it quits after N frames,
// each one tick (1/60 s of battle), drawn as fast as the machine can, and
// prints "frames N in S s, F fps"; with -screenshot it saves the last
// frame as a PNG. The same seed gives the same battle and the same frames.
// The keys are in the panel's help line and in package game.
//
// The soldiers' scripts (package scripts) and the map and sprites
// (package assets) are built into the binary, so it runs from any folder.
// -scripts DIR reads the scripts from DIR on disk instead, and reloads
// them when a file there changes; a DIR without squad.lua is an error
// that names the file looked for, with exit status 2.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/moonmind-ai/moonmind/demo/game"
	"github.com/moonmind-ai/moonmind/demo/internal/flags"
)

func main() { os.Exit(run()) }

// run runs the demo and returns its exit status: 0, 1 when the demo fails
// (a script that does not load, a window that cannot open) or 2 for a
// -scripts folder without the scripts.
func run() int {
	f := flags.Parsed
	opts := game.Options{Seed: f.Seed, Frames: f.Frames, Screenshot: f.Screenshot,
		Overlay: f.Overlay, Select: f.Select, Strip: f.Strip, StripShots: 4, PlanBudget: f.PlanBudget,
		Inspect: f.Inspect, InspectControl: f.InspectControl, InspectToken: os.Getenv("MOONMIND_INSPECT_TOKEN"),
		// The engine reads no environment variable; the demo passes this one in.
		NoGOAP: strings.EqualFold(os.Getenv("MOONMIND_GOAP"), "off")}
	if f.ScriptsDir != "" {
		if err := checkScripts(f.ScriptsDir); err != nil {
			fmt.Fprintln(os.Stderr, "demo:", err)
			return 2
		}
		opts.ScriptsDir = f.ScriptsDir
	} else {
		dir, remove, err := unpack()
		if err != nil {
			fmt.Fprintln(os.Stderr, "demo:", err)
			return 1
		}
		defer remove()
		opts.ScriptsDir = dir
	}
	c, err := commander()
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		return 1
	}
	opts.Commander = c
	if f.CPUProfile != "" {
		out, err := os.Create(f.CPUProfile)
		if err == nil {
			err = pprof.StartCPUProfile(out)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "demo:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	if err := game.Run(opts); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		return 1
	}
	return 0
}
