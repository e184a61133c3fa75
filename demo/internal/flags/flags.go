// Package flags reads the demo's command line in its init function, so
// that -h, -help and flag errors are answered before ebiten starts: ebiten
// opens its windowing library while its own packages initialize, and
// panics there when there is no display. Go initializes a package after
// everything it imports and, among packages ready to initialize, in the
// lexical order of their import paths; this package imports only the
// standard library, and ebiten's user interface package waits for
// golang.org/x/sys, which sorts after this one, so this init runs first.
// demo/demotest checks that `demo -h` works without a display.
//
// Where ebiten would have no display to open its window on (on Linux and
// the BSDs, no DISPLAY: ebiten's desktop build draws through X11), this
// init prints NoDisplay, one line that says how to run the demo under Xvfb
// or without a window, and exits with status 2, before ebiten panics.
package flags

import (
	"flag"
	"fmt"
	"os"
)

// NoDisplay is what the demo prints, and exits 2 after, where it finds no
// display to open its window on.
const NoDisplay = "demo: no display to open a window on (DISPLAY is not set): run it under Xvfb, " +
	"xvfb-run -a go run ./demo -frames 600 -screenshot out.png, " +
	"or see a soldier decide without a window, go run ./cmd/moonmind run scripts/soldier.lua --ticks 100"

// Options are the demo's flags, parsed from os.Args.
type Options struct {
	Seed uint64
	// ScriptsDir is the -scripts folder; empty means the scripts built
	// into the demo.
	ScriptsDir string
	Frames     int
	Screenshot string
	Overlay    bool
	Select     string
	Strip      string
	CPUProfile string
	PlanBudget int
	// Inspect is the -inspect address of the live inspector ("" for none);
	// InspectControl is -inspect-control.
	Inspect        string
	InspectControl bool
}

// Parsed holds the command line read at init (the zero value in tests,
// whose arguments are go test's). It is written once, before main runs.
var Parsed Options

func init() {
	if len(os.Args) > 0 && isTestBinary(os.Args[0]) {
		return
	}
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	o := &Parsed
	fs.IntVar(&o.Frames, "frames", 0, "quit after `N` frames, one tick (1/60 s) each, drawn as fast as they can be, and print\n\"frames N in S s, F fps\" (0: run until the window is closed)")
	fs.StringVar(&o.Screenshot, "screenshot", "", "save the last frame to `FILE.png`")
	fs.Uint64Var(&o.Seed, "seed", 1, "the battle's random `seed`: the same seed gives the same battle and frames")
	fs.StringVar(&o.ScriptsDir, "scripts", "", "read the soldiers' scripts from `folder` on disk (squad.lua, their role, and soldier.lua, which\n"+
		"it extends; scripts in the repository) instead of the copies built into the demo, and reload\n"+
		"them when a file there changes")
	fs.BoolVar(&o.Overlay, "overlay", false, "start with the selected soldier's mind shown in the panel (key D toggles it)")
	fs.StringVar(&o.Select, "select", "blue1", "the `soldier` the panel shows first (Tab or a click changes it)")
	fs.StringVar(&o.Strip, "strip", "", "with -frames, also save 4 moments of the battle to `FILE.png`: each the quarter of the field\nwhere the squads meet, two by two")
	fs.IntVar(&o.PlanBudget, "plan-budget", 0, "the planning budget per tick, `N` node expansions shared by every soldier (0: unlimited)")
	fs.StringVar(&o.Inspect, "inspect", "", "serve the live inspector at `ADDR` (127.0.0.1:8790) while the window runs; an address\n"+
		"other machines reach needs a token in $MOONMIND_INSPECT_TOKEN")
	fs.BoolVar(&o.InspectControl, "inspect-control", false, "let the inspector's page pause, step, set breakpoints and state, and reload the script")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for go tool pprof)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: demo [flags]\n\nTwo squads of Lua-scripted soldiers fight. Its keys, panel, flags and browser build\nare described in docs/demo.md in the repository.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "demo: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	if noDisplay() {
		fmt.Fprintln(os.Stderr, NoDisplay)
		os.Exit(2)
	}
}

func isTestBinary(name string) bool {
	return len(name) > 5 && name[len(name)-5:] == ".test"
}
