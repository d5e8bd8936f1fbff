package store

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/skill"
)

// TestMain lets the test binary act as a worker process for the concurrency test.
func TestMain(m *testing.M) {
	if dir := os.Getenv("REFEREE_TEST_WORKER_DIR"); dir != "" {
		os.Exit(worker(dir, os.Getenv("REFEREE_TEST_WORKER_NAME")))
	}
	os.Exit(m.Run())
}

// worker makes wrap-up statements and undecided-statement changes, as an agent would.
func worker(dir, name string) int {
	n, _ := strconv.Atoi(os.Getenv("REFEREE_TEST_WORKER_N"))
	wrap, _ := skill.Lookup("prob-wrapup-statement")
	for i := range n {
		res, err := Run(dir, wrap, skill.Args{"problem_id": "p-001", "claim": []string{fmt.Sprintf("%s claim %d", name, i)}}, Options{Actor: name})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		proof, _ := skill.Lookup("state-complete-proof")
		if _, err := Run(dir, proof, skill.Args{"statement_id": res.Created[0], "proof_text": "Step 1: trivial. QED.", "strategy": "direct"}, Options{Actor: name}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// Several processes at once, each running many skills on one folder: no lost change,
// no reused ID, log and config agree, every file valid.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	const procs, each = 4, 15
	var wg sync.WaitGroup
	errs := make([]string, procs)
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "REFEREE_TEST_WORKER_DIR="+dir,
				fmt.Sprintf("REFEREE_TEST_WORKER_NAME=agent-%d", p), fmt.Sprintf("REFEREE_TEST_WORKER_N=%d", each))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[p] = fmt.Sprintf("worker %d: %v: %s", p, err, out)
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}

	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Broken) > 0 {
		t.Fatalf("broken files: %+v", snap.Broken)
	}
	total := procs * each
	if got := snap.Statements.Len(); got != 7+total {
		t.Errorf("%d statements, want %d", got, 7+total)
	}
	// Every claim made exactly once, each statement linked once, each proved once.
	p := snap.Problems["p-001"]
	if len(p.Progresses) != total {
		t.Errorf("p-001 has %d progresses, want %d (lost updates)", len(p.Progresses), total)
	}
	linked := map[string]bool{}
	for _, item := range p.Progresses {
		id, _ := model.RefID(item)
		if linked[id] {
			t.Errorf("%s linked twice", id)
		}
		linked[id] = true
		if st := snap.Statements.Get(id); st == nil || st.Status != "validating" || "("+id+") "+st.Claim() != item {
			t.Errorf("%s: %+v does not match %q", id, st, item)
		}
	}
	// Log: one line per change, IDs consecutive, config agrees.
	if got := len(snap.Log); got != 6+2*total {
		t.Errorf("%d log lines, want %d", got, 6+2*total)
	}
	for i, e := range snap.Log {
		if e.Err != "" || e.ID != fmt.Sprintf("l-%03d", i+1) {
			t.Errorf("log line %d: %s %s", i+1, e.ID, e.Err)
		}
	}
	wantL := fmt.Sprintf("l-%03d", 6+2*total)
	wantS := fmt.Sprintf("s-%03d", 7+total)
	if snap.Config.Last["l"] != wantL || snap.Config.Last["s"] != wantS {
		t.Errorf("config %v, want l %s and s %s", snap.Config.Last, wantL, wantS)
	}
	// Each proof change backed up the statement as the wrap-up created it.
	for _, e := range snap.Log[6:] {
		for _, id := range e.Modification {
			if _, err := os.Stat(filepath.Join(dir, "history", e.ID, id+".json")); err != nil {
				t.Errorf("%s: no backup of %s", e.ID, id)
			}
		}
	}
	// No temp files left behind.
	matches, _ := filepath.Glob(filepath.Join(dir, "*", ".*.tmp-*"))
	if len(matches) > 0 {
		t.Errorf("temp files left: %s", strings.Join(matches, ", "))
	}
}
