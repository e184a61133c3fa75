package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
)

// helpText is the long help of one subcommand, printed by
// `moonmind help SUB` and `moonmind SUB --help` after its usage line and
// before its flags.
type helpText struct {
	args    string // what the positional arguments are, one per line
	example string // one command line and, indented, what it prints
	exits   string // what exit statuses 1 and 2 mean for this command
	more    string // anything else a designer needs (may be empty)
}

// exitOK is how every help text names exit status 0.
const exitOK = "0  success"

// helps holds the long help of every subcommand, by name. A test checks
// that every command registered in commands has one.
var helps = map[string]helpText{
	"check": {
		args: "FILE|DIR...  role files (.lua), or directories: each .lua file directly in one, but for the modules\n" +
			"             another file of it requires",
		example: "moonmind check scripts/soldier.lua cmd/moonmind/testdata/faulty/wrong_way.lua\n" +
			"  scripts/soldier.lua: ok: role Soldier, 7 state variables, 1 goals, 5 actions, 0 sensors, 0 plans, decide hybrid\n" +
			"  cmd/moonmind/testdata/faulty/wrong_way.lua:5:22: error: goal \"rich\": gold >= 10 needs gold to move, and no action's effect raises it or sets it to a number",
		exits: "1  an error or a warning (every finding printed as file:line:col: severity: message, at the faulty field)\n" +
			"2  a bad argument (a file or directory that cannot be read)",
		more: "The severity is coloured on a terminal, never with NO_COLOR set.\n" +
			"Findings: a role that does not load (syntax, unknown keys, bad conditions and effects, a fulfills or a\n" +
			"condition naming nothing); a goal with no candidate action (a note), or none reaches from the initial\n" +
			"state (a warning, saying when no chain can ever start), or from any state the role can be in (a warning);\n" +
			"an action that can never run (a warning: what its precondition reads changes only through actions that\n" +
			"can never run either; a variable the role never writes is the game's); a numeric goal no action moves\n" +
			"toward (nor lists in fulfills);\n" +
			"a goal comparing with == or != a number that actions change by fractional steps (a warning);\n" +
			"effect arithmetic on a string or boolean variable; an effect promising a variable that a Lua sensor also\n" +
			"sets (a warning: the sensor can break the promise; a sensor that raises it from its own value, as a need,\n" +
			"is fine); an effect assigning a variable the state does not declare and no body, sensor or reactive plan\n" +
			"writes (with a did-you-mean); a body, sensor, named condition or reactive plan reading or writing\n" +
			"npc.state.NAME that the state does not declare, when a declared name is close or nothing writes it;\n" +
			"in a goap role, an action no goal can use (a note); an action that uses a kind of smart object none of the\n" +
			"role's objects is of (a warning; a note when the role declares no objects, which the game then adds), and an\n" +
			"object whose offers function fails on its data. Notes alone exit 0.\n" +
			"A role silences a finding by its name, with the reason, in check_ignore = { [\"sensor-write:hunger\"] =\n" +
			"\"why\" }; --verbose prints each finding's name and the silenced ones with their reasons; a name that\n" +
			"silences nothing is a warning.",
	},
	"trace": {
		args:    "FILE.jsonl  a trace written by moonmind run --trace",
		example: "moonmind trace run.jsonl --agent Soldier --kind start --tick 1:10\n  tick    1  t=  0.000s  Soldier      start       goal=armed action=fetchMagazine",
		exits:   "2  the trace cannot be read, or --agent, --kind or --tick names nothing in it (with a did-you-mean)",
		more: "--tick A:B keeps ticks A to B inclusive; A: and :B leave one end open. --kind input prints the inputs\n" +
			"the host gave instead of the records (what sensors wrote, what host methods answered), which replay feeds back.",
	},
	"graph": {
		args: "FILE  one role file",
		example: "moonmind graph scripts/soldier.lua --goal armed --format mermaid\n" +
			"  flowchart LR\n" +
			"    n1[/\"ammo = 0\"/]",
		exits: "2  the role does not load, --goal names no goal of the role, or --format is neither dot nor mermaid",
		more: "Nodes: a note per state variable, an ellipse per goal, a box per action, a hexagon per sensor, a\n" +
			"component per reactive plan. Edges: variable -> action (pre: its precondition reads it; dotted: a\n" +
			"consideration reads it), action -> variable (its effects; dotted \"body\": its body writes it, no effect\n" +
			"promises it), variable -> goal, action -> goal (fulfills), sensor -> variable (what it writes), variable ->\n" +
			"sensor (dotted \"reads\": its source reads it), goal or\n" +
			"belief -> plan (what triggers it), plan -> variable or goal (what its body writes or asks for), variable ->\n" +
			"named condition (dotted \"tests\": its test reads it). What sensors, plans, bodies and tests read and write\n" +
			"is read from their Lua source. A node without an edge says why.\n" +
			"--goal keeps only what can lead to that goal. Render DOT with Graphviz (dot -Tpng, not installed by\n" +
			"moonmind), Mermaid in any Markdown viewer that draws it.",
	},
	"plan": {
		args:    "FILE  one role file",
		example: "moonmind plan scripts/soldier.lua --state ammo=0\n  role Soldier\n  goal armed (high): fetchMagazine, reload  [cost 3]\n  plan: fetchMagazine, reload  [cost 3]",
		exits:   "1  no plan reaches a goal (the reason is printed)\n2  the role does not load, or a bad flag, --state or --claim",
		more: "Each false goal gets a line with its own plan, highest priority first. The plan: line joins those plans\n" +
			"in order, each planned from the state the ones before it leave: a preview of the whole run, not one search;\n" +
			"an agent pursues one goal's plan at a time.\n\n" +
			"With smart objects the role declares (objects = { ... }), a step that uses one is followed by the object\n" +
			"it would claim now: fetch (crate1). --claim crate1=blue2 has another agent, blue2, hold a slot of crate1:\n" +
			"plans go around it, and a goal with a plan only through it says so (\"the only crate (crate1) is claimed by blue2\").",
	},
	"utility": {
		args:    "FILE  one role file",
		example: "moonmind utility scripts/soldier.lua\n  role Soldier, utility mode multiply\n  1. fetchMagazine  score 0\n       hasTag(combat)  input 0        output 0        weight 1",
		exits:   "1  no action applies in that state\n2  the role does not load, or a bad flag or --state",
	},
	"run": {
		args:    "[NAME=]FILE...  role files; with several, each file is one agent (named NAME, else after its role)",
		example: "moonmind run scripts/soldier.lua --ticks 3\n  tick    1  t=  0.000s  Soldier      plan        goal=armed plan=[fetchMagazine, reload] cost=3\n  tick    1  t=  0.000s  Soldier      start       goal=armed action=fetchMagazine",
		exits:   "1  a script raised an error while the agents ran (each is a record above; a body\n   that returns false, reason is how the game went, not an error)\n2  a role does not load, a bad flag, or the trace cannot be written",
		more:    trainingGroundHelp(),
	},
	"eval": {
		args:    "EXPR  one condition, quoted, e.g. 'ammo > 0 and not hasWeapon'",
		example: "moonmind eval --state ammo=3 'ammo > 0'\n  true",
		exits:   "2  the condition does not parse (printed with a caret), or a bad --state\n   (a condition that does not hold prints false and exits 0)",
	},
	"apply": {
		args:    "EFFECTS  one or more effects, quoted, e.g. 'ammo = ammo - 1, hasWeapon = true'",
		example: "moonmind apply --state ammo=3 'ammo = ammo - 1'\n  {\"ammo\":2}",
		exits:   "2  the effects do not parse or cannot apply, or a bad --state",
	},
	"llm-plan": {
		args:    "GOAL  the goal in plain text, quoted",
		example: "moonmind llm-plan --base-url http://127.0.0.1:8080/v1 --capability reload='reload the gun' 'be ready to fight'\n  Plan for: be ready to fight\n  1. reload: reload the gun",
		exits:   "1  the server cannot be reached or gave no usable plan\n2  a bad flag, or a goal refused by --max-goal-chars or --deny",
	},
}

// groundMethods documents the host methods of the training ground that
// `moonmind run` offers, by name; a test checks it against
// trainingGround.host.
var groundMethods = map[string]string{
	"position": "npc:position() -> x, y: the agent's position in pixels; every agent starts at (0, 0)",
	"nearest":  "npc:nearest(kind) -> x, y: the nearest thing of any kind, always at (100, 0)",
	"move_to":  "npc:move_to(x, y): walk toward (x, y) at 100 px/s; returns on arrival",
	"shoot":    "npc:shoot(): hit the training dummy, taking 10 from the agent's own enemy_health (not below 0)",
}

// trainingGroundHelp lists groundMethods, sorted by name.
func trainingGroundHelp() string {
	names := make([]string, 0, len(groundMethods))
	for n := range groundMethods {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("The training ground offers these host methods to action bodies (any other fails the action):")
	for _, n := range names {
		b.WriteString("\n  " + groundMethods[n])
	}
	b.WriteString("\n\nOn a terminal, records that went wrong are coloured (never with NO_COLOR set), and a run that goes on\n" +
		"for more than a second shows a progress bar on stderr, cleared at the end. --trace also records every\n" +
		"input the host gave (what sensors wrote, what host methods answered), for moonmind replay.")
	return b.String()
}

// helpRequested reports whether args ask for help: -h, -help or --help
// anywhere before a "--".
func helpRequested(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// helpCmd is `moonmind help [SUB]`: the general usage, or one command's
// long help. Exit 2 for an unknown command.
func helpCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return 0
	}
	if len(args) > 1 {
		fmt.Fprintln(stderr, "moonmind help: expected at most one command name")
		return 2
	}
	if _, ok := commands[args[0]]; !ok {
		fmt.Fprintf(stderr, "moonmind help: unknown command %q%s\n", args[0], didYouMeanCommand(args[0]))
		return 2
	}
	commandHelp(args[0], stdout)
	return 0
}

// commandHelp prints one command's long help with its flags to w. The
// flags come from the command's own flag set: the command is run with
// --help, and parseInterleaved prints them.
func commandHelp(name string, w io.Writer) {
	commands[name].run([]string{"--help"}, w, w)
}

// printHelp writes the long help of the command whose flag set is fs.
func printHelp(fs *flag.FlagSet) {
	w := fs.Output()
	name := strings.TrimPrefix(fs.Name(), "moonmind ")
	c := commands[name]
	h := helps[name]
	fmt.Fprintf(w, "usage: moonmind %s\n", c.usage)
	if c.what != "" {
		fmt.Fprintf(w, "\n%s\n", c.what)
	}
	if h.args != "" {
		fmt.Fprintf(w, "\narguments:\n%s\n", indent(h.args))
	}
	placeholders := usageFlags(c.usage)
	var flags strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		_, text := flag.UnquoteUsage(f)
		fmt.Fprintf(&flags, "  --%s", f.Name)
		b, isSwitch := f.Value.(interface{ IsBoolFlag() bool })
		isSwitch = isSwitch && b.IsBoolFlag() // a switch takes no value
		if arg := placeholders[f.Name]; arg != "" && !isSwitch {
			fmt.Fprintf(&flags, " %s", arg)
		}
		fmt.Fprintf(&flags, "\n      %s", text)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			fmt.Fprintf(&flags, " (default %s)", f.DefValue)
		}
		flags.WriteString("\n")
	})
	if flags.Len() > 0 {
		fmt.Fprintf(w, "\nflags:\n%s", flags.String())
	}
	if h.more != "" {
		fmt.Fprintf(w, "\n%s\n", h.more)
	}
	if h.example != "" {
		fmt.Fprintf(w, "\nexample:\n%s\n", indent(h.example))
	}
	fmt.Fprintf(w, "\nexit status:\n  %s\n", exitOK)
	if h.exits != "" {
		fmt.Fprintf(w, "%s\n", indent(h.exits))
	}
}

// flagError prints a flag parse error, the command's usage line and where
// to find more; or, for --help, the command's long help.
func flagError(fs *flag.FlagSet, err error) {
	if errors.Is(err, flag.ErrHelp) {
		printHelp(fs)
		return
	}
	name := strings.TrimPrefix(fs.Name(), "moonmind ")
	fmt.Fprintf(fs.Output(), "moonmind %s: %s\nusage: moonmind %s\nrun 'moonmind help %s' for more\n",
		name, flagMessage(fs, err), commands[name].usage, name)
}

// flagMessage rewrites an error of the flag package in the spelling the
// help uses: "unknown flag --tick (did you mean --ticks?)" for a flag the
// command does not have, and every flag name with two dashes.
func flagMessage(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		hint := ""
		if s := engine.DidYouMean(name, names); s != "" {
			hint = strings.Replace(s, `"`, "--", 1)
			hint = strings.Replace(hint, `"`, "", 1)
		}
		return "unknown flag --" + name + hint
	}
	return singleDash.ReplaceAllString(msg, "${1}--$2")
}

// singleDash finds a flag name the flag package writes with one dash:
// "flag needs an argument: -goal", "invalid value "x" for flag -ticks".
var singleDash = regexp.MustCompile(`(^|[ :])-([A-Za-z][\w-]*)`)

// usageFlags returns the flags a usage line names, each with the
// placeholder of its value ("" for a switch): "[--goal NAME] [--json]"
// gives goal: NAME, json: "".
func usageFlags(usage string) map[string]string {
	out := map[string]string{}
	words := strings.Fields(strings.NewReplacer("[", " ", "]", " ", "...", " ").Replace(usage))
	for i, w := range words {
		name, ok := strings.CutPrefix(w, "--")
		if !ok || name == "" {
			continue
		}
		arg := ""
		if i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") && strings.ToUpper(words[i+1][:1]) == words[i+1][:1] {
			arg = words[i+1]
		} else if i+1 < len(words) && strings.Contains(words[i+1], "=") {
			arg = words[i+1]
		}
		out[name] = arg
	}
	return out
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

func didYouMeanCommand(name string) string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return engine.DidYouMean(name, names)
}
