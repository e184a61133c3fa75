// Command demo is moonmind's Ebiten demo: two squads of soldiers whose
// minds are scripts/soldier.lua shoot, run dry, fetch magazines from the
// crates and reload, each showing its current action and ammo.
//
//	go run ./demo [-seed N] [-scripts DIR] [-frames N] [-screenshot FILE.png]
//
// With -frames it quits after N frames (ticks at 60 per second); with
// -screenshot it saves the last frame as a PNG, so it can run under
// xvfb-run in a test. Space pauses; Escape or Q quits.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/moonmind-ai/moonmind/demo/game"
)

func main() {
	var opts game.Options
	flag.IntVar(&opts.Frames, "frames", 0, "quit after `N` frames (0: run until the window is closed)")
	flag.StringVar(&opts.Screenshot, "screenshot", "", "save the last frame to `FILE.png`")
	flag.Uint64Var(&opts.Seed, "seed", 1, "the battle's random `seed`")
	flag.StringVar(&opts.ScriptsDir, "scripts", "scripts", "the `folder` holding soldier.lua")
	flag.Parse()
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
