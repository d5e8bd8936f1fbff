package model

import (
	"strings"
	"testing"
	"time"
)

func TestCheckStall(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	busy := &Graph{Actionable: ActionsOf([]Action{{"s-014", AgentCheck, 3}, {"s-007", AgentProve, 2}, {"s-015", AgentFix, 1}, {"s-016", AgentHuman, 1}, {"p-002", AgentSolve, 0}})}
	human := &Graph{Actionable: ActionsOf([]Action{{"s-016", AgentHuman, 1}})}
	done := &Graph{}
	for _, c := range []struct {
		g       *Graph
		last    time.Time
		stalled bool
		reason  string
	}{
		{busy, now.Add(-20 * time.Minute), true, "stalled: nothing changed for 20m0s (history/log.jsonl), at least 15m0s, while 4 item(s) are actionable: agent-check s-014, agent-prove s-007, agent-fix s-015, and 1 more"},
		{busy, now.Add(-14 * time.Minute), false, "not stalled: last change 14m0s ago (history/log.jsonl), under 15m0s; 4 actionable"},
		{busy, time.Time{}, true, "stalled: nothing was ever seen to change, at least 15m0s, while 4 item(s) are actionable: agent-check s-014, agent-prove s-007, agent-fix s-015, and 1 more"},
		{human, now.Add(-time.Hour), false, "not stalled: the agents have nothing to do; s-016 wait for a human decision; last change 1h0m0s ago (history/log.jsonl)"},
		{done, now.Add(-time.Hour), false, "not stalled: nothing is actionable; last change 1h0m0s ago (history/log.jsonl)"},
	} {
		got := CheckStall(c.g, c.last, "history/log.jsonl", now, 0)
		if got.Stalled != c.stalled || got.Reason != c.reason {
			t.Errorf("got %v %q\nwant %v %q", got.Stalled, got.Reason, c.stalled, c.reason)
		}
	}
	if got := CheckStall(busy, now.Add(-20*time.Minute), "x", now, time.Hour); got.Stalled || got.Idle != 20*time.Minute || len(got.Waiting) != 4 {
		t.Errorf("an hour's patience: %+v", got)
	}
}

func TestStallWithTranscripts(t *testing.T) {
	now := time.Date(2026, 1, 8, 12, 0, 0, 0, time.UTC)
	waiting := Stall{Waiting: []Action{{ID: "s-010", Agent: AgentCheck}}, Reason: "not stalled: last change 1m0s ago (log), under 15m0s; 1 actionable"}
	got := waiting.WithTranscripts(now.Add(-20*time.Minute), "agent-check a1", now, 15*time.Minute)
	if !got.Stalled || got.TranscriptIdle != 20*time.Minute ||
		!strings.HasPrefix(got.Reason, "stalled: the transcripts fell silent: the last transcript line was 20m0s ago (agent-check a1)") {
		t.Fatalf("silent transcripts: %+v", got)
	}
	quiet := waiting
	quiet.Stalled, quiet.Reason = true, "stalled: nothing changed"
	got = quiet.WithTranscripts(now.Add(-time.Minute), "agent-check a1", now, 15*time.Minute)
	if got.Stalled || !strings.HasPrefix(got.Reason, "not stalled: the log is quiet but the agents are working") {
		t.Fatalf("active transcripts: %+v", got)
	}
	if got := waiting.WithTranscripts(time.Time{}, "", now, 15*time.Minute); got.Stalled || got.Reason != waiting.Reason {
		t.Fatalf("no transcripts changed the verdict: %+v", got)
	}
}

// StallOf is CheckStall's verdict, reason and counts without the list of waiting work.
func TestStallOfIsCheckStallsVerdict(t *testing.T) {
	now := time.Date(2026, 1, 8, 12, 0, 0, 0, time.UTC)
	g := &Graph{Actionable: ActionsOf([]Action{{ID: "s-001", Agent: AgentCheck}, {ID: "s-002", Agent: AgentHuman},
		{ID: "s-003", Agent: AgentProve}, {ID: "s-004", Agent: AgentFix}, {ID: "s-005", Agent: AgentCheck}, {ID: "s-006", Agent: AgentCheck}})}
	for _, last := range []time.Time{{}, now.Add(-time.Minute), now.Add(-time.Hour)} {
		full, lean := CheckStall(g, last, "log", now, 0), StallOf(g, last, "log", now, 0)
		if len(full.Waiting) != 5 || len(lean.Waiting) != 0 {
			t.Fatalf("waiting %d and %d, want 5 and 0", len(full.Waiting), len(lean.Waiting))
		}
		if full.Reason != lean.Reason || full.Stalled != lean.Stalled || full.Idle != lean.Idle {
			t.Fatalf("CheckStall %+v\nStallOf %+v", full, lean)
		}
		a, b := full.WithTranscripts(now.Add(-20*time.Minute), "a", now, 0), lean.WithTranscripts(now.Add(-20*time.Minute), "a", now, 0)
		if a.Reason != b.Reason || a.Stalled != b.Stalled {
			t.Fatalf("with transcripts: %+v\n%+v", a, b)
		}
	}
	if got := StallOf(g, time.Time{}, "log", now, 0).Reason; !strings.HasSuffix(got, "5 item(s) are actionable: agent-check s-001, agent-prove s-003, agent-fix s-004, and 2 more") {
		t.Fatalf("reason %q", got)
	}
}
