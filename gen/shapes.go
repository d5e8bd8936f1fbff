package gen

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"referee/model"
	"referee/model/pyjson"
)

// Shapes users make that once went quadratic or unbounded (issue 12): a deep chain of
// sub-statements, a chain of citations, a statement with many children, a huge claim,
// a long proof and a long change log. `referee-bench` opens each; WriteShape writes one
// into a new folder.

// Shape names one of them.
type Shape string

const (
	ShapeChain     Shape = "chain"     // n statements, each the sub-statement of the one before
	ShapeCitations Shape = "citations" // n open statements, each citing the next in its proof
	ShapeFanout    Shape = "fanout"    // one statement with n sub-statements
	ShapeBigClaim  Shape = "bigclaim"  // a statement whose claim is n bytes
	ShapeLongProof Shape = "longproof" // a statement whose proof is n sentences
	ShapeBigLog    Shape = "biglog"    // a small tree with a change log of n bytes
)

// Shapes is every shape, in the order bench shows them.
var Shapes = []Shape{ShapeChain, ShapeCitations, ShapeFanout, ShapeBigClaim, ShapeLongProof, ShapeBigLog}

// WriteShape writes a folder of one shape, of size n (statements, bytes or sentences as
// the shape says), under one problem p-001.
func WriteShape(dir string, shape Shape, n int) error {
	for _, d := range []string{"problem", "statement", "history"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	ids := make([]string, 0, n)
	last := "s-000"
	next := func() string {
		id, err := model.NextID(last)
		if err != nil {
			panic(err) // counters only grow
		}
		last = id
		ids = append(ids, id)
		return id
	}
	type st struct {
		claim, proof string
		prelim, refs []string
		status       string
	}
	var sts []st
	count := n
	switch shape {
	case ShapeChain, ShapeCitations:
	case ShapeFanout:
		count = n + 1
	case ShapeBigClaim, ShapeLongProof, ShapeBigLog:
		count = 10
	default:
		return fmt.Errorf("no shape %q: want one of %v", shape, Shapes)
	}
	for i := range count {
		next()
		sts = append(sts, st{claim: fmt.Sprintf("For every integer $n \\ge %d$, $x_{%d} \\to 0$.", i, i), status: "pending"})
	}
	for i := range sts {
		switch {
		case shape == ShapeChain && i+1 < len(sts):
			sts[i].prelim = []string{ids[i+1]}
		case shape == ShapeCitations && i+1 < len(sts):
			sts[i].refs = []string{ids[i+1]}
			sts[i].proof = "By " + ids[i+1] + "."
		case shape == ShapeFanout && i == 0:
			sts[0].prelim = ids[1:]
		case shape != ShapeChain && shape != ShapeCitations && shape != ShapeFanout && i > 0:
			sts[0].prelim = append(sts[0].prelim, ids[i])
		}
	}
	switch shape {
	case ShapeBigClaim:
		var b strings.Builder
		for b.Len() < n {
			fmt.Fprintf(&b, "the value $a_{%d} + b_{%d}$ is at most $c^{%d}$ and ", b.Len(), b.Len()%97, b.Len()%13)
		}
		sts[0].claim = "For every integer $n$, " + b.String()[:n]
	case ShapeLongProof:
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "Step %d: since $x_{%d} \\le x_{%d}$, the bound holds. ", i, i, i+1)
		}
		sts[0].proof = b.String()
		sts[0].status = "awaiting_verification"
	}
	for i, s := range sts {
		doc := model.NewStatement(ids[i], "normal", []string{s.claim}, nil, s.status)
		doc.Set("preliminaries", pyjson.Strs(s.prelim))
		doc.Set("proof", pyjson.Obj(pyjson.M("cot", pyjson.Strs(nil)), pyjson.M("full", pyjson.Str(s.proof)), pyjson.M("ref", pyjson.Strs(s.refs))))
		if err := os.WriteFile(filepath.Join(dir, "statement", ids[i]+".json"), pyjson.EncodeIndent(doc), 0o644); err != nil {
			return err
		}
	}
	p := model.NewProblem("p-001", nil, []string{"Show the " + string(shape) + "."}, "unresolved", "", "")
	p.Set("preliminaries", pyjson.Strs(ids[:1]))
	if err := os.WriteFile(filepath.Join(dir, "problem", "p-001.json"), pyjson.EncodeIndent(p), 0o644); err != nil {
		return err
	}
	lastLog, err := writeShapeLog(filepath.Join(dir, "history", "log.jsonl"), shape, n, ids, last)
	if err != nil {
		return err
	}
	config := fmt.Sprintf("{\n    \"p\": \"p-001\",\n    \"s\": %q,\n    \"e\": \"e-000\",\n    \"l\": %q\n}\n", last, lastLog)
	return os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o644)
}

// writeShapeLog writes the log: one change creating everything, then (biglog) changes
// touching s-001 until the log is n bytes. It returns the last change's ID.
func writeShapeLog(path string, shape Shape, n int, ids []string, lastS string) (string, error) {
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	line := func(lid string, created, modified []string) int {
		b := pyjson.EncodeLine(pyjson.Obj(
			pyjson.M(lid, pyjson.Obj(pyjson.M("creation", pyjson.Strs(created)), pyjson.M("modification", pyjson.Strs(modified)))),
			pyjson.M("current", pyjson.Strs([]string{"p-001", lastS, "e-000"}))))
		w.Write(b)
		w.WriteByte('\n')
		return len(b) + 1
	}
	lid := "l-001"
	size := line(lid, append([]string{"p-001"}, ids...), nil)
	for shape == ShapeBigLog && size < n {
		if lid, err = model.NextID(lid); err != nil {
			return "", err
		}
		size += line(lid, nil, []string{ids[0]})
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	return lid, f.Close()
}
