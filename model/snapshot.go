package model

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"sync"
)

// Snapshot is one consistent view of a contents folder. It is immutable once built:
// the store makes a new one for every change it sees, sharing unchanged objects.
type Snapshot struct {
	Problems    map[string]*Problem
	Statements  Objects[*Statement]
	Experiences map[string]*Experience
	Config      *Config
	Log         []LogEntry
	// LogHead is what Log leaves out: the workbench holds only the log's tail
	// (store.LoadTail), and says how many lines came before it.
	LogHead LogHead
	// LogMark is the store's note of how far Log was read, so that a reload reads on
	// from there (opaque here).
	LogMark any
	// Versions holds the content hash of every object file as last read, by object ID.
	Versions Objects[string]
	// Broken lists files that could not be read or parsed, by path relative to the folder.
	Broken []BrokenFile
	// Vocab is the status vocabulary the folder uses (FORMAT.md "Statuses").
	Vocab Vocab
	// VocabCount is the count Vocab was detected from, when VocabCounted: a reload
	// updates it from the objects it read again instead of counting 100k statuses.
	VocabCount   VocabCount
	VocabCounted bool
}

// LogHead is the part of history/log.jsonl before the first line a snapshot holds:
// Lines lines (blank ones too), Changes of them not blank, ending at byte Offset (a
// line's start). The zero LogHead means the snapshot holds the whole log.
type LogHead struct {
	Lines, Changes int
	Offset         int64
}

// LogChanges is how many changes (non-blank lines) the log has, held or not.
func (s *Snapshot) LogChanges() int { return s.LogHead.Changes + len(s.Log) }

// BrokenFile is a file that is not (or not yet) a valid object. ID is the object the
// file name claims to be, when it has one; the snapshot keeps the last good version of
// that object if it had one.
type BrokenFile struct {
	Path   string
	ID     string
	Reason string
}

// Exists reports whether a problem, statement or experience with the ID is loaded.
func (s *Snapshot) Exists(id string) bool {
	switch KindOf(id) {
	case KindProblem:
		return s.Problems[id] != nil
	case KindStatement:
		return s.Statements.Get(id) != nil
	case KindExperience:
		return s.Experiences[id] != nil
	}
	return false
}

// DetectVocab tells which vocabulary a set of statuses uses: the one with more
// statuses only it has; VocabUnknown when nothing tells (writers then use P013).
func DetectVocab(statuses func(yield func(string) bool)) Vocab {
	var c VocabCount
	for st := range statuses {
		c.Add(st)
	}
	return c.Vocab()
}

// VocabCount counts statuses that only one vocabulary has, for DetectVocab; counts of
// parts of a folder add up.
type VocabCount struct{ P013, P014 int }

// Add counts one status.
func (c *VocabCount) Add(status string) {
	switch _, v, _ := StatusInfo(status); v {
	case P013:
		c.P013++
	case P014:
		c.P014++
	}
}

// Vocab is the vocabulary the statuses counted use.
func (c VocabCount) Vocab() Vocab {
	switch {
	case c.P014 > c.P013:
		return P014
	case c.P013 > 0:
		return P013
	}
	return VocabUnknown
}

// Statuses yields every object status in the snapshot.
func (s *Snapshot) Statuses(yield func(string) bool) {
	for _, p := range s.Problems {
		if !yield(p.Status) {
			return
		}
	}
	for _, st := range s.Statements.All() {
		if !yield(st.Status) {
			return
		}
	}
}

// Version is the content hash of an object file: what a reviewer saw, so that a change
// can be refused when the object moved on since. It only has to tell two versions of one
// file apart, not resist forgery, so it is CRC-32C (in hardware on amd64 and arm64, and
// 1/2³² odds that a change goes unnoticed) rather than a cryptographic hash: sha256 was
// a tenth of a load's CPU.
func Version(data []byte) string {
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc32.Checksum(data, castagnoli()))
	return hex.EncodeToString(sum[:])
}

// castagnoli is made on first use, not at every process start.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })
