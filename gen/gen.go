// Package gen generates realistic contents folders: seeded trees of problems and
// statements in the agents' format (FORMAT.md), with proofs, issue and response threads,
// every status of a vocabulary, and a change log with its backups, for benchmarks,
// tests and demos at any size. It is its own room ("generate realistic contents
// folders"): it writes files the way the agents' tools do, but it is not the store, and
// nothing but tools and tests imports it.
//
// The folder is the end state of a simulated run: every object is created and modified
// by change batches in the order an orchestrator would run them (set up a problem, wrap
// up a statement, decompose it, prove, reject, patch, confirm, finish up), each batch is
// one log line, and each modification backs the object up first, so the log, the
// backups and config.json agree as they would after a real run; only the backups of the
// last changes are written (Config.Backups), as in a run whose older backup folders were
// cleared away. Files are written without locks or fsync: this is a fixture, not a
// change.
package gen

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"referee/model"
	"referee/model/pyjson"
)

// Config says what to generate.
type Config struct {
	Statements int         // statement files in all: assumptions, orphans and decompositions included
	Problems   int         // problems in all; about four in ten are subgoals of an earlier one
	Seed       uint64      // the same seed (and Config) gives the same bytes
	Vocabulary model.Vocab // P013 (the default) or P014

	// MaxDepth bounds the chains of statements under a problem: a wrap-up statement is at
	// depth 1, its sub-statements at 2, and so on. The largest problem reaches it when it
	// has room. Default 8.
	MaxDepth int
	// MinProof and MaxProof bound the size of a proof in bytes (log-uniform between them).
	// Defaults 1 KB and 20 KB.
	MinProof, MaxProof int
	// Backups is how many of the last changes keep their backups (history/l-NNN/); the
	// changes before them are in the log without, as in a run whose old backup folders
	// were cleared away. Default DefaultBackups; negative: every change keeps them.
	Backups int
}

// DefaultBackups is how many of the last changes keep their backups unless told: every
// change of a folder of up to about 20,000 statements. A run's backups are several times
// its statements' bytes and a folder at a change for each; beyond the recent changes
// nothing that is measured reads them.
const DefaultBackups = 50_000

// ConfigError is a Config that cannot be generated. Nothing was written.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return e.Msg }

func configf(format string, args ...any) error {
	return &ConfigError{Msg: fmt.Sprintf(format, args...)}
}

func (c *Config) defaults() error {
	if c.Vocabulary == model.VocabUnknown {
		c.Vocabulary = model.P013
	}
	if c.MaxDepth == 0 {
		c.MaxDepth = 8
	}
	if c.MinProof == 0 {
		c.MinProof = 1 << 10
	}
	if c.MaxProof == 0 {
		c.MaxProof = 20 << 10
	}
	if c.Backups == 0 {
		c.Backups = DefaultBackups
	}
	switch {
	case c.Problems < 1:
		return configf("problems: %d; expected at least 1", c.Problems)
	case c.Statements < 1:
		return configf("statements: %d; expected at least 1", c.Statements)
	case c.Vocabulary != model.P013 && c.Vocabulary != model.P014:
		return configf("vocabulary: expected P013 or P014")
	case c.MaxDepth < 1:
		return configf("depth: %d; expected at least 1", c.MaxDepth)
	case c.MinProof < 64 || c.MaxProof < c.MinProof:
		return configf("proof sizes %d–%d: expected 64 ≤ min ≤ max", c.MinProof, c.MaxProof)
	}
	return nil
}

// Generate writes a new contents folder at dir, which must not exist or be empty.
func Generate(dir string, cfg Config) error {
	if err := cfg.defaults(); err != nil {
		return err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty; generate into a new folder", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", dir, err)
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))
	probs, err := plan(&cfg, r)
	if err != nil {
		return err
	}
	for _, sub := range []string{"problem", "statement", "history"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	w, err := newWriter(dir, &cfg)
	if err != nil {
		return err
	}
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // texts are short-lived garbage; the heap stays small
	s := &sim{cfg: &cfg, r: r, w: w, last: map[string]string{"p": "p-000", "s": "s-000", "e": "e-000", "l": "l-000"}}
	if total := changes(probs); cfg.Backups > 0 {
		s.keepFrom = total - cfg.Backups + 1
	}
	s.run(probs)
	return w.close(s.config())
}

// ---- the plan: shapes and outcomes, drawn before anything is written -----------------

// outcome is where a statement's story ends.
type outcome uint8

const (
	outPending    outcome = iota // no proof yet (decomposed: waiting for its sub-statements)
	outSubmitted                 // proof submitted, waiting for the checker
	outGap                       // proof rejected, the issue unanswered
	outTrue                      // confirmed
	outFalseProve                // the prover found a counterexample
	outFalseFix                  // the fixer answered an issue with a counterexample
	outModProve                  // the prover proposed a modification
	outModFix                    // the fixer answered an issue with a modification
	outAbandoned                 // P014 only
	outFixSub                    // an issue answered by a gap-filling sub-statement (the node's fix child)
)

type node struct {
	level   int
	decomp  []*node // sub-statements from a decomposition
	fix     *node   // a sub-statement created to fill a gap
	out     outcome
	confirm bool // outFixSub: confirmed once the fix child is true
	rounds  int  // reject-and-patch rounds before the end of the story
}

func (n *node) proved() bool { return n.out == outTrue || (n.out == outFixSub && n.confirm) }

type planProblem struct {
	parent      int // index of the problem this is a subgoal of; -1 for a root problem
	assumptions int // root: assumption statements set up with it
	inherit     int // subgoal: hypotheses taken from the parent
	newHyps     int // subgoal: new pending statements among its hypotheses
	roots       []*node
	orphansNext int // orphans created right after this problem's work
	solve       bool
}

func plan(cfg *Config, r *rand.Rand) ([]*planProblem, error) {
	probs := make([]*planProblem, cfg.Problems)
	fixed := cfg.Statements / 1000 // orphans: agents that died between creating and linking
	for i := range probs {
		p := &planProblem{parent: -1}
		if i > 0 && r.IntN(10) < 4 {
			p.parent = r.IntN(i)
			p.inherit = 1 + r.IntN(2)
			p.newHyps = r.IntN(2)
		} else {
			p.assumptions = 2 + r.IntN(2)
		}
		fixed += p.assumptions + p.newHyps
		probs[i] = p
	}
	if cfg.Statements-fixed < cfg.Problems { // small folders: one assumption per root
		fixed = cfg.Statements / 1000
		for _, p := range probs {
			p.assumptions, p.newHyps = min(p.assumptions, 1), 0
			fixed += p.assumptions
		}
	}
	budget := cfg.Statements - fixed
	if budget < cfg.Problems {
		return nil, configf("%d statements cannot hold %d problems (need at least %d)", cfg.Statements, cfg.Problems, fixed-cfg.Statements/1000+cfg.Problems)
	}
	for k := 0; k < cfg.Statements/1000; k++ {
		probs[k*cfg.Problems/max(1, cfg.Statements/1000)].orphansNext++
	}

	// Tree sizes: one wrap-up each, the rest shared by exponential weights.
	weights := make([]float64, len(probs))
	var sum float64
	for i := range weights {
		weights[i] = 0.2 - math.Log(1-r.Float64())
		sum += weights[i]
	}
	sizes := make([]int, len(probs))
	spare, largest := budget-len(probs), 0
	left := spare
	for i := range sizes {
		extra := int(float64(spare) * weights[i] / sum)
		sizes[i] = 1 + extra
		left -= extra
		if weights[i] > weights[largest] {
			largest = i
		}
	}
	sizes[largest] += left
	for i, p := range probs {
		p.roots = buildTree(cfg, r, sizes[i], i == largest)
		for _, root := range p.roots {
			decide(cfg, r, root)
		}
	}
	// About a quarter of the problems are solved: their whole work is proved. A problem
	// is solved only after its subgoals (which come after it) are.
	for i := len(probs) - 1; i >= 0; i-- {
		p := probs[i]
		p.solve = i != largest && r.IntN(4) == 0
		for _, q := range probs[i+1:] {
			if q.parent == i && !q.solve {
				p.solve = false
			}
		}
		if p.solve {
			for _, root := range p.roots {
				prove(root)
			}
		}
	}
	cover(cfg, probs)
	return probs, nil
}

// buildTree shapes one problem's work: wrap-up statements and their decompositions,
// size nodes in all. force grows one chain to MaxDepth first.
func buildTree(cfg *Config, r *rand.Rand, size int, force bool) []*node {
	roots := []*node{{level: 1}}
	if size >= 6 && r.IntN(100) < 15 {
		roots = append(roots, &node{level: 1})
	}
	count := len(roots)
	var cands []*node // nodes that can still be expanded, most recent last
	add := func(ns ...*node) {
		for _, n := range ns {
			if n.level < cfg.MaxDepth {
				cands = append(cands, n)
			}
		}
	}
	add(roots...)
	children := func(parent *node, k int) []*node {
		out := make([]*node, k)
		for i := range out {
			out[i] = &node{level: parent.level + 1}
		}
		count += k
		return out
	}
	take := func(i int) *node {
		n := cands[i]
		cands[i] = cands[len(cands)-1]
		cands = cands[:len(cands)-1]
		return n
	}
	if force {
		cur := roots[0]
		take(0)
		for cur.level < cfg.MaxDepth && count < size {
			cur.decomp = children(cur, min(2+r.IntN(3), size-count))
			add(cur.decomp[:len(cur.decomp)-1]...)
			cur = cur.decomp[len(cur.decomp)-1]
		}
		add(cur)
	}
	for count < size {
		if len(cands) == 0 { // every node is at the depth bound: start another wrap-up
			n := &node{level: 1}
			roots = append(roots, n)
			count++
			add(n)
			continue
		}
		i := r.IntN(len(cands))
		if r.IntN(10) < 6 {
			i = len(cands) - 1 // mostly depth first, as agents work
		}
		parent := take(i)
		if r.IntN(100) < 10 {
			parent.fix = children(parent, 1)[0]
			add(parent.fix)
			continue
		}
		parent.decomp = children(parent, min(2+r.IntN(3), size-count))
		add(parent.decomp...)
	}
	return roots
}

// decide draws each statement's outcome, bottom up: a statement is proved only when its
// sub-statements are.
func decide(cfg *Config, r *rand.Rand, n *node) {
	for _, c := range n.decomp {
		decide(cfg, r, c)
	}
	if n.fix != nil {
		decide(cfg, r, n.fix)
	}
	subsTrue := true
	for _, c := range n.decomp {
		subsTrue = subsTrue && c.proved()
	}
	if n.fix != nil && !subsTrue { // the fixer only works on a submitted proof
		n.decomp, n.fix = append(n.decomp, n.fix), nil
	}
	n.rounds = [...]int{0, 0, 0, 0, 0, 0, 1, 1, 1, 2}[r.IntN(10)]
	switch {
	case n.fix != nil:
		n.out = outFixSub
		n.confirm = n.fix.proved() && r.IntN(10) < 7
		return
	case !subsTrue:
		n.out = outPending
		return
	}
	type choice struct {
		out outcome
		w   int
	}
	choices := []choice{{outTrue, 52}, {outPending, 12}, {outSubmitted, 9}, {outGap, 9}, {outFalseProve, 2},
		{outFalseFix, 2}, {outModProve, 2}, {outModFix, 2}}
	if cfg.Vocabulary == model.P014 {
		choices = append(choices, choice{outAbandoned, 3})
	}
	total := 0
	for _, c := range choices {
		total += c.w
	}
	x := r.IntN(total)
	for _, c := range choices {
		if x < c.w {
			n.out = c.out
			return
		}
		x -= c.w
	}
}

// prove makes a whole subtree proved, as in a solved problem.
func prove(n *node) {
	for _, c := range n.decomp {
		prove(c)
	}
	if n.fix != nil {
		prove(n.fix)
		n.out, n.confirm = outFixSub, true
		return
	}
	n.out = outTrue
}

// cover makes sure every leaf story of the vocabulary occurs at least once, turning
// leaves that are not proved (so no parent depends on them) into the missing ones.
func cover(cfg *Config, probs []*planProblem) {
	want := []outcome{outPending, outSubmitted, outGap, outFalseProve, outModProve}
	if cfg.Vocabulary == model.P014 {
		want = append(want, outAbandoned)
	}
	seen := map[outcome]bool{}
	var spare []*node
	var walk func(n *node)
	walk = func(n *node) {
		seen[n.out] = true
		leaf := len(n.decomp) == 0 && n.fix == nil
		if leaf && !n.proved() {
			spare = append(spare, n)
		}
		for _, c := range n.decomp {
			walk(c)
		}
		if n.fix != nil {
			walk(n.fix)
		}
	}
	for _, p := range probs {
		for _, root := range p.roots {
			walk(root)
		}
	}
	for _, o := range want {
		if seen[o] {
			continue
		}
		for i, n := range spare {
			if n != nil && !(n.out == outPending && !seen[outPending]) {
				n.out = o
				spare[i] = nil
				seen[o] = true
				break
			}
		}
	}
}

// ---- the simulation: change batches in the order an orchestrator runs them ------------
//
// The run is simulated in two parts. The sim, on one goroutine, decides the order of the
// changes, the IDs, the log lines and the problems' texts: what one change needs from
// another. Every change modifies at most one object, and a statement's texts (its proof,
// issues and responses) come from its own random stream, so the rest of a statement's
// story (its texts, its backups, its file) needs nothing from any other statement: once
// the sim has finished a statement, the writer's workers replay its steps (ops) and
// write its backups and file, in parallel with each other and with the sim.

type sim struct {
	cfg    *Config
	r      *rand.Rand
	w      *writer
	last   map[string]string
	issued uint64 // statements created so far: each one's text stream
	probs  []*problem
	// changes counts the changes made; a change numbered keepFrom or later keeps its
	// backups (Config.Backups).
	changes, keepFrom int
}

// opKind is a step of a statement's story after its creation: each is one change that
// modifies the statement and nothing else.
type opKind uint8

const (
	opDecompose opKind = iota // sub-statements created: ids
	opProve
	opReject
	opPatch
	opConfirm
	opFalse   // after issue (0: found by the prover)
	opPropose // after issue (0: by the prover); issued: the statements created by then
	opAbandon
	opFixSub // issue answered by the sub-statement ids[0]
)

type op struct {
	kind   opKind
	change string // the change's ID when it keeps its backup, else ""
	ids    []string
	issue  int
	issued uint64
}

// statement is a statement object: the sim sets what other changes need (its ID, claim,
// premises, the number of its issues) and its ops; replay sets the rest.
type statement struct {
	id, typ                        string
	conclusion, hypothesis, prelim []string
	status                         string
	reliability                    float64
	progresses                     []string
	proof                          string
	cot, ref                       []string
	issues, responses              []string
	gap                            int // the sentence the last issue is about
	text                           texter
	ops                            []op
	nIssues                        int // issues raised so far (the sim's count)
	// starts are where the proof's sentences start, as model.SplitSentences finds them:
	// written down with the proof and moved with its patches, as splitting every proof
	// again for each rejection was half of gen's own work.
	starts []int
}

func (st *statement) encode() []byte {
	doc := model.NewStatement(st.id, st.typ, st.conclusion, st.hypothesis, st.status)
	doc.Set("preliminaries", pyjson.Strs(st.prelim))
	doc.Set("reliability", pyjson.Float(st.reliability))
	doc.Set("progresses", pyjson.Strs(st.progresses))
	doc.Set("proof", pyjson.Obj(pyjson.M("cot", pyjson.Strs(st.cot)), pyjson.M("full", pyjson.Str(st.proof)), pyjson.M("ref", pyjson.Strs(st.ref))))
	doc.Set("validation", pyjson.Obj(pyjson.M("issues", pyjson.Strs(st.issues)), pyjson.M("responses", pyjson.Strs(st.responses))))
	return pyjson.EncodeIndent(doc)
}

// sentence is the proof's sentence k (from 0), as SplitSentences has it (without its
// paragraph and step, which gen does not use).
func (st *statement) sentence(k int) model.Sentence {
	s := model.Sentence{N: k + 1, Start: st.starts[k], End: len(st.proof)}
	if k+1 < len(st.starts) {
		s.End = st.starts[k+1]
	}
	s.Text = strings.TrimSpace(st.proof[s.Start:s.End])
	return s
}

func (st *statement) setProof(proof string, starts []int) {
	st.proof, st.starts = proof, starts
	if checkSentences != nil {
		checkSentences(st.id, proof, starts)
	}
}

// insert adds text, a sentence of its own, at byte at, the end of sentence k's text: the
// sentences after k move by its length.
func (st *statement) insert(k, at int, text string) {
	starts := make([]int, 0, len(st.starts)+1)
	starts = append(starts, st.starts[:k+1]...)
	starts = append(starts, at+1) // after text's leading space
	for _, p := range st.starts[k+1:] {
		starts = append(starts, p+len(text))
	}
	st.setProof(st.proof[:at]+text+st.proof[at:], starts)
}

// checkSentences, when set (by a test), sees every proof gen writes with the sentence
// starts it keeps for it.
var checkSentences func(id, proof string, starts []int)

type problem struct {
	id                        string
	hypothesis, objectives    []string
	status, priority, summary string
	progresses, prelim        []string
	solutionCot, solutionRef  []string
	solutionFull              string
	planned                   *planProblem
}

func (p *problem) encode() []byte {
	doc := model.NewProblem(p.id, p.hypothesis, p.objectives, p.status, p.priority, p.summary)
	doc.Set("progresses", pyjson.Strs(p.progresses))
	doc.Set("preliminaries", pyjson.Strs(p.prelim))
	doc.Set("solution", pyjson.Obj(pyjson.M("cot", pyjson.Strs(p.solutionCot)), pyjson.M("full", pyjson.Str(p.solutionFull)), pyjson.M("ref", pyjson.Strs(p.solutionRef))))
	return pyjson.EncodeIndent(doc)
}

// batch is one change: what it created, and the problem it modified (the backup is
// taken when it is touched). A statement's modification is an op of its own.
type batch struct {
	s        *sim
	created  []string
	modified string
	problem  *problem
	backup   []byte
}

func (s *sim) begin() *batch { return &batch{s: s} }

func (s *sim) newID(kind string) string {
	id, err := model.NextID(s.last[kind])
	if err != nil {
		panic(err) // counters start at 000 and only grow
	}
	s.last[kind] = id
	return id
}

// touchProblem records the problem's modification and backs it up as it is before it.
func (b *batch) touchProblem(p *problem) {
	b.modified, b.problem = p.id, p
	if b.s.changes+1 >= b.s.keepFrom {
		b.backup = p.encode()
	}
}

// commit writes the change's log line (and a problem's backup) and returns the change's
// ID, and whether its backup is kept.
func (b *batch) commit() (string, bool) {
	s := b.s
	lid := s.newID(model.KindChange)
	s.changes++
	keep := s.changes >= s.keepFrom
	var modified []string
	if b.modified != "" {
		modified = []string{b.modified}
	}
	if b.problem != nil && keep {
		s.w.write(filepath.Join(lid, b.modified+".json"), b.backup, true)
	}
	line := pyjson.Obj(
		pyjson.M(lid, pyjson.Obj(pyjson.M("creation", pyjson.Strs(b.created)), pyjson.M("modification", pyjson.Strs(modified)))),
		pyjson.M("current", pyjson.Strs([]string{s.last["p"], s.last["s"], s.last["e"]})),
	)
	s.w.logLine(pyjson.EncodeLine(line))
	return lid, keep
}

// step is one change modifying st alone: it records the op for replay.
func (s *sim) step(st *statement, o op) { s.record(s.begin(), st, o) }

// record commits b as the change that modifies st (and creates what b created), and
// records the op for replay.
func (s *sim) record(b *batch, st *statement, o op) {
	b.modified = st.id
	if lid, keep := b.commit(); keep {
		o.change = lid
	}
	st.ops = append(st.ops, o)
}

func word(cfg *Config, p model.Phase) string { return model.StatusWord(p, cfg.Vocabulary) }

func (s *sim) word(p model.Phase) string { return word(s.cfg, p) }

// newStatement creates a statement in a batch; its text comes from its own stream.
func (s *sim) newStatement(b *batch, typ string, premises []string, status string) *statement {
	s.issued++
	st := &statement{id: s.newID(model.KindStatement), typ: typ, status: status, text: newTexter(s.cfg.Seed, s.issued)}
	if typ == "assumption" {
		st.conclusion = []string{st.text.premise(s.issued)}
	} else {
		st.conclusion = []string{st.text.claim(s.issued)}
	}
	st.hypothesis = premises
	b.created = append(b.created, st.id)
	return st
}

// done hands a statement whose story the sim has finished to the writer's workers.
func (s *sim) done(st *statement) { s.w.statement(st) }

func (s *sim) run(plans []*planProblem) {
	for i, pp := range plans {
		p := s.setUp(i, pp)
		s.probs = append(s.probs, p)
		for _, root := range pp.roots {
			b := s.begin()
			st := s.newStatement(b, "normal", s.premises(p.hypothesis), "pending")
			b.touchProblem(p)
			p.progresses = append(p.progresses, "("+st.id+") "+st.conclusion[0])
			b.commit()
			s.live(root, st)
		}
		for range pp.orphansNext {
			b := s.begin()
			st := s.newStatement(b, "normal", s.premises(p.hypothesis), "pending")
			b.commit()
			s.done(st)
		}
	}
	for i := len(s.probs) - 1; i >= 0; i-- {
		p := s.probs[i]
		if !p.planned.solve {
			continue
		}
		b := s.begin()
		b.touchProblem(p)
		p.status = s.word(model.PhaseProblemSolved)
		p.solutionFull = "The objective follows from the key statements, which are proved."
		p.solutionCot = []string{"Every wrap-up statement is true.", "Their conjunction is the objective."}
		for _, item := range p.progresses {
			id, _ := model.RefID(item)
			p.solutionRef = append(p.solutionRef, id)
		}
		b.commit()
	}
	for _, p := range s.probs {
		s.w.writeProblem(p)
	}
}

// setUp creates a problem: a root problem with its assumptions (one batch, as init does),
// a subgoal with prob-setup-subgoal, which also modifies its parent.
func (s *sim) setUp(index int, pp *planProblem) *problem {
	b := s.begin()
	t := newTexter(s.cfg.Seed, 1<<40+uint64(index))
	p := &problem{status: "unresolved", planned: pp}
	if pp.parent < 0 {
		for range pp.assumptions {
			st := s.newStatement(b, "assumption", nil, "true")
			p.hypothesis = append(p.hypothesis, "("+st.id+") "+st.conclusion[0])
			s.done(st)
		}
		p.objectives = []string{"Show that " + t.claim(uint64(index)+1)}
		p.id = s.newID(model.KindProblem)
		b.created = append(b.created, p.id)
	} else {
		parent := s.probs[pp.parent]
		p.hypothesis = append(p.hypothesis, parent.hypothesis[:min(pp.inherit, len(parent.hypothesis))]...)
		for range pp.newHyps {
			st := s.newStatement(b, "normal", nil, "pending")
			p.hypothesis = append(p.hypothesis, "("+st.id+") "+st.conclusion[0])
			s.done(st)
		}
		p.objectives = []string{"Establish the case " + t.claim(uint64(index)+1)}
		p.priority = [...]string{"high", "medium", "low"}[s.r.IntN(3)]
		p.summary = "Split off because " + t.rationale() + "."
		p.id = s.newID(model.KindProblem)
		b.created = append(b.created, p.id)
		b.touchProblem(parent)
		parent.prelim = append(parent.prelim, p.id)
	}
	b.commit()
	return p
}

// premises picks one or two of the problem's hypotheses, as agents pass them along.
func (s *sim) premises(from []string) []string {
	if len(from) == 0 {
		return []string{}
	}
	k := 1 + s.r.IntN(min(2, len(from)))
	start := s.r.IntN(len(from) - k + 1)
	return append([]string{}, from[start:start+k]...)
}

// live runs one statement's story to its planned end, then hands it to the writer.
func (s *sim) live(n *node, st *statement) {
	if len(n.decomp) > 0 {
		b := s.begin()
		subs := make([]*statement, len(n.decomp))
		ids := make([]string, len(subs))
		for i := range subs {
			subs[i] = s.newStatement(b, "normal", s.premises(st.hypothesis), "pending")
			ids[i] = subs[i].id
		}
		s.record(b, st, op{kind: opDecompose, ids: ids})
		for i, c := range n.decomp {
			s.live(c, subs[i])
		}
	}
	switch n.out {
	case outPending:
	case outFalseProve:
		s.step(st, op{kind: opFalse})
	case outModProve:
		s.step(st, op{kind: opPropose, issued: s.issued})
	case outAbandoned:
		s.step(st, op{kind: opAbandon})
	default:
		s.step(st, op{kind: opProve})
		for range n.rounds {
			s.reject(st)
			s.step(st, op{kind: opPatch})
		}
		switch n.out {
		case outGap:
			s.reject(st)
		case outTrue:
			s.step(st, op{kind: opConfirm})
		case outFalseFix:
			s.step(st, op{kind: opFalse, issue: s.reject(st)})
		case outModFix:
			issue := s.reject(st)
			s.step(st, op{kind: opPropose, issue: issue, issued: s.issued})
		case outFixSub:
			issue := s.reject(st)
			b := s.begin()
			sub := s.newStatement(b, "normal", s.premises(st.hypothesis), "pending")
			s.record(b, st, op{kind: opFixSub, issue: issue, ids: []string{sub.id}})
			s.live(n.fix, sub)
			if n.confirm {
				s.step(st, op{kind: opConfirm})
			}
		}
	}
	s.done(st)
}

// reject records an issue and returns its number.
func (s *sim) reject(st *statement) int {
	st.nIssues++
	s.step(st, op{kind: opReject})
	return st.nIssues
}

// changes counts the changes run makes for a plan, so that the sim knows from the
// first change which ones keep their backups.
func changes(plans []*planProblem) int {
	var live func(n *node) int
	live = func(n *node) int {
		c := 0
		if len(n.decomp) > 0 {
			c++
			for _, d := range n.decomp {
				c += live(d)
			}
		}
		switch n.out {
		case outPending:
		case outFalseProve, outModProve, outAbandoned:
			c++
		default:
			c += 1 + 2*n.rounds
			switch n.out {
			case outGap, outTrue:
				c++
			case outFalseFix, outModFix:
				c += 2
			case outFixSub:
				c += 2 + live(n.fix)
				if n.confirm {
					c++
				}
			}
		}
		return c
	}
	c := 0
	for _, pp := range plans {
		c += 1 + pp.orphansNext
		if pp.solve {
			c++
		}
		for _, root := range pp.roots {
			c += 1 + live(root)
		}
	}
	return c
}

var strategies = []string{"direct", "contradiction", "case_analysis", "backward"}
var strategyWords = map[string]string{"direct": "Direct", "contradiction": "Contradiction", "case_analysis": "Case analysis", "backward": "Backward"}

// replay runs a statement's ops on a worker: each backs the statement up (when its
// change keeps backups) and changes it; then the statement's file is written.
func replay(cfg *Config, st *statement, w *writer) {
	for _, o := range st.ops {
		if o.change != "" {
			w.writeNow(w.history, o.change+"/"+st.id+".json", st.encode(), true)
		}
		switch o.kind {
		case opDecompose:
			st.prelim = append(st.prelim, o.ids...)
			st.status = word(cfg, model.PhaseAwaitingSubs)
			st.progresses = append(st.progresses, "DECOMPOSED: Created "+strings.Join(o.ids, ", ")+". Rationale: "+st.text.rationale())
		case opProve:
			strategy := st.text.pick(strategies)
			lo, hi := math.Log(float64(cfg.MinProof)), math.Log(float64(cfg.MaxProof))
			size := int(math.Exp(lo + (hi-lo)*st.text.r.Float64()))
			proof, steps, starts := st.text.proof(strategy, size, cfg.MaxProof, st.prelim)
			st.setProof(proof, starts)
			st.cot = []string{"Reduce to the key estimate.", "Check the boundary cases."}
			st.ref = append([]string{}, st.prelim...)
			st.status = word(cfg, model.PhaseAwaitingCheck)
			st.progresses = append(st.progresses, fmt.Sprintf("PROOF: %s proof with %d steps", strategyWords[strategy], steps))
		case opReject:
			n := len(st.issues) + 1
			at := st.sentence(st.text.r.IntN(max(1, len(st.starts)-1))) // never the closing "QED."
			st.gap = at.N
			st.issues = append(st.issues, model.FormatIssue(n, at.N, at.Text, st.text.pick(model.ErrorTypes), st.text.explanation(), st.text.fix()))
			st.status = word(cfg, model.PhaseHasGap)
		case opPatch:
			issue := len(st.issues)
			at := st.sentence(st.gap - 1)
			end := at.Start + strings.Index(st.proof[at.Start:at.End], at.Text) + len(at.Text)
			st.insert(st.gap-1, end, " This holds because "+st.text.math()+" in every case.")
			st.responses = append(st.responses, model.FormatPatchResponse(len(st.responses)+1, issue, "justified the step at sentence "+fmt.Sprint(at.N)))
			st.status = word(cfg, model.PhaseAwaitingCheck)
		case opConfirm:
			st.status = "true"
			st.reliability = 1
			st.progresses = append(st.progresses, "VERIFIED: Proof checked and confirmed.")
		case opFalse:
			ce := "take " + st.text.math() + "; the claim fails there."
			st.status = "false"
			st.progresses = append(st.progresses, "COUNTEREXAMPLE: "+ce)
			if o.issue > 0 {
				st.responses = append(st.responses, model.FormatFalseResponse(len(st.responses)+1, o.issue, ce))
			}
		case opPropose:
			typ := st.text.pick(model.ModificationTypes)
			change := "Claim: " + st.text.claim(o.issued+1)
			st.status = word(cfg, model.PhaseNeedsDecision)
			st.progresses = append(st.progresses, "MODIFICATION PROPOSED: Type="+typ+" | "+change+" | Rationale: "+st.text.explanation())
			if o.issue > 0 {
				st.responses = append(st.responses, model.FormatModificationResponse(len(st.responses)+1, o.issue, typ, change))
			}
		case opAbandon:
			st.status = "abandoned"
			st.progresses = append(st.progresses, "ABANDONED: no longer needed after a change of plan")
		case opFixSub:
			sub := o.ids[0]
			st.prelim = append(st.prelim, sub)
			st.responses = append(st.responses, model.FormatSubstatementResponse(len(st.responses)+1, o.issue, sub, "fills the gap with a lemma of its own"))
			st.progresses = append(st.progresses, fmt.Sprintf("DECOMPOSED: %s fills the gap at sentence %d (Issue #%d)", sub, st.gap, o.issue))
			st.status = word(cfg, model.PhaseAwaitingSubs)
			if st.status == "awaiting_substatements" {
				st.status = "awaiting_substatement" // the fixer's own word (FORMAT.md)
			}
		}
	}
	w.writeNow(w.statements, st.id+".json", st.encode(), false)
}

func (s *sim) config() []byte {
	return pyjson.EncodeIndent(pyjson.Obj(
		pyjson.M("p", pyjson.Str(s.last["p"])), pyjson.M("s", pyjson.Str(s.last["s"])),
		pyjson.M("e", pyjson.Str(s.last["e"])), pyjson.M("l", pyjson.Str(s.last["l"])),
	))
}

// ---- the writer: files go out on a few workers; the log is one buffered stream -------

// writeJob is a statement to replay and write, or one file to write.
type writeJob struct {
	st    *statement
	fd    int // the folder path is relative to
	path  string
	data  []byte
	mkdir bool // make path's folder first
}

// writer writes relative to the three folders it writes in, opened once: a create then
// looks up one or two names, not the whole path.
type writer struct {
	cfg                           *Config
	history, statements, problems int
	names                         map[int]string
	jobs                          chan writeJob
	wg                            sync.WaitGroup
	mu                            sync.Mutex
	err                           error
	log                           *os.File
	buf                           *bufio.Writer
	dir                           string
}

func newWriter(dir string, cfg *Config) (*writer, error) {
	w := &writer{cfg: cfg, dir: dir, jobs: make(chan writeJob, 1024), names: map[int]string{}}
	for _, d := range []struct {
		fd   *int
		name string
	}{{&w.history, "history"}, {&w.statements, "statement"}, {&w.problems, "problem"}} {
		fd, err := unix.Open(filepath.Join(dir, d.name), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			w.closeFolders()
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, d.name), err)
		}
		*d.fd, w.names[fd] = fd, d.name
	}
	f, err := os.Create(filepath.Join(dir, "history", "log.jsonl"))
	if err != nil {
		w.closeFolders()
		return nil, err
	}
	w.log, w.buf = f, bufio.NewWriterSize(f, 1<<20)
	for range max(2, runtime.GOMAXPROCS(0)) {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for j := range w.jobs {
				if j.st != nil {
					replay(w.cfg, j.st, w)
				} else {
					w.writeNow(j.fd, j.path, j.data, j.mkdir)
				}
			}
		}()
	}
	return w, nil
}

func (w *writer) closeFolders() {
	for fd := range w.names {
		unix.Close(fd)
	}
}

func (w *writer) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
}

// write has a worker write a file under history/ (a problem's backup) or, with fd,
// elsewhere.
func (w *writer) write(path string, data []byte, mkdir bool) {
	w.jobs <- writeJob{fd: w.history, path: path, data: data, mkdir: mkdir}
}

func (w *writer) writeProblem(p *problem) {
	w.jobs <- writeJob{fd: w.problems, path: p.id + ".json", data: p.encode()}
}

// statement has a worker replay a statement the sim is done with, and write it.
func (w *writer) statement(st *statement) { w.jobs <- writeJob{st: st} }

// writeNow writes a new file relative to the folder fd, making its folder first when
// asked (a change's backup folder: each change backs up one object at most).
func (w *writer) writeNow(fd int, path string, data []byte, mkdir bool) {
	name := func() string { return filepath.Join(w.dir, w.names[fd], filepath.FromSlash(path)) }
	if mkdir {
		if err := unix.Mkdirat(fd, filepath.Dir(path), 0o755); err != nil {
			w.fail(fmt.Errorf("%s: %w", filepath.Dir(name()), err))
			return
		}
	}
	f, err := unix.Openat(fd, path, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o644)
	if err != nil {
		w.fail(fmt.Errorf("%s: %w", name(), err))
		return
	}
	for len(data) > 0 && err == nil {
		var n int
		n, err = unix.Write(f, data)
		if errors.Is(err, unix.EINTR) {
			err = nil
		}
		data = data[n:]
	}
	if cerr := unix.Close(f); err == nil {
		err = cerr
	}
	if err != nil {
		w.fail(fmt.Errorf("%s: %w", name(), err))
	}
}

func (w *writer) logLine(line []byte) {
	w.buf.Write(line)
	w.buf.WriteByte('\n')
}

func (w *writer) close(config []byte) error {
	close(w.jobs)
	w.wg.Wait()
	w.closeFolders()
	if err := w.buf.Flush(); err != nil {
		w.fail(err)
	}
	if err := w.log.Close(); err != nil {
		w.fail(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "config.json"), config, 0o644); err != nil {
		w.fail(err)
	}
	return w.err
}
