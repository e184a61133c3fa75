// Command demo is moonmind's Ebiten demo: two squads of soldiers whose
// minds are scripts/soldier.lua fight: they attack, take cover when hurt,
// retreat to their rally point when badly hurt, and fetch magazines from
// the crates and reload when they run low, each showing its current action
// and ammo.
//
//	go run ./demo [-seed N] [-scripts DIR] [-frames N] [-screenshot FILE.png] [-overlay] [-select NAME]
//
// With -frames it quits after N frames (ticks at 60 per second); with
// -screenshot it saves the last frame as a PNG, so it can run under
// xvfb-run in a test. -overlay starts with the debug overlay shown for the
// soldier -select names (default blue1). Space pauses; D shows or hides
// the overlay; Tab selects the next soldier, a click the one under the
// cursor; Escape or Q quits.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/moonmind-ai/moonmind/demo/game"
)

func main() {
	var opts game.Options
	flag.IntVar(&opts.Frames, "frames", 0, "quit after `N` frames (0: run until the window is closed)")
	flag.StringVar(&opts.Screenshot, "screenshot", "", "save the last frame to `FILE.png`")
	flag.Uint64Var(&opts.Seed, "seed", 1, "the battle's random `seed`")
	flag.StringVar(&opts.ScriptsDir, "scripts", "scripts", "the `folder` holding soldier.lua")
	flag.BoolVar(&opts.Overlay, "overlay", false, "start with the debug overlay shown (key D toggles it)")
	flag.StringVar(&opts.Select, "select", "blue1", "the `soldier` the overlay shows first (Tab or a click changes it)")
	flag.Parse()
	// The engine reads no environment variable; the demo passes this one in.
	opts.NoGOAP = strings.EqualFold(os.Getenv("MOONMIND_GOAP"), "off")
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "demo: unexpected argument %q\n", flag.Arg(0))
		flag.Usage()
		os.Exit(2)
	}
	if err := game.Run(opts); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}
