package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"referee/model"
	"referee/store"
)

// Several referee processes change one folder at once, as several agents do: no change
// is lost, no ID is issued twice, and the folder checks clean.
func TestConcurrentCLIProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	root := copyFixture(t)
	c := filepath.Join(root, "contents")
	writeFile(t, filepath.Join(c, "problem", "p-001.json"), readFile(t, filepath.Join(fixture, "history", "l-003", "p-001.json")))
	const procs, each = 6, 8
	type made struct{ change, created, claim string }
	var mu sync.Mutex
	var results []made
	var changes []string
	var failures []string
	var wg sync.WaitGroup
	call := func(args ...string) (*store.Result, error) {
		cmd := exec.Command(binary, append(args, "--contents", c, "--output", "json")...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
		out, err := cmd.Output()
		if err != nil {
			msg := ""
			if ee, ok := err.(*exec.ExitError); ok {
				msg = string(ee.Stderr)
			}
			return nil, fmt.Errorf("%v: %v %s", args, err, msg)
		}
		var res store.Result
		if err := json.Unmarshal(out, &res); err != nil {
			return nil, err
		}
		return &res, nil
	}
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				claim := fmt.Sprintf("agent-%d claim %d", p, i)
				res, err := call("skill", "prob-wrapup-statement", "--problem-id", "p-001", "--claim", claim, "--actor", fmt.Sprintf("agent-%d", p))
				if err != nil {
					mu.Lock()
					failures = append(failures, err.Error())
					mu.Unlock()
					return
				}
				proof, err := call("skill", "state-complete-proof", "--statement-id", res.Created[0], "--proof-text", "Step 1: by "+claim+". QED.", "--strategy", "direct")
				mu.Lock()
				if err != nil {
					failures = append(failures, err.Error())
				} else {
					results = append(results, made{res.Change, res.Created[0], claim})
					changes = append(changes, res.Change, proof.Change)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d calls failed: %s", len(failures), strings.Join(failures, "\n"))
	}
	total := procs * each
	// No reused ID: every change and every statement has its own.
	slices.SortFunc(changes, model.CompareIDs)
	if len(slices.Compact(slices.Clone(changes))) != 2*total {
		t.Errorf("change IDs issued twice: %v", changes)
	}
	for i, id := range changes {
		if want := fmt.Sprintf("l-%03d", 7+i); id != want {
			t.Fatalf("changes %v: %s where %s was due", changes, id, want)
		}
	}
	snap, err := store.Load(c)
	if err != nil || len(snap.Broken) > 0 {
		t.Fatalf("%v %v", err, snap.Broken)
	}
	// No lost change: every claim is linked from p-001 once, each statement proved.
	progresses := snap.Problems["p-001"].Progresses
	if len(progresses) != total {
		t.Errorf("p-001 has %d progresses, want %d", len(progresses), total)
	}
	for _, r := range results {
		if !slices.Contains(progresses, "("+r.created+") "+r.claim) {
			t.Errorf("%s (%q) is not linked from p-001", r.created, r.claim)
		}
		if st := snap.Statements.Get(r.created); st == nil || st.Claim() != r.claim || st.Proof.Empty() {
			t.Errorf("%s: %+v", r.created, st)
		}
	}
	if len(snap.Log) != 6+2*total || snap.Config.Last["l"] != changes[len(changes)-1] || snap.Config.Last["s"] != fmt.Sprintf("s-%03d", 7+total) {
		t.Errorf("%d log lines, config %v", len(snap.Log), snap.Config.Last)
	}
	// (s-007 lost its link when p-001 was set back to its l-003 version above.)
	referee(t, root, "", "check").want(t, 0, "warning: statement/s-007.json: s-007: nothing references it (did an agent stop between creating and linking it?)\n0 errors, 1 warning\n", "")
}
