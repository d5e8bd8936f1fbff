package store

import (
	"os"
	"path/filepath"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// fuzzFolder writes a small contents folder: the fixture's config, log, problem and one
// assumption, and the given files over them.
func fuzzFolder(t *testing.T, files map[string][]byte) string {
	testutil.Need(t, fixtureDir)
	dir := t.TempDir()
	for _, sub := range []string{"problem", "statement", "history"} {
		os.Mkdir(filepath.Join(dir, sub), 0o755)
	}
	base := map[string][]byte{}
	for _, rel := range []string{ConfigFile, LogFile, "problem/p-001.json", "statement/s-001.json"} {
		data, err := os.ReadFile(filepath.Join(fixtureDir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		base[rel] = data
	}
	for rel, data := range files {
		base[rel] = data
	}
	for rel, data := range base {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FuzzLoad: any bytes as a statement file: loading, deriving, checking and a skill on it
// never panic; what the skill writes parses.
func FuzzLoad(f *testing.F) {
	testutil.Need(f, fixtureDir)
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "statement", "*.json"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	for _, h := range hostileFiles {
		if len(h.data) < 8<<10 { // large inputs slow the fuzzer down to a crawl
			f.Add([]byte(h.data))
		}
	}
	f.Add([]byte(`{"id": "s-050", "status": "pending", "validation": [], "stats": 1, "proof": "x", "progresses": "y"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := fuzzFolder(t, map[string][]byte{"statement/s-050.json": data})
		snap, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		model.Derive(snap)
		if _, err := Check(dir); err != nil {
			t.Fatal(err)
		}
		if snap.Statements.Get("s-050") == nil {
			return // a skill would wait out readStable's retries, then refuse
		}
		abandon, _ := skill.Lookup("abandon")
		if _, err := Run(dir, abandon, skill.Args{"statement_id": "s-050", "reason": "fuzz"}, Options{Actor: "fuzz"}); err == nil {
			written, _ := os.ReadFile(filepath.Join(dir, "statement", "s-050.json"))
			if _, err := pyjson.Parse(written); err != nil {
				t.Fatalf("the skill wrote a file that does not parse: %v", err)
			}
		}
	})
}

// FuzzCheck: any config.json, log, problem and change journal: check and repair never
// panic, and a second repair has nothing left to do that the first did.
func FuzzCheck(f *testing.F) {
	testutil.Need(f, fixtureDir)
	read := func(rel string) []byte {
		data, _ := os.ReadFile(filepath.Join(fixtureDir, filepath.FromSlash(rel)))
		return data
	}
	b := &batch{change: "l-007", configBefore: read(ConfigFile), config: read(ConfigFile),
		line:    []byte(`{"l-007": {"creation": ["s-008"], "modification": ["p-001"]}, "current": ["p-001", "s-008", "e-000"]}`),
		objects: []batchObject{{id: "s-008", after: []byte("{}"), created: true}, {id: "p-001", before: read("problem/p-001.json"), after: []byte("{}")}}}
	f.Add(read(ConfigFile), read(LogFile), read("problem/p-001.json"), b.journal())
	f.Add([]byte(`{"l": "l-009", "s": "s-099"}`), []byte("{\"l-001\": {}}\nnot json\n"), []byte(`{"preliminaries": ["../x"]}`), []byte(`{"change": "l-007"}`))
	f.Fuzz(func(t *testing.T, config, log, problem, journal []byte) {
		dir := fuzzFolder(t, map[string][]byte{ConfigFile: config, LogFile: log, "problem/p-001.json": problem,
			journalFile("l-007"): journal})
		if _, err := Check(dir); err != nil {
			t.Fatal(err)
		}
		if _, err := Repair(dir, true); err != nil {
			t.Fatal(err)
		}
		first, err := Repair(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Repair(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range again.Done {
			for _, d := range first.Done {
				if s == d {
					t.Fatalf("repair did %q twice", s)
				}
			}
		}
	})
}
