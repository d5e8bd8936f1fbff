package store

import (
	"bufio"
	"fmt"
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
	"referee/model"
	"referee/skill"
)

// Crash safety, for real: a worker process runs skills on a folder and is killed with
// SIGKILL after a random short delay, hundreds of times. The worker's changes are a
// fixed function of the log (crashStep), so the test replays them in a reference folder
// and knows every state the folder may be in: after each kill every object file is the
// version before or after the change that was under way, never a mix; check explains
// whatever the kill left; repair refuses nothing, and afterwards the whole folder (every
// file, the log, the backups, config.json) is exactly the reference after n changes.
//
// REFEREE_CRASH_KILLS sets the number of kills (default 200, a few seconds).

const crashWorkerEnv = "REFEREE_CRASH_WORKER"

func init() {
	// The test binary re-executed as the worker: change the folder until killed.
	if dir := os.Getenv(crashWorkerEnv); dir != "" {
		fmt.Println("ready")
		for {
			if _, err := crashStep(dir); err != nil {
				fmt.Fprintln(os.Stderr, "worker:", err)
				os.Exit(3)
			}
		}
	}
}

// crashBaseLines is the log length of the folder the workers start from.
const crashBaseLines = 6

// crashStep makes the next change of the worker's cycle, chosen from the log alone:
// a wrap-up (creates a statement, modifies p-001), a proof of it, another wrap-up, the
// undo of that one (restores p-001, deletes the statement), and abandoning the first.
func crashStep(dir string) (*Result, error) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(LogFile)))
	if err != nil {
		return nil, err
	}
	log := ParseLog(string(data))
	n := len(log) - crashBaseLines
	opts := Options{Actor: "crash-worker", Now: pinned}
	run := func(name string, a skill.Args) (*Result, error) {
		s, _ := skill.Lookup(name)
		return Run(dir, s, a, opts)
	}
	switch n % 5 {
	case 0, 2:
		return run("prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{fmt.Sprintf("claim %d", n)}})
	case 1:
		return run("state-complete-proof", skill.Args{"statement_id": log[len(log)-1].Creation[0],
			"proof_text": fmt.Sprintf("Step 1: by claim %d. QED.", n), "strategy": "direct"})
	case 3:
		return Undo(dir, log[len(log)-1].ID, opts)
	default:
		return run("abandon", skill.Args{"statement_id": log[len(log)-4].Creation[0], "reason": fmt.Sprintf("step %d", n)})
	}
}

// crashReference is the worker's cycle replayed without kills: every version of every
// path, by the number of changes after which it holds.
type crashReference struct {
	t        *testing.T
	dir      string
	steps    int
	versions map[string][]crashVersion
}

type crashVersion struct {
	step int
	data string // "" with gone
	gone bool
}

func newCrashReference(t *testing.T, start string) *crashReference {
	r := &crashReference{t: t, dir: testutil.Copy(t, start), versions: map[string][]crashVersion{}}
	for path, data := range folderState(t, r.dir) {
		r.versions[path] = []crashVersion{{step: 0, data: data}}
	}
	return r
}

// extend replays changes until the reference has n.
func (r *crashReference) extend(n int) {
	for r.steps < n {
		res, err := crashStep(r.dir)
		if err != nil {
			r.t.Fatalf("reference step %d: %v", r.steps+1, err)
		}
		r.steps++
		paths := []string{ConfigFile, LogFile}
		for _, id := range append(append(append([]string{}, res.Created...), res.Modified...), res.Deleted...) {
			paths = append(paths, filepath.ToSlash(objectFile(id)))
		}
		for _, id := range append(append([]string{}, res.Modified...), res.Deleted...) {
			paths = append(paths, HistoryDir+"/"+res.Change+"/", HistoryDir+"/"+res.Change+"/"+id+".json")
		}
		for _, p := range paths {
			v := crashVersion{step: r.steps}
			if strings.HasSuffix(p, "/") {
				v.gone = false
			} else if data, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(p))); err == nil {
				v.data = string(data)
			} else {
				v.gone = true
			}
			r.versions[p] = append(r.versions[p], v)
		}
	}
}

// at is the content of a path after n changes; ok is false when it does not exist.
func (r *crashReference) at(path string, n int) (string, bool) {
	vs := r.versions[path]
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].step <= n {
			return vs[i].data, !vs[i].gone
		}
	}
	return "", false
}

// state is the whole folder after n changes.
func (r *crashReference) state(n int) map[string]string {
	out := map[string]string{}
	for path := range r.versions {
		if data, ok := r.at(path, n); ok {
			out[path] = data
		}
	}
	return out
}

func logLines(t *testing.T, dir string) int {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(LogFile)))
	if err != nil {
		t.Fatal(err)
	}
	return len(ParseLog(string(data)))
}

func TestKilledMidChange(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns and kills hundreds of processes")
	}
	kills := 200
	if s := os.Getenv("REFEREE_CRASH_KILLS"); s != "" {
		kills, _ = strconv.Atoi(s)
	}
	dir := openProblemFolder(t)
	ref := newCrashReference(t, dir)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 5))
	var stats struct{ clean, temps, completed, undone, journalOnly, changes int }
	for round := 0; round < kills; round++ {
		linesBefore := logLines(t, dir)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashWorkerEnv+"="+dir)
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
		time.Sleep(time.Duration(rng.IntN(15000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: the worker ended by itself: %v %s", round, err, stderr.String())
		}

		// Before repair: every object and backup is its version before or after the change
		// that was under way.
		n := logLines(t, dir) - crashBaseLines
		ref.extend(n + 1)
		crashed := folderState(t, dir)
		for path, data := range crashed {
			if _, _, isObject := objectPath(path); !isObject && !strings.HasPrefix(path, HistoryDir+"/l-") {
				continue
			}
			if strings.HasSuffix(path, "/") || isTempName(filepath.Base(path)) {
				continue
			}
			old, _ := ref.at(path, n)
			next, _ := ref.at(path, n+1)
			if data != old && data != next {
				t.Fatalf("round %d: %s is neither its version after change %d nor after %d:\n%s", round, path, n, n+1, data)
			}
		}
		for path := range ref.state(n) {
			if _, _, isObject := objectPath(path); isObject {
				if _, ok := crashed[path]; !ok {
					if _, ok := ref.at(path, n+1); ok {
						t.Fatalf("round %d: %s is missing", round, path)
					}
				}
			}
		}
		// check explains what the kill left.
		leftover := diffStates(crashed, ref.state(n))
		if len(leftover) > 0 {
			findings, err := Check(dir)
			if err != nil {
				t.Fatal(err)
			}
			explained := false
			for _, f := range findings {
				explained = explained || isInterruption(f)
			}
			if !explained {
				t.Fatalf("round %d: the kill left %v and check does not explain it: %v", round, leftover, findings)
			}
		}
		rep, err := Repair(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Refused) > 0 {
			t.Fatalf("round %d: repair refused %v", round, rep.Refused)
		}
		kind := "clean"
		for _, s := range rep.Done {
			switch {
			case strings.Contains(s.Msg, "added the line"):
				kind = "completed"
			case strings.Contains(s.Msg, "undid it"):
				kind = "undone"
			case strings.Contains(s.Msg, "which is complete") && kind != "completed" && kind != "undone":
				kind = "journal"
			case kind == "clean":
				kind = "temps"
			}
		}
		switch kind {
		case "clean":
			stats.clean++
		case "temps":
			stats.temps++
		case "completed":
			stats.completed++
		case "undone":
			stats.undone++
		case "journal":
			stats.journalOnly++
		}
		// After repair: exactly the reference after m changes.
		m := logLines(t, dir) - crashBaseLines
		ref.extend(m)
		if d := diffStates(folderState(t, dir), ref.state(m)); len(d) > 0 {
			t.Fatalf("round %d: after repair (%v) the folder differs from the reference after %d changes in %v", round, rep.Done, m, d)
		}
		stats.changes += m + crashBaseLines - linesBefore
	}
	t.Logf("%d kills: %d changes kept; the kill left nothing %d times, only temp files %d, a complete change's journal %d; repair completed %d changes and undid %d; nothing lost or mixed",
		kills, stats.changes, stats.clean, stats.temps, stats.journalOnly, stats.completed, stats.undone)
	if stats.completed+stats.undone == 0 {
		t.Errorf("no kill landed inside a change batch (%+v): the test did not test", stats)
	}
	// The last state passes check without an error.
	findings, _ := Check(dir)
	for _, f := range findings {
		if f.Severity == SeverityError {
			t.Errorf("check: %s", f)
		}
	}
	_ = model.Version
}
