package store

import (
	"bufio"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/internal/testutil"
)

// Crash safety of rewinds and branch switches: a worker process rewinds the fixture to
// l-001 and undoes it, again and again (or switches between two lines), and is killed
// with SIGKILL at a random point. The folder only ever holds two states, A and B: after
// each kill every object file is its version in A or in B, and after repair the objects
// and counters are exactly A or exactly B.

const restoreWorkerEnv = "REFEREE_RESTORE_CRASH_WORKER"

func init() {
	v := os.Getenv(restoreWorkerEnv)
	if v == "" {
		return
	}
	mode, dir, _ := strings.Cut(v, ":")
	fmt.Println("ready")
	for {
		if err := restoreStep(mode, dir); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(3)
		}
	}
}

// restoreStep is the worker's next change, chosen from the log alone.
func restoreStep(mode, dir string) error {
	opts := Options{Actor: "crash-worker", Now: pinned}
	entries := ParseLog(string(mustRead(dir, LogFile)))
	last := entries[len(entries)-1]
	switch mode {
	case "rewind":
		if last.Skill == SkillRewind {
			_, err := Undo(dir, last.ID, opts)
			return err
		}
		_, err := Rewind(dir, "l-001", false, opts)
		return err
	case "save":
		// A save changes no object: its journal has none ("objects": []).
		if last.Skill == SkillBranchSave {
			_, err := Undo(dir, last.ID, opts)
			return err
		}
		// A new name each time: a save killed before its journal leaves its manifest (the
		// line is saved, the log does not say so), and a name saved is not saved again.
		_, err := BranchSave(dir, fmt.Sprintf("b-%d", time.Now().UnixNano()), opts)
		return err
	default:
		next := "main"
		if branchOf(entries) == "main" {
			next = "fix"
		}
		_, err := BranchSwitch(dir, next, false, opts)
		return err
	}
}

func mustRead(dir, rel string) []byte {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		panic(err)
	}
	return data
}

// objectsAndCounters is what a reader of the folder sees: object files by path, and the
// p, s and e counters under "counters".
func objectsAndCounters(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	for path, data := range tracked(t, dir) {
		if path != ConfigFile && !isTempName(filepath.Base(path)) {
			out[path] = string(data)
		}
	}
	snap := mustLoad(t, dir)
	out["counters"] = snap.Config.Last["p"] + " " + snap.Config.Last["s"] + " " + snap.Config.Last["e"]
	return out
}

func TestKilledMidRewind(t *testing.T)       { killRestores(t, "rewind") }
func TestKilledMidBranchSwitch(t *testing.T) { killRestores(t, "switch") }
func TestKilledMidBranchSave(t *testing.T)   { killRestores(t, "save") }

func killRestores(t *testing.T, mode string) {
	if testing.Short() {
		t.Skip("spawns and kills many processes")
	}
	kills := 30
	if s := os.Getenv("REFEREE_CRASH_KILLS"); s != "" {
		kills, _ = strconv.Atoi(s)
		kills = max(1, kills/3)
	}
	dir := testutil.Copy(t, fixtureDir)
	// The two states: A is the folder now, B the other one the worker goes to.
	if mode == "switch" {
		if _, err := BranchSave(dir, "fix", Options{}); err != nil {
			t.Fatal(err)
		}
		if _, err := Rewind(dir, "l-002", false, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	stateA := objectsAndCounters(t, dir)
	if err := restoreStep(mode, dir); err != nil {
		t.Fatal(err)
	}
	stateB := objectsAndCounters(t, dir)
	if maps.Equal(stateA, stateB) && mode != "save" {
		t.Fatal("the worker's two states are the same")
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 15))
	var completed, undone, clean int
	// A kill lands at random: on a loaded machine the first ones can all miss the
	// batches (the worker still starting, or reading). Rounds go on, up to ten times as
	// many, until one landed inside a change, so the test never passes without testing.
	inside := func() bool { return completed+undone > 0 || mode == "save" }
	round := 0
	for ; round < kills || (!inside() && round < 10*kills); round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), restoreWorkerEnv+"="+mode+":"+dir)
		out, _ := cmd.StdoutPipe()
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("round %d: the worker did not start: %q %v %s", round, line, err, stderr.String())
		}
		time.Sleep(time.Duration(rng.IntN(40000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: the worker ended by itself: %s", round, stderr.String())
		}
		for path, data := range tracked(t, dir) {
			if path == ConfigFile || isTempName(filepath.Base(path)) {
				continue // a temp file: readers never see it, repair removes it
			}
			if a, b := stateA[path], stateB[path]; string(data) != a && string(data) != b {
				t.Fatalf("round %d: %s is neither its version in one state nor the other:\n%s", round, path, data)
			}
		}
		rep, err := Repair(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Refused) > 0 {
			t.Fatalf("round %d: repair refused %v", round, rep.Refused)
		}
		kind := &clean
		for _, s := range rep.Done {
			switch {
			case strings.Contains(s.Msg, "added the line"):
				kind = &completed
			case strings.Contains(s.Msg, "undid it"):
				kind = &undone
			}
		}
		*kind++
		got := objectsAndCounters(t, dir)
		if !maps.Equal(got, stateA) && !maps.Equal(got, stateB) {
			t.Fatalf("round %d: after repair (%v) the folder is neither state", round, rep.Done)
		}
		if findings, err := Check(dir); err != nil || countErrors(findings, "") > 0 {
			t.Fatalf("round %d: check after repair: %v %v", round, findings, err)
		}
		agentsRead(t, dir)
	}
	t.Logf("%s: %d kills; repair completed %d changes, undid %d; %d kills needed no change repaired; every object was one state or the other",
		mode, round, completed, undone, clean)
	// A save's journal stands for a moment only (TestCrashLoopEveryChange stops it at
	// each point): its kills check that repair never refuses what a save leaves.
	if !inside() {
		t.Errorf("none of %d kills landed inside a change batch: the test did not test", round)
	}
	if mode == "switch" {
		// The next save removes what killed saves left in the store.
		if err := restoreStep(mode, dir); err != nil {
			t.Fatal(err)
		}
		filepath.WalkDir(filepath.Join(dir, BranchDir), func(path string, d os.DirEntry, err error) error {
			if err == nil && isTempName(d.Name()) {
				t.Errorf("a temp file is left in the branch store: %s", path)
			}
			return nil
		})
	}
}
