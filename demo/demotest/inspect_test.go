package demotest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoServesTheInspectorWhileTheWindowRuns runs the demo with
// -inspect on a free port and reads the battle's agents from the
// inspector's API while the window runs.
func TestDemoServesTheInspectorWhileTheWindowRuns(t *testing.T) {
	bin := buildDemo(t)
	cmd := onDisplay(t, bin, "-frames", "300", "-seed", "1", "-inspect", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	urls := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`^demo: inspector at (http://127\.0\.0\.1:\d+/)$`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
	}()
	var url string
	select {
	case url = <-urls:
	case <-time.After(2 * time.Minute):
		t.Fatal("the demo printed no inspector address")
	}
	var rows []map[string]any
	require.Eventually(t, func() bool {
		resp, err := http.Get(url + "api/agents?sort=name")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return resp.StatusCode == http.StatusOK && json.NewDecoder(resp.Body).Decode(&rows) == nil && len(rows) > 0
	}, time.Minute, 20*time.Millisecond)
	require.Len(t, rows, 12, "six soldiers a side")
	assert.Equal(t, "blue1", rows[0]["name"])
	assert.Equal(t, "battle", rows[0]["world"])
	require.NoError(t, cmd.Wait(), "the demo ends after its frames")
}
