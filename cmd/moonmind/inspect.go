package main

import (
	"fmt"
	"io"
	"os"

	"github.com/moonmind-ai/moonmind/inspect"
)

func init() {
	commands["inspect"] = command{what: "show a trace written by run --trace in the browser inspector, offline",
		usage: "inspect FILE.jsonl [--addr ADDR]", run: inspectCmd}
	helps["inspect"] = helpText{
		args:    "FILE.jsonl  a trace written by moonmind run --trace",
		example: "moonmind inspect run.jsonl\n  moonmind inspect: run.jsonl (40 records, 2 agents) at http://127.0.0.1:8790/ until interrupted (Ctrl-C)",
		exits:   "2  the trace cannot be read, or the address cannot be served",
		more: "The page lists the trace's agents; each agent's view has its records and a time-travel slider over\n" +
			"the ticks it recorded, with its goal, plan and running action at each and the state its belief records\n" +
			"give. Live runs are inspected with moonmind run --inspect ADDR. An address other machines reach needs\n" +
			"a token in $" + tokenEnv + ".",
	}
}

// inspectCmd serves a trace in the inspector until interrupted (or until
// stop is closed, in tests).
func inspectCmd(args []string, stdout, stderr io.Writer) int {
	return inspectWith(args, stdout, stderr, nil, nil)
}

// inspectWith is inspectCmd with the interrupt a test closes and a hook
// that gets the page's address.
func inspectWith(args []string, stdout, stderr io.Writer, stop <-chan struct{}, served func(url string)) int {
	fs := newFlagSet("inspect", stderr)
	addr := fs.String("addr", "127.0.0.1:8790", "serve the page at this address (port 0 picks a free one)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "moonmind inspect: expected one trace file")
		return 2
	}
	_, events, _, code := readTrace(pos[0], stderr)
	if code != 0 {
		return code
	}
	ins := inspect.New(inspect.Options{Token: os.Getenv(tokenEnv)})
	if err := ins.AttachTrace(pos[0], events); err != nil {
		fmt.Fprintln(stderr, "moonmind inspect:", err)
		return 2
	}
	srv, err := ins.Listen(*addr)
	if err != nil {
		fmt.Fprintln(stderr, "moonmind inspect:", err)
		return 2
	}
	defer srv.Close()
	agents := map[string]bool{}
	for _, e := range events {
		agents[e.Agent] = true
	}
	fmt.Fprintf(stdout, "moonmind inspect: %s (%d records, %d agents) at %s until interrupted (Ctrl-C)\n",
		pos[0], len(events), len(agents), srv.URL)
	if served != nil {
		served(srv.URL)
	}
	<-interrupted(stop)
	return 0
}
