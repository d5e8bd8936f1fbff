package store

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// demoP013Dir is the bundled demo as mkdemo.py wrote it before the agents' d8d7638
// dialect (P013 words: awaiting_verification, has_gap, needs_modification, solved …),
// kept with its calls.jsonl: a folder of the seed-era agents that referee must still read,
// and write in its own words.
const demoP013Dir = "testdata/demo-p013/contents"

// The P013 demo reads as it always did: its vocabulary, its phases and its next agents.
func TestDeriveDemoP013(t *testing.T) {
	snap, err := Load(demoP013Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Broken) != 0 || snap.Vocab != model.P013 || len(snap.Problems) != 3 || snap.Statements.Len() != 17 || len(snap.Log) != 37 {
		t.Fatalf("demo-p013: broken %v vocab %v, %d problems, %d statements, %d changes",
			snap.Broken, snap.Vocab, len(snap.Problems), snap.Statements.Len(), len(snap.Log))
	}
	g := model.Derive(snap)
	want := []model.Action{
		{ID: "s-014", Agent: model.AgentCheck, Depth: 3},
		{ID: "s-007", Agent: model.AgentProve, Depth: 2},
		{ID: "s-015", Agent: model.AgentFix, Depth: 1},
		{ID: "s-016", Agent: model.AgentHuman, Depth: 1},
		{ID: "p-002", Agent: model.AgentSolve, Depth: 0},
		{ID: "s-017", Agent: model.AgentProve, Depth: -1},
	}
	if got := g.Actionable.Slice(); !reflect.DeepEqual(got, want) {
		t.Errorf("actionable\n got %v\nwant %v", got, want)
	}
	wantCounts := map[string]int{"abandoned": 1, "awaiting_substatement": 1, "awaiting_substatements": 1, "awaiting_verification": 1,
		"false": 1, "has_gap": 1, "needs_modification": 1, "pending": 2, "true": 8}
	if !reflect.DeepEqual(g.Counts, wantCounts) || !reflect.DeepEqual(g.ProblemCounts, map[string]int{"solved": 2, "unresolved": 1}) {
		t.Errorf("counts %v %v", g.Counts, g.ProblemCounts)
	}
	wantPhase := map[string]model.Phase{"s-011": model.PhaseAwaitingSubs, "s-012": model.PhaseAwaitingSubs,
		"s-014": model.PhaseAwaitingCheck, "s-015": model.PhaseHasGap, "s-016": model.PhaseNeedsDecision,
		"s-004": model.PhaseRefuted, "s-013": model.PhaseAbandoned, "s-007": model.PhaseNeedsProof,
		"p-001": model.PhaseProblemSolved, "p-002": model.PhaseProblemOpen}
	for id, ph := range wantPhase {
		if g.Phase.Get(id) != ph {
			t.Errorf("%s: phase %v, want %v", id, g.Phase.Get(id), ph)
		}
	}
}

// A folder that shows P013 words keeps them: every write into the P013 demo uses the
// seed-era vocabulary and notes, even on objects (pending, unresolved) whose own status
// cannot tell.
func TestWritesIntoDemoP013KeepP013(t *testing.T) {
	dir := testutil.Copy(t, demoP013Dir)
	status := func(id string) string {
		t.Helper()
		return statement(t, dir, id).Status
	}
	must := func(skill string, a skill.Args) *Result {
		t.Helper()
		res, err := run(t, dir, skill, a)
		if err != nil {
			t.Fatalf("%s: %v", skill, err)
		}
		return res
	}

	must("state-complete-proof", skill.Args{"statement_id": "s-007", "proof_text": "Step 1: One of $n$, $n+1$ is even. QED.", "strategy": "direct"})
	if got := status("s-007"); got != "awaiting_verification" {
		t.Errorf("state-complete-proof on pending s-007: %q, want awaiting_verification", got)
	}
	must("check-reject-proof", skill.Args{"statement_id": "s-007", "sentence_number": 1, "sentence_text": "Step 1: One of $n$, $n+1$ is even.",
		"error_type": "gap", "explanation": "why?", "suggested_fix": "cite s-006"})
	if got := status("s-007"); got != "has_gap" {
		t.Errorf("check-reject-proof: %q, want has_gap", got)
	}
	must("fix-create-substatement", skill.Args{"parent_statement_id": "s-007", "issue_number": 1, "sub_claim": "$n(n+1)$ is even",
		"gap_location": "Sentence 1", "purpose": "the parity"})
	if got := status("s-007"); got != "awaiting_substatement" {
		t.Errorf("fix-create-substatement: %q, want awaiting_substatement", got)
	}
	must("state-propose-modification", skill.Args{"statement_id": "s-017", "modification_type": "weaken_conclusion",
		"rationale": "too strong", "source": "prove"})
	s017 := statement(t, dir, "s-017")
	if s017.Status != "needs_modification" || !strings.HasPrefix(s017.Progresses[len(s017.Progresses)-1], "MODIFICATION PROPOSED: Type=weaken_conclusion") {
		t.Errorf("state-propose-modification on pending s-017: %q %q", s017.Status, s017.Progresses)
	}
	must("prob-finish-up", skill.Args{"problem_id": "p-002", "resolution": "r", "key_statement_id": []string{"s-009"}})
	if got := read(t, dir, "problem/p-002.json"); !strings.Contains(got, `"status": "solved"`) {
		t.Errorf("prob-finish-up wrote\n%s", got)
	}
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Vocab != model.P013 {
		t.Errorf("after the writes the folder reads as %v", snap.Vocab)
	}
}

// The P013 demo's own calls, replayed through referee into a folder set up with
// `init --vocabulary P013`, give its files byte for byte, but for what referee now writes
// as the agents at d8d7638 do in either vocabulary: init's log line records the
// vocabulary, a subproblem's summary stays empty (p-003) and the fixer's lemma gets no
// DECOMPOSED note (s-012). Every P013 status, note and response of the run is written.
func TestReplayDemoP013(t *testing.T) {
	calls := readReplayCalls(t, "testdata/demo-p013/calls.jsonl")
	dir := replay(t, demoP013Dir, calls, model.P013)
	want, got := replayTree(t, demoP013Dir), replayTree(t, dir)
	// The P013 demo predates the "versions" key of referee's log lines.
	got[LogFile] = regexp.MustCompile(`, "versions": \{[^}]*\}`).ReplaceAllString(got[LogFile], "")

	log, ok := strings.CutSuffix(strings.SplitAfter(got[LogFile], "\n")[0], `, "vocabulary": "P013"}`+"\n")
	if !ok {
		t.Fatalf("init's log line does not record P013: %s", strings.SplitAfter(got[LogFile], "\n")[0])
	}
	got[LogFile] = log + "}\n" + strings.Join(strings.SplitAfter(got[LogFile], "\n")[1:], "")
	for name, text := range want {
		if name == "problem/p-003.json" || strings.HasSuffix(name, "/p-003.json") {
			doc, err := pyjson.Parse([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if s, _ := doc.Get("summary"); s == nil || !strings.HasPrefix(s.Str, "The number") {
				t.Fatalf("%s: the seed-era summary is gone: %v", name, s)
			}
			doc.Set("summary", pyjson.Str(""))
			want[name] = string(pyjson.EncodeIndent(doc))
		}
	}
	s012, err := pyjson.Parse([]byte(want["statement/s-012.json"]))
	if err != nil {
		t.Fatal(err)
	}
	progresses, _ := s012.Get("progresses")
	kept := progresses.Arr[:0]
	for _, p := range progresses.Arr {
		if !strings.HasPrefix(p.Str, "DECOMPOSED: s-014 fills the gap") {
			kept = append(kept, p)
		}
	}
	if len(kept) != len(progresses.Arr)-1 {
		t.Fatalf("s-012 had no fixer's DECOMPOSED note: %v", progresses.Arr)
	}
	progresses.Arr = kept
	want["statement/s-012.json"] = string(pyjson.EncodeIndent(s012))
	compareReplay(t, len(calls), want, got)
}
