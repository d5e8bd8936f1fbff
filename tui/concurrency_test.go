package tui

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"referee/internal/testutil"
	"referee/store"
	"referee/views/vtcells"
)

// A running workbench and several CLI processes change one folder at once: no change is
// lost, no ID reused, and the workbench ends showing the final state.
func TestWorkbenchAndCLIProcessesTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs processes")
	}
	bin := refereeBinary(t)
	dir := testutil.Demo(t)
	before, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(dir, Options{Theme: "none", Actor: "human", SyncLoad: true}) // loaded before the keys are typed
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	const w, h = 120, 40
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))

	const procs, each = 4, 8
	var wg sync.WaitGroup
	errs := make(chan string, procs)
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				cmd := exec.Command(bin, "skill", "prob-wrapup-statement", "--contents", dir, "--actor", fmt.Sprintf("agent-%d", p),
					"--problem-id", "p-002", "--claim", fmt.Sprintf("claim %d of agent %d", i, p))
				if out, err := cmd.CombinedOutput(); err != nil {
					errs <- fmt.Sprintf("agent %d: %v: %s", p, err, out)
					return
				}
			}
		}()
	}
	// Meanwhile the reviewer confirms s-014 from the workbench.
	tm.Type("/s-014")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("C")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter}) // the summary as prefilled
	// y once the confirmation offers it (its dry run is done), not after a guessed wait.
	var stream []byte
	for deadline := time.Now().Add(10 * time.Second); !bytes.Contains(stream, []byte("write it")); time.Sleep(20 * time.Millisecond) {
		b, _ := io.ReadAll(tm.Output())
		stream = append(stream, b...)
		if time.Now().After(deadline) {
			t.Fatalf("the confirmation never offered y:\n%s", vtcells.Feed(stream, w, h).String())
		}
	}
	tm.Type("y")
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}

	total := len(before.Log) + procs*each + 1
	last := fmt.Sprintf("l-%03d", total)
	var scr string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, _ := io.ReadAll(tm.Output())
		stream = append(stream, b...)
		scr = vtcells.Feed(stream, w, h).String()
		if strings.Contains(scr, "last: "+last) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workbench never showed %s:\n%s", last, scr)
		}
	}
	tm.Type("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)

	after, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Broken) != 0 {
		t.Fatalf("broken files: %+v", after.Broken)
	}
	if len(after.Log) != total || after.Config.Last["l"] != last {
		t.Errorf("%d log lines and config l = %s, want %d and %s", len(after.Log), after.Config.Last["l"], total, last)
	}
	seen := map[string]bool{}
	for i, e := range after.Log {
		if e.Err != "" || e.ID != fmt.Sprintf("l-%03d", i+1) || seen[e.ID] {
			t.Errorf("log line %d: %q %s", i+1, e.ID, e.Err)
		}
		seen[e.ID] = true
	}
	if got, want := len(after.Problems["p-002"].Progresses), len(before.Problems["p-002"].Progresses)+procs*each; got != want {
		t.Errorf("p-002 has %d progresses, want %d: a change was lost", got, want)
	}
	if after.Statements.Get("s-014").Status != "true" {
		t.Errorf("the reviewer's confirmation was lost: s-014 is %q", after.Statements.Get("s-014").Status)
	}
	if final.shown.snap.Statements.Len() != after.Statements.Len() || final.shown.snap.Statements.Get("s-014").Status != "true" {
		t.Errorf("the workbench ends with %d statements (s-014 %q), the folder has %d",
			final.shown.snap.Statements.Len(), final.shown.snap.Statements.Get("s-014").Status, after.Statements.Len())
	}
	if v := final.shown.snap.Versions.Get("p-002"); v != after.Versions.Get("p-002") {
		t.Errorf("the workbench shows p-002 version %s, the file is %s", v, after.Versions.Get("p-002"))
	}
}
