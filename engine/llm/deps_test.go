package llm

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheSDKStaysOutOfLightPackages guards the split of the OpenAI SDK
// into package openaichat: luabind and this package must not link it
// (a WebAssembly build of a game would carry the whole SDK), while
// openaichat and the command line must.
func TestTheSDKStaysOutOfLightPackages(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	const mod = "github.com/moonmind-ai/moonmind/"
	tests := []struct {
		pkg, goos, goarch string
		wantSDK           bool
		reason            string
	}{
		{pkg: "engine/llm", reason: "the planner's types need no SDK"},
		{pkg: "luabind", reason: "npc:llm_plan takes any llm.Client"},
		{pkg: "luabind", goos: "js", goarch: "wasm", reason: "the demo's WebAssembly build links luabind"},
		{pkg: "engine/llm/openaichat", wantSDK: true, reason: "the shipped client is the SDK's"},
		{pkg: "cmd/moonmind", wantSDK: true, reason: "llm-plan talks to a real server"},
	}
	for _, tt := range tests {
		name := tt.pkg
		if tt.goos != "" {
			name += " " + tt.goos + "/" + tt.goarch
		}
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}}", mod+tt.pkg)
			cmd.Env = os.Environ()
			if tt.goos != "" {
				cmd.Env = append(cmd.Env, "GOOS="+tt.goos, "GOARCH="+tt.goarch)
			}
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "go list -deps %s: %s", tt.pkg, out)
			var sdk []string
			for _, p := range strings.Fields(string(out)) {
				if strings.HasPrefix(p, "github.com/openai/") {
					sdk = append(sdk, p)
				}
			}
			if tt.wantSDK {
				assert.Contains(t, sdk, "github.com/openai/openai-go/v3", tt.reason)
			} else {
				assert.Empty(t, sdk, "%s must not import the OpenAI SDK: %s", tt.pkg, tt.reason)
			}
		})
	}
}
