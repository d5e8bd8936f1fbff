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
// backups and config.json agree as they would after a real run. Files are written
// without locks or fsync: this is a fixture, not a change.
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
	"strings"
	"sync"

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
}

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
	w, err := newWriter(dir)
	if err != nil {
		return err
	}
	s := &sim{cfg: &cfg, r: r, w: w, last: map[string]string{"p": "p-000", "s": "s-000", "e": "e-000", "l": "l-000"}}
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

type sim struct {
	cfg    *Config
	r      *rand.Rand
	w      *writer
	last   map[string]string
	issued uint64 // statements created so far: each one's text stream
	probs  []*problem
}

// statement is a statement object during the run.
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
}

func (st *statement) objectID() string { return st.id }

func (st *statement) encode() []byte {
	doc := model.NewStatement(st.id, st.typ, st.conclusion, st.hypothesis, st.status)
	doc.Set("preliminaries", pyjson.Strs(st.prelim))
	doc.Set("reliability", pyjson.Float(st.reliability))
	doc.Set("progresses", pyjson.Strs(st.progresses))
	doc.Set("proof", pyjson.Obj(pyjson.M("cot", pyjson.Strs(st.cot)), pyjson.M("full", pyjson.Str(st.proof)), pyjson.M("ref", pyjson.Strs(st.ref))))
	doc.Set("validation", pyjson.Obj(pyjson.M("issues", pyjson.Strs(st.issues)), pyjson.M("responses", pyjson.Strs(st.responses))))
	return pyjson.EncodeIndent(doc)
}

type problem struct {
	id                        string
	hypothesis, objectives    []string
	status, priority, summary string
	progresses, prelim        []string
	solutionCot, solutionRef  []string
	solutionFull              string
	planned                   *planProblem
}

func (p *problem) objectID() string { return p.id }

func (p *problem) encode() []byte {
	doc := model.NewProblem(p.id, p.hypothesis, p.objectives, p.status, p.priority, p.summary)
	doc.Set("progresses", pyjson.Strs(p.progresses))
	doc.Set("preliminaries", pyjson.Strs(p.prelim))
	doc.Set("solution", pyjson.Obj(pyjson.M("cot", pyjson.Strs(p.solutionCot)), pyjson.M("full", pyjson.Str(p.solutionFull)), pyjson.M("ref", pyjson.Strs(p.solutionRef))))
	return pyjson.EncodeIndent(doc)
}

type object interface {
	objectID() string
	encode() []byte
}

// batch is one change: what it created and modified, and the backups it owes.
type batch struct {
	s                 *sim
	created, modified []string
	backups           [][]byte
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

// touch records a modification and backs the object up as it is before it.
func (b *batch) touch(o object) {
	b.modified = append(b.modified, o.objectID())
	b.backups = append(b.backups, o.encode())
}

func (b *batch) commit() {
	s := b.s
	lid := s.newID(model.KindChange)
	for i, id := range b.modified {
		s.w.write(filepath.Join("history", lid, id+".json"), b.backups[i], i == 0)
	}
	line := pyjson.Obj(
		pyjson.M(lid, pyjson.Obj(pyjson.M("creation", pyjson.Strs(b.created)), pyjson.M("modification", pyjson.Strs(b.modified)))),
		pyjson.M("current", pyjson.Strs([]string{s.last["p"], s.last["s"], s.last["e"]})),
	)
	s.w.logLine(pyjson.EncodeLine(line))
}

func (s *sim) word(p model.Phase) string { return model.StatusWord(p, s.cfg.Vocabulary) }

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

func (s *sim) final(o object) {
	dir := "statement"
	if _, ok := o.(*problem); ok {
		dir = "problem"
	}
	s.w.write(filepath.Join(dir, o.objectID()+".json"), o.encode(), false)
	if st, ok := o.(*statement); ok {
		st.proof = "" // written: let the text go
	}
}

func (s *sim) run(plans []*planProblem) {
	for i, pp := range plans {
		p := s.setUp(i, pp)
		s.probs = append(s.probs, p)
		for _, root := range pp.roots {
			b := s.begin()
			st := s.newStatement(b, "normal", s.premises(p.hypothesis), "pending")
			b.touch(p)
			p.progresses = append(p.progresses, "("+st.id+") "+st.conclusion[0])
			b.commit()
			s.live(root, st)
		}
		for range pp.orphansNext {
			b := s.begin()
			st := s.newStatement(b, "normal", s.premises(p.hypothesis), "pending")
			b.commit()
			s.final(st)
		}
	}
	for i := len(s.probs) - 1; i >= 0; i-- {
		p := s.probs[i]
		if !p.planned.solve {
			continue
		}
		b := s.begin()
		b.touch(p)
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
		s.final(p)
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
			s.final(st)
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
			s.final(st)
		}
		p.objectives = []string{"Establish the case " + t.claim(uint64(index)+1)}
		p.priority = [...]string{"high", "medium", "low"}[s.r.IntN(3)]
		p.summary = "Split off because " + t.rationale() + "."
		p.id = s.newID(model.KindProblem)
		b.created = append(b.created, p.id)
		b.touch(parent)
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

// live runs one statement's story to its planned end, then writes it.
func (s *sim) live(n *node, st *statement) {
	if len(n.decomp) > 0 {
		b := s.begin()
		subs := make([]*statement, len(n.decomp))
		ids := make([]string, len(subs))
		for i := range subs {
			subs[i] = s.newStatement(b, "normal", s.premises(st.hypothesis), "pending")
			ids[i] = subs[i].id
		}
		b.touch(st)
		st.prelim = append(st.prelim, ids...)
		st.status = s.word(model.PhaseAwaitingSubs)
		st.progresses = append(st.progresses, "DECOMPOSED: Created "+strings.Join(ids, ", ")+". Rationale: "+st.text.rationale())
		b.commit()
		for i, c := range n.decomp {
			s.live(c, subs[i])
		}
	}
	switch n.out {
	case outPending:
	case outFalseProve:
		s.markFalse(st, 0)
	case outModProve:
		s.propose(st, 0)
	case outAbandoned:
		s.change(st, func() {
			st.status = "abandoned"
			st.progresses = append(st.progresses, "ABANDONED: no longer needed after a change of plan")
		})
	default:
		s.prove(st)
		for range n.rounds {
			s.reject(st)
			s.patch(st)
		}
		switch n.out {
		case outGap:
			s.reject(st)
		case outTrue:
			s.confirm(st)
		case outFalseFix:
			s.markFalse(st, s.reject(st))
		case outModFix:
			s.propose(st, s.reject(st))
		case outFixSub:
			issue := s.reject(st)
			b := s.begin()
			sub := s.newStatement(b, "normal", s.premises(st.hypothesis), "pending")
			b.touch(st)
			st.prelim = append(st.prelim, sub.id)
			st.responses = append(st.responses, model.FormatSubstatementResponse(len(st.responses)+1, issue, sub.id, "fills the gap with a lemma of its own"))
			st.progresses = append(st.progresses, fmt.Sprintf("DECOMPOSED: %s fills the gap at sentence %d (Issue #%d)", sub.id, st.gap, issue))
			st.status = s.word(model.PhaseAwaitingSubs)
			if st.status == "awaiting_substatements" {
				st.status = "awaiting_substatement" // the fixer's own word (FORMAT.md)
			}
			b.commit()
			s.live(n.fix, sub)
			if n.confirm {
				s.confirm(st)
			}
		}
	}
	s.final(st)
}

// change is a one-object modification batch.
func (s *sim) change(st *statement, f func()) {
	b := s.begin()
	b.touch(st)
	f()
	b.commit()
}

var strategies = []string{"direct", "contradiction", "case_analysis", "backward"}
var strategyWords = map[string]string{"direct": "Direct", "contradiction": "Contradiction", "case_analysis": "Case analysis", "backward": "Backward"}

func (s *sim) prove(st *statement) {
	s.change(st, func() {
		strategy := st.text.pick(strategies)
		lo, hi := math.Log(float64(s.cfg.MinProof)), math.Log(float64(s.cfg.MaxProof))
		size := int(math.Exp(lo + (hi-lo)*st.text.r.Float64()))
		proof, steps := st.text.proof(strategy, size, s.cfg.MaxProof, st.prelim)
		st.proof = proof
		st.cot = []string{"Reduce to the key estimate.", "Check the boundary cases."}
		st.ref = append([]string{}, st.prelim...)
		st.status = s.word(model.PhaseAwaitingCheck)
		st.progresses = append(st.progresses, fmt.Sprintf("PROOF: %s proof with %d steps", strategyWords[strategy], steps))
	})
}

// reject records an issue at a sentence of the proof and returns its number.
func (s *sim) reject(st *statement) int {
	n := len(st.issues) + 1
	s.change(st, func() {
		sents := model.SplitSentences(st.proof)
		at := sents[st.text.r.IntN(max(1, len(sents)-1))] // never the closing "QED."
		st.gap = at.N
		st.issues = append(st.issues, model.FormatIssue(n, at.N, at.Text, st.text.pick(model.ErrorTypes), st.text.explanation(), st.text.fix()))
		st.status = s.word(model.PhaseHasGap)
	})
	return n
}

func (s *sim) patch(st *statement) {
	issue := len(st.issues)
	s.change(st, func() {
		sents := model.SplitSentences(st.proof)
		at := sents[st.gap-1]
		end := at.Start + strings.Index(st.proof[at.Start:at.End], at.Text) + len(at.Text)
		st.proof = st.proof[:end] + " This holds because " + st.text.math() + " in every case." + st.proof[end:]
		st.responses = append(st.responses, model.FormatPatchResponse(len(st.responses)+1, issue, "justified the step at sentence "+fmt.Sprint(at.N)))
		st.status = s.word(model.PhaseAwaitingCheck)
	})
}

func (s *sim) confirm(st *statement) {
	s.change(st, func() {
		st.status = "true"
		st.reliability = 1
		st.progresses = append(st.progresses, "VERIFIED: Proof checked and confirmed.")
	})
}

func (s *sim) markFalse(st *statement, issue int) {
	s.change(st, func() {
		ce := "take " + st.text.math() + "; the claim fails there."
		st.status = "false"
		st.progresses = append(st.progresses, "COUNTEREXAMPLE: "+ce)
		if issue > 0 {
			st.responses = append(st.responses, model.FormatFalseResponse(len(st.responses)+1, issue, ce))
		}
	})
}

func (s *sim) propose(st *statement, issue int) {
	s.change(st, func() {
		typ := st.text.pick(model.ModificationTypes)
		change := "Claim: " + st.text.claim(s.issued+1)
		st.status = s.word(model.PhaseNeedsDecision)
		st.progresses = append(st.progresses, "MODIFICATION PROPOSED: Type="+typ+" | "+change+" | Rationale: "+st.text.explanation())
		if issue > 0 {
			st.responses = append(st.responses, model.FormatModificationResponse(len(st.responses)+1, issue, typ, change))
		}
	})
}

func (s *sim) config() []byte {
	return pyjson.EncodeIndent(pyjson.Obj(
		pyjson.M("p", pyjson.Str(s.last["p"])), pyjson.M("s", pyjson.Str(s.last["s"])),
		pyjson.M("e", pyjson.Str(s.last["e"])), pyjson.M("l", pyjson.Str(s.last["l"])),
	))
}

// ---- the writer: files go out on a few goroutines; the log is one buffered stream -----

type writeJob struct {
	path  string
	data  []byte
	mkdir bool
}

type writer struct {
	dir  string
	jobs chan writeJob
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
	log  *os.File
	buf  *bufio.Writer
}

func newWriter(dir string) (*writer, error) {
	f, err := os.Create(filepath.Join(dir, "history", "log.jsonl"))
	if err != nil {
		return nil, err
	}
	w := &writer{dir: dir, jobs: make(chan writeJob, 256), log: f, buf: bufio.NewWriterSize(f, 1<<20)}
	for range max(2, runtime.GOMAXPROCS(0)) {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for j := range w.jobs {
				path := filepath.Join(w.dir, j.path)
				var err error
				if j.mkdir {
					err = os.Mkdir(filepath.Dir(path), 0o755)
				}
				if err == nil {
					err = os.WriteFile(path, j.data, 0o644)
				}
				if err != nil {
					w.fail(err)
				}
			}
		}()
	}
	return w, nil
}

func (w *writer) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
}

func (w *writer) write(path string, data []byte, mkdir bool) {
	w.jobs <- writeJob{path: path, data: data, mkdir: mkdir}
}

func (w *writer) logLine(line []byte) {
	w.buf.Write(line)
	w.buf.WriteByte('\n')
}

func (w *writer) close(config []byte) error {
	close(w.jobs)
	w.wg.Wait()
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
