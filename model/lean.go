package model

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"referee/model/pyjson"
)

// A folder of 10,000 statements holds some 50 MB of proof text, and a session looks at a
// few dozen proofs. Decoding, checking and storing that text cost more than reading the
// files, and kept it all in memory. So a snapshot reads statements lean (StatementLean):
// a proof text longer than leanProof bytes stays in its file, where the load only finds
// its closing quote, and is read, checked and decoded when first asked for
// (Proof.Text). The statement's document is not kept either: Statement.Document reads
// it again. Everything else of the statement is read and checked as before.
const leanProof = 256

// File is the file a lean statement was read from, and how to read it again.
type File struct {
	Path    string // relative to the contents folder, e.g. "statement/s-007.json"
	Version string // Version of the bytes the statement was read from
	Read    func() ([]byte, error)
}

// ChangedError says a lean statement's file is no longer the one its snapshot read:
// what was left in it belongs to a newer version, which only a newer snapshot has.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string { return e.Path + " has changed since it was loaded" }

// TextError is a fault in a proof text a lean load left in its file (so the file is not
// valid JSON after all). Err is the *SyntaxError, placed in the whole file.
type TextError struct {
	Path string
	Err  error
}

func (e *TextError) Error() string { return e.Path + ": proof.full: " + e.Err.Error() }
func (e *TextError) Unwrap() error { return e.Err }

// read reads the file again, if it is still the version read.
func (f *File) read() ([]byte, error) {
	data, err := f.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	if Version(data) != f.Version {
		return nil, &ChangedError{Path: f.Path}
	}
	return data, nil
}

// ProofText is a proof text a lean load left in its file: the bytes between the quotes
// of proof.full. Text reads them again, checks and decodes them on first use, and keeps
// what it found from then on: the text, or a fault in it, or that the file changed, all
// settled for the version the snapshot read. A failed read (a file gone, too many open
// files) is tried again next time.
type ProofText struct {
	file  *File
	off   int // of the first byte after the opening quote
	blank bool
	read  atomic.Pointer[textRead]
}

type textRead struct {
	text string
	err  error
}

// Text is the proof text, read from the file on first use.
func (t *ProofText) Text() (string, error) {
	r := t.read.Load()
	if r == nil {
		r = &textRead{}
		data, err := t.file.read()
		var changed *ChangedError
		switch {
		case errors.As(err, &changed):
			r.err = err
		case err != nil:
			return "", err
		default:
			if r.text, err = pyjson.DecodeString(data, t.off-1); err != nil {
				r.err = &TextError{Path: t.file.Path, Err: err}
			}
		}
		t.read.Store(r)
	}
	return r.text, r.err
}

// Text is the proof's text: Full, or what a lean load left in the file.
func (p Proof) Text() (string, error) {
	if p.Body == nil {
		return p.Full, nil
	}
	return p.Body.Text()
}

// Ready reports whether Text answers without reading a file: the text is in the
// statement, or was read already. The workbench reads the others in a command.
func (p Proof) Ready() bool { return p.Body == nil || p.Body.read.Load() != nil }

// Empty reports whether the proof has no text at all ("full" missing or "").
func (p Proof) Empty() bool { return p.Full == "" && p.Body == nil }

// Blank reports whether the proof's text is empty or white space only.
func (p Proof) Blank() bool {
	if p.Body != nil {
		return p.Body.blank
	}
	return strings.TrimSpace(p.Full) == ""
}

// StatementLean reads a statement file as a snapshot keeps it: the typed view without
// Doc, and a long proof text left in the file (see leanProof). It fails where Parse
// fails, except for a fault inside the proof text left in the file: Proof.Text reports
// that one. data is not kept; file reads it again.
func StatementLean(data []byte, file *File) (*Statement, error) {
	return statementTree(data, file, nil)
}

// statementTree reads a statement from its parser's nodes, leaving a long proof text in
// the file and the strings of the members drop names unkept.
func statementTree(data []byte, file *File, drop []string) (*Statement, error) {
	t, err := pyjson.ParseTree(data, pyjson.Lazy{Outer: "proof", Inner: "full", Min: leanProof, Drop: drop})
	if err != nil {
		return nil, err
	}
	defer t.Release()
	s := &Statement{File: file}
	s.read(&reader{root: t.Root()}) // its strings are parts of the tree's arena, which s keeps
	if off, n, ok := t.Lazy(); ok {
		s.Proof.Body = &ProofText{file: file, off: off, blank: pyjson.BlankString(data[off : off+n])}
	}
	return s, nil
}

// skimmed are the texts of a statement that the status of a folder does not read: its
// notes, its proof's outline, and its issues and responses (only how many there are).
var skimmed = []string{"progresses", "proof.cot", "validation.issues", "validation.responses"}

// StatementSkim is StatementLean for a caller that reads none of a statement's texts but
// its claim and premises, as `referee status` does: the notes (Progresses), the proof's
// outline (Proof.Cot) and the issues and responses are checked as StatementLean checks
// them, so a file fails where it fails, but not kept: each reads as "", and the lists
// keep their lengths. Document and Proof.Text read the file again, whole.
func StatementSkim(data []byte, file *File) (*Statement, error) {
	return statementTree(data, file, skimmed)
}

// Document is the statement's whole object as written: Doc, or for a lean statement its
// file read and parsed again (a ChangedError if it is no longer the version read).
func (s *Statement) Document() (pyjson.Value, error) {
	if s.File == nil {
		return s.Doc, nil
	}
	data, err := s.File.read()
	if err != nil {
		return pyjson.Value{}, err
	}
	doc, err := pyjson.Parse(data)
	if err != nil {
		return pyjson.Value{}, fmt.Errorf("%s: not valid JSON: %w", s.File.Path, err)
	}
	return doc, nil
}
