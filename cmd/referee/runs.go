package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"referee/agents"
	"referee/model"
)

func (a *app) runsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use: "runs",
		Example: "  referee runs\n" +
			"  referee runs --stall-after 30m -o json",
		Short: "The long-running agents' state files (session, messages, tokens, cost) and the stall alarm",
		Long: "runs lists the agents' JSON state files — by default every JSON file under .claude/ in\n" +
			"the folder that holds the contents folder that has a state field (session_id,\n" +
			"message_count, token counters, total_cost_usd) — with each run's session, messages,\n" +
			"tokens, cost and last activity (the file's modification time). Then the stall alarm:\n" +
			"stalled when nothing changed (the change log, config.json, the state files) for\n" +
			"--stall-after while the agents have actionable work. Exits 1 when stalled.",
		Args: noArgs,
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	glob := cmd.Flags().String("state-glob", "", "state files to read instead (a glob, relative to the folder holding --contents, e.g. '.claude/*_state.json')")
	after := cmd.Flags().Duration("stall-after", model.DefaultStallAfter, "how long without a change counts as stalled while work is actionable")
	sf := addSessionFlags(cmd)
	cmd.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		if *after <= 0 {
			return usagef("--stall-after: %s is not a positive duration (e.g. 10m)", *after)
		}
		now, err := nowTime()
		if err != nil {
			return err
		}
		snap, err := loadFolder(*contents)
		if err != nil {
			return err
		}
		runs, err := agents.FindRuns(*contents, agents.RunsOptions{Glob: *glob})
		if err != nil {
			return err
		}
		last, lastWhat := agents.LastActivity(*contents, runs)
		rep, err := sf.read(*contents, now)
		if err != nil {
			return err
		}
		stall := model.CheckStall(model.Derive(snap), last, lastWhat, now, *after).
			WithTranscripts(rep.LastLine, rep.LastWhat, now, *after)
		if *output == "json" {
			// The state files stay under "runs"; the Claude Code sessions beside them.
			if err := a.writeJSON(struct {
				Runs     []agents.AgentRun `json:"runs"`
				Last     *time.Time        `json:"last_change"`
				What     string            `json:"last_change_file"`
				Sessions []agents.View     `json:"sessions"`
				Claude   string            `json:"claude_dir"`
				Project  string            `json:"project"`
				Prices   string            `json:"prices"`
				Notes    []string          `json:"session_notes,omitempty"`
				Stalled  bool              `json:"stalled"`
				Stall    model.Stall       `json:"stall"`
			}{runs, timeOrNil(last), lastWhat, rep.Sessions, rep.ClaudeDir, rep.Project, rep.Prices, rep.Notes, stall.Stalled, stall}); err != nil {
				return err
			}
		} else {
			a.printRuns(*contents, runs, now)
			if len(rep.Sessions) > 0 || sf.explicit() {
				a.printSessions(rep)
			}
			fmt.Fprintln(a.stdout, "stall alarm: "+oneLine(stall.Reason))
		}
		if stall.Stalled {
			return &silentExit{code: exitRefused}
		}
		return nil
	}
	return cmd
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// nowTime is the clock, pinned by $REFEREE_NOW for tests and reproducible examples.
func nowTime() (time.Time, error) {
	if s := os.Getenv(envNow); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return t, usagef("%s: %q is not an RFC 3339 time (e.g. 2026-01-08T12:00:00Z)", envNow, s)
		}
		return t, nil
	}
	return time.Now(), nil
}

func (a *app) printRuns(dir string, runs []agents.AgentRun, now time.Time) {
	w := func(format string, args ...any) { fmt.Fprintf(a.stdout, format, args...) }
	if len(runs) == 0 {
		w("runs: no state files under %s\n", oneLine(agents.RunsBase(dir)+"/"+agents.RunsDir))
		return
	}
	w("runs: %d state file(s) in %s\n", len(runs), oneLine(agents.RunsBase(dir)))
	for _, r := range runs {
		w("  %s\n", oneLine(r.Path))
		if r.Err != "" {
			w("    unreadable: %s\n", oneLine(r.Err))
		} else {
			session := r.SessionID
			if session == "" {
				session = "none (between sessions: a handoff, or not started)"
			}
			w("    session %s, %s messages (%s in this session)\n", oneLine(session), count(r.MessageCount), count(r.SessionMessageCount))
			w("    tokens: %s in, %s out, cache %s written, %s read; cost $%.2f\n", count(r.InputTokens), count(r.OutputTokens),
				count(r.CacheCreationTokens), count(r.CacheReadTokens), r.TotalCostUSD)
			if r.HolSession != "" {
				w("    HOL session %s\n", oneLine(r.HolSession))
			}
			for _, p := range r.Problems {
				w("    malformed: %s\n", oneLine(p))
			}
		}
		w("    last activity %s (%s ago)\n", r.Modified.UTC().Format(time.RFC3339), max(now.Sub(r.Modified), 0).Round(time.Second))
	}
}

// count writes a number with thousands separators.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
