// Command moonmind checks, plans and runs moonmind NPC scripts without a
// window.
//
//	moonmind check FILE...
//	moonmind graph FILE
//	moonmind plan FILE [--state k=v]... [--goal NAME] [--max-depth N] [--no-chaining] [--json]
//	moonmind why-not FILE --action NAME [--state k=v]... [--goal NAME] [--max-depth N]
//	moonmind utility FILE [--state k=v]... [--json]
//	moonmind run FILE [--ticks N] [--dt S] [--seed N] [--agents N] [--workers N] [--state k=v]... [--trace FILE] [--plan-budget N]
//	moonmind trace FILE.jsonl [--agent NAME] [--kind KIND] [--tick A:B]
//	moonmind replay TRACE.jsonl [FILE...]
//	moonmind eval [--state k=v]... EXPR
//	moonmind apply [--state k=v]... EFFECTS
//	moonmind llm-plan [--base-url URL] [--model M] [--capability name=description]... [--json] GOAL
//	moonmind version (or moonmind --version)
//
// `moonmind help SUB` and `moonmind SUB --help` print one command's
// arguments, flags, an example and its exit statuses.
//
// run drives the role on a headless training ground: every agent starts at
// (0, 0) and walks at 100 px/s, every nearest thing is at (100, 0), and
// shoot() takes 10 from the agent's own enemy_health (a training dummy).
//
// Exit status: 0 on success, 1 a finding or a failed plan (for run, a script
// that raised an error while the agents ran), 2 on bad input (a script or
// argument error, printed as file:line:col: message).
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: it gets its arguments (without the
// subcommand's name) and returns the exit status.
type command struct {
	usage string
	what  string // one line: what the command does
	run   func(args []string, stdout, stderr io.Writer) int
}

// commands is filled by each subcommand's file, in its init function.
var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	if args[0] == "help" {
		return helpCmd(args[1:], stdout, stderr)
	}
	if args[0] == "--version" || args[0] == "-version" {
		return versionCmd(args[1:], stdout, stderr)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "moonmind: unknown command %q%s\n", args[0], didYouMeanCommand(args[0]))
		usage(stderr)
		return 2
	}
	if helpRequested(args[1:]) {
		commandHelp(args[0], stdout)
		return 0
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: moonmind COMMAND [ARGUMENTS] (moonmind help COMMAND for more)")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  moonmind %s\n", commands[n].usage)
		if commands[n].what != "" {
			fmt.Fprintf(w, "      %s\n", commands[n].what)
		}
	}
	fmt.Fprintln(w, "exit status: 0 success, 1 a finding or a failed plan, 2 bad input")
}
