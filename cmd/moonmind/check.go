package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/moonmind-ai/moonmind/luabind"
)

func init() {
	commands["check"] = command{what: "load role files and report every problem, or a one-line summary", usage: "check FILE...", run: checkCmd}
}

// checkCmd loads each role file and reports every problem, or a one-line
// summary of the role.
func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check", stderr)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "moonmind check: expected one or more role files")
		return 2
	}
	code := 0
	for _, p := range pos {
		rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Dir(p)})
		d, err := rt.LoadDomain(p)
		rt.Close()
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = 2
			continue
		}
		fmt.Fprintf(stdout, "%s: ok: role %s, %d state variables, %d goals, %d actions, %d sensors, decide %s\n",
			p, d.Name, d.Schema.Len(), len(d.Goals), len(d.Actions), len(d.Sensors), d.Decide)
	}
	return code
}
