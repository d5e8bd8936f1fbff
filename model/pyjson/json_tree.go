package pyjson

// A tree parse is Parse without the document: the parser's nodes are read in place (Node),
// and one long string can be left in the data, only found (Lazy). A reader that types a
// document and keeps little of it (model's lean statements) saves building and keeping
// what it would throw away.

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// Lazy names the one string a tree parse leaves in the data: member Inner of the root's
// member Outer (an object), when it is longer than Min bytes as written.
type Lazy struct {
	Outer, Inner string
	Min          int
	// Drop names members whose strings are checked as Parse checks them but not kept:
	// each reads as "", a list of them keeps its length. "a" is the root's member a,
	// "a.b" the member b of the root's object a.
	Drop []string
}

// drops says whether the member key of the root's member outer ("" for the root's own
// members) is one that Lazy.Drop names.
func (l *Lazy) drops(outer, key string) bool {
	// Compared by length first, without cutting d: this runs for every member of the
	// root and of its objects, in every statement a status reads.
	for _, d := range l.Drop {
		if outer == "" {
			if d == key {
				return true
			}
		} else if len(d) == len(outer)+1+len(key) && d[len(outer)] == '.' && d[:len(outer)] == outer && d[len(outer)+1:] == key {
			return true
		}
	}
	return false
}

// Tree is a document parsed by ParseTree, as the parser's nodes. Its strings are parts of
// one arena, which the strings taken from it keep; Release gives the parser back. It is a
// value, so a parse allocates nothing for it.
type Tree struct{ p *parser }

// Node is one value of a Tree.
type Node struct {
	p *parser
	n node
}

// ParseTree parses data as Parse does (it fails where Parse fails, except inside the lazy
// string, which DecodeString checks when it is read) and keeps the nodes.
func ParseTree(data []byte, lazy Lazy) (Tree, error) {
	p := parsers.Get().(*parser)
	p.data, p.pos, p.lean, p.lazy = data, 0, true, lazy
	if _, err := p.parse(); err != nil {
		p.release()
		return Tree{}, err
	}
	return Tree{p: p}, nil
}

// Release gives the parser back; the tree and its nodes are not to be read after.
func (t Tree) Release() { t.p.release() }

// Root is the document's value.
func (t Tree) Root() Node { return Node{p: t.p, n: t.p.root} }

// Lazy is where the lazy string's text is in the data (the off..off+n bytes, between its
// quotes), when it was left there.
func (t Tree) Lazy() (off, n int, ok bool) {
	b := t.p.body
	return b.off, b.n, b.n >= 0
}

// Kind is the node's JSON type.
func (n Node) Kind() Kind { return n.n.kind }

// Str is the text of a string, number or literal, as Value.Str.
func (n Node) Str() string { return n.p.finish(n.n).Str }

// Member is the value of key in an object.
func (n Node) Member(key string) (Node, bool) {
	m, ok := n.p.member(n.n, key)
	return Node{p: n.p, n: m}, ok
}

// StringList is Value.StringList.
func (n Node) StringList() ([]string, bool) {
	if n.n.kind != Array {
		return nil, false
	}
	ok := true
	out := make([]string, 0, n.n.n)
	for _, it := range n.p.items[n.n.off : n.n.off+n.n.n] {
		if it.kind != String {
			ok = false
			continue
		}
		out = append(out, n.p.arena[it.off:it.off+it.n]) // a string node is never static
	}
	return out, ok
}

// leanMember parses the value of member key of an object at depth 0 or 1 of a lean
// parse: in the root's Outer object, a long Inner string is only found, not decoded.
func (p *parser) leanMember(depth int, key string) (node, error) {
	if depth == 0 {
		p.outer = key
	}
	if len(p.lazy.Drop) > 0 && !p.dropping {
		outer := ""
		if depth == 1 {
			outer = p.outer
		}
		if p.lazy.drops(outer, key) {
			p.dropping = true
			t, err := p.value(depth + 1)
			p.dropping = false
			return t, err
		}
	}
	if depth == 0 {
		if key != p.lazy.Outer {
			return p.value(1)
		}
		if err := p.dropBody(); err != nil { // of a repeated key, the last value is kept
			return node{}, err
		}
		p.inProof = true
		t, err := p.value(1)
		p.inProof = false
		return t, err
	}
	if !p.inProof || key != p.lazy.Inner {
		return p.value(2)
	}
	if err := p.dropBody(); err != nil { // a repeated Inner replaces it, whatever it holds
		return node{}, err
	}
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return p.value(2)
	}
	end, err := p.stringEnd()
	if err != nil {
		return node{}, err
	}
	if end-p.pos-1 <= p.lazy.Min {
		return p.value(2) // short: decoded now, like any string
	}
	p.body = span{off: p.pos + 1, n: end - p.pos - 1}
	p.pos = end + 1
	return node{kind: String, off: len(p.text)}, nil // "" in the document, which is not kept
}

// dropBody forgets the text found so far, which a repeated key replaces. Nothing will
// read it later, so it is checked now: Parse refuses the file if it is not valid.
func (p *parser) dropBody() error {
	if p.body.n >= 0 {
		if _, err := DecodeString(p.data, p.body.off-1); err != nil {
			return err
		}
	}
	p.body = span{n: -1}
	return nil
}

// stringEnd finds the closing quote of the string at p.pos without decoding or checking
// the bytes before it: a quote ends the string unless an odd number of backslashes
// precede it. For a string Parse accepts, that is the quote Parse ends it at.
func (p *parser) stringEnd() (int, error) {
	data := p.data
	for i := p.pos + 1; ; {
		k := bytes.IndexByte(data[i:], '"')
		if k < 0 {
			p.pos = len(data)
			return 0, p.fail("unterminated string (truncated?)")
		}
		q := i + k
		b := q
		for b > p.pos+1 && data[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q, nil
		}
		i = q + 1
	}
}

// DecodeString decodes and checks the JSON string whose opening quote is data[at]: a
// string a tree parse left in the data (Tree.Lazy), when it is wanted.
func DecodeString(data []byte, at int) (string, error) {
	p := parsers.Get().(*parser)
	p.data, p.pos = data, at
	defer p.release()
	if cap(p.text) < len(data) {
		p.text = make([]byte, 0, len(data))
	}
	off, n, err := p.str()
	if err != nil {
		return "", err
	}
	return string(p.text[off : off+n]), nil
}

// BlankString reports whether the raw bytes of a JSON string decode to white space only,
// as strings.TrimSpace sees it. It stops at the first character that is not: for a
// proof, the first.
func BlankString(raw []byte) bool {
	for i := 0; i < len(raw); {
		r, size := rune(raw[i]), 1
		switch {
		case raw[i] == '\\' && i+1 < len(raw):
			if d := unescape[raw[i+1]]; d != 0 {
				r, size = rune(d), 2
			} else if u, ok := hex4(raw, i+2); ok && raw[i+1] == 'u' {
				r, size = u, 6
			}
		case raw[i] >= utf8.RuneSelf:
			r, size = utf8.DecodeRune(raw[i:])
		}
		if r == utf8.RuneError || r < 0x20 && size == 1 || !unicode.IsSpace(r) {
			return false
		}
		i += size
	}
	return true
}
