package mathtext

// The reading check: for an expression the renderer changes, the tree a reader builds
// from the rendered text must be the tree the LaTeX source has. Both sides are read
// into the same kind of tree:
//   - the source by its TeX structure: \frac, \dfrac, \over, \sqrt, \root…\of, scripts,
//     \binom, \boxed are nodes of their own; brace groups are invisible (as in print);
//     every other command is a leaf, written as the renderer writes that command alone;
//   - the rendered text the way a reader takes plain-text math: brackets group; "/"
//     takes the one atom on each side, "√" the atom after it, a script the atom before
//     it; superscript digits around "⁄" and the vulgar fraction characters are fractions.
// A slash or root with a factor written after it (1/(x-a)(x-b), √2x) is read as
// ambiguous (a reader may take the factor in), and only a slash written as such in
// the source may be so. Parentheses around one atom, and around the whole of a
// numerator, denominator or radicand, are dropped on both sides, so the parentheses the
// renderer adds are allowed and nothing else is.

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

type nodeKind byte

const (
	tok   nodeKind = iota // a token: a number, a letter, an operator, a raw span
	grp                   // brackets: open, inner, close
	frac                  // num / den
	rt                    // root: index, radicand
	sup                   // a superscript, after its base
	sub                   // a subscript, after its base
	mark                  // a root sign before its radicand is found
	slash                 // "/" before its operands are found
)

type node struct {
	kind        nodeKind
	text        string // tok: the token; grp: open and close; mark: the sign
	a, b        []*node
	ambiguous   bool
	fromLiteral bool // a slash written in the source as "/"
}

// canon writes a tree in one canonical string.
func canon(seq []*node) string {
	var b strings.Builder
	var walk func([]*node)
	walk = func(seq []*node) {
		for _, n := range seq {
			switch n.kind {
			case tok, mark, slash:
				b.WriteString(n.text)
				b.WriteByte(' ')
			case grp:
				b.WriteString(n.text[:len(n.text)/2] + " ")
				walk(n.a)
				b.WriteString(n.text[len(n.text)/2:] + " ")
			case frac, rt:
				b.WriteString(map[nodeKind]string{frac: "FRAC", rt: "ROOT"}[n.kind])
				if n.ambiguous {
					b.WriteString("?")
				}
				b.WriteString("{ ")
				walk(n.a)
				b.WriteString("}{ ")
				walk(n.b)
				b.WriteString("} ")
			case sup, sub:
				b.WriteString(map[nodeKind]string{sup: "^{ ", sub: "_{ "}[n.kind])
				walk(n.a)
				b.WriteString("} ")
			}
		}
	}
	walk(seq)
	return strings.TrimSpace(b.String())
}

var vulgarBack = func() map[rune][2]string {
	out := map[rune][2]string{}
	for k, v := range vulgar {
		r, _ := utf8.DecodeRuneInString(v)
		p := strings.SplitN(k, "/", 2)
		out[r] = [2]string{p[0], p[1]}
	}
	return out
}()

// lex reads text into tokens and script, fraction-character and root-sign nodes.
func lex(s string) []*node {
	var out []*node
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			i += n
		case r == '⁅':
			k := matching(s[i:], '⁅', '⁆')
			if k < 0 {
				k = len(s) - i
			}
			out = append(out, &node{kind: tok, text: s[i : i+k]})
			i += k
		case superBack[r] != 0 || subBack[r] != 0:
			back, kind := superBack, sup
			if superBack[r] == 0 {
				back, kind = subBack, sub
			}
			var plain strings.Builder
			j := i
			for j < len(s) {
				q, m := utf8.DecodeRuneInString(s[j:])
				if back[q] == 0 {
					break
				}
				plain.WriteRune(back[q])
				j += m
			}
			q, m := utf8.DecodeRuneInString(s[j:])
			switch {
			case kind == sup && q == '⁄':
				// ¹¹⁄₁₂: a fraction of digits.
				k := j + m
				var den strings.Builder
				for k < len(s) {
					d, dm := utf8.DecodeRuneInString(s[k:])
					if subBack[d] == 0 {
						break
					}
					den.WriteRune(subBack[d])
					k += dm
				}
				out = append(out, &node{kind: frac, a: lex(plain.String()), b: lex(den.String())})
				i = k
			case kind == sup && q == '√':
				out = append(out, &node{kind: mark, text: "√", a: lex(plain.String())})
				i = j + m
			default:
				out = append(out, &node{kind: kind, a: lex(plain.String())})
				i = j
			}
		case r == '^' || r == '_':
			kind := sup
			if r == '_' {
				kind = sub
			}
			j := i + 1
			var inner string
			if j < len(s) && s[j] == '(' {
				k := matching(s[j:], '(', ')')
				if k < 0 {
					k = len(s) - j
					inner = s[j+1:]
				} else {
					inner = s[j+1 : j+k-1]
				}
				j += k
			} else if j < len(s) {
				_, m := utf8.DecodeRuneInString(s[j:])
				inner = s[j : j+m]
				j += m
			}
			out = append(out, &node{kind: kind, a: lex(inner)})
			i = j
		case r == '√' || r == '∛' || r == '∜':
			idx := map[rune]string{'√': "", '∛': "3", '∜': "4"}[r]
			out = append(out, &node{kind: mark, text: "√", a: lex(idx)})
			i += n
		case vulgarBack[r] != [2]string{}:
			v := vulgarBack[r]
			out = append(out, &node{kind: frac, a: lex(v[0]), b: lex(v[1])})
			i += n
		case r == '/':
			out = append(out, &node{kind: slash, text: "/"})
			i += n
		case '0' <= r && r <= '9':
			j := i
			for j < len(s) && ('0' <= s[j] && s[j] <= '9' || s[j] == '.' && j+1 < len(s) && '0' <= s[j+1] && s[j+1] <= '9') {
				j++
			}
			for j < len(s) {
				q, m := utf8.DecodeRuneInString(s[j:])
				if !unicode.Is(unicode.Mn, q) {
					break
				}
				j += m
			}
			out = append(out, &node{kind: tok, text: s[i:j]})
			i = j
		case r == '°':
			out = append(out, &node{kind: tok, text: "°"})
			i += n
		default:
			j := i + n
			for j < len(s) {
				q, m := utf8.DecodeRuneInString(s[j:])
				if !unicode.Is(unicode.Mn, q) {
					break
				}
				j += m
			}
			if r == '−' {
				out = append(out, &node{kind: tok, text: "-"})
			} else {
				out = append(out, &node{kind: tok, text: s[i:j]})
			}
			i = j
		}
	}
	return out
}

var bracketPairs = map[string]string{"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⌊": "⌋", "⌈": "⌉", "⟦": "⟧"}

// parse groups brackets, then finds the operands of roots and slashes, and drops the
// parentheses that group nothing.
func parse(seq []*node) []*node {
	seq = joinNumbers(seq)
	// Brackets.
	var stack [][]*node
	var opens []*node
	cur := []*node{}
	for _, n := range seq {
		if n.kind == tok {
			if n.text == "|" || n.text == "‖" {
				// A bar closes the bar opened at this level, else opens one.
				if len(opens) > 0 && opens[len(opens)-1].text == n.text {
					g := &node{kind: grp, text: n.text + n.text, a: cur}
					cur = append(stack[len(stack)-1], g)
					stack, opens = stack[:len(stack)-1], opens[:len(opens)-1]
					continue
				}
				stack = append(stack, cur)
				opens = append(opens, n)
				cur = []*node{}
				continue
			}
			if _, ok := bracketPairs[n.text]; ok {
				stack = append(stack, cur)
				opens = append(opens, n)
				cur = []*node{}
				continue
			}
			if len(opens) > 0 && bracketPairs[opens[len(opens)-1].text] == n.text {
				g := &node{kind: grp, text: opens[len(opens)-1].text + n.text, a: cur}
				cur = append(stack[len(stack)-1], g)
				stack, opens = stack[:len(stack)-1], opens[:len(opens)-1]
				continue
			}
		}
		cur = append(cur, n)
	}
	for len(opens) > 0 { // unclosed: the opener is a token
		inner := cur
		cur = append(append(stack[len(stack)-1], opens[len(opens)-1]), inner...)
		stack, opens = stack[:len(stack)-1], opens[:len(opens)-1]
	}
	return resolve(cur)
}

// operand says that n is something a factor can be juxtaposed with.
func operand(n *node) bool {
	switch n.kind {
	case grp, frac, rt:
		return true
	case tok:
		r, _ := utf8.DecodeRuneInString(n.text)
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '⁅' || strings.ContainsRune("∞∅∂∇", r)
	}
	return false
}

// unit is the length of the operand at seq[i] with the scripts, primes, factorial and
// degree signs after it.
func unit(seq []*node, i int) int {
	j := i + 1
	for j < len(seq) && postfix(seq[j]) {
		j++
	}
	return j - i
}

func postfix(n *node) bool {
	return n.kind == sup || n.kind == sub || n.kind == tok && strings.Contains("! ′ ″ ‴ °", n.text) && n.text != " "
}

// joinNumbers joins a number written in pieces ("0" "." "1" from 0.\overline{1}).
func joinNumbers(seq []*node) []*node {
	var out []*node
	num := func(n *node) bool { return n.kind == tok && n.text != "" && n.text[0] >= '0' && n.text[0] <= '9' }
	for i := 0; i < len(seq); i++ {
		n := seq[i]
		if k := len(out); k > 0 && num(n) && num(out[k-1]) {
			out[k-1] = &node{kind: tok, text: out[k-1].text + n.text}
			continue
		}
		if k := len(out); k > 0 && n.kind == tok && n.text == "." && num(out[k-1]) && i+1 < len(seq) && num(seq[i+1]) {
			out[k-1] = &node{kind: tok, text: out[k-1].text + "." + seq[i+1].text}
			i++
			continue
		}
		out = append(out, n)
	}
	return out
}

// absorb writes a factor before a fraction into its numerator (x·a/b and (x·a)/b are one
// number, and a reader may take either): [x, a/b] becomes [(x a)/b], the numerator
// parenthesized when it is more than a product.
func absorb(seq []*node) []*node {
	for k := 0; k < len(seq); k++ {
		n := seq[k]
		if n.kind != frac || n.ambiguous || k == 0 {
			continue
		}
		l := k
		for l > 0 {
			j := l - 1
			for j > 0 && postfix(seq[j]) {
				j--
			}
			if !operand(seq[j]) {
				break
			}
			l = j
		}
		if l == k {
			continue
		}
		num := n.a
		if !isProduct(num) {
			num = []*node{{kind: grp, text: "()", a: num}}
		}
		merged := &node{kind: frac, a: absorb(flattenProducts(append(append([]*node{}, seq[l:k]...), num...))), b: n.b}
		seq = append(append(append([]*node{}, seq[:l]...), merged), seq[k+1:]...)
		k = l
	}
	return seq
}

// normalize drops, all through a tree, the parentheses around one operand and around
// the whole of a numerator, denominator, radicand or script.
func normalize(seq []*node) []*node {
	for i, n := range seq {
		switch n.kind {
		case grp:
			n.a = normalize(n.a)
			if n.text == "()" && len(n.a) == 1 && operand(n.a[0]) {
				seq[i] = n.a[0]
			}
		case sup, sub:
			n.a = normalize(operandOf(n.a))
		case frac:
			n.a, n.b = flattenProducts(normalize(operandOf(n.a))), normalize(operandOf(n.b))
		case rt, mark:
			n.a, n.b = normalize(operandOf(n.a)), normalize(operandOf(n.b))
		}
	}
	return absorb(seq)
}

// flattenProducts drops the parentheses around a product inside a numerator: in
// u(∂v)/(∂y) they group nothing a product does not.
func flattenProducts(seq []*node) []*node {
	var out []*node
	for _, n := range seq {
		if n.kind == grp && n.text == "()" && isProduct(n.a) {
			out = append(out, n.a...)
			continue
		}
		out = append(out, n)
	}
	return out
}

func isProduct(seq []*node) bool {
	for _, n := range seq {
		if !operand(n) && !postfix(n) {
			return false
		}
	}
	return len(seq) > 0
}

func resolve(seq []*node) []*node {
	for _, n := range seq {
		switch n.kind {
		case grp:
			n.a = resolve(n.a)
		case sup, sub:
			n.a = parse(n.a)
		case frac, rt, mark:
			n.a, n.b = parse(n.a), parse(n.b)
		}
	}
	// Root signs take the operand after them, with its scripts.
	for i := len(seq) - 1; i >= 0; i-- {
		if seq[i].kind != mark || i+1 >= len(seq) || !operand(seq[i+1]) && seq[i+1].kind != mark {
			continue
		}
		u := unit(seq, i+1)
		n := &node{kind: rt, a: seq[i].a, b: operandOf(seq[i+1 : i+1+u]), ambiguous: i+1+u < len(seq) && operand(seq[i+1+u])}
		seq = append(append(append([]*node{}, seq[:i]...), n), seq[i+1+u:]...)
	}
	// Slashes take one operand on each side, with its scripts.
	for i := 0; i < len(seq); i++ {
		if seq[i].kind != slash || i == 0 || i+1 >= len(seq) || !operand(seq[i+1]) {
			continue
		}
		// On the left, the factors written one against the other: n(n+1)/2.
		l := i - 1
		for l > 0 && postfix(seq[l]) {
			l--
		}
		if !operand(seq[l]) {
			continue
		}
		for l > 0 {
			k := l - 1
			for k > 0 && postfix(seq[k]) {
				k--
			}
			if !operand(seq[k]) || seq[k].kind == frac && seq[k].fromLiteral {
				break
			}
			l = k
		}
		u := unit(seq, i+1)
		amb := i+1+u < len(seq) && operand(seq[i+1+u])
		n := &node{kind: frac, a: operandOf(seq[l:i]), b: operandOf(seq[i+1 : i+1+u]), ambiguous: amb, fromLiteral: true}
		seq = append(append(append([]*node{}, seq[:l]...), n), seq[i+1+u:]...)
		i = l
	}
	return seq
}

// operandOf is an operand's tree, without parentheses around the whole of it.
func operandOf(seq []*node) []*node {
	if len(seq) == 1 && seq[0].kind == grp && seq[0].text == "()" {
		return seq[0].a
	}
	return seq
}

// readRendered reads rendered text into its tree.
func readRendered(s string) []*node { return normalize(parse(lex(s))) }

// readSource reads LaTeX math into its tree.
func readSource(s string) []*node { return normalize(parse(sourceNodes(s, 0))) }

func sourceNodes(s string, depth int) []*node {
	if depth > 40 {
		return lex(marked(s))
	}
	if l, name, r, ok := infix(s); ok && (name == "over" || name == "choose") {
		if name == "over" {
			return []*node{{kind: frac, a: parse(sourceNodes(l, depth+1)), b: parse(sourceNodes(r, depth+1))}}
		}
		return binomNodes(l, r, depth)
	}
	var out []*node
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '{':
			g, j := group(s, i)
			out = append(out, sourceNodes(g, depth+1)...)
			i = j
		case c == '^' || c == '_':
			a, j := argument(s, i+1)
			kind := sup
			if c == '_' {
				kind = sub
			}
			inner := parse(sourceNodes(a, depth+1))
			switch t := canon(inner); {
			case kind == sup && (t == "∘" || t == "°"):
				out = append(out, &node{kind: tok, text: "°"})
			case kind == sup && strings.Trim(strings.ReplaceAll(t, " ", ""), "′″*∗") == "" && t != "":
				out = append(out, lex(strings.ReplaceAll(t, " ", ""))...)
			default:
				out = append(out, &node{kind: kind, a: inner})
			}
			i = j
		case c == '\\':
			name, j := commandAt(s, i)
			switch name {
			case "frac", "dfrac", "tfrac", "cfrac":
				num, k := argument(s, j)
				den, k := argument(s, k)
				if !balanced(Inline(num)) || !balanced(Inline(den)) {
					out = append(out, lex(marked(s[i:k]))...) // shown as written: allowed
					i = k
					continue
				}
				out = append(out, &node{kind: frac, a: parse(sourceNodes(num, depth+1)), b: parse(sourceNodes(den, depth+1))})
				i = k
				continue
			case "sqrt":
				idx, k, _ := optional(s, j)
				a, k := argument(s, k)
				if !balanced(Inline(a)) {
					out = append(out, lex(marked(s[i:k]))...)
					i = k
					continue
				}
				out = append(out, &node{kind: rt, a: parse(sourceNodes(idx, depth+1)), b: parse(sourceNodes(a, depth+1))})
				i = k
				continue
			case "root":
				if of := strings.Index(s[j:], `\of`); of >= 0 {
					a, k := argument(s, j+of+3)
					out = append(out, &node{kind: rt, a: parse(sourceNodes(s[j:j+of], depth+1)), b: parse(sourceNodes(a, depth+1))})
					i = k
					continue
				}
			case "binom", "dbinom", "tbinom":
				n, k := argument(s, j)
				r, k := argument(s, k)
				out = append(out, binomNodes(n, r, depth)...)
				i = k
				continue
			case "boxed":
				a, k := argument(s, j)
				out = append(out, &node{kind: tok, text: "⟦"})
				out = append(out, sourceNodes(a, depth+1)...)
				out = append(out, &node{kind: tok, text: "⟧"})
				i = k
				continue
			}
			// A leaf: the command (and its arguments) as the renderer writes it alone.
			var b strings.Builder
			var unclosed map[string]bool
			k := command(&b, s, i, 1, &unclosed)
			out = append(out, lex(b.String())...)
			i = k
		case c == '~' || c == '&':
			i++
		case c == '\'':
			out = append(out, &node{kind: tok, text: "′"})
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(`\{}^_~&'`, rune(s[j])) {
				j++
			}
			out = append(out, lex(s[i:j])...)
			i = j
		}
	}
	return out
}

func binomNodes(n, r string, depth int) []*node {
	out := []*node{{kind: tok, text: "C"}, {kind: tok, text: "("}}
	out = append(out, sourceNodes(n, depth+1)...)
	out = append(out, &node{kind: tok, text: ","})
	out = append(out, sourceNodes(r, depth+1)...)
	return append(out, &node{kind: tok, text: ")"})
}

// sameReading says whether rendered reads as src does; it returns both trees' canonical
// forms.
func sameReading(src, rendered string) (bool, string, string) {
	a, b := canon(readSource(src)), canon(readRendered(rendered))
	return a == b, a, b
}

// The check catches the misreadings of issue 23 and passes their faithful renderings.
func TestReadingCheck(t *testing.T) {
	for _, c := range []struct {
		src, rendered string
		same          bool
	}{
		{`\sqrt{s(s-a)(s-b)(s-c)}`, "√s(s-a)(s-b)(s-c)", false},
		{`\sqrt{s(s-a)(s-b)(s-c)}`, "√(s(s-a)(s-b)(s-c))", true},
		{`2\sqrt{2x}`, "2√2x", false},
		{`2\sqrt{2}x`, "2√2x", false},
		{`2\sqrt{2x}`, "2√(2x)", true},
		{`2\sqrt{2}x`, "2(√2)x", true},
		{`\frac{1}{(x-a)(x-b)}`, "1/(x - a)(x - b)", false},
		{`\frac{1}{(x-a)(x-b)}`, "1/((x - a)(x - b))", true},
		{`\frac{(x^3-1)(y^3-1)}{(x-1)(y-1)}`, "(x³-1)(y³-1)/(x-1)(y-1)", false},
		{`\frac{(x^3-1)(y^3-1)}{(x-1)(y-1)}`, "((x³-1)(y³-1))/((x-1)(y-1))", true},
		{`\frac{1}{2}x`, "1/2x", false},
		{`\frac{1}{2}x`, "(1/2)x", true},
		{`2\frac{x}{3}`, "2x/3", true}, // (2x)/3 and 2(x/3) are one number
		{`x/\frac{a}{b}`, "x/a/b", false},
		{`x/\frac{a}{b}`, "x/(a/b)", true},
		{`2\frac{1}{4}`, "21/4", false},
		{`2\frac{1}{4}`, "2¼", true},
		{`\sqrt{x}^2`, "√x²", false},
		{`\sqrt{x^2}`, "√x²", true},
		{`x^{n+1}`, "xⁿ⁺¹", true},
		{`x^{n+1}`, "xⁿ+1", false},
		{`\pi i/4`, "π i/4", true}, // the source's own slash, as written
		{`\frac{a+b}{c}`, "a+b/c", false},
	} {
		if got, a, b := sameReading(c.src, c.rendered); got != c.same {
			t.Errorf("%q read as %q, %q read as %q: same %v, want %v", c.src, a, c.rendered, b, got, c.same)
		}
	}
}

// mathSpans are the math spans of a text with what they show: each inline span, and each
// row of a display block set out as rows of one column of cells or aligned cells.
func mathSpans(text string) [][2]string {
	var out [][2]string
	for _, p := range Pieces(text, 0) {
		switch p.Kind {
		case InlineMath:
			src := p.Raw
			for _, d := range [][2]string{{"$$", "$$"}, {`\(`, `\)`}, {`\[`, `\]`}, {"$", "$"}} {
				if strings.HasPrefix(src, d[0]) && strings.HasSuffix(src, d[1]) && len(src) >= len(d[0])+len(d[1]) {
					src = src[len(d[0]) : len(src)-len(d[1])]
					break
				}
			}
			out = append(out, [2]string{src, p.Shown})
		case DisplayMath:
			body, env := unwrap(p.Raw)
			if env != "" && !alignedEnvs[env] && env != "equation" && env != "equation*" && env != "gather" && env != "gather*" && env != "gathered" && env != "multline" && env != "multline*" {
				continue // grids: cells checked inline below
			}
			if strings.HasPrefix(strings.TrimSpace(p.Raw), "[asy]") {
				continue
			}
			rows := splitRows(body)
			shown := strings.Split(p.Shown, "\n")
			if len(rows) != len(shown) {
				continue // a tall environment inside
			}
			for i, r := range rows {
				out = append(out, [2]string{strings.Join(r, " "), strings.TrimSpace(shown[i])})
			}
		}
	}
	return out
}

// On both corpora, every math span the renderer changes reads as its source does.
func TestReadingCorpora(t *testing.T) {
	for _, name := range []string{"../model/testdata/corpus/proofnet.jsonl", "../model/testdata/competition/math500.jsonl"} {
		changed, wrong := 0, 0
		for _, proof := range append(corpusProofs(t, name), corpusStatements(t, name)...) {
			for _, sp := range mathSpans(proof) {
				if strings.TrimSpace(sp[0]) == strings.TrimSpace(sp[1]) {
					continue
				}
				changed++
				if ok, a, b := sameReading(sp[0], sp[1]); !ok {
					wrong++
					t.Errorf("%s: %q shows %q\n source reads   %s\n rendered reads %s", name, sp[0], sp[1], a, b)
				}
			}
		}
		t.Logf("%s: %d math spans changed by rendering, %d read otherwise than their source", name, changed, wrong)
		if changed < 1000 {
			t.Errorf("%s: only %d spans changed: is the corpus loaded?", name, changed)
		}
	}
}

func corpusProofs(t testing.TB, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p struct{ Proof string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Proof)
	}
	return out
}

func corpusStatements(t testing.TB, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p struct{ Statement string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Statement)
	}
	return out
}
