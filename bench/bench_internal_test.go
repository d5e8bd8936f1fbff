package bench

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/model"
	"referee/model/pyjson"
	"referee/store"
)

// small generates a folder of n statements in the test's own temporary folder, as
// Folder does, so that tests do not touch the benchmarks' cache.
func small(t *testing.T, n int) string {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	dir, err := Folder(n, 3)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func python(t *testing.T) *Python {
	t.Helper()
	py, err := FindPython("python3")
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	t.Cleanup(py.Close)
	return py
}

// The skill loop changes its work copy and never the cached folder it was copied from
// (the copy shares the object files by hard links), and the agents' script makes the
// very same update: the statement, the config and the backups come out byte for byte
// as referee writes them.
func TestSkillLoopsMakeTheSameUpdate(t *testing.T) {
	cached := small(t, 400)
	before := tree(t, cached)
	py := python(t)

	ours, err := NewSkillLoop(cached)
	if err != nil {
		t.Fatal(err)
	}
	defer ours.Close()
	theirs, err := NewSkillLoop(cached)
	if err != nil {
		t.Fatal(err)
	}
	defer theirs.Close()
	for range 4 { // reject, patch, reject, patch
		if err := ours.InProcess(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := py.Skill(theirs); err != nil {
			t.Fatal(err)
		}
	}

	if after := tree(t, cached); len(after) != len(before) {
		t.Fatalf("the cached folder has %d files, it had %d", len(after), len(before))
	} else {
		for path, data := range before {
			if !bytes.Equal(after[path], data) {
				t.Fatalf("the loops changed the cached folder's %s", path)
			}
		}
	}
	a, b := tree(t, ours.Dir), tree(t, theirs.Dir)
	st := ours.c.path
	if bytes.Equal(a[st], before[st]) {
		t.Fatalf("%s did not change", st)
	}
	for path, data := range a {
		if path == store.LogFile || strings.HasPrefix(path, "history/.") {
			continue // referee's log lines say who and when; its lock file is its own
		}
		if !bytes.Equal(data, b[path]) {
			t.Errorf("%s differs between referee and the agents' script:\n%s\n---\n%s", path, data, b[path])
		}
	}
	for path := range b {
		if _, ok := a[path]; !ok && path != store.LogFile {
			t.Errorf("the agents' script wrote %s, referee did not", path)
		}
	}
	doc, _ := pyjson.Parse(a[st])
	got := model.StatementFrom(doc)
	if len(got.Issues) != ours.c.issues+2 || len(got.Responses) != ours.c.responses+2 || got.Status != "awaiting_verification" {
		t.Errorf("after the loop: %d issues, %d responses, status %s", len(got.Issues), len(got.Responses), got.Status)
	}
	if n := bytes.Count(b[store.LogFile], []byte("\n")) - bytes.Count(before[store.LogFile], []byte("\n")); n != 4 {
		t.Errorf("the script appended %d log lines, want 4", n)
	}
}

// ReloadCase updates the graph as the workbench does, and the graph it gives is the one
// a full derive of the reloaded folder gives, version after version, without deriving
// in full (a progress note keeps the links); the cached folder is left as it was.
func TestReloadCaseUpdatesTheGraph(t *testing.T) {
	cached := small(t, 300)
	before := tree(t, cached)
	r, err := NewReloadCase(cached)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range 3 {
		if err := r.Change(); err != nil {
			t.Fatal(err)
		}
		g, relinked, err := r.Reload()
		if err != nil {
			t.Fatal(err)
		}
		snap, err := store.Load(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := r.snap.Versions.Get(r.id), snap.Versions.Get(r.id); got != want {
			t.Fatalf("change %d: %s is at version %s, the file at %s", i+1, r.id, got, want)
		}
		if relinked {
			t.Errorf("change %d: a progress note derived the graph in full", i+1)
		}
		if want := model.Derive(r.snap); !reflect.DeepEqual(g.Plain(), want.Plain()) { // Plain: what a graph says, not how it is kept
			t.Errorf("change %d: the updated graph differs from a derive of the same snapshot", i+1)
		}
	}
	if after := tree(t, cached); len(after) != len(before) {
		t.Fatalf("the cached folder has %d files, it had %d", len(after), len(before))
	} else {
		for path, data := range before {
			if !bytes.Equal(after[path], data) {
				t.Errorf("the reloads changed the cached folder's %s", path)
			}
		}
	}
}

// The Python loader reads what the agents' status tool reads: every object and the log
// (referee status reads no log); the read floor reads the bytes referee status reads.
func TestPythonLoaderReadsTheFolder(t *testing.T) {
	dir := small(t, 300)
	py := python(t)
	r, err := py.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Objects != snap.Statements.Len()+len(snap.Problems) || r.Log != len(snap.Log) || r.Log < 300 || r.Seconds <= 0 {
		t.Errorf("python read %+v; the snapshot has %d statements, %d problems, %d log lines",
			r, snap.Statements.Len(), len(snap.Problems), len(snap.Log))
	}
	size, err := ReadFloor(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for path, data := range tree(t, dir) {
		if !strings.HasPrefix(path, "history/") {
			want += int64(len(data))
		}
	}
	if size != want {
		t.Errorf("the read floor read %d bytes, the folder's objects and config are %d", size, want)
	}
	if status, _, _ := LoadDerive(dir); status == nil || len(status.Log) != 0 || status.Statements.Len() != snap.Statements.Len() {
		t.Error("LoadDerive does not load what status loads: the objects, no log")
	}
}

// Run prints one table with every row, timed; without Python and without a binary the
// peers' cells say so instead. A speed goal may be met or not (✓ or ✗): go test judges
// the table's shape, never a duration.
func TestRunPrintsTheTable(t *testing.T) {
	small(t, 200) // sets TMPDIR: Run generates its folder there
	var out, progress bytes.Buffer
	if err := Run(&out, Options{Sizes: []int{200}, Seed: 3, Budget: time.Millisecond, Progress: &progress}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	const d = `\d+(\.\d+)? (µs|ms|s)` // a duration
	want := []string{
		`^referee-bench: seed 3, \d+ CPUs, go\S+ \w+/\w+$`,
		`^times are medians of repeated runs, page cache warm; ratios compare columns of the same run$`,
		`^python: left out$`,
		`^$`,
		`^work +referee +python \(agents\) +read floor +goal$`,
		`^load \+ derive, 200 statements +` + d + ` +— +` + d + ` +python/referee —, referee/floor \d+\.\d×$`,
		`^reload 1 changed file \+ graph update, 200 +` + d + ` +— +` + d + ` +python reads all again: —$`,
		`^memory after load \+ derive, 200 +\d+\.\d KiB/st +— +\d+\.\d KiB/st disk +heap \d+ MiB; at 100k \d+\.\d\d GiB \(<1 GiB\) [✓✗]$`,
		`^skill call \(reject, patch\) in process, 200 +` + d + ` +— +— +python/referee — \(referee locks and fsyncs; python does neither\)$`,
		`^first frame \(load progress\), 200 +` + d + ` +— +— +\(goal ≤150 ms at 10,000\)$`,
		`^  first frame with the tree, same runs +` + d + ` +— +— +\(goal ≤150 ms at 10,000\)$`,
		`^keypress \(j\) → frame, 200 statements +` + d + ` +— +— +\(goal ≤2 ms at 100,000\)$`,
		`^agent's write → frame, 200: p99 +` + d + ` +— +— +\(goal ≤50 ms p99 at 10,000\)$`,
		`^  mean of the same writes +` + d + ` +— +—$`,
		`^agent's write → watcher → frame, 200: p99 +` + d + ` +— +— +\(goal ≤50 ms p99 at 10,000\)$`,
		`^  mean of the same writes +` + d + ` +— +—$`,
		`^transcript line → runs pane, 50 MB: max +` + d + ` +— +— +≤200 ms [✓✗]$`,
		`^following a 50 MB transcript: CPU +\d+\.\d% CPU +— +— +≤5% of one core [✓✗]$`,
		`^proof render 2 KB, cold +` + d + ` +— +— +off the UI goroutine ✓$`,
		`^  cached +` + d + ` +— +— +once per \(hash, width, theme\) ✓$`,
		`^proof render 20 KB, cold +` + d + ` +— +— +off the UI goroutine ✓$`,
		`^  cached +` + d + ` +— +— +once per \(hash, width, theme\) ✓$`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, pattern := range want {
		if !regexp.MustCompile(pattern).MatchString(lines[i]) {
			t.Errorf("line %d:\n%s\ndoes not match\n%s", i+1, lines[i], pattern)
		}
	}
	if !strings.Contains(progress.String(), "preparing a folder of 200 statements") {
		t.Errorf("progress: %q", progress.String())
	}
}

// The process rows run the binary: a skill call through it changes the work copy as
// store.Run does.
func TestSkillLoopCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	cached := small(t, 300)
	bin := filepath.Join(t.TempDir(), "referee")
	if out, err := exec.Command("go", "build", "-o", bin, "referee/cmd/referee").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	l, err := NewSkillLoop(cached)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for range 2 {
		if out, err := l.Command(bin).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	snap, err := store.Load(l.Dir)
	if err != nil {
		t.Fatal(err)
	}
	st := snap.Statements.Get(l.c.id)
	if len(st.Issues) != l.c.issues+1 || len(st.Responses) != l.c.responses+1 || len(snap.Log) < 2 || snap.Log[len(snap.Log)-1].Skill != "fix-patch-proof" {
		t.Errorf("after a reject and a patch: %d issues, %d responses, last change %+v", len(st.Issues), len(st.Responses), snap.Log[len(snap.Log)-1])
	}
}
