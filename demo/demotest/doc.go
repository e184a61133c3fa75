// Package demotest runs the demo binary end to end: it builds
// github.com/moonmind-ai/moonmind/demo, runs it for 120 frames under
// xvfb-run (or on $DISPLAY) and checks the screenshot. It lives apart from
// the demo because a test binary that links ebiten cannot start without a
// display.
package demotest
