package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"referee/agents"
)

// sessionFlags are where the agents' Claude Code transcripts are looked for.
type sessionFlags struct {
	claudeDir, project, prices *string
}

func addSessionFlags(cmd *cobra.Command) sessionFlags {
	f := cmd.Flags()
	return sessionFlags{
		claudeDir: f.String("claude-dir", "", "Claude Code's config folder, whose projects/ holds the session transcripts (default $CLAUDE_CONFIG_DIR, else ~/.claude)"),
		project:   f.String("project", "", "the folder the agents' sessions ran in (default: the folder holding --contents)"),
		prices:    f.String("prices", "", "a JSON price table over the built-in one ({\"date\": …, \"models\": {\"claude-…\": {\"input\": …, \"output\": …, \"cache_creation\": …, \"cache_read\": …}}}, dollars per million tokens)"),
	}
}

// read reads every session of the project once.
func (sf sessionFlags) read(contents string, now time.Time) (agents.Report, error) {
	prices, err := agents.LoadPrices(*sf.prices)
	if err != nil {
		return agents.Report{}, usagef("--prices: %v", err)
	}
	project := *sf.project
	if project == "" {
		project = agents.RunsBase(contents)
	}
	_, r := agents.Read(agents.Options{ClaudeDir: *sf.claudeDir, Project: project, Prices: prices,
		Now: func() time.Time { return now }})
	return r, nil
}

func (sf sessionFlags) explicit() bool { return *sf.claudeDir != "" || *sf.project != "" }

func (a *app) printSessions(r agents.Report) {
	w := func(format string, args ...any) { fmt.Fprintf(a.stdout, format, args...) }
	if len(r.Sessions) == 0 {
		w("sessions: none in %s/projects ran in %s\n", oneLine(r.ClaudeDir), oneLine(r.Project))
		return
	}
	w("sessions: %d in %s/projects ran in %s (prices of %s)\n", len(r.Sessions), oneLine(r.ClaudeDir), oneLine(r.Project), oneLine(r.Prices))
	for _, s := range r.Sessions {
		a.printAgent(s, "  ")
		for _, sub := range s.Subagents {
			a.printAgent(sub, "    ")
		}
		if c := s.Compaction; c != nil {
			w("    compaction: %d agent(s), %d turns; tokens %s in, %s out, cache %s written, %s read; %s\n",
				c.Agents, c.Turns, count(c.Tokens.Input), count(c.Tokens.Output), count(c.Tokens.CacheCreation), count(c.Tokens.CacheRead), cost(c.CostUSD, c.CostUnknown))
		}
		if b := s.Background; b != nil {
			w("    background (%s): %d agent(s), %d turns; tokens %s in, %s out, cache %s written, %s read; %s\n", oneLine(strings.Join(b.Kinds, ", ")),
				b.Agents, b.Turns, count(b.Tokens.Input), count(b.Tokens.Output), count(b.Tokens.CacheCreation), count(b.Tokens.CacheRead), cost(b.CostUSD, b.CostUnknown))
		}
		if all := s.WithSubagents; all != nil && all.Agents > 1 {
			w("    with its subagents and compaction: %d turns; tokens %s in, %s out, cache %s written, %s read; %s\n",
				all.Turns, count(all.Tokens.Input), count(all.Tokens.Output), count(all.Tokens.CacheCreation), count(all.Tokens.CacheRead), cost(all.CostUSD, all.CostUnknown))
		}
	}
	for _, n := range r.Notes {
		w("  note: %s\n", oneLine(n))
	}
}

// cost is a dollar figure, with the models it leaves out for want of a price.
func cost(usd float64, unknown []string) string {
	s := fmt.Sprintf("$%.2f", usd)
	if len(unknown) > 0 {
		s += " + cost unknown: model " + oneLine(strings.Join(unknown, ", "))
	}
	return s
}

// printAgent writes one agent in two lines; its strings are sanitised by sessions
// and again by oneLine.
func (a *app) printAgent(v agents.View, indent string) {
	id := v.SessionID
	if v.AgentID != "" {
		id = v.AgentID
	}
	state := v.State
	if v.Tool != "" {
		state += " " + v.Tool
	}
	if v.Verdict != "" {
		state += ", " + v.Verdict
	}
	objs := strings.Join(v.Objects, " ")
	if objs == "" {
		objs = "-"
	}
	fmt.Fprintf(a.stdout, "%s%s %s on %s: %s\n", indent, oneLine(v.Role), oneLine(id), oneLine(objs), oneLine(state))
	fmt.Fprintf(a.stdout, "%s  %d turns; tokens %s in, %s out, cache %s written, %s read; %s; context %s; last line %s ago\n",
		indent, v.Turns, count(v.Tokens.Input), count(v.Tokens.Output), count(v.Tokens.CacheCreation), count(v.Tokens.CacheRead),
		cost(v.CostUSD, v.CostUnknown), count(v.Context), time.Duration(v.Idle).Round(time.Second))
	for _, n := range v.Notes {
		if strings.HasPrefix(n, "cost unknown: model ") {
			continue // on the line above
		}
		fmt.Fprintf(a.stdout, "%s  note: %s\n", indent, oneLine(n))
	}
}

func (a *app) whyCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "why CHANGE",
		Short: "The session, the agent and the text behind a change, from the agents' Claude Code transcripts",
		Long: "why finds the skill call that made a change of the log in the agents' Claude Code\n" +
			"session transcripts — a skill script run through Bash, `referee skill`, or a referee\n" +
			"MCP tool, tied by the change ID in its output, else by the objects and the time —\n" +
			"and prints its session, its agent, the call and the text the agent wrote before it.\n" +
			"Exits 1 when no call is found.",
		Args: cobra.ExactArgs(1),
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	sf := addSessionFlags(cmd)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		now, err := nowTime()
		if err != nil {
			return err
		}
		snap, err := loadFolder(*contents)
		if err != nil {
			return err
		}
		found := -1
		for i, e := range snap.Log {
			if e.ID == args[0] {
				found = i
				break
			}
		}
		if found < 0 {
			return usagef("no change %s in %s/history/log.jsonl", oneLine(args[0]), oneLine(*contents))
		}
		r, err := sf.read(*contents, now)
		if err != nil {
			return err
		}
		att := agents.Attribute(snap.Log, r.Calls, 0)[found]
		if *output == "json" {
			if err := a.writeJSON(att); err != nil {
				return err
			}
		} else {
			a.printWhy(att, r)
		}
		if att.Call == nil {
			return &silentExit{code: exitRefused}
		}
		return nil
	}
	return cmd
}

func (a *app) printWhy(att agents.Attribution, r agents.Report) {
	w := func(format string, args ...any) { fmt.Fprintf(a.stdout, format, args...) }
	w("%s %s by %s at %s: %s\n", att.Change, oneLine(att.Skill), oneLine(att.By), oneLine(att.At), oneLine(strings.Join(att.Objects, ", ")))
	c := att.Call
	if c == nil {
		w("no skill call in the %d session(s) of %s made it\n", len(r.Sessions), oneLine(r.Project))
		return
	}
	agent := c.Role
	if c.AgentID != "" {
		agent += " " + c.AgentID
	}
	w("session: %s\n", oneLine(c.SessionID))
	w("agent: %s\n", oneLine(agent))
	w("call: %s at %s, answered %s (tied: %s)\n", oneLine(c.Tool), c.Start.UTC().Format(time.RFC3339), c.End.UTC().Format(time.RFC3339), att.How)
	w("  %s\n", oneLine(c.Command))
	if c.Result != "" {
		w("output: %s\n", oneLine(c.Result))
	}
	w("text before the call:\n")
	for _, l := range strings.Split(c.Analysis, "\n") {
		w("  %s\n", l) // sanitised by sessions: \n and \t are the only controls left
	}
}
