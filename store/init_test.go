package store

import (
	"errors"
	"os"
	"path/filepath"
	"referee/skill"
	"strings"
	"testing"
	"time"
)

func initOpts() Options {
	return Options{Actor: "human", Now: func() time.Time { return time.Date(2026, 1, 8, 12, 0, 0, 0, time.UTC) }}
}

func TestInitAndAddProblem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "contents")
	res, err := Init(dir, []string{"Find x"}, []string{"x > 1", "x < 3"}, initOpts())
	if err != nil {
		t.Fatal(err)
	}
	if res.Change != "l-001" || res.Skill != "init" || res.Actor != "human" || res.At != "2026-01-08T12:00:00Z" ||
		len(res.Modified) != 0 || len(res.Created) != 3 || res.Created[2] != "p-001" {
		t.Errorf("result %+v", res)
	}
	p, _ := os.ReadFile(filepath.Join(dir, "problem/p-001.json"))
	if want := "{\n    \"id\": \"p-001\",\n    \"hypothesis\": [\n        \"(s-001) x > 1\",\n        \"(s-002) x < 3\"\n    ],\n    \"objectives\": [\n        \"Find x\"\n    ],\n    \"status\": \"unresolved\",\n    \"priority\": \"\",\n    \"summary\": \"\",\n    \"progresses\": [],\n    \"preliminaries\": [],\n    \"solution\": {\n        \"cot\": [],\n        \"full\": \"\",\n        \"ref\": []\n    }\n}"; string(p) != want {
		t.Errorf("p-001:\n%s", p)
	}

	// A second Init is refused and writes nothing; AddProblem adds to the folder.
	before, _ := os.ReadFile(filepath.Join(dir, LogFile))
	_, err = Init(dir, []string{"Find y"}, nil, initOpts())
	var ne *NotEmptyError
	if !errors.As(err, &ne) || ne.What != ConfigFile {
		t.Fatalf("second Init: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, LogFile)); string(after) != string(before) {
		t.Error("a refused Init wrote to the log")
	}
	res, err = AddProblem(dir, []string{"Find y"}, nil, initOpts())
	if err != nil || res.Change != "l-002" || len(res.Created) != 1 || res.Created[0] != "p-002" {
		t.Fatalf("AddProblem: %+v %v", res, err)
	}
}

func TestInitRefusesAndValidates(t *testing.T) {
	var ie *skill.InputError
	if _, err := Init(t.TempDir(), nil, nil, initOpts()); !errors.As(err, &ie) {
		t.Errorf("no objective: %v", err)
	}
	if _, err := Init(t.TempDir(), []string{"ok"}, []string{"  "}, initOpts()); !errors.As(err, &ie) {
		t.Errorf("empty hypothesis: %v", err)
	}
	if _, err := Init(t.TempDir(), []string{"ok\xff"}, nil, initOpts()); !errors.As(err, &ie) {
		t.Errorf("invalid UTF-8: %v", err)
	}
	// A folder with objects and no config: refused before anything is created.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, StatementDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, StatementDir, "s-001.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ne *NotEmptyError
	if _, err := Init(dir, []string{"ok"}, nil, initOpts()); !errors.As(err, &ne) || ne.What != "statement/s-001.json" {
		t.Errorf("folder with objects: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, HistoryDir)); err == nil {
		t.Error("a refused Init created history/")
	}
	// A file where the folder should be.
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	if _, err := Init(file, []string{"ok"}, nil, initOpts()); !errors.As(err, &ie) {
		t.Errorf("file as folder: %v", err)
	}
}

// Init reads hypotheses as the agents' prob_init.py does (bytes from their script at
// d8d7638 on the same items): trimmed, an ID in front that names nothing on disk dropped
// (the batch's own new statements are not on disk yet); AddProblem refers to a statement
// that is there instead of copying it.
func TestInitNormalisesHypothesesAsTheAgents(t *testing.T) {
	dir := t.TempDir()
	if _, err := Init(dir, []string{"O1", " O2 "}, []string{"H one", " (s-001) two ", "Ünïcödé\u2028", "  pad  "}, initOpts()); err != nil {
		t.Fatal(err)
	}
	p := read(t, dir, "problem/p-001.json")
	if want := `"hypothesis": [
        "(s-001) H one",
        "(s-002) two",
        "(s-003) \u00dcn\u00efc\u00f6d\u00e9",
        "(s-004) pad"
    ],
    "objectives": [
        "O1",
        " O2 "
    ],`; !strings.Contains(p, want) {
		t.Errorf("p-001:\n%s\nwant\n%s", p, want)
	}
	for id, want := range map[string]string{"s-002": "two", "s-003": "Ünïcödé", "s-004": "pad"} {
		if got := statement(t, dir, id); len(got.Conclusion) != 1 || got.Conclusion[0] != want || got.Status != "true" || got.Type != "assumption" {
			t.Errorf("%s: %q %s %s", id, got.Conclusion, got.Status, got.Type)
		}
	}
	if _, err := AddProblem(dir, []string{"O3"}, []string{"(s-002) paraphrase", "new"}, initOpts()); err != nil {
		t.Fatal(err)
	}
	if p := read(t, dir, "problem/p-002.json"); !strings.Contains(p, `"hypothesis": [
        "(s-002) two",
        "(s-005) new"
    ],`) {
		t.Errorf("p-002:\n%s", p)
	}
}
