package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"referee/internal/testutil"
)

// The conformance replay (fixtures/mra-conformance in the shared folder): skill calls, and after each
// the problem and statement files exactly as the agents' own scripts at d8d7638 left them.
// Every call goes through `referee skill NAME --params -`, as an agent would call it, and
// after each the folder's problem/ and statement/ files and config.json's p, s and e
// counters must be byte for byte what the scripts wrote. The log and the backups differ by
// design: the scripts write one to three changes per skill, referee one.

var conformance = testutil.Path("fixtures/mra-conformance")

type conformanceCall struct {
	Skill  string          `json:"skill"`
	Params json.RawMessage `json:"params"`
	After  string          `json:"after"`
}

func TestConformanceReplay(t *testing.T) {
	subtests := testutil.NewSubtests(t)
	defer subtests.Done()
	for _, seq := range []string{"fresh", "knights-final"} {
		subtests.Run(seq, func(t *testing.T) {
			base := filepath.Join(conformance, seq)
			if _, err := os.Stat(base); err != nil {
				t.Skipf("no conformance data at %s (the shared folder is not beside the project): %v", base, err)
			}
			root := t.TempDir()
			dir := filepath.Join(root, "contents")
			testutil.CopyTree(t, filepath.Join(base, "start"), dir)
			f, err := os.Open(filepath.Join(base, "calls.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			for n := 1; sc.Scan(); n++ {
				var call conformanceCall
				if err := json.Unmarshal(sc.Bytes(), &call); err != nil {
					t.Fatalf("calls.jsonl line %d: %v", n, err)
				}
				out := referee(t, root, string(call.Params), "skill", call.Skill, "--params", "-")
				if out.code != 0 {
					t.Fatalf("%s: exit %d: %s", call.After, out.code, out.stderr)
				}
				compareAfter(t, call.After, dir, filepath.Join(base, "after", call.After))
				if t.Failed() {
					t.FailNow() // later steps only repeat the first difference
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// compareAfter compares problem/, statement/ and config.json's p, s, e counters.
func compareAfter(t *testing.T, step, got, want string) {
	t.Helper()
	for _, sub := range []string{"problem", "statement"} {
		g := testutil.Files(t, filepath.Join(got, sub))
		w := testutil.Files(t, filepath.Join(want, sub))
		for name, wb := range w {
			gb, ok := g[name]
			switch {
			case !ok:
				t.Errorf("%s: %s/%s missing", step, sub, name)
			case gb != wb:
				t.Errorf("%s: %s/%s differs:\n%s\nwant:\n%s", step, sub, name, gb, wb)
			}
		}
		for name := range g {
			if _, ok := w[name]; !ok {
				t.Errorf("%s: %s/%s: unexpected file", step, sub, name)
			}
		}
	}
	var gc, wc map[string]string
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(got, "config.json"))), &gc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(want, "config.json"))), &wc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"p", "s", "e"} {
		if gc[k] != wc[k] {
			t.Errorf("%s: config.json %q = %q, want %q", step, k, gc[k], wc[k])
		}
	}
}
