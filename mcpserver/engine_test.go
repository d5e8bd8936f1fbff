package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"referee/internal/testutil"
	"referee/skill"
	"referee/store"
)

func callText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content %T", name, res.Content[0])
	}
	if res.IsError {
		return "error: " + tc.Text
	}
	return tc.Text
}

// readCalls are one call of every read tool on the demo.
var readCalls = []struct {
	name string
	args map[string]any
}{
	{"status", nil},
	{"show", map[string]any{"id": "s-015"}},
	{"show", map[string]any{"id": "p-002"}},
	{"show", map[string]any{"id": "l-003"}},
	{"show", map[string]any{"id": "s-999"}},
	{"sentences", map[string]any{"statement_id": "s-015"}},
	{"similar", map[string]any{"statement_id": "s-015", "top": 3}},
	{"log", map[string]any{"since": "l-030"}},
	{"log", map[string]any{"since": "l-030", "object": "s-015"}},
	{"log", nil},
}

// The engine answers every read tool as a fresh read of the folder does, before and
// after changes made by another writer (store.Run: the CLI's path, another process's
// change as far as this server knows), read at once from the log.
func TestEngineAnswersAsAFreshRead(t *testing.T) {
	dir := testutil.Demo(t)
	live := connectWith(t, dir, "reader", true)
	fresh := connectWith(t, dir, "reader", false)
	compare := func(when string) {
		t.Helper()
		for _, c := range readCalls {
			if got, want := callText(t, live, c.name, c.args), callText(t, fresh, c.name, c.args); got != want {
				t.Fatalf("%s: %s %v from the engine:\n%s\nread now:\n%s", when, c.name, c.args, got, want)
			}
		}
	}
	compare("at the start")
	sk, _ := skill.Lookup("check-reject-proof")
	if _, err := store.Run(dir, sk, skill.Args{"statement_id": "s-016", "sentence_number": 1,
		"sentence_text": firstSentence(t, dir, "s-016"), "error_type": "unjustified_leap",
		"explanation": "why", "suggested_fix": "say why"}, store.Options{Actor: "agent-check"}); err != nil {
		t.Fatal(err)
	}
	compare("after a change by another writer") // no wait: the log says what changed
	sk, _ = skill.Lookup("abandon")
	res, err := store.Run(dir, sk, skill.Args{"statement_id": "s-017"}, store.Options{Actor: "human"})
	if err != nil {
		t.Fatal(err)
	}
	compare("after a second change")
	if _, err := store.Undo(dir, res.Change, store.Options{Actor: "human"}); err != nil {
		t.Fatal(err)
	}
	compare("after an undo")
}

// firstSentence is the text of sentence 1 of a statement's proof, as the checker quotes it.
func firstSentence(t *testing.T, dir, id string) string {
	t.Helper()
	cs := connectWith(t, dir, "reader", false)
	text := callText(t, cs, "sentences", map[string]any{"statement_id": id})
	_, rest, _ := strings.Cut(text, `"text":"`)
	s, _, _ := strings.Cut(rest, `","paragraph"`)
	return s
}

// An edit that writes no log line (a person's editor) reaches the engine through its
// watcher.
func TestEngineFollowsAnEditWithoutALogLine(t *testing.T) {
	dir := testutil.Demo(t)
	cs := connectWith(t, dir, "reader", true)
	before := callText(t, cs, "show", map[string]any{"id": "s-017"})
	path := filepath.Join(dir, "statement", "s-017.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"status": "pending"`, `"status": "validating"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := callText(t, cs, "show", map[string]any{"id": "s-017"})
		if got != before {
			if !strings.Contains(got, `"status":"validating"`) {
				t.Fatalf("the edit shows as %s", got)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the edit never reached the engine")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// status lists the first `limit` pieces of work and says how many it left out.
func TestStatusLimit(t *testing.T) {
	dir := testutil.Demo(t)
	for _, engine := range []bool{true, false} {
		cs := connectWith(t, dir, "reader", engine)
		all := callText(t, cs, "status", nil)
		one := callText(t, cs, "status", map[string]any{"limit": 1})
		total := strings.Count(all, `"agent":`)
		if total < 2 || !strings.Contains(all, `"next_left_out":0`) || !strings.Contains(all, fmt.Sprintf(`"next_total":%d`, total)) {
			t.Fatalf("engine %v: status lists %d: %s", engine, total, all)
		}
		if strings.Count(one, `"agent":`) != 1 || !strings.Contains(one, fmt.Sprintf(`"next_left_out":%d`, total-1)) {
			t.Fatalf("engine %v: status with limit 1: %s", engine, one)
		}
	}
}

// The sentences and show tools keep their answer about a statement while it and its
// version are the same and answer anew, as a fresh read does, once either changed: by a
// logged change (read at once) or by an edit of the proof that logs nothing (brought by
// the watcher).
func TestAnswersKeptWhileTheStatementIsTheSame(t *testing.T) {
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"sentences", map[string]any{"statement_id": "s-015"}},
		{"show", map[string]any{"id": "s-015"}},
	} {
		t.Run(c.tool, func(t *testing.T) { answersKept(t, c.tool, c.args) })
	}
}

func answersKept(t *testing.T, tool string, args map[string]any) {
	dir := testutil.Demo(t)
	live := connectWith(t, dir, "reader", true)
	fresh := connectWith(t, dir, "reader", false)
	first := callText(t, live, tool, args)
	if again := callText(t, live, tool, args); again != first {
		t.Fatalf("asked again:\n%s\nfirst:\n%s", again, first)
	}
	if want := callText(t, fresh, tool, args); first != want {
		t.Fatalf("kept:\n%s\nread now:\n%s", first, want)
	}
	sk, _ := skill.Lookup("abandon")
	if _, err := store.Run(dir, sk, skill.Args{"statement_id": "s-015"}, store.Options{Actor: "human"}); err != nil {
		t.Fatal(err)
	}
	got, want := callText(t, live, tool, args), callText(t, fresh, tool, args)
	if got != want || got == first {
		t.Fatalf("after a change of its status:\n%s\nread now:\n%s\nbefore:\n%s", got, want, first)
	}
	path := filepath.Join(dir, "statement", "s-015.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sentence := firstSentence(t, dir, "s-015")
	edited := strings.Replace(string(data), sentence, "An edited first sentence.", 1)
	if edited == string(data) {
		t.Fatalf("%q is not in %s as written", sentence, path)
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	want = callText(t, fresh, tool, args)
	if !strings.Contains(want, "An edited first sentence.") {
		t.Fatalf("a fresh read does not see the edit: %s", want)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if got = callText(t, live, tool, args); got == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s after an edit of the proof, still:\n%s\nread now:\n%s", got, want)
		}
	}
}
