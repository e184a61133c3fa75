package main

import (
	"path/filepath"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunOffersLLMPlan(t *testing.T) {
	t.Setenv(llm.EnvBaseURL, "")
	role := filepath.Join("testdata", "llm", "asker.lua")

	out, errOut, code := runMain("run", role, "--ticks", "2")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "has no field or method")
	assert.Contains(t, out, `llm-answer  goal=get armed reason="unavailable"`, "no server: nil, \"unavailable\", and the body goes on")
	assert.Contains(t, out, "finish      goal=asked action=ask\n")

	srv, calls := chatServer(t, 0, `{"reasoning": "r", "steps": [{"action": "fetchMagazine", "arguments": "{\"crate\": 2}"}]}`)
	trace := filepath.Join(t.TempDir(), "run.jsonl")
	out, errOut, code = runMain("run", role, "--ticks", "4", "--llm", srv.URL+"/v1", "--trace", trace)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `tick    2  t=  0.100s  Asker        llm-answer  goal=get armed reason="{\"goal\":\"get armed\",\"steps\":[{\"index\":0,\"action\":\"fetchMagazine\",\"description\":\"\",\"arguments\":{\"crate\":2}}],\"reasoning\":\"r\"}"`,
		"the answer reaches the body the tick after its request; arguments written as a JSON string are decoded")
	assert.Equal(t, int32(1), calls.Load())

	srv.Close()
	out, errOut, code = runMain("replay", trace)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "identical: 7 records over 4 ticks\n", out, "the replay takes the recorded answer, without the server")
	assert.Equal(t, int32(1), calls.Load())
}
