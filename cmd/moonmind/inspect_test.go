package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockedBuffer is a bytes.Buffer that a command writes while a test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// pageURL waits for the inspector's address in out.
func pageURL(t *testing.T, out *lockedBuffer) string {
	t.Helper()
	re := regexp.MustCompile(`(http://127\.0\.0\.1:\d+/)`)
	var url string
	require.Eventually(t, func() bool {
		m := re.FindStringSubmatch(out.String())
		if m != nil {
			url = m[1]
		}
		return m != nil
	}, 30*time.Second, 5*time.Millisecond, "no address in %q", out.String())
	return url
}

func getAgents(t *testing.T, url string) []map[string]any {
	t.Helper()
	resp, err := http.Get(url + "api/agents")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(body, &rows))
	return rows
}

func TestRunServesTheInspectorUntilInterrupted(t *testing.T) {
	stop := make(chan struct{})
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- runWith([]string{soldier, "--ticks", "5", "--agents", "2", "--inspect", "127.0.0.1:0"}, &stdout, &stderr, runHooks{stop: stop})
	}()
	url := pageURL(t, &stderr)
	require.Eventually(t, func() bool {
		rows := getAgents(t, url)
		return len(rows) == 2 && rows[0]["ticks"] == 5.0
	}, 30*time.Second, 10*time.Millisecond, "the finished run is still shown")
	rows := getAgents(t, url)
	assert.Equal(t, "Soldier#1", rows[0]["name"])
	assert.Equal(t, "Soldier", rows[0]["role"])
	assert.Contains(t, stderr.String(), "the inspector shows it until interrupted")
	resp, err := http.Post(url+"api/worlds/run/pause", "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "control is off without --control")
	close(stop)
	select {
	case code := <-done:
		assert.Equal(t, 0, code, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("run did not end when interrupted")
	}
}

func TestRunControlNeedsTheInspector(t *testing.T) {
	_, errOut, code := runMain("run", soldier, "--control")
	assert.Equal(t, 2, code)
	assert.Equal(t, "moonmind run: --control is for the inspector: give --inspect ADDR too\n", errOut)
	_, errOut, code = runMain("run", soldier, "--inspect", "0.0.0.0:0")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "moonmind run: inspect: 0.0.0.0:0 is not a loopback address: set a token to serve other machines (a token is read from MOONMIND_INSPECT_TOKEN)")
}

func TestInspectServesATraceOffline(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "run.jsonl")
	_, errOut, code := runMain("run", soldier, "--ticks", "4", "--trace", trace)
	require.Equal(t, 0, code, errOut)
	stop := make(chan struct{})
	var stdout lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- inspectWith([]string{trace, "--addr", "127.0.0.1:0"}, &stdout, os.Stderr, stop, nil)
	}()
	url := pageURL(t, &stdout)
	rows := getAgents(t, url)
	require.Len(t, rows, 1)
	assert.Equal(t, "Soldier", rows[0]["name"])
	assert.Equal(t, 4.0, rows[0]["ticks"])
	assert.Regexp(t, `moonmind inspect: .*run.jsonl \(\d+ records, 1 agents\) at http://127.0.0.1:\d+/ until interrupted`, stdout.String())
	close(stop)
	assert.Equal(t, 0, <-done)
}
