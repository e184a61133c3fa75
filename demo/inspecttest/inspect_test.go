// Package inspecttest drives the live inspector's page in headless
// Chromium over a running battle (package demo/sim, no window) and over a
// battle's trace, offline. It lives in the demo module so that the browser
// driver stays out of the library's dependencies.
package inspecttest

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/inspect"
)

var update = flag.Bool("update", false, "save the screenshots of the population and agent views to docs/")

// battle runs a battle at about 60 ticks a second on its own goroutine,
// through the inspector, until stop.
func battle(t *testing.T) (*httptest.Server, func()) {
	t.Helper()
	s, err := sim.New(sim.Config{Seed: 1, ScriptsDir: "../../scripts", RoundPause: -1})
	require.NoError(t, err)
	ins, in := s.NewInspector(inspect.Options{Control: true})
	srv := httptest.NewServer(ins.Handler()) // 127.0.0.1
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			in.Step(1.0 / 60)
			time.Sleep(15 * time.Millisecond)
		}
	}()
	return srv, func() {
		close(done)
		wg.Wait()
		srv.Close()
		s.Close()
	}
}

type WorldStatus struct {
	Tick   int    `json:"tick"`
	Paused bool   `json:"paused"`
	Why    string `json:"why"`
}

func status(t *testing.T, url string) WorldStatus {
	t.Helper()
	resp, err := http.Get(url + "/api/worlds")
	require.NoError(t, err)
	defer resp.Body.Close()
	var ws []WorldStatus
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&ws))
	require.Len(t, ws, 1)
	return ws[0]
}

func browser(t *testing.T) (context.Context, func()) {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (bash .ci/setup installs it)")
	}
	profile := t.TempDir()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 1000),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	return ctx, func() { cancelTime(); cancelCtx(); cancelAlloc() }
}

// TestInspectorPageOnARunningBattle opens the page on a running battle,
// finds a soldier in the population view, opens it, sees its plan and its
// utility scores with their curves, sets a breakpoint that pauses the
// battle, steps one tick and resumes.
func TestInspectorPageOnARunningBattle(t *testing.T) {
	ctx, closeBrowser := browser(t)
	defer closeBrowser()
	srv, stop := battle(t)
	defer stop()

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#agents tbody tr[data-name="red3"]`)),
	))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#f-q`), "blue1"),
		chromedp.WaitVisible(chromedp.CSS(`#agents tbody tr[data-name="blue1"]`)),
	))
	rows := 0
	for range 50 { // the page shows the answer to the last keystroke
		var err error
		rows, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#agents tbody tr").length`))
		require.NoError(t, err)
		if rows == 1 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	assert.Equal(t, 1, rows, "the filter keeps blue1 alone")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#agents tbody tr[data-name="blue1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#a-plan td.plan-cost`)),
		chromedp.WaitVisible(chromedp.CSS(`#scores svg.curve`)),
	))
	title, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#a-title`)))
	require.NoError(t, err)
	plan, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#a-plan`)))
	require.NoError(t, err)
	scores, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#scores`)))
	require.NoError(t, err)
	assert.Equal(t, "blue1 (role SquadSoldier, decides by hybrid)", title)
	assert.Regexp(t, `(advance|attack|fetchMagazine|reload|takeCover|retreat)`, plan, "a step of the soldier's plan")
	assert.Contains(t, plan, "total")
	assert.Regexp(t, `\d\.\d+`, scores, "scores")
	require.NoError(t, chromedp.Do(ctx, chromedp.Sleep(1200*time.Millisecond)))
	agentView, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)

	// A breakpoint on any record of blue1 pauses the battle.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#bp-add`))))
	require.Eventually(t, func() bool { return status(t, srv.URL).Paused }, time.Minute, 20*time.Millisecond)
	paused := status(t, srv.URL)
	assert.Contains(t, paused.Why, "breakpoint 1: any record of blue1")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`.world .paused`))))
	time.Sleep(200 * time.Millisecond)
	assert.Equal(t, paused.Tick, status(t, srv.URL).Tick, "a paused battle does not tick")

	// One tick.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.world .step`))))
	require.Eventually(t, func() bool { return status(t, srv.URL).Tick == paused.Tick+1 }, time.Minute, 20*time.Millisecond)
	time.Sleep(300 * time.Millisecond)
	assert.Equal(t, paused.Tick+1, status(t, srv.URL).Tick, "a step is one tick")

	// Remove the breakpoint and resume.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#bp-list button`)), chromedp.WaitNotPresent(chromedp.CSS(`#bp-list button`))))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`.world .resume`)), chromedp.Click(chromedp.CSS(`.world .resume`))))
	require.Eventually(t, func() bool { return status(t, srv.URL).Tick > paused.Tick+10 }, time.Minute, 20*time.Millisecond)
	assert.False(t, status(t, srv.URL).Paused)

	// Back to the population, for its screenshot, a few seconds into the battle.
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("f-q").value = ""; location.hash = ""; true`))
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`#agents tbody tr[data-name="red6"]`)),
		chromedp.Sleep(1500*time.Millisecond),
	))
	population, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)

	if *update {
		for name, png := range map[string][]byte{"inspector-population.png": population, "inspector-agent.png": agentView} {
			require.NoError(t, os.WriteFile(filepath.Join("..", "..", "docs", name), png, 0o644))
		}
	}
}

// TestInspectorPageTravelsThroughATrace opens a battle's trace offline (as
// moonmind inspect does), opens a soldier and moves the time-travel slider
// back to its first recorded tick.
func TestInspectorPageTravelsThroughATrace(t *testing.T) {
	ctx, closeBrowser := browser(t)
	defer closeBrowser()
	var records []record.Event
	s, err := sim.New(sim.Config{Seed: 1, ScriptsDir: "../../scripts", RoundPause: -1,
		OnEvent: func(e record.Event) { records = append(records, e) }})
	require.NoError(t, err)
	for range 300 {
		s.Step(1.0 / 60)
	}
	s.Close()
	ins := inspect.New(inspect.Options{})
	require.NoError(t, ins.AttachTrace("trace", records))
	srv := httptest.NewServer(ins.Handler())
	defer srv.Close()

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/#agent/trace/blue2"),
		chromedp.WaitVisible(chromedp.CSS(`#a-records td`)),
		chromedp.WaitVisible(chromedp.CSS(`#a-plan td.plan-cost`)),
	))
	label, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#t-label`)))
	require.NoError(t, err)
	assert.Equal(t, "live", label, "the slider starts at the last record")
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`const s = document.getElementById("t-slider"); s.value = 0; s.dispatchEvent(new Event("input")); true`))
	require.NoError(t, err)
	label, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#t-label`)))
	require.NoError(t, err)
	assert.Equal(t, "tick 1 (t=0 s)", label)
	plan, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#a-plan`)))
	require.NoError(t, err)
	assert.Contains(t, plan, "advance", "the first pick of the battle")
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#a-records tr").length - 1`))
	require.NoError(t, err)
	assert.Positive(t, shown)
}
