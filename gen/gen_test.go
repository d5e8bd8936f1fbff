package gen_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"referee/gen"
	"referee/model"
	"referee/model/pyjson"
	"referee/store"
)

func generate(t *testing.T, cfg gen.Config) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "contents")
	if err := gen.Generate(dir, cfg); err != nil {
		t.Fatal(err)
	}
	return dir
}

// files reads every file under dir, by relative path.
func files(t *testing.T, dir string) map[string][]byte {
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

func TestSameSeedSameBytes(t *testing.T) {
	cfg := gen.Config{Statements: 800, Problems: 8, Seed: 7}
	a, b := files(t, generate(t, cfg)), files(t, generate(t, cfg))
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for path, data := range a {
		if !bytes.Equal(data, b[path]) {
			t.Fatalf("%s differs between two runs with the same seed", path)
		}
	}
	cfg.Seed = 8
	c := files(t, generate(t, cfg))
	same := 0
	for path, data := range c {
		if strings.HasPrefix(path, "statement/") && bytes.Equal(data, a[path]) {
			same++
		}
	}
	if same > 0 {
		t.Errorf("seed 8 wrote %d statement files identical to seed 7's", same)
	}
}

// statuses lists the statuses a vocabulary writes (FORMAT.md "Statuses").
var statuses = map[model.Vocab]struct{ statements, problems []string }{
	model.P013: {
		[]string{"pending", "awaiting_verification", "has_gap", "awaiting_substatements", "awaiting_substatement", "needs_modification", "true", "false"},
		[]string{"unresolved", "solved"},
	},
	model.P014: {
		[]string{"pending", "validating", "true", "false", "abandoned"},
		[]string{"unresolved", "resolved"},
	},
}

func TestGeneratedFolderIsValid(t *testing.T) {
	for _, vocab := range []model.Vocab{model.P013, model.P014} {
		t.Run(vocab.String(), func(t *testing.T) {
			const n, p = 1500, 15
			dir := generate(t, gen.Config{Statements: n, Problems: p, Seed: 3, Vocabulary: vocab})
			snap, err := store.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(snap.Broken) > 0 {
				t.Fatalf("broken files: %v", snap.Broken)
			}
			if snap.Statements.Len() != n || len(snap.Problems) != p {
				t.Fatalf("%d statements and %d problems, want %d and %d", snap.Statements.Len(), len(snap.Problems), n, p)
			}
			if snap.Vocab != vocab {
				t.Errorf("the folder reads as %s", snap.Vocab)
			}

			// Every status of the vocabulary, and no other.
			var gotS, gotP []string
			for _, st := range snap.Statements.All() {
				if !slices.Contains(gotS, st.Status) {
					gotS = append(gotS, st.Status)
				}
			}
			for _, pr := range snap.Problems {
				if !slices.Contains(gotP, pr.Status) {
					gotP = append(gotP, pr.Status)
				}
			}
			slices.Sort(gotS)
			slices.Sort(gotP)
			wantS, wantP := slices.Sorted(slices.Values(statuses[vocab].statements)), slices.Sorted(slices.Values(statuses[vocab].problems))
			if !slices.Equal(gotS, wantS) || !slices.Equal(gotP, wantP) {
				t.Errorf("statuses %v and %v, want %v and %v", gotS, gotP, wantS, wantP)
			}

			// check: no errors; the only warnings are the orphans (one per 1000 statements).
			findings, err := store.Check(dir)
			if err != nil {
				t.Fatal(err)
			}
			orphans := 0
			for _, f := range findings {
				if f.Severity == store.SeverityError || !strings.Contains(f.Msg, "nothing references it") {
					t.Errorf("check: %s: %s", f.Severity, f)
				} else {
					orphans++
				}
			}
			if orphans != n/1000 {
				t.Errorf("%d orphans, want %d", orphans, n/1000)
			}

			// The log and config agree: one line per change, l-001 … the counter, and each
			// backup is the object as an earlier change left it (it parses, same ID).
			if got, want := len(snap.Log), mustSeq(t, snap.Config.Last["l"]); got != want {
				t.Errorf("%d log lines, config.json says %s", got, snap.Config.Last["l"])
			}
			backups := 0
			for _, e := range snap.Log {
				for _, id := range e.Modification {
					data, err := os.ReadFile(filepath.Join(dir, "history", e.ID, id+".json"))
					if err != nil {
						t.Fatal(err)
					}
					doc, err := pyjson.Parse(data)
					if err != nil {
						t.Fatalf("backup %s/%s: %v", e.ID, id, err)
					}
					if got, _ := doc.Get("id"); got.Str != id {
						t.Fatalf("backup %s/%s holds %q", e.ID, id, got.Str)
					}
					if !bytes.Equal(pyjson.EncodeIndent(doc), data) {
						t.Fatalf("backup %s/%s is not json.dumps(indent=4) output", e.ID, id)
					}
					backups++
				}
			}
			if backups == 0 {
				t.Error("no backups")
			}

			// Proofs: 1–20 KB (a patch adds a sentence), inline math, steps, QED; threads parse.
			proofs := 0
			for id, st := range snap.Statements.All() {
				if st.Proof.Empty() {
					continue
				}
				proofs++
				full, err := st.Proof.Text()
				if err != nil {
					t.Fatal(err)
				}
				if len(full) < 1<<10 || len(full) > 20<<10+len(st.Responses)*200 {
					t.Errorf("%s: a proof of %d bytes", id, len(full))
				}
				if !strings.Contains(full, "$") || !strings.Contains(full, "\n\nStep 1: ") || !strings.HasSuffix(full, "\n\nQED.") {
					t.Errorf("%s: proof is not math with steps ending QED.: %.80q", id, full)
				}
				for _, is := range st.Issues {
					parsed := model.ParseIssue(is)
					if !parsed.Parsed {
						t.Errorf("%s: issue does not parse (%s): %s", id, parsed.Problem, is)
					}
				}
				for _, r := range st.Responses {
					if parsed := model.ParseResponse(r); !parsed.Parsed {
						t.Errorf("%s: response does not parse (%s): %s", id, parsed.Problem, r)
					}
				}
			}
			if proofs < n/3 {
				t.Errorf("only %d proofs", proofs)
			}
		})
	}
}

func mustSeq(t *testing.T, id string) int {
	t.Helper()
	n := 0
	for last := "l-000"; last != id; n++ {
		next, err := model.NextID(last)
		if err != nil || n > 1e7 {
			t.Fatalf("counter %q: %v", id, err)
		}
		last = next
	}
	return n
}

// depth is the longest chain of statements (through preliminaries) from s.
func depth(snap *model.Snapshot, id string) int {
	st := snap.Statements.Get(id)
	if st == nil {
		return 0
	}
	d := 0
	for _, sub := range st.Preliminaries {
		d = max(d, depth(snap, sub))
	}
	return d + 1
}

func TestDepthAndCounts(t *testing.T) {
	for _, c := range []struct{ n, p, depth int }{{1500, 15, 8}, {400, 4, 5}, {50, 10, 8}} {
		dir := generate(t, gen.Config{Statements: c.n, Problems: c.p, Seed: 11, MaxDepth: c.depth})
		snap, err := store.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if snap.Statements.Len() != c.n || len(snap.Problems) != c.p {
			t.Errorf("%+v: %d statements, %d problems", c, snap.Statements.Len(), len(snap.Problems))
		}
		deepest := 0
		for _, p := range snap.Problems {
			for _, item := range p.Progresses {
				id, _ := model.RefID(item)
				deepest = max(deepest, depth(snap, id))
			}
		}
		want := c.depth
		if c.n == 50 {
			want = min(want, deepest) // too small to reach the bound; only never beyond it
		}
		if deepest != want || deepest > c.depth {
			t.Errorf("%+v: the deepest chain under a problem is %d statements", c, deepest)
		}
		if g := model.Derive(snap); len(g.Cycles) > 0 || len(g.Dangling) > 0 {
			t.Errorf("%+v: cycles %v, dangling %v", c, g.Cycles, g.Dangling)
		}
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o644)
	if err := gen.Generate(dir, gen.Config{Statements: 10, Problems: 1}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("into a used folder: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(data) != "mine" {
		t.Error("a used folder was touched")
	}
	var ce *gen.ConfigError
	err := gen.Generate(filepath.Join(dir, "new"), gen.Config{Statements: 5, Problems: 10})
	if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), "5 statements cannot hold 10 problems (need at least ") {
		t.Errorf("too few statements: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a refused generation created its folder")
	}
}

// TestBackupsOfTheLastChanges: with Backups set, exactly the last changes keep their
// backups, and the older ones are log lines whose backups check reports missing.
func TestBackupsOfTheLastChanges(t *testing.T) {
	const keep = 40
	all := generate(t, gen.Config{Statements: 300, Problems: 3, Seed: 5, Backups: -1})
	dir := generate(t, gen.Config{Statements: 300, Problems: 3, Seed: 5, Backups: keep})
	snap, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	full, recent := files(t, all), files(t, dir)
	kept, gone := 0, 0
	for i, e := range snap.Log {
		for _, id := range e.Modification {
			path := "history/" + e.ID + "/" + id + ".json"
			data, ok := recent[path]
			switch {
			case i >= len(snap.Log)-keep && !ok:
				t.Errorf("change %d of %d (%s) is among the last %d but has no backup %s", i+1, len(snap.Log), e.ID, keep, path)
			case i < len(snap.Log)-keep && ok:
				t.Errorf("change %d of %d (%s) is older than the last %d but has a backup %s", i+1, len(snap.Log), e.ID, keep, path)
			case ok && !bytes.Equal(data, full[path]):
				t.Errorf("%s differs from the same folder with every backup", path)
			case ok:
				kept++
			default:
				gone++
			}
		}
	}
	if kept == 0 || gone == 0 {
		t.Fatalf("%d backups kept, %d not: the folder is too small for the test", kept, gone)
	}
	// Besides the backups, the two folders are the same bytes.
	for path, data := range full {
		if !strings.HasPrefix(path, "history/l-") && !bytes.Equal(data, recent[path]) {
			t.Errorf("%s differs between Backups %d and every backup", path, keep)
		}
	}
	findings, err := store.Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	for _, f := range findings {
		switch {
		case strings.Contains(f.Msg, "nothing references it"):
		case f.Severity == store.SeverityWarning && strings.Contains(f.Msg, "cannot be rewound"):
			missing++
		case f.Severity == store.SeverityWarning && strings.Contains(f.Msg, "backups of modified objects are missing"):
		default:
			t.Errorf("check: %s: %s", f.Severity, f)
		}
	}
	if missing == 0 {
		t.Error("check does not report the missing backups")
	}
}
