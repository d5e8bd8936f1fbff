package model

import (
	"errors"
	"strconv"
	"unsafe"

	"referee/model/pyjson"
)

// A Skimmer reads statements for one goroutine of a load, skimmed (Statement, as
// StatementSkim: `referee status` reads every statement of a folder and keeps few of
// their bytes) or lean (Lean, as StatementLean: the workbench's load, whose first frame
// waits for every statement). A file of the shape the agents write (the keys of
// FORMAT.md, each once, each of its type) is read in one pass over its bytes that checks
// them as the parser does but builds no tree, and nothing for the texts a skimmed read
// drops; any other file, a broken one included, is read by StatementSkim or
// StatementLean, whose answer (or error) it is. What the statements keep (their strings,
// lists, structs) is put in slabs of the Skimmer's own rather than in an allocation
// each: a slab is held as long as any statement read into it is. Slabs start small and
// double, so that a Skimmer that reads one file (a reload) holds little more than it.
type Skimmer struct {
	// Status, when set, reads for a load that reads no statement's text back
	// (`referee status`, whose file for each is UnkeptFile): a long proof's text is one
	// of two shared bodies, blank or not, which is all status asks of it (Proof.Empty,
	// Proof.Blank), not one body each.
	Status bool
	// NoClaims, with Status, drops the conclusions as the skimmed texts are dropped (""
	// each, their count kept): status's JSON shows no claim.
	NoClaims bool

	text   []byte // the kept strings are parts of it; bytes once kept are never written over
	items  []string
	list   []string // the items of the list being read
	sts    []Statement
	bodies []ProofText
}

// UnkeptFile is the file of each statement read by a load that keeps none to read again
// (`referee status`'s): reading it fails, naming why, so a statement's Document or its
// long proof's Text fails rather than answering empty or unchecked.
var UnkeptFile = &File{Path: "statement", Read: func() ([]byte, error) { return nil, errUnkept }}

var errUnkept = errors.New("not kept by a status load, which reads no file back")

// statusBodies are the long proofs' bodies of a Status Skimmer: not blank, blank.
var statusBodies = [2]ProofText{{file: UnkeptFile}, {file: UnkeptFile, blank: true}}

// Statement reads a statement skimmed: the same statement, or the same error, as
// StatementSkim(data, file). data is not kept.
func (k *Skimmer) Statement(data []byte, file *File) (*Statement, error) {
	if s := k.statement(data, file, false); s != nil {
		return s, nil
	}
	return StatementSkim(data, file)
}

// Lean reads a statement lean: the same statement, or the same error, as
// StatementLean(data, file). data is not kept.
func (k *Skimmer) Lean(data []byte, file *File) (*Statement, error) {
	if s := k.statement(data, file, true); s != nil {
		return s, nil
	}
	return StatementLean(data, file)
}

// statement reads data in one pass, keeping the texts a skimmed read drops if keep
// says so; nil if it is not a file of the usual shape.
func (k *Skimmer) statement(data []byte, file *File, keep bool) *Statement {
	if len(k.sts) == cap(k.sts) {
		k.sts = make([]Statement, 0, grown(cap(k.sts), 1, 4, skimChunk))
	}
	k.sts = k.sts[:len(k.sts)+1]
	s := &k.sts[len(k.sts)-1]
	text, items := len(k.text), len(k.items)
	if k.read(s, data, file, keep) {
		return s
	}
	// Not a file of the usual shape: what was kept of it is unkept, and the parser reads
	// it. The bytes given up are written over only by later statements.
	*s = Statement{}
	k.sts = k.sts[:len(k.sts)-1]
	if text <= len(k.text) {
		k.text = k.text[:text]
	}
	if items <= len(k.items) {
		k.items = k.items[:items]
	}
	return nil
}

// skimChunk is how many statements (and proof bodies) a Skimmer's slab holds at most.
const skimChunk = 256

// grown is the size of a slab after one of size had: double it, from least to most, and
// at least need.
func grown(had, need, least, most int) int {
	return max(need, min(max(2*had, least), most))
}

// blankItems are the items of every skimmed list (what a list of dropped strings reads
// as: "" each, its length kept), shared: nothing writes a statement's items.
var blankItems [1024]string

// Keys of a statement, as bits of what a read has seen.
const (
	keyID = 1 << iota
	keyType
	keyConclusion
	keyHypothesis
	keyPreliminaries
	keyStatus
	keyReliability
	keyStats
	keyProgresses
	keyProof
	keyValidation
	// the keys a statement of the current format must have (reliability and stats it may lack)
	keysNeeded = keyID | keyType | keyConclusion | keyHypothesis | keyPreliminaries | keyStatus | keyProgresses | keyProof | keyValidation
)

// skimmer is one file being read by a Skimmer: data from i on.
type skimmer struct {
	k    *Skimmer
	data []byte
	i    int
	lean bool // the texts a skimmed read drops are kept (a lean read)
}

// read reads data into s, if it is a statement of the usual shape; false, with s half
// read, if not.
func (k *Skimmer) read(s *Statement, data []byte, file *File, keep bool) bool {
	r := skimmer{k: k, data: data, lean: keep}
	r.space()
	if !r.is('{') {
		return false
	}
	seen := r.members(func(key []byte) (bit int, ok bool) {
		switch string(key) {
		case "id":
			s.ID, ok = r.str()
			ok = ok && (s.ID == "" || ValidID(s.ID, KindStatement))
			return keyID, ok
		case "type":
			s.Type, ok = r.str()
			return keyType, ok
		case "conclusion":
			if k.Status && k.NoClaims {
				s.Conclusion, ok = r.blanks()
			} else {
				s.Conclusion, ok = r.strs()
			}
			return keyConclusion, ok
		case "hypothesis":
			s.Hypothesis, ok = r.strs()
			return keyHypothesis, ok
		case "preliminaries":
			s.Preliminaries, ok = r.strs()
			return keyPreliminaries, ok
		case "status":
			s.Status, ok = r.status()
			return keyStatus, ok
		case "reliability":
			s.Reliability, ok = r.number()
			return keyReliability, ok
		case "stats":
			return keyStats, r.is('{') && r.members(func(key []byte) (int, bool) {
				if string(key) != "count_usage" {
					return 0, false
				}
				f, ok := r.number()
				s.CountUsage = int(f)
				return 1, ok
			}) >= 0
		case "progresses":
			s.Progresses, ok = r.texts()
			return keyProgresses, ok
		case "proof":
			return keyProof, r.is('{') && r.members(func(key []byte) (int, bool) {
				switch string(key) {
				case "cot":
					s.Proof.Cot, ok = r.texts()
					return 1, ok
				case "full":
					return 2, r.full(s, file)
				case "ref":
					s.Proof.Ref, ok = r.strs()
					return 4, ok
				}
				return 0, false
			}) == 7
		case "validation":
			return keyValidation, r.is('{') && r.members(func(key []byte) (int, bool) {
				switch string(key) {
				case "issues":
					s.Issues, ok = r.texts()
					return 1, ok
				case "responses":
					s.Responses, ok = r.texts()
					return 2, ok
				}
				return 0, false
			}) == 3
		}
		return 0, false
	})
	r.space()
	if seen < 0 || seen&keysNeeded != keysNeeded || r.i != len(data) {
		return false
	}
	s.File = file
	return true
}

// space skips white space.
func (r *skimmer) space() { r.i = pyjson.SkipSpace(r.data, r.i) }

// is takes the byte c, if it is next.
func (r *skimmer) is(c byte) bool {
	if r.i < len(r.data) && r.data[r.i] == c {
		r.i++
		return true
	}
	return false
}

// members reads the members of an object whose '{' was read, each by value (which
// reads the value and says which bit of the keys it was), to its '}'. It is the bits
// seen, or -1 if a key is not one value takes, is repeated, or is not written as is, or
// the object is not well formed. An empty object is taken for one of another shape.
func (r *skimmer) members(value func(key []byte) (bit int, ok bool)) int {
	seen := 0
	for {
		r.space()
		if r.i >= len(r.data) || r.data[r.i] != '"' {
			return -1
		}
		end, asIs, ok := pyjson.ScanString(r.data, r.i)
		if !ok || !asIs {
			return -1
		}
		key := r.data[r.i+1 : end]
		r.i = end + 1
		r.space()
		if !r.is(':') {
			return -1
		}
		r.space()
		bit, ok := value(key)
		if !ok || seen&bit != 0 {
			return -1
		}
		seen |= bit
		r.space()
		if r.is(',') {
			continue
		}
		if r.is('}') {
			return seen
		}
		return -1
	}
}

// str reads a string and keeps its text.
func (r *skimmer) str() (string, bool) {
	if r.i >= len(r.data) || r.data[r.i] != '"' {
		return "", false
	}
	end, asIs, ok := pyjson.ScanString(r.data, r.i)
	if !ok {
		return "", false
	}
	s := r.keep(asIs, end)
	r.i = end + 1
	return s, true
}

// status is str for a statement's status: a word of the lifecycle (StatusInfo's) is
// that word, one string for every statement, and keeps no bytes; so Derive's count of
// the statuses finds each one the same string as the last, without comparing bytes.
func (r *skimmer) status() (string, bool) {
	if r.i >= len(r.data) || r.data[r.i] != '"' {
		return "", false
	}
	end, asIs, ok := pyjson.ScanString(r.data, r.i)
	if !ok {
		return "", false
	}
	if asIs {
		for _, w := range statusWords {
			if string(r.data[r.i+1:end]) == w {
				r.i = end + 1
				return w, true
			}
		}
	}
	st := r.keep(asIs, end)
	r.i = end + 1
	return st, true
}

// statusWords are the statuses StatusInfo knows, the commonest first.
var statusWords = [...]string{"true", "pending", "validating", "awaiting_verification", "has_gap",
	"awaiting_substatements", "awaiting_substatement", "needs_modification", "false", "abandoned",
	"unresolved", "solved", "resolved"}

// keep keeps the text of the checked string from r.i to its closing quote at end.
func (r *skimmer) keep(asIs bool, end int) string {
	k, n := r.k, end-r.i-1 // the text is no longer than the string as written
	if n == 0 {
		return ""
	}
	if cap(k.text)-len(k.text) < n {
		k.text = make([]byte, 0, grown(cap(k.text), n, 1<<10, 16<<10))
	}
	at := len(k.text)
	if asIs {
		k.text = append(k.text, r.data[r.i+1:end]...)
	} else {
		k.text = pyjson.AppendString(k.text, r.data, r.i, end)
	}
	if len(k.text) == at {
		return ""
	}
	return unsafe.String(&k.text[at], len(k.text)-at)
}

// strs reads a list of strings and keeps them.
func (r *skimmer) strs() ([]string, bool) {
	k := r.k
	k.list = k.list[:0]
	ok := r.items(func() bool {
		s, ok := r.str()
		k.list = append(k.list, s)
		return ok
	})
	if !ok {
		return nil, false
	}
	n := len(k.list)
	if n == 0 {
		return blankItems[:0:0], true
	}
	if cap(k.items)-len(k.items) < n {
		k.items = make([]string, 0, grown(cap(k.items), n, 16, 1024))
	}
	at := len(k.items)
	k.items = append(k.items, k.list...)
	return k.items[at : at+n : at+n], true
}

// texts reads a list of the texts a skimmed read drops: kept (strs) or blanks.
func (r *skimmer) texts() ([]string, bool) {
	if r.lean {
		return r.strs()
	}
	return r.blanks()
}

// blanks reads a list of strings, checked and dropped: "" each, as many as there are.
func (r *skimmer) blanks() ([]string, bool) {
	n := 0
	ok := r.items(func() bool {
		if r.i >= len(r.data) || r.data[r.i] != '"' {
			return false
		}
		end, _, ok := pyjson.ScanString(r.data, r.i)
		r.i = end + 1
		n++
		return ok
	})
	if !ok {
		return nil, false
	}
	if n <= len(blankItems) {
		return blankItems[:n:n], true
	}
	return make([]string, n), true
}

// items reads the items of a list, each by item, to its ']'.
func (r *skimmer) items(item func() bool) bool {
	if !r.is('[') {
		return false
	}
	r.space()
	if r.is(']') {
		return true
	}
	for {
		r.space()
		if !item() {
			return false
		}
		r.space()
		if r.is(',') {
			continue
		}
		return r.is(']')
	}
}

// number reads a number in its plain forms.
func (r *skimmer) number() (float64, bool) {
	end, ok := pyjson.ScanNumber(r.data, r.i)
	if !ok {
		return 0, false
	}
	lit := r.data[r.i:end]
	r.i = end
	f, _ := strconv.ParseFloat(unsafe.String(&lit[0], len(lit)), 64) // out of range: ±Inf, as the reader reads it
	return f, true
}

// full reads the proof's text: a long one is left in the file, as StatementLean leaves
// it (found, not checked: Proof.Text checks it when read).
func (r *skimmer) full(s *Statement, file *File) bool {
	if r.i >= len(r.data) || r.data[r.i] != '"' {
		return false
	}
	end, ok := pyjson.StringEnd(r.data, r.i)
	if !ok {
		return false
	}
	if end-r.i-1 <= leanProof {
		s.Proof.Full, ok = r.str()
		return ok
	}
	k := r.k
	if k.Status {
		s.Proof.Body = &statusBodies[0]
		if pyjson.BlankString(r.data[r.i+1 : end]) {
			s.Proof.Body = &statusBodies[1]
		}
		r.i = end + 1
		return true
	}
	if len(k.bodies) == cap(k.bodies) {
		k.bodies = make([]ProofText, 0, grown(cap(k.bodies), 1, 4, skimChunk))
	}
	k.bodies = k.bodies[:len(k.bodies)+1]
	b := &k.bodies[len(k.bodies)-1]
	b.file, b.off, b.blank = file, r.i+1, pyjson.BlankString(r.data[r.i+1:end])
	s.Proof.Body = b
	r.i = end + 1
	return true
}
