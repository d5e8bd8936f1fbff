package store

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/skill"
)

// The differential test (issue 21): seeded random walks of skill calls applied to two
// copies of one folder, one through the agents' own scripts (Ranch0o0/MRA-v1 at d8d7638:
// the script commands each skill's SKILL.md prescribes, run by testdata/differential/
// driver.py) and one through referee. After every call the problem and statement files
// must be byte for byte the same, config.json's p, s and e counters the same, and
// referee's next set what the agents' current.py prints. Over every state reached, each
// (object, agent) in next must have at least one of that agent's skills accepted.
//
// The walk plays the agents: it picks an (object, agent) from next and a skill of that
// agent that referee's preconditions accept, and now and then the prover on a statement
// under a proposed modification (agent-fix.md: "awaiting new proof by agent-prove"). A
// refusal by referee of such a call fails the test, except check-confirm-proof without
// --direction on a proof whose opening the walk made ambiguous on purpose: that must be
// refused, and the call is made again with the direction.
//
// REFEREE_DIFF_SEQUENCES, REFEREE_DIFF_CALLS and REFEREE_DIFF_SEED change the size and
// the seed (a failure names the seed and sequence that reproduce it); REFEREE_DIFF_TMP
// puts the folders elsewhere (a tmpfs: referee's fsyncs are most of the time). It needs python3
// and the agents' scripts: REFEREE_MRA (a checkout with src/), or
// fixtures/mra-knights/Ranch0o0+MRA-v1 in the shared folder, or the bare mirror
// /work/.mirror/Ranch0o0+MRA-v1/repo (REFEREE_MRA_MIRROR); without them it is skipped.

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func TestDifferentialWithTheAgentsScripts(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("needs python3 to run the agents' scripts; not found on PATH")
	}
	src := agentsScripts(t)
	seqs, calls := envInt("REFEREE_DIFF_SEQUENCES", 12), envInt("REFEREE_DIFF_CALLS", 30)
	seed := uint64(envInt("REFEREE_DIFF_SEED", 21))
	stats := map[string]int{}
	for n := range seqs {
		w := newWalk(t, python, src, seed, n, stats)
		w.run(calls)
		w.close()
		if t.Failed() {
			return
		}
	}
	var keys []string
	for k, v := range stats {
		keys = append(keys, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(keys)
	t.Logf("seed %d: %d sequences × up to %d calls, %d calls compared after each: %s", seed, seqs, calls, stats["calls"], strings.Join(keys, ", "))
}

// agentsScripts is a folder holding the agents' src/*.py ($REFEREE_MRA, a checkout, or
// their repository at d8d7638 as testutil finds it), or the test is skipped.
func agentsScripts(t *testing.T) string {
	t.Helper()
	if c := os.Getenv("REFEREE_MRA"); c != "" {
		if _, err := os.Stat(filepath.Join(c, "src", "state.py")); err == nil {
			return filepath.Join(c, "src")
		}
	}
	return filepath.Join(testutil.AgentsRepo(t), "src")
}

// walk is one random sequence on two copies of a folder.
type walk struct {
	t      *testing.T
	rng    *rand.Rand
	name   string
	pyRoot string // src/ and contents/
	goDir  string // referee's contents
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	truth  map[string]string // statement → the direction its latest proof really takes
	// ambiguous: statements whose latest proof opens ambiguously on purpose
	ambiguous map[string]bool
	stats     map[string]int
	history   []string // the calls so far, for a failure's report
}

func newWalk(t *testing.T, python, src string, seed uint64, n int, stats map[string]int) *walk {
	t.Helper()
	w := &walk{t: t, rng: rand.New(rand.NewPCG(seed, uint64(n))), name: fmt.Sprintf("seed %d sequence %d", seed, n),
		truth: map[string]string{}, ambiguous: map[string]bool{}, stats: stats}
	w.pyRoot = scratch(t)
	if err := os.CopyFS(filepath.Join(w.pyRoot, "src"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	driver, _ := filepath.Abs("testdata/differential/driver.py")
	w.cmd = exec.Command(python, driver, w.pyRoot)
	w.cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONIOENCODING=utf-8")
	w.cmd.Stderr = os.Stderr
	var err error
	if w.in, err = w.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	w.out = bufio.NewScanner(stdout)
	w.out.Buffer(nil, 64<<20)
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.close) // also when a comparison fails
	// The agents' own init, then the same folder for referee.
	hyps := []string{w.text(), "(s-999) " + w.text(), "  " + w.text() + "  "}
	w.py(map[string]any{"op": "init", "hypothesis": hyps[:1+w.rng.IntN(3)], "objectives": []string{w.text()}})
	w.goDir = filepath.Join(scratch(t), "contents")
	if err := os.CopyFS(w.goDir, os.DirFS(filepath.Join(w.pyRoot, "contents"))); err != nil {
		t.Fatal(err)
	}
	return w
}

// scratch is a folder for one side of a walk: under REFEREE_DIFF_TMP when set (a tmpfs
// makes the fsyncs free), else the test's temp dir. It is removed at the end.
func scratch(t *testing.T) string {
	base := os.Getenv("REFEREE_DIFF_TMP")
	if base == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(base, "differential-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func (w *walk) close() {
	if w.cmd.ProcessState == nil {
		w.in.Close()
		w.cmd.Wait()
	}
}

// py sends one request to the driver and returns its output.
func (w *walk) py(req map[string]any) string {
	w.t.Helper()
	line, _ := json.Marshal(req)
	if _, err := w.in.Write(append(line, '\n')); err != nil {
		w.t.Fatalf("%s: driver: %v", w.name, err)
	}
	if !w.out.Scan() {
		w.t.Fatalf("%s: the driver stopped: %v", w.name, w.out.Err())
	}
	var ans struct {
		OK    bool   `json:"ok"`
		Out   string `json:"out"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(w.out.Bytes(), &ans); err != nil {
		w.t.Fatalf("%s: driver answer %q: %v", w.name, w.out.Text(), err)
	}
	if !ans.OK {
		w.t.Fatalf("%s: the agents' scripts failed on %s: %s\ncalls so far:\n%s", w.name, line, ans.Error, strings.Join(w.history, "\n"))
	}
	return ans.Out
}

var (
	currentID     = regexp.MustCompile(`^\[([ps]-[a-z]*[0-9]+)\]$`)
	currentHeader = regexp.MustCompile(`^=== (Actionable Problems|Actionable Statements|Status: .*) ===$`)
)

// agentsNext is the next set current.py prints, as sorted "agent id" items.
func (w *walk) agentsNext() []string {
	out := w.py(map[string]any{"op": "current"})
	next := []string{}
	section, last := "", -1
	for line := range strings.SplitSeq(out, "\n") {
		if m := currentHeader.FindStringSubmatch(line); m != nil {
			section = m[1]
			continue
		}
		if m := currentID.FindStringSubmatch(line); m != nil {
			agent := "agent-solve"
			if section == "Actionable Statements" {
				agent = "agent-prove" // until a validation line says otherwise
			}
			next = append(next, agent+" "+m[1])
			last = len(next) - 1
			continue
		}
		if last < 0 || section != "Actionable Statements" {
			continue
		}
		id := strings.Fields(next[last])[1]
		switch t := strings.TrimSpace(line); {
		case strings.HasPrefix(t, "[!] UNRESOLVED ISSUES"):
			next[last] = "agent-fix " + id
		case strings.HasPrefix(t, "[*] AWAITING CHECKER"):
			next[last] = "agent-check " + id
		case strings.HasPrefix(t, "[WARNING] INVALID STATE"):
			next[last] = model.AgentHuman + " " + id
		}
	}
	slices.Sort(next)
	return next
}

// refereeNext is `referee status`'s next set, and the snapshot it came from.
func (w *walk) refereeNext() ([]string, *model.Snapshot) {
	snap, err := Load(w.goDir)
	if err != nil {
		w.t.Fatalf("%s: load: %v", w.name, err)
	}
	next := []string{}
	for _, n := range StatusOf(snap, model.Derive(snap)).Next {
		next = append(next, n.Agent+" "+n.ID)
	}
	slices.Sort(next)
	return next, snap
}

// compare checks the two folders and the next sets agree; it returns the next set.
func (w *walk) compare(after string) ([]string, *model.Snapshot) {
	w.t.Helper()
	for _, sub := range []string{"problem", "statement"} {
		a, b := w.files(filepath.Join(w.pyRoot, "contents", sub)), w.files(filepath.Join(w.goDir, sub))
		for name, want := range a {
			if got, ok := b[name]; !ok {
				w.failf(after, "%s/%s: the scripts wrote it, referee did not", sub, name)
			} else if got != want {
				w.failf(after, "%s/%s differs:\nreferee:\n%s\nthe scripts:\n%s", sub, name, got, want)
			}
		}
		for name := range b {
			if _, ok := a[name]; !ok {
				w.failf(after, "%s/%s: referee wrote it, the scripts did not", sub, name)
			}
		}
	}
	ca, cb := w.config(filepath.Join(w.pyRoot, "contents")), w.config(w.goDir)
	for _, k := range []string{"p", "s", "e"} {
		if ca[k] != cb[k] {
			w.failf(after, "config.json %s: referee %q, the scripts %q", k, cb[k], ca[k])
		}
	}
	want := w.agentsNext()
	got, snap := w.refereeNext()
	if !slices.Equal(got, want) {
		w.failf(after, "next: referee %q, current.py %q", got, want)
	}
	return got, snap
}

func (w *walk) failf(after, format string, args ...any) {
	w.t.Helper()
	w.t.Fatalf("%s, after %s: %s\ncalls so far:\n%s", w.name, after, fmt.Sprintf(format, args...), strings.Join(w.history, "\n"))
}

func (w *walk) files(dir string) map[string]string {
	out := map[string]string{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			w.t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}

func (w *walk) config(dir string) map[string]string {
	var c map[string]string
	data, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err != nil {
		w.t.Fatalf("%s: %s/config.json: %v", w.name, dir, err)
	}
	return c
}

// agentSkills are the skills each agent's definition lists (.claude/agents/*.md).
var agentSkills = map[string][]string{
	"agent-solve": {"prob-wrapup-statement", "prob-setup-subgoal", "prob-finish-up"},
	"agent-prove": {"state-complete-proof", "state-setup-substatement", "state-mark-false", "state-propose-modification"},
	"agent-check": {"check-confirm-proof", "check-reject-proof"},
	"agent-fix":   {"fix-patch-proof", "fix-create-substatement", "state-mark-false", "state-propose-modification"},
}

// accepted are the skills of an agent that referee accepts on an object now, with the
// arguments the preconditions read (the first unanswered issue for the fixer).
func accepted(snap *model.Snapshot, agent, id string) []string {
	var ok []string
	for _, name := range agentSkills[agent] {
		s, _ := skill.Lookup(name)
		a := skill.Args{s.Target: id}
		if agent == "agent-fix" {
			if st := snap.Statements.Get(id); st != nil {
				if open := model.Unanswered(st.Issues, st.Responses); len(open) > 0 {
					a["issue_number"] = open[0]
				}
			}
		}
		if name == "prob-finish-up" {
			keys := trueStatements(snap)
			if len(keys) == 0 {
				continue
			}
			a["key_statement_id"] = keys[:1]
		}
		if s.Check(skill.SnapshotObjects{Snap: snap}, a) == nil {
			ok = append(ok, name)
		}
	}
	return ok
}

func trueStatements(snap *model.Snapshot) []string {
	var ids []string
	for _, id := range slices.SortedFunc(snap.Statements.Keys(), model.CompareIDs) {
		if snap.Statements.Get(id).Status == "true" {
			ids = append(ids, id)
		}
	}
	return ids
}

func (w *walk) run(calls int) {
	next, snap := w.compare("init")
	for step := 1; step <= calls; step++ {
		// Every (object, agent) in next has a skill referee accepts.
		var moves []string
		for _, item := range next {
			agent, id, _ := strings.Cut(item, " ")
			if agent == model.AgentHuman {
				continue
			}
			if len(accepted(snap, agent, id)) == 0 {
				w.failf(fmt.Sprintf("call %d", step-1), "%s is in next for %s, and referee refuses every skill of %s on it", id, agent, agent)
			}
			moves = append(moves, item)
		}
		// The prover, now and then, on a statement under a proposed modification.
		for _, id := range slices.SortedFunc(snap.Statements.Keys(), model.CompareIDs) {
			if st := snap.Statements.Get(id); skill.ModificationProposed(st) && !model.StatementPhase(snap, st).Decided() && w.rng.IntN(2) == 0 {
				moves = append(moves, "modified "+id)
			}
		}
		if len(moves) == 0 {
			return // solved, or only a human can move it
		}
		slices.Sort(moves)
		agent, id, _ := strings.Cut(moves[w.rng.IntN(len(moves))], " ")
		skill := "state-complete-proof"
		if agent != "modified" {
			ok := accepted(snap, agent, id)
			if len(ok) > 1 && w.rng.IntN(4) != 0 {
				// Finishing a problem ends the walk's work early: less often.
				ok = slices.DeleteFunc(ok, func(s string) bool { return s == "prob-finish-up" })
			}
			skill = ok[w.rng.IntN(len(ok))]
		} else {
			agent = "agent-prove"
			w.stats["proofs after a modification"]++
		}
		params := w.params(snap, agent, skill, id)
		w.call(skill, params)
		next, snap = w.compare(fmt.Sprintf("call %d (%s on %s)", step, skill, id))
	}
}

// call applies one skill on both sides.
func (w *walk) call(name string, params map[string]any) {
	w.t.Helper()
	w.stats[name]++
	w.stats["calls"]++
	pyParams := params
	goParams := params
	if name == "check-confirm-proof" {
		id := params["statement_id"].(string)
		pyParams = clone(params)
		pyParams["direction"] = w.truth[id]
		if w.rng.IntN(4) == 0 || w.truth[id] == "" {
			goParams = pyParams // the checker says it
		} else {
			goParams = clone(params)
			delete(goParams, "direction")
		}
	}
	line, _ := json.Marshal(map[string]any{"skill": name, "params": pyParams})
	w.history = append(w.history, string(line))
	s, _ := skill.Lookup(name)
	data, _ := json.Marshal(goParams)
	a, err := skill.ArgsFromJSON(s, data)
	if err != nil {
		w.failf(name, "referee cannot read the parameters %s: %v", data, err)
	}
	_, err = Run(w.goDir, s, a, Options{Actor: "agent"})
	if name == "check-confirm-proof" && !a.Has("direction") && w.ambiguous[a.Str("statement_id")] {
		if err == nil {
			w.failf(name, "referee confirmed %s without --direction, guessing from an ambiguous opening", data)
		}
		if !strings.Contains(err.Error(), "give --direction") {
			w.failf(name, "referee refused %s, but not for the direction: %v", data, err)
		}
		w.stats["ambiguous openings refused"]++
		a["direction"] = pyParams["direction"]
		_, err = Run(w.goDir, s, a, Options{Actor: "agent"})
	}
	if err != nil {
		w.failf(name, "referee refused %s: %v", data, err)
	}
	w.py(map[string]any{"op": "call", "skill": name, "params": pyParams})
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// --- what the walk writes ----------------------------------------------------------------

// texts mix plain words, Unicode (combining marks, CJK, emoji, right-to-left) and LaTeX.
var texts = []string{
	"Alice is the Spy",
	"Olivia and Ivy have the same role",
	"for all ε > 0 there is δ > 0 with |f(x) − f(y)| < ε",
	`$\sum_{k=1}^{n} k = \frac{n(n+1)}{2}$`,
	`\forall x \in \mathbb{R},\; x^2 \geq 0`,
	"Ivy says: \"Alice and I have the same role\"",
	"the knave's claim is false — so it's a lie",
	"日本語の主張は正しい",
	"🦄 is a knave 🐉",
	"Zoë’s café is naïve (e\u0301)",
	"a | b and c | d",
	"x ≤ y ⇒ f(x) ≤ f(y)",
	"שלום עולם is a greeting",
	"tab\tinside and  two spaces",
	`a backslash \ and a \n that is not a newline`,
}

func (w *walk) text() string { return texts[w.rng.IntN(len(texts))] }

func (w *walk) texts(min, max int) []string {
	out := make([]string, min+w.rng.IntN(max-min+1))
	for i := range out {
		out[i] = w.text()
	}
	return out
}

// existing is a random statement ID of the folder, or a dangling one.
func (w *walk) existing(snap *model.Snapshot) string {
	ids := slices.SortedFunc(snap.Statements.Keys(), model.CompareIDs)
	if len(ids) == 0 || w.rng.IntN(6) == 0 {
		return "s-99" + strconv.Itoa(w.rng.IntN(10))
	}
	return ids[w.rng.IntN(len(ids))]
}

// premise is one premise in one of the forms agents write.
func (w *walk) premise(snap *model.Snapshot) string {
	id := w.existing(snap)
	switch w.rng.IntN(7) {
	case 0:
		return "(" + id + ")"
	case 1:
		return "(" + id + ") " + w.text()
	case 2:
		return "  (" + id + ") " + w.text() + "  "
	case 3:
		return " (" + id + ") "
	case 4:
		return "(" + id + ")" + w.text()
	case 5:
		return "  " + w.text()
	}
	return w.text()
}

func (w *walk) premises(snap *model.Snapshot, min, max int) []string {
	out := make([]string, min+w.rng.IntN(max-min+1))
	for i := range out {
		out[i] = w.premise(snap)
	}
	return out
}

// Openings of a proof: clear ones in the forms agents write, and ambiguous ones.
var (
	proofOpenings = []string{
		"We prove this statement as follows.",
		"**Proof.** We prove this statement as follows.",
		"PROOF:\nWe prove this statement as follows.",
		"> We prove this statement as follows.",
		"We argue by contradiction, looking at $x \\bmod 4$.",
		"Proof (by contradiction): suppose the claim is false.",
	}
	disproofOpenings = []string{
		"This statement is wrong. We disprove as follows.",
		"DISPROOF: This statement is wrong. We disprove as follows.",
		"DISPROOF:\n\nThis statement is wrong. We disprove as follows.",
		"Disproof. This statement is wrong. We disprove as follows.",
		"Disproof.\nThis statement is wrong.\nWe disprove as follows.",
		"> This statement is wrong. We disprove as follows.",
		"> **DISPROOF:** This statement is\n> wrong. We disprove as follows.",
		"\"This statement is wrong. We disprove as follows.\"",
		"## Disproof\n\nThis statement is wrong. We disprove as follows.",
		"\\textbf{Disproof.} This statement is wrong. We disprove as follows.",
		"This statement is\nwrong.  We disprove as follows.",
	}
	ambiguousOpenings = []string{
		"PROOF: This statement is wrong. We disprove as follows.",
		"Disproof. We prove this statement as follows.",
		"We prove that this statement is false.",
		"Step 1 refutes the claim by a counterexample.",
	}
)

// proof writes a proof or disproof of a statement, recording which it really is.
func (w *walk) proof(id string) string {
	var opening string
	direction := model.DirectionProof
	w.ambiguous[id] = false
	switch r := w.rng.IntN(10); {
	case r < 4:
		opening = proofOpenings[w.rng.IntN(len(proofOpenings))]
	case r < 8:
		opening, direction = disproofOpenings[w.rng.IntN(len(disproofOpenings))], model.DirectionDisproof
	default:
		opening = ambiguousOpenings[w.rng.IntN(len(ambiguousOpenings))]
		w.ambiguous[id] = true
		if w.rng.IntN(2) == 0 {
			direction = model.DirectionDisproof
		}
	}
	w.truth[id] = direction
	var b strings.Builder
	b.WriteString(opening)
	for i := range w.rng.IntN(4) {
		fmt.Fprintf(&b, "\n\nStep %d: %s.", i+1, w.text())
	}
	if direction == model.DirectionDisproof {
		b.WriteString("\n\nTherefore, the statement is false.")
	} else {
		b.WriteString(" QED.")
	}
	return b.String()
}

func trimmed(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.TrimSpace(s)
	}
	return out
}

func (w *walk) pick(list []string) string { return list[w.rng.IntN(len(list))] }

// maybe sets a parameter half the time.
func (w *walk) maybe(p map[string]any, key string, v any) {
	if w.rng.IntN(2) == 0 {
		p[key] = v
	}
}

// params are a skill call's parameters, as an agent of that kind would give them.
func (w *walk) params(snap *model.Snapshot, agent, name, id string) map[string]any {
	p := map[string]any{}
	s, _ := skill.Lookup(name)
	p[s.Target] = id
	firstOpen := func() int {
		st := snap.Statements.Get(id)
		if open := model.Unanswered(st.Issues, st.Responses); len(open) > 0 {
			return open[0]
		}
		return 0
	}
	switch name {
	case "prob-wrapup-statement":
		p["claim"] = w.texts(1, 2)
		w.maybe(p, "premises", w.premises(snap, 1, 4))
		p["purpose"] = w.text()
	case "prob-setup-subgoal":
		p["subproblem_objective"] = w.texts(1, 2)
		w.maybe(p, "subproblem_hypothesis", w.premises(snap, 1, 4))
		p["rationale"] = w.text()
		p["priority"] = w.pick([]string{"high", "medium", "low"})
	case "prob-finish-up":
		keys := trueStatements(snap)
		p["resolution"] = w.text()
		p["key_statement_id"] = keys[:1+w.rng.IntN(len(keys))]
		w.maybe(p, "cot", w.texts(1, 3))
	case "state-complete-proof":
		p["proof_text"] = w.proof(id)
		p["strategy"] = w.pick([]string{"direct", "contradiction", "case_analysis", "backward"})
		w.maybe(p, "proof_cot", w.texts(1, 2))
		w.maybe(p, "proof_ref", []string{w.existing(snap)})
		w.maybe(p, "summary", w.text())
	case "state-setup-substatement":
		var subs []map[string]any
		for range 1 + w.rng.IntN(3) {
			sub := map[string]any{"claim": w.text()}
			w.maybe(sub, "premises", w.premises(snap, 1, 3))
			subs = append(subs, sub)
		}
		p["sub_statements"] = subs
		p["rationale"] = w.text()
	case "state-mark-false":
		p["counterexample"] = w.text()
		p["source"] = "prove"
		if agent == "agent-fix" {
			p["source"], p["issue_number"] = "fix", firstOpen()
		}
	case "state-propose-modification":
		p["modification_type"] = w.pick(model.ModificationTypes)
		w.maybe(p, "suggested_claim", w.text())
		// Trimmed: referee trims the fields between "|" in a response (a declared difference).
		w.maybe(p, "suggested_premises", trimmed(w.premises(snap, 1, 2)))
		p["rationale"] = w.text()
		p["source"] = "prove"
		if agent == "agent-fix" {
			p["source"], p["issue_number"] = "fix", firstOpen()
		}
	case "check-confirm-proof":
		p["verification_summary"] = w.text()
	case "check-reject-proof":
		st := snap.Statements.Get(id)
		text, _ := st.Proof.Text()
		sentences := model.SplitSentences(text)
		n, quote := 1, "(no proof has been submitted)"
		if len(sentences) > 0 {
			n = 1 + w.rng.IntN(len(sentences))
			quote = sentences[n-1].Text
		}
		p["sentence_number"], p["sentence_text"] = n, quote
		p["error_type"] = w.pick(model.ErrorTypes)
		p["explanation"] = w.text()
		p["suggested_fix"] = w.text()
	case "fix-patch-proof":
		p["issue_number"] = firstOpen()
		p["updated_proof"] = w.proof(id)
		p["change_description"] = w.text()
	case "fix-create-substatement":
		p["issue_number"] = firstOpen()
		p["sub_claim"] = w.text()
		w.maybe(p, "sub_premises", w.premises(snap, 1, 3))
		p["gap_location"] = "sentence 2"
		p["purpose"] = w.text()
	}
	return p
}
