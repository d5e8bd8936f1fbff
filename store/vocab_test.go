package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// p013Folder is a seed-era (P013) run whose only P013 word is old: s-001 has been
// awaiting_verification since l-001; then n changes each create a pending statement and
// append to p-001 (unresolved), the words both vocabularies share. pad makes each log
// line that much longer, so that the early changes lie far back in the log. Without
// files only the log and s-001 are written (a missing file tells nothing either).
func p013Folder(t testing.TB, n, pad int, files bool) string {
	t.Helper()
	dir := t.TempDir()
	put := func(rel, data string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, dir, rel, data)
	}
	stmt := func(id, status string) string {
		return string(pyjson.EncodeIndent(model.NewStatement(id, "normal", []string{"c " + id}, []string{}, status)))
	}
	put("statement/s-001.json", stmt("s-001", "awaiting_verification"))
	prob := model.NewProblem("p-001", []string{}, []string{"o"}, "unresolved", "", "")
	put("problem/p-001.json", string(pyjson.EncodeIndent(prob)))
	var log strings.Builder
	fmt.Fprintf(&log, `{"l-001": {"creation": ["s-001", "p-001"], "modification": []}, "current": ["p-001", "s-001", "e-000"]}`+"\n")
	for i := 2; i <= n+1; i++ {
		sid, lid := fmt.Sprintf("s-%03d", i), fmt.Sprintf("l-%03d", i)
		if files {
			put("statement/"+sid+".json", stmt(sid, "pending"))
			put("history/"+lid+"/p-001.json", string(pyjson.EncodeIndent(prob)))
		}
		fmt.Fprintf(&log, `{"%s": {"creation": ["%s"], "modification": ["p-001"]}, "current": ["p-001", "%s", "e-000"], "note": "%s"}`+"\n",
			lid, sid, sid, strings.Repeat("x", pad))
	}
	put(LogFile, log.String())
	last := fmt.Sprintf("%03d", n+1)
	put("config.json", `{"p": "p-001", "s": "s-`+last+`", "e": "e-000", "l": "l-`+last+`"}`)
	return dir
}

// A P013 folder whose last 50 changes show only shared words keeps P013: folderVocab
// reads further back until a change tells.
func TestFolderVocabLooksBeyondTheLast50Changes(t *testing.T) {
	dir := p013Folder(t, 80, 0, true)
	if v := folderVocab(dir); v != model.P013 {
		t.Fatalf("folderVocab = %v, want P013", v)
	}
	mustRun(t, dir, "state-complete-proof", skill.Args{"statement_id": "s-081",
		"proof_text": "We prove this statement as follows.\n\nStep 1: x. QED.", "strategy": "direct"})
	if s := statement(t, dir, "s-081"); s.Status != "awaiting_verification" {
		t.Errorf("s-081 status %q, want awaiting_verification", s.Status)
	}
}

// The newest batch of changes that tells decides, however the older ones would vote.
func TestFolderVocabNewestBatchDecides(t *testing.T) {
	dir := p013Folder(t, 100, 0, true)
	write(t, dir, "statement/s-101.json", string(pyjson.EncodeIndent(model.NewStatement("s-101", "normal", []string{"c"}, []string{}, "validating"))))
	if v := folderVocab(dir); v != model.P014 {
		t.Errorf("folderVocab = %v, want P014 (s-101 is validating)", v)
	}
}

// Far back in a long log (here more than 256 KB) still counts, in steps.
func TestFolderVocabReadsTheLogBackwardInSteps(t *testing.T) {
	dir := p013Folder(t, 120, 4000, true) // ~490 KB of log
	if v := folderVocab(dir); v != model.P013 {
		t.Errorf("folderVocab = %v, want P013", v)
	}
}

// The look back is bounded: past it, a folder that shows nothing is P014 (or what init
// recorded), however far back a P013 word lies.
func TestFolderVocabLookBackIsBounded(t *testing.T) {
	dir := p013Folder(t, vocabChanges+10, 0, false)
	if v := folderVocab(dir); v != model.P014 {
		t.Errorf("past %d changes: folderVocab = %v, want P014", vocabChanges, v)
	}
	dir = p013Folder(t, vocabChanges-50, vocabScan/150, false) // fewer changes, but l-001 lies past vocabScan bytes
	if info, err := os.Stat(filepath.Join(dir, LogFile)); err != nil || info.Size() <= vocabScan {
		t.Fatalf("log too short for the test: %v %v", info.Size(), err)
	}
	if v := folderVocab(dir); v != model.P014 {
		t.Errorf("past %d bytes: folderVocab = %v, want P014", vocabScan, v)
	}
}

// The most folderVocab costs: vocabChanges changes that tell nothing, each with its
// objects and backups on disk.
func BenchmarkFolderVocabUndecided(b *testing.B) {
	dir := p013Folder(b, vocabChanges+10, 0, true)
	b.ResetTimer()
	for b.Loop() {
		if folderVocab(dir) != model.P014 {
			b.Fatal("decided")
		}
	}
}
