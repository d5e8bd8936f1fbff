package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// `referee status`'s next list must be the agents' orchestrator's: the set src/current.py
// at d8d7638 prints (actionable problems for agent-solve, actionable statements for
// agent-prove when pending and, when validating, agent-fix / agent-check by the counts, or
// a human for more responses than issues). orchestratorNext restates its rules on the raw
// JSON, independent of referee's model.

type rawObject map[string]any

func (o rawObject) str(key string) string { s, _ := o[key].(string); return s }

func (o rawObject) list(key string) []any { l, _ := o[key].([]any); return l }

func (o rawObject) count(outer, key string) int {
	m, _ := o[outer].(map[string]any)
	l, _ := m[key].([]any)
	return len(l)
}

func loadRaw(t *testing.T, dir, sub string) map[string]rawObject {
	t.Helper()
	out := map[string]rawObject{}
	names, _ := filepath.Glob(filepath.Join(dir, sub, "*.json"))
	for _, n := range names {
		var o rawObject
		if err := json.Unmarshal([]byte(readFile(t, n)), &o); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out[o.str("id")] = o
	}
	return out
}

func orchestratorNext(t *testing.T, dir string) []string {
	problems, statements := loadRaw(t, dir, "problem"), loadRaw(t, dir, "statement")
	var next []string
	for id, p := range problems {
		if p.str("status") != "unresolved" {
			continue
		}
		ok := true
		for _, it := range p.list("preliminaries") {
			pid, _ := it.(string)
			if strings.HasPrefix(pid, "p-") {
				if q, found := problems[pid]; found && q.str("status") != "resolved" {
					ok = false
				}
			} else if strings.HasPrefix(pid, "s-") {
				if s, found := statements[pid]; found && s.str("status") != "true" {
					ok = false
				}
			}
		}
		if ok {
			next = append(next, "agent-solve "+id)
		}
	}
	for id, s := range statements {
		status := s.str("status")
		if status != "pending" && status != "validating" {
			continue
		}
		ok := true
		for _, it := range s.list("preliminaries") {
			sid, _ := it.(string)
			if sub, found := statements[sid]; found && sub.str("status") != "true" {
				ok = false
			}
		}
		if !ok {
			continue
		}
		agent := "agent-prove"
		if status == "validating" {
			switch issues, responses := s.count("validation", "issues"), s.count("validation", "responses"); {
			case issues > responses:
				agent = "agent-fix"
			case issues == responses:
				agent = "agent-check"
			default:
				agent = "human"
			}
		}
		next = append(next, agent+" "+id)
	}
	slices.Sort(next)
	return next
}

// statusNextOf is `referee status --output json`'s next list as "agent id", sorted.
func statusNextOf(t *testing.T, root, dir string) []string {
	t.Helper()
	out := referee(t, root, "", "status", "--contents", dir, "--output", "json")
	if out.code != 0 {
		t.Fatalf("status %s: exit %d: %s", dir, out.code, out.stderr)
	}
	var st struct {
		Next []struct {
			ID    string `json:"id"`
			Agent string `json:"agent"`
		} `json:"next"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &st); err != nil {
		t.Fatalf("status json: %v\n%s", err, out.stdout)
	}
	next := []string{}
	for _, n := range st.Next {
		next = append(next, n.Agent+" "+n.ID)
	}
	slices.Sort(next)
	return next
}

func sameNext(t *testing.T, name, root, dir string) {
	t.Helper()
	want := orchestratorNext(t, dir)
	if want == nil {
		want = []string{}
	}
	if got := statusNextOf(t, root, dir); !slices.Equal(got, want) {
		t.Errorf("%s: status next %q, the orchestrator's %q", name, got, want)
	}
}

// At every state the agents' own scripts left in the conformance data.
func TestStatusNextIsTheOrchestratorsOnConformanceStates(t *testing.T) {
	afters, _ := filepath.Glob(filepath.Join(conformance, "*", "after", "*"))
	if len(afters) == 0 {
		t.Skipf("no conformance data under %s (the shared folder is not beside the project)", conformance)
	}
	for _, after := range afters {
		root := t.TempDir()
		dir := filepath.Join(root, "contents")
		testutil.CopyTree(t, after, dir)
		sameNext(t, after, root, dir)
	}
}

// The edge cases where referee used to differ (issue 11, point 5).
func TestStatusNextIsTheOrchestratorsOnEdgeCases(t *testing.T) {
	stmt := func(id, status string, prelims []string, issues, responses int) string {
		is, rs := []string{}, []string{}
		for i := 1; i <= issues; i++ {
			is = append(is, fmt.Sprintf("[Issue #%d] Sentence 1: 'x' | Type: gap | Explanation: e | Fix: f", i))
		}
		for i := 1; i <= responses; i++ {
			rs = append(rs, fmt.Sprintf("[Response #%d] Fixes Issue #%d | Type: patch | Change: c", i, i))
		}
		b, _ := json.Marshal(map[string]any{"id": id, "type": "normal", "conclusion": []string{"c " + id}, "hypothesis": []string{},
			"preliminaries": prelims, "status": status, "reliability": 0.0, "stats": map[string]int{"count_usage": 0},
			"progresses": []string{}, "proof": map[string]any{"cot": []string{}, "full": "We prove this statement as follows. QED.", "ref": []string{}},
			"validation": map[string]any{"issues": is, "responses": rs}})
		return string(b)
	}
	prob := func(id, status string, prelims []string) string {
		b, _ := json.Marshal(map[string]any{"id": id, "hypothesis": []string{}, "objectives": []string{"o"}, "status": status,
			"priority": "", "summary": "", "progresses": []string{}, "preliminaries": prelims,
			"solution": map[string]any{"cot": []string{}, "full": "", "ref": []string{}}})
		return string(b)
	}
	cases := map[string]map[string]string{
		"a missing preliminary": {
			"problem/p-001.json":   prob("p-001", "unresolved", []string{"p-009", "s-009"}),
			"statement/s-001.json": stmt("s-001", "pending", []string{"s-404"}, 0, 0),
			"statement/s-002.json": stmt("s-002", "validating", []string{"s-405"}, 1, 0),
		},
		"a problem status outside the vocabulary": {
			"problem/p-001.json": prob("p-001", "pending", nil),
			"problem/p-002.json": prob("p-002", "in_progress", nil),
			"problem/p-003.json": prob("p-003", "unresolved", []string{"p-001"}),
		},
		"more responses than issues": {
			"problem/p-001.json":   prob("p-001", "resolved", nil),
			"statement/s-001.json": stmt("s-001", "validating", nil, 1, 2),
			"statement/s-002.json": stmt("s-002", "validating", nil, 2, 2),
			"statement/s-003.json": stmt("s-003", "validating", nil, 2, 1),
		},
		"a preliminary that is not a bare ID": {
			"problem/p-001.json":   prob("p-001", "unresolved", []string{"(s-001) c s-001", "s-001"}),
			"statement/s-001.json": stmt("s-001", "pending", nil, 0, 0),
			"statement/s-002.json": stmt("s-002", "pending", []string{"(s-001) c s-001"}, 0, 0),
			"statement/s-003.json": stmt("s-003", "validating", []string{"s-002"}, 0, 0),
		},
	}
	for name, files := range cases {
		root := t.TempDir()
		dir := filepath.Join(root, "contents")
		writeFile(t, filepath.Join(dir, "config.json"), `{"p": "p-009", "s": "s-009", "e": "e-000", "l": "l-000"}`)
		for rel, data := range files {
			writeFile(t, filepath.Join(dir, rel), data)
		}
		if err := os.MkdirAll(filepath.Join(dir, "history"), 0o755); err != nil {
			t.Fatal(err)
		}
		sameNext(t, name, root, dir)
	}
}
