// Package mathtext renders the LaTeX of proofs for reading in a terminal: Greek letters,
// operators, relations, arrows, set and logic symbols as Unicode; \mathbb and the other
// letter styles as their Unicode alphabets; sub- and superscripts as Unicode where every
// character has a form (x², aₙ), as _(…) and ^(…) otherwise; \frac{a}{b} as a/b with
// parentheses around a compound part; \sqrt{x} as √x; \boxed{x} as ⟦x⟧; \left and \right
// dropped; display blocks as indented rows, aligned at & when they fit, tables with their
// rules.
//
// It is for reading only, and it never changes what a reader takes the math to say: a
// denominator or radicand of more than one atom, or a numerator that is more than a
// product, keeps its grouping (1/((x - a)(x - b)), √(2x), (a+b)/2), a fraction or root
// followed by a factor is put in parentheses ((1/2)x, (√2)x), a mixed number reads as
// one (2¼). A command it does not know,
// or a construct it cannot render faithfully, stays as written, arguments and braces
// included, between the marks ⁅ and ⁆, so nothing is ever hidden or guessed; [asy]
// figure code is shown whole, as written, marked the same way. Quoting and locating a
// sentence use the source. Everything here is pure and never panics, whatever the input.
package mathtext

import (
	"fmt"
	termcells "referee/cells"
	"strings"
	"unicode"
	"unicode/utf8"

	"referee/model"
)

// Inline renders math (the inside of $…$ or \(…\), without the delimiters) on one line.
// Math longer than maxMath is shown as written.
func Inline(src string) string {
	if len(src) > maxMath {
		return src
	}
	return strings.TrimSpace(collapse(renderMath(src, 0)))
}

// maxMath bounds the math rendered: a longer span (no one writes 16 KB of formula) is
// shown as written, which keeps hostile input (thousands of unclosed environments, each
// searched to the end) from costing more than a few milliseconds.
const maxMath = 16 << 10

// maxDepth bounds nested groups: deeper ones are written as they are.
const maxDepth = 64

// renderMath renders math source; depth counts the nesting of groups.
//
// A fraction or a root followed by a factor (\frac{1}{2}x, \sqrt{2}x, \frac{a}{b}^2) is
// put in parentheses, so that no reader can take the factor into it; a group that is one
// such piece counts as one.
func renderMath(s string, depth int) string {
	if depth > maxDepth {
		return marked(s)
	}
	if l, name, r, ok := infix(s); ok {
		return infixForm(l, name, r, depth)
	}
	var b strings.Builder
	b.Grow(len(s))
	var unclosed map[string]bool // environments of s found without their \end
	loose, looseEnd := -1, 0     // the last fraction or root written, waiting for what follows
	for i := 0; i < len(s); {
		c := s[i]
		from := b.Len()
		decimal := c == '.' && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9' // \frac{1}{2}.5
		switch {
		case c == '\\':
			i = command(&b, s, i, depth, &unclosed)
		case c == '{':
			g, j := group(s, i)
			r := renderMath(g, depth+1)
			if t := strings.TrimSpace(r); looseItem(t) && gluesAfter(b.String(), t) {
				r = "(" + strings.TrimSpace(r) + ")"
			}
			b.WriteString(r)
			i = j
		case c == '^' || c == '_':
			a, j := argument(s, i+1)
			b.WriteString(script(strings.TrimSpace(renderMath(a, depth+1)), c == '^'))
			i = j
		case c == '~':
			b.WriteByte(' ')
			i++
		case c == '\'':
			b.WriteString("′")
			i++
		case c == '&':
			// Alignment only matters in rows (see Display); in a line it is a space.
			b.WriteByte(' ')
			i++
		case c == '\n' || c == '\t' || c == '\r':
			b.WriteByte(' ')
			i++
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
		}
		written := b.String()[from:]
		if loose >= 0 && strings.TrimSpace(written) != "" {
			if r, _ := utf8.DecodeRuneInString(strings.TrimLeft(written, " ")); juxtaposing(r) || decimal {
				all := b.String()
				piece := strings.TrimRight(all[loose:looseEnd], " ")
				rest := all[loose+len(piece):]
				b.Reset()
				b.WriteString(all[:loose] + "(" + piece + ")" + rest)
			}
			loose = -1
		}
		if t := strings.TrimSpace(written); t != "" && looseItem(t) {
			loose, looseEnd = b.Len()-len(strings.TrimLeft(written, " ")), b.Len()
		}
	}
	return b.String()
}

// Marks around a span shown as written because it cannot be rendered faithfully.
const (
	RawOpen  = "⁅"
	RawClose = "⁆"
)

// marked shows src as written, between the raw marks.
func marked(src string) string {
	if src == "" {
		return ""
	}
	return RawOpen + src + RawClose
}

// infix finds the TeX primitive \over, \choose, \atop or \above at the top level of s
// ({a \over b}): what is left and right of it and its name.
func infix(s string) (string, string, string, bool) {
	if !strings.Contains(s, `\over`) && !strings.Contains(s, `\choose`) && !strings.Contains(s, `\atop`) && !strings.Contains(s, `\above`) {
		return "", "", "", false
	}
	depth := 0
	for j := 0; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
		case '\\':
			name, k := commandAt(s, j)
			if depth == 0 && (name == "over" || name == "choose" || name == "atop" || name == "above") {
				return s[:j], name, s[k:], true
			}
			if name == "begin" || name == "left" {
				return "", "", "", false // rows and fences: not worth the risk
			}
			j = k - 1
		}
	}
	return "", "", "", false
}

func infixForm(l, name, r string, depth int) string {
	num := strings.TrimSpace(collapse(renderMath(l, depth+1)))
	den := strings.TrimSpace(collapse(renderMath(r, depth+1)))
	switch name {
	case "over":
		return fraction(num, den)
	case "choose":
		return "C(" + num + ", " + den + ")"
	}
	return marked(l + `\` + name + r)
}

// looseItem says that s is one fraction a/b or one root √a, which a factor written next
// to it would seem to join.
func looseItem(s string) bool {
	if s == "" {
		return false
	}
	n := atomLen(s)
	if n == len(s) {
		r, _ := utf8.DecodeRuneInString(s)
		return isRootSign(r) || superscriptRune(r)
	}
	for n > 0 && n < len(s) && s[n] != '/' { // a numerator of several atoms
		k := atomLen(s[n:])
		if k == 0 {
			return false
		}
		n += k
	}
	if n == 0 || n >= len(s) || s[n] != '/' {
		return false
	}
	m := atomLen(s[n+1:])
	return m > 0 && n+1+m == len(s)
}

// juxtaposing says that a piece starting with r multiplies what is before it (a letter,
// a digit, a bracket, a root) or attaches to it (a script, a prime).
func juxtaposing(r rune) bool {
	switch {
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
		return true
	case strings.ContainsRune("([{⟨⌊⌈⟦⁅|‖√∛∜′″‴!°∞∂∇∑∏∐∫∬∭∮⋃⋂^_", r):
		return true
	}
	return superscriptRune(r) || subscriptRune(r) || vulgarRune(r)
}

// gluesAfter says that a fraction f written after out would change what out ends with
// or be taken into it: after "/" or "÷" (x/(a/b), never x/a/b), or a digit after a
// digit (2(3/4), never 23/4). A factor before a fraction needs nothing: x·a/b and
// (x·a)/b are one number.
func gluesAfter(out, f string) bool {
	out = strings.TrimRight(out, " ")
	if out == "" || f == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(out)
	q, _ := utf8.DecodeRuneInString(f)
	return r == '/' || r == '÷' || unicode.IsDigit(r) && (unicode.IsDigit(q) || q == '.')
}

// collapse turns every run of spaces into one.
func collapse(s string) string {
	if !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == ' ' {
			if space {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// commandAt reads the command at s[i] ("\name" or "\c"): its name and the index after it.
func commandAt(s string, i int) (string, int) {
	j := i + 1
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	if j == i+1 {
		if j >= len(s) {
			return "", j
		}
		_, size := utf8.DecodeRuneInString(s[j:])
		return s[j : j+size], j + size
	}
	if j < len(s) && s[j] == '*' && (s[i+1:j] == "operatorname") {
		j++
	}
	return s[i+1 : j], j
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// group reads the {…} group at s[i] (balanced, escapes skipped): its inside and the
// index after it. An unbalanced one runs to the end.
func group(s string, i int) (string, int) {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[i+1 : j], j + 1
			}
		}
	}
	return s[min(i+1, len(s)):], len(s)
}

// argument reads a command's argument at s[i]: a group, a command, or one character,
// after white space. It returns the argument's source and the index after it.
func argument(s string, i int) (string, int) {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	if i >= len(s) {
		return "", i
	}
	switch s[i] {
	case '{':
		return group(s, i)
	case '\\':
		// A command with its own arguments: x^\text{th}, 64^\frac{1}{3}.
		name, j := commandAt(s, i)
		for range arity(name) {
			if k := skipBlank(s, j); k < len(s) && s[k] == '{' {
				_, j = group(s, k)
			}
		}
		return s[i:j], j
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return s[i : i+size], i + size
}

func skipBlank(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}

// arity is the number of brace arguments of a command that takes some.
func arity(name string) int {
	switch {
	case name == "frac" || name == "dfrac" || name == "tfrac" || name == "cfrac" || name == "binom" || name == "dbinom" || name == "tbinom":
		return 2
	case textStyles[name] || plainStyles[name] || name == "sqrt" || name == "boxed" || name == "cancel" || name == "pmod":
		return 1
	}
	if _, ok := alphabets[name]; ok {
		return 1
	}
	if _, ok := accents[name]; ok {
		return 1
	}
	return 0
}

// balanced says whether the brackets of rendered math pair up.
func balanced(s string) bool {
	var stack []rune
	for _, r := range s {
		switch r {
		case '(', '[', '{', '⟨', '⌊', '⌈', '⟦':
			stack = append(stack, closers[r])
		case ')', ']', '}', '⟩', '⌋', '⌉', '⟧':
			if len(stack) == 0 || stack[len(stack)-1] != r {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return len(stack) == 0
}

// optional reads an optional [...] argument at s[i], after white space.
func optional(s string, i int) (string, int, bool) {
	j := i
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j >= len(s) || s[j] != '[' {
		return "", i, false
	}
	k := strings.IndexByte(s[j:], ']')
	if k < 0 {
		return "", i, false
	}
	return s[j+1 : j+k], j + k + 1, true
}

// command renders the command at s[i] into b and returns the index after it (and its
// arguments). unclosed records the environments of s that have no \end: later ones of
// the same name are written as they are without searching again (each search runs to
// the end of s, so thousands of unclosed ones would cost their square).
func command(b *strings.Builder, s string, i, depth int, unclosed *map[string]bool) int {
	name, j := commandAt(s, i)
	if name == "" {
		b.WriteByte('\\')
		return j
	}
	if sym, ok := symbols[name]; ok {
		b.WriteString(sym)
		return j
	}
	switch {
	case name == `\`:
		b.WriteByte(' ') // a row break outside rows
		if _, k, ok := optional(s, j); ok {
			return k
		}
		return j
	case delimCommands[name]:
		d, k := argument(s, j)
		if d != "." {
			b.WriteString(renderMath(d, depth+1))
		}
		return k
	case name == "frac" || name == "dfrac" || name == "tfrac" || name == "cfrac":
		num, k := argument(s, j)
		den, k := argument(s, k)
		n := strings.TrimSpace(collapse(renderMath(num, depth+1)))
		d := strings.TrimSpace(collapse(renderMath(den, depth+1)))
		before := b.String()
		switch {
		case !balanced(n) || !balanced(d):
			b.WriteString(marked(s[i:k])) // no grouping to keep: as written
		case allDigits(n) && allDigits(d) && endsWithDigit(before):
			b.WriteString(mixedFraction(n, d)) // 2\frac{1}{4} reads 2¼, never 21/4
		case gluesAfter(before, fraction(n, d)):
			b.WriteString("(" + fraction(n, d) + ")") // 2\frac{3}{4}x is 2(3/4)x, never 23/4x
		default:
			b.WriteString(fraction(n, d))
		}
		return k
	case name == "binom" || name == "dbinom" || name == "tbinom":
		n, k := argument(s, j)
		r, k := argument(s, k)
		b.WriteString("C(" + strings.TrimSpace(collapse(renderMath(n, depth+1))) + ", " + strings.TrimSpace(collapse(renderMath(r, depth+1))) + ")")
		return k
	case name == "sqrt" || name == "root":
		var idx, a string
		k := j
		if name == "sqrt" {
			idx, k, _ = optional(s, j)
			a, k = argument(s, k)
		} else {
			// \root 3 \of {x}: TeX's primitive form.
			of := strings.Index(s[j:], `\of`)
			if of < 0 {
				break
			}
			idx = s[j : j+of]
			a, k = argument(s, j+of+3)
		}
		r, ok := root(strings.TrimSpace(collapse(renderMath(idx, depth+1))), strings.TrimSpace(collapse(renderMath(a, depth+1))))
		if !ok || !balanced(r) {
			b.WriteString(marked(s[i:k]))
			return k
		}
		if q, _ := utf8.DecodeLastRuneInString(b.String()); superscriptRune(q) {
			b.WriteByte(' ') // x² √3, never x²√3 (a square root of index 2)
		}
		b.WriteString(r)
		return k
	case name == "boxed" || name == "fbox" || name == "framebox":
		_, k, _ := optional(s, j)
		a, k := argument(s, k)
		inner := renderMath(a, depth+1)
		if name != "boxed" {
			inner = renderText(a, depth+1)
		}
		b.WriteString("⟦" + strings.TrimSpace(collapse(inner)) + "⟧")
		return k
	case name == "multicolumn":
		_, k := argument(s, j)
		_, k = argument(s, k)
		a, k := argument(s, k)
		b.WriteString(renderMath(a, depth+1))
		return k
	case name == "cline":
		_, k := argument(s, j)
		return k
	case name == "cancel" || name == "bcancel" || name == "xcancel" || name == "sout":
		a, k := argument(s, j)
		b.WriteString(accent(strings.TrimSpace(collapse(renderMath(a, depth+1))), '\u0336'))
		return k
	case name == "pmod" || name == "pod":
		a, k := argument(s, j)
		m := "mod "
		if name == "pod" {
			m = ""
		}
		b.WriteString(" (" + m + strings.TrimSpace(renderMath(a, depth+1)) + ")")
		return k
	case name == "bmod" || name == "mod":
		if t := strings.TrimRight(b.String(), " "); strings.HasSuffix(t, "(") {
			b.Reset()
			b.WriteString(t + "mod ") // (\bmod p) reads (mod p)
		} else {
			b.WriteString(" mod ")
		}
		return j
	case name == "not":
		a, k := argument(s, j)
		r := strings.TrimSpace(renderMath(a, depth+1))
		if n, ok := negated[r]; ok {
			b.WriteString(n)
		} else {
			b.WriteString(r + "\u0338")
		}
		return k
	case name == "substack":
		a, k := argument(s, j)
		var parts []string
		for _, row := range splitTop(a, `\\`) {
			parts = append(parts, Inline(row))
		}
		b.WriteString(strings.Join(parts, ", "))
		return k
	case name == "tag":
		a, k := argument(s, j)
		b.WriteString("  (" + Inline(a) + ")")
		return k
	case name == "label" || name == "hspace" || name == "hspace*" || name == "vspace" || name == "phantom" || name == "hphantom" || name == "vphantom":
		_, k := argument(s, j)
		if name == "hspace" {
			b.WriteByte(' ')
		}
		return k
	case name == "begin":
		env, k := argument(s, j)
		if (*unclosed)[env] {
			break
		}
		body, end, ok := envBody(s, k, env)
		if !ok {
			if *unclosed == nil {
				*unclosed = map[string]bool{}
			}
			(*unclosed)[env] = true
			break
		}
		b.WriteString(inlineEnv(env, body, depth))
		return end
	}
	if a, ok := accents[name]; ok {
		arg, k := argument(s, j)
		b.WriteString(accent(strings.TrimSpace(renderMath(arg, depth+1)), a))
		return k
	}
	if al, ok := alphabets[name]; ok {
		arg, k := argument(s, j)
		b.WriteString(letters(renderMath(arg, depth+1), al))
		return k
	}
	if plainStyles[name] {
		arg, k := argument(s, j)
		b.WriteString(renderMath(arg, depth+1))
		return k
	}
	if textStyles[name] {
		arg, k := argument(s, j)
		b.WriteString(renderText(arg, depth+1))
		return k
	}
	// Unknown: as written, with the groups that follow it, marked.
	k := j
	for k < len(s) && s[k] == '{' {
		_, k = group(s, k)
	}
	b.WriteString(marked(s[i:k]))
	return k
}

func endsWithDigit(s string) bool {
	s = strings.TrimRight(s, " ")
	return s != "" && '0' <= s[len(s)-1] && s[len(s)-1] <= '9'
}

// envBody finds the body of environment env whose \begin{env} ends at k: the body, the
// index after \end{env}, and whether it was closed.
func envBody(s string, k int, env string) (string, int, bool) {
	begin, end := `\begin{`+env+`}`, `\end{`+env+`}`
	depth := 1
	for j := k; j < len(s); {
		switch {
		case strings.HasPrefix(s[j:], end):
			depth--
			if depth == 0 {
				return s[k:j], j + len(end), true
			}
			j += len(end)
		case strings.HasPrefix(s[j:], begin):
			depth++
			j += len(begin)
		case s[j] == '\\':
			j += 2
		default:
			j++
		}
	}
	return "", k, false
}

// brackets are the delimiters of the matrix environments.
var brackets = map[string][2]string{
	"pmatrix": {"(", ")"}, "bmatrix": {"[", "]"}, "Bmatrix": {"{", "}"}, "vmatrix": {"|", "|"},
	"Vmatrix": {"‖", "‖"}, "cases": {"{ ", ""}, "dcases": {"{ ", ""},
}

// inlineEnv renders an environment on one line: rows separated by "; ", the cells of a
// matrix by ", ".
func inlineEnv(env, body string, depth int) string {
	body = skipColumnSpec(env, body)
	rows := splitRows(body)
	sep := ", "
	switch env {
	case "cases", "dcases":
		sep = " "
	case "aligned", "align", "align*", "alignat", "alignat*", "alignedat", "split", "gathered",
		"gather", "gather*", "equation", "equation*", "multline", "multline*", "eqnarray", "eqnarray*":
		sep = " "
	}
	var out []string
	for _, row := range rows {
		var cells []string
		for _, c := range row {
			cells = append(cells, strings.TrimSpace(collapse(renderMath(c, depth+1))))
		}
		out = append(out, strings.Join(cells, sep))
	}
	br := brackets[env]
	return br[0] + strings.Join(out, "; ") + br[1]
}

// skipColumnSpec drops the {lcr} argument of array and alignat.
func skipColumnSpec(env, body string) string {
	switch env {
	case "array", "alignat", "alignat*", "alignedat", "tabular", "tabular*":
		t := strings.TrimLeft(body, " \n")
		if env == "tabular*" && strings.HasPrefix(t, "{") {
			_, k := group(t, 0)
			t = strings.TrimLeft(t[k:], " \n")
		}
		if strings.HasPrefix(t, "{") {
			_, k := group(t, 0)
			return t[k:]
		}
	}
	return body
}

// splitRows splits a body at top-level "\\" (and its optional [skip]), then each row at
// top-level "&". Empty trailing rows are dropped.
func splitRows(body string) [][]string {
	body = plainCR(body)
	var rows [][]string
	for _, r := range splitTop(body, `\\`) {
		if k := strings.IndexByte(r, '['); k >= 0 && strings.TrimSpace(r[:k]) == "" {
			if e := strings.IndexByte(r[k:], ']'); e >= 0 && strings.ContainsAny(r[k:k+e], "0123456789") {
				r = r[k+e+1:]
			}
		}
		rows = append(rows, spanColumns(splitTop(r, "&")))
	}
	for len(rows) > 0 {
		last := rows[len(rows)-1]
		if len(last) == 1 && strings.TrimSpace(last[0]) == "" {
			rows = rows[:len(rows)-1]
			continue
		}
		break
	}
	return rows
}

// spanColumns gives a \multicolumn{n}{spec}{x} cell the n columns it spans: x in the
// last of them when spec aligns right, else in the first, the others empty.
func spanColumns(cells []string) []string {
	var out []string
	for _, c := range cells {
		t := strings.TrimSpace(c)
		if !strings.HasPrefix(t, `\multicolumn`) {
			out = append(out, c)
			continue
		}
		n, k := argument(t, len(`\multicolumn`))
		spec, _ := argument(t, k)
		span := 0
		for _, d := range n {
			if d < '0' || d > '9' || span > 100 {
				span = 0
				break
			}
			span = span*10 + int(d-'0')
		}
		if span < 2 {
			out = append(out, c)
			continue
		}
		empty := make([]string, span-1)
		if strings.Contains(spec, "r") {
			out = append(append(out, empty...), c)
		} else {
			out = append(append(out, c), empty...)
		}
	}
	return out
}

// plainCR writes TeX's row end \cr as \\.
func plainCR(s string) string {
	if !strings.Contains(s, `\cr`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], `\cr`) && (i+3 == len(s) || !isLetter(s[i+3])) && (i == 0 || s[i-1] != '\\') {
			b.WriteString(`\\`)
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// splitTop splits s at sep outside groups and nested environments; "\&" and "\\" that
// are escapes of other things are not separators.
func splitTop(s, sep string) []string {
	var out []string
	depth, env, from := 0, 0, 0
	for j := 0; j < len(s); {
		switch {
		case s[j] == '{':
			depth++
			j++
		case s[j] == '}':
			depth--
			j++
		case strings.HasPrefix(s[j:], `\begin{`):
			env++
			j += 7
		case strings.HasPrefix(s[j:], `\end{`):
			env--
			j += 5
		case depth == 0 && env == 0 && strings.HasPrefix(s[j:], sep):
			out = append(out, s[from:j])
			j += len(sep)
			from = j
		case s[j] == '\\':
			j += 2
		default:
			j++
		}
	}
	return append(out, s[min(from, len(s)):])
}

// script writes a sub- or superscript: Unicode forms when every character has one,
// primes and stars as they are, a single character after ^ or _, else ^(…) or _(…).
func script(r string, sup bool) string {
	if r == "" {
		return ""
	}
	if sup && (r == "∘" || r == "°") {
		return "°" // ^\circ: degrees
	}
	if strings.Trim(r, "′″*∗ ") == "" && sup {
		return strings.ReplaceAll(r, " ", "") // f^{\prime\prime} is f′′
	}
	table, mark := subscripts, "_"
	if sup {
		table, mark = superscripts, "^"
	}
	var b strings.Builder
	ok := true
	for _, c := range r {
		m, has := table[c]
		if !has {
			ok = false
			break
		}
		b.WriteRune(m)
	}
	if ok {
		return b.String()
	}
	if utf8.RuneCountInString(r) == 1 {
		return mark + r
	}
	return mark + "(" + r + ")"
}

// fraction writes a/b, with parentheses around a denominator that is more than one atom
// (1/((x - a)(x - b)), never 1/(x - a)(x - b)) and a numerator that is more than one
// product of atoms (n(n+1)/2 is read as (n(n+1))/2 by everyone, (a+b)/2 needs them).
func fraction(num, den string) string {
	num, den = strings.TrimSpace(collapse(num)), strings.TrimSpace(collapse(den))
	if !product(num) {
		num = wrap(num)
	}
	return num + "/" + wrap(den)
}

// product says that s is atoms written one against the other (2x, n(n+1), ab²).
func product(s string) bool {
	if s == "" {
		return false
	}
	for s != "" {
		n := atomLen(s)
		if n == 0 {
			return false
		}
		s = s[n:]
	}
	return true
}

// wrap puts parentheses around s unless it is one atom.
func wrap(s string) string {
	if s == "" {
		return "()"
	}
	if atomLen(s) == len(s) {
		return s
	}
	return "(" + s + ")"
}

// atomLen is the length of the atom s starts with (0 for none): a number, a letter or
// letter-like symbol, a bracketed group, a root of an atom, a fraction character; each
// with its accents, primes, scripts and factorial signs.
func atomLen(s string) int {
	if s == "" {
		return 0
	}
	r, n := utf8.DecodeRuneInString(s)
	i := n
	switch {
	case subscriptRune(r):
		return 0
	case superscriptRune(r):
		for i < len(s) {
			q, m := utf8.DecodeRuneInString(s[i:])
			if !superscriptRune(q) {
				break
			}
			i += m
		}
		if q, m := utf8.DecodeRuneInString(s[i:]); q == '√' {
			k := atomLen(s[i+m:])
			if k == 0 {
				return 0
			}
			i += m + k
		} else {
			return 0
		}
	case '0' <= r && r <= '9':
		for i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '.' && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9') {
			i++
		}
	case unicode.IsLetter(r) || strings.ContainsRune("∞∅∂∇ℵ", r) || vulgarRune(r):
	case isRootSign(r):
		m := atomLen(s[i:])
		if m == 0 {
			return 0
		}
		i += m
	case r == '|' || r == '‖':
		k := strings.IndexRune(s[i:], r)
		if k < 0 {
			return 0
		}
		i += k + n
	default:
		if close, ok := closers[r]; ok {
			k := matching(s, r, close)
			if k < 0 {
				return 0
			}
			i = k
		} else {
			return 0
		}
	}
	return i + postfixLen(s[i:])
}

// closers are the brackets of atoms.
var closers = map[rune]rune{'(': ')', '[': ']', '{': '}', '⟨': '⟩', '⌊': '⌋', '⌈': '⌉', '⟦': '⟧', '⁅': '⁆'}

// matching is the index after the bracket closing the one s starts with (-1: none).
func matching(s string, open, close rune) int {
	depth := 0
	for i, r := range s {
		switch r {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i + utf8.RuneLen(r)
			}
		}
	}
	return -1
}

// postfixLen is the length of the accents, primes, scripts and factorial signs s starts
// with.
func postfixLen(s string) int {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.Is(unicode.Mn, r) || superscriptRune(r) || subscriptRune(r) || strings.ContainsRune("′″‴!°", r):
			i += n
		case (r == '^' || r == '_') && i+1 < len(s):
			if s[i+1] == '(' {
				k := matching(s[i+1:], '(', ')')
				if k < 0 {
					return i
				}
				i += 1 + k
				continue
			}
			_, m := utf8.DecodeRuneInString(s[i+1:])
			i += 1 + m
		default:
			return i
		}
	}
	return i
}

func isRootSign(r rune) bool { return r == '√' || r == '∛' || r == '∜' }

var superSet, subSet = runeSet(superscripts), runeSet(subscripts)

func runeSet(m map[rune]rune) map[rune]bool {
	out := map[rune]bool{}
	for _, v := range m {
		out[v] = true
	}
	return out
}

func superscriptRune(r rune) bool { return superSet[r] }
func subscriptRune(r rune) bool   { return subSet[r] }
func vulgarRune(r rune) bool      { return vulgarSet[r] }

// vulgar are the fractions with a character of their own.
var vulgar = map[string]string{
	"1/2": "½", "1/3": "⅓", "2/3": "⅔", "1/4": "¼", "3/4": "¾", "1/5": "⅕", "2/5": "⅖",
	"3/5": "⅗", "4/5": "⅘", "1/6": "⅙", "5/6": "⅚", "1/7": "⅐", "1/8": "⅛", "3/8": "⅜",
	"5/8": "⅝", "7/8": "⅞", "1/9": "⅑", "1/10": "⅒",
}

var vulgarSet = func() map[rune]bool {
	out := map[rune]bool{}
	for _, v := range vulgar {
		r, _ := utf8.DecodeRuneInString(v)
		out[r] = true
	}
	return out
}()

// mixedFraction writes the fraction of digits num/den that follows a whole number (2¼,
// 3¹¹⁄₁₂): one character, or superscript and subscript digits around a fraction slash.
func mixedFraction(num, den string) string {
	if v, ok := vulgar[num+"/"+den]; ok {
		return v
	}
	var b strings.Builder
	for _, r := range num {
		b.WriteRune(superscripts[r])
	}
	b.WriteRune('⁄')
	for _, r := range den {
		b.WriteRune(subscripts[r])
	}
	return b.String()
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// root writes √x, √(x+1), ∛x, ∜x or ⁿ√x; ok is false for an index that has no
// superscript form.
func root(index, a string) (string, bool) {
	sign := "√"
	switch index {
	case "":
	case "3":
		sign = "∛"
	case "4":
		sign = "∜"
	default:
		sup := script(index, true)
		if sup == "" || strings.HasPrefix(sup, "^") {
			return "", false
		}
		sign = sup + "√"
	}
	return sign + wrap(a), true
}

// accent puts a combining mark after each character of a.
func accent(a string, mark rune) string {
	var b strings.Builder
	for _, r := range a {
		b.WriteRune(r)
		if r != ' ' {
			b.WriteRune(mark)
		}
	}
	return b.String()
}

// letters writes the letters of a in an alphabet; other characters stay.
func letters(a string, al alphabet) string {
	var b strings.Builder
	for _, r := range a {
		switch {
		case al.except[r] != 0:
			b.WriteRune(al.except[r])
		case 'A' <= r && r <= 'Z' && al.upper != 0:
			b.WriteRune(al.upper + r - 'A')
		case 'a' <= r && r <= 'z' && al.lower != 0:
			b.WriteRune(al.lower + r - 'a')
		case '0' <= r && r <= '9' && al.digit != 0:
			b.WriteRune(al.digit + r - '0')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// rowEnvs are the environments whose rows and cells make a display's layout.
var rowEnvs = map[string]bool{
	"equation": true, "equation*": true, "align": true, "align*": true, "aligned": true,
	"alignat": true, "alignat*": true, "alignedat": true, "flalign": true, "flalign*": true,
	"gather": true, "gather*": true, "gathered": true, "multline": true, "multline*": true,
	"split": true, "eqnarray": true, "eqnarray*": true, "displaymath": true, "subequations": true,
	"array": true, "matrix": true, "cases": true, "dcases": true, "smallmatrix": true,
	"tabular": true, "tabular*": true,
}

// alignedEnvs align their columns right, left, right, … (the others all left).
var alignedEnvs = map[string]bool{
	"align": true, "align*": true, "aligned": true, "alignat": true, "alignat*": true,
	"alignedat": true, "flalign": true, "flalign*": true, "split": true, "eqnarray": true, "eqnarray*": true,
}

// Display renders a display block (delimiters included: $$…$$, \[…\], or an
// environment) as rows, without indentation. The cells of the rows are aligned when
// the widest row fits in width (0: any width); otherwise each row is its cells joined.
func Display(block string, width int) []string {
	if len(block) > maxMath {
		return strings.Split(block, "\n")
	}
	if tall := tallEnv(stripDelims(block), width); tall != nil {
		return tall
	}
	if t := strings.TrimSpace(block); strings.HasPrefix(t, model.AsyOpen) {
		// Figure code: shown whole, as written, marked.
		lines := strings.Split(t, "\n")
		for i := range lines {
			lines[i] = strings.TrimRight(lines[i], " \t\r")
		}
		lines[0] = RawOpen + lines[0]
		lines[len(lines)-1] += RawClose
		return lines
	}
	body, env := unwrap(block)
	rows := splitRows(body)
	if len(rows) == 1 && len(rows[0]) == 1 {
		if tall := tallEnv(body, width); tall != nil {
			return tall
		}
	}
	var cells [][]string
	rules := []bool{false} // rules[i]: a rule (\hline, \cline) before row i; the last after all
	for _, row := range rows {
		var cs []string
		if len(row) > 0 {
			var rule bool
			row[0], rule = leadingRules(row[0])
			rules[len(rules)-1] = rules[len(rules)-1] || rule
			if len(row) == 1 && strings.TrimSpace(row[0]) == "" {
				continue // a row of rules only
			}
		}
		for _, c := range row {
			if textEnv[env] {
				cs = append(cs, strings.TrimSpace(collapse(renderText(c, 1))))
			} else {
				cs = append(cs, strings.TrimSpace(collapse(renderMath(c, 1))))
			}
		}
		rules = append(rules, false)
		cells = append(cells, cs)
	}
	sep := " "
	if env != "" && !alignedEnvs[env] {
		sep = "  " // matrix and cases columns
	}
	out := alignRows(cells, sep, alignedEnvs[env] || env == "", width)
	if env == "cases" || env == "dcases" {
		for i := range out {
			out[i] = "{ " + out[i]
		}
	}
	if hasRule(rules) {
		w := 0
		for _, l := range out {
			w = max(w, termcells.Width(l))
		}
		line := strings.Repeat("─", max(w, 1))
		var ruled []string
		for k, r := range rules {
			if r {
				ruled = append(ruled, line)
			}
			if k < len(out) {
				ruled = append(ruled, out[k])
			}
		}
		out = ruled
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

// textEnv are the row environments whose cells are text (with $…$ in them).
var textEnv = map[string]bool{"tabular": true, "tabular*": true}

// leadingRules takes the \hline and \cline{…} off the start of a row's first cell.
func leadingRules(c string) (string, bool) {
	rule := false
	for {
		t := strings.TrimLeft(c, " \t\r\n")
		switch {
		case strings.HasPrefix(t, `\hline`) && !(len(t) > 6 && isLetter(t[6])):
			c, rule = t[6:], true
		case strings.HasPrefix(t, `\cline`):
			_, k := argument(t, 6)
			c, rule = t[k:], true
		default:
			return c, rule
		}
	}
}

func hasRule(rules []bool) bool {
	for _, r := range rules {
		if r {
			return true
		}
	}
	return false
}

// fences are the brackets of the matrix and cases environments drawn over several
// rows: left and right, each as top, middle, bottom and the one for a single row.
var fences = map[string][2][4]string{
	"pmatrix": {{"⎛", "⎜", "⎝", "("}, {"⎞", "⎟", "⎠", ")"}},
	"bmatrix": {{"⎡", "⎢", "⎣", "["}, {"⎤", "⎥", "⎦", "]"}},
	"Bmatrix": {{"⎧", "⎪", "⎩", "{"}, {"⎫", "⎪", "⎭", "}"}},
	"vmatrix": {{"│", "│", "│", "|"}, {"│", "│", "│", "|"}},
	"Vmatrix": {{"‖", "‖", "‖", "‖"}, {"‖", "‖", "‖", "‖"}},
	"cases":   {{"⎧", "⎪", "⎩", "{"}, {}},
	"dcases":  {{"⎧", "⎪", "⎩", "{"}, {}},
	"matrix":  {},
	"array":   {},
}

// leftRight are the \left…\right pairs around an array that read as a matrix's brackets.
var leftRight = map[string]struct{ close, env string }{
	"(": {")", "pmatrix"}, "[": {"]", "bmatrix"}, `\{`: {`\}`, "Bmatrix"}, "|": {"|", "vmatrix"},
	`\|`: {`\|`, "Vmatrix"}, `\lbrace`: {`\rbrace`, "Bmatrix"},
}

// tallEnv sets out a display that is one line holding one matrix or cases environment
// (f(x) = \begin{cases}…\end{cases}) over the environment's rows: its cells aligned,
// its brackets drawn tall, the text before it on the middle row. It returns nil when
// the display is not such a line or does not fit in width (0: any).
func tallEnv(body string, width int) []string {
	at, end, env, inner := -1, 0, "", ""
	depth := 0
	for j := 0; j < len(body); j++ {
		switch body[j] {
		case '{':
			depth++
		case '}':
			depth--
		case '\\':
			name, n := envName(body[j:])
			if n == 0 || depth != 0 {
				j++
				continue
			}
			in, e, ok := envBody(body, j+n, name)
			if !ok {
				return nil
			}
			if _, known := fences[name]; !known || at >= 0 {
				return nil // another environment: one line is the better layout
			}
			at, end, env, inner = j, e, name, in
			j = e - 1
		}
	}
	if at < 0 || strings.Contains(inner, `\hline`) || strings.Contains(inner, `\cline`) {
		return nil // a table: rows with their rules (Display)
	}
	for _, part := range []string{body[:at], body[end:]} {
		if rows := splitRows(part); len(rows) > 1 || len(rows) == 1 && len(rows[0]) > 1 {
			return nil // rows or cells outside the environment
		}
	}
	var cells [][]string
	for _, row := range splitRows(skipColumnSpec(env, inner)) {
		var cs []string
		for _, c := range row {
			cs = append(cs, strings.TrimSpace(collapse(renderMath(c, 1))))
		}
		cells = append(cells, cs)
	}
	n := len(cells)
	if n < 2 {
		return nil
	}
	rows := alignRows(cells, "  ", false, 0)
	inside := 0
	for _, r := range rows {
		inside = max(inside, termcells.Width(r))
	}
	pre, post := body[:at], body[end:]
	f := fences[env]
	if env == "array" || env == "matrix" {
		// \left( \begin{array}…\end{array} \right): the brackets drawn tall.
		for open, fenced := range leftRight {
			p, q := strings.TrimRight(pre, " \n"), strings.TrimLeft(post, " \n")
			if strings.HasSuffix(p, `\left`+open) && strings.HasPrefix(q, `\right`+fenced.close) {
				pre, post, f = p[:len(p)-len(`\left`+open)], q[len(`\right`+fenced.close):], fences[fenced.env]
				break
			}
		}
	}
	before, after := Inline(pre), Inline(post)
	pad := strings.Repeat(" ", termcells.Width(before))
	out := make([]string, n)
	for k, r := range rows {
		piece := 1
		switch {
		case k == 0:
			piece = 0
		case k == n-1:
			piece = 2
		}
		left, right := f[0][piece], f[1][piece]
		if (env == "cases" || env == "dcases" || env == "Bmatrix") && n%2 == 1 && k == n/2 {
			left = "⎨"
			if env == "Bmatrix" {
				right = "⎬"
			}
		}
		line := pad
		if k == (n-1)/2 {
			line = before
		}
		if before != "" {
			line += " "
		}
		if left != "" {
			line += left + " "
		}
		line += r
		if right != "" {
			line += strings.Repeat(" ", inside-termcells.Width(r)) + " " + right
		}
		if k == n-1 && after != "" {
			line += " " + after
		}
		out[k] = strings.TrimRight(line, " ")
		if width > 0 && termcells.Width(out[k]) > width {
			return nil
		}
	}
	return out
}

// stripDelims takes the $$ or \[ \] off a display block.
func stripDelims(block string) string {
	b := strings.TrimSpace(block)
	switch {
	case strings.HasPrefix(b, "$$") && strings.HasSuffix(b, "$$") && len(b) >= 4:
		b = b[2 : len(b)-2]
	case strings.HasPrefix(b, `\[`) && strings.HasSuffix(b, `\]`) && len(b) >= 4:
		b = b[2 : len(b)-2]
	}
	return b
}

// unwrap takes off a block's delimiters and the row environments that make all of it;
// it returns the body and the innermost such environment ("" for none).
func unwrap(block string) (string, string) {
	b := stripDelims(block)
	env := ""
	for range 8 {
		t := strings.TrimSpace(b)
		name, n := envName(t)
		if n == 0 || !rowEnvs[name] {
			break
		}
		body, end, ok := envBody(t, n, name)
		if !ok || strings.TrimSpace(t[end:]) != "" {
			break
		}
		b, env = skipColumnSpec(name, body), name
	}
	return b, env
}

func envName(s string) (string, int) {
	if !strings.HasPrefix(s, `\begin{`) {
		return "", 0
	}
	k := strings.IndexByte(s, '}')
	if k < 0 || k > 40 {
		return "", 0
	}
	return s[7:k], k + 1
}

// alignRows pads the cells of each column to its widest (right-aligned for the even
// columns of an aligned environment) when the result fits in width.
func alignRows(rows [][]string, sep string, rl bool, width int) []string {
	var widths []int
	for _, r := range rows {
		for k, c := range r {
			if k >= len(widths) {
				widths = append(widths, 0)
			}
			widths[k] = max(widths[k], termcells.Width(c))
		}
	}
	total := 0
	for _, w := range widths {
		total += w + len(sep)
	}
	fits := width <= 0 || total-len(sep) <= width
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		var b strings.Builder
		for k, c := range r {
			if !fits && c == "" {
				continue
			}
			if b.Len() > 0 || (fits && k > 0) {
				b.WriteString(sep)
			}
			pad := 0
			if fits && len(r) > 1 {
				pad = widths[k] - termcells.Width(c)
			}
			if rl && k%2 == 0 {
				b.WriteString(strings.Repeat(" ", pad))
				b.WriteString(c)
			} else {
				b.WriteString(c)
				if k < len(r)-1 {
					b.WriteString(strings.Repeat(" ", pad))
				}
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

// DisplayIndent is the indentation of a display block's rows in Text.
const DisplayIndent = "    "

// Text renders prose with math for reading: inline math in place, its delimiters
// dropped; each display block on lines of its own (the white space around it becomes
// one line break), indented, rows kept as rows (aligned
// when they fit in width; 0: any width); text-mode commands (\emph{…}, \$, \begin{proof},
// …) as they read. Everything else is as written.
func Text(s string, width int) string {
	var b strings.Builder
	blocks := model.DisplayBlocks(s)
	from := 0
	for _, bl := range blocks {
		before := strings.TrimRight(renderText(s[from:bl.Start], 0), " \t\r\n")
		b.WriteString(before)
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		for i, row := range Display(s[bl.Start:bl.End], width-len(DisplayIndent)) {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(DisplayIndent + row)
		}
		from = bl.End
		if t := strings.TrimLeft(s[from:], " \t\r\n"); t != "" {
			b.WriteByte('\n')
			from = len(s) - len(t)
		}
	}
	b.WriteString(renderText(s[from:], 0))
	return b.String()
}

// renderText renders text with inline math (no display blocks: Text handles those).
func renderText(s string, depth int) string {
	if depth > maxDepth {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '$':
			if strings.HasPrefix(s[i:], "$$") {
				if j := strings.Index(s[i+2:], "$$"); j >= 0 {
					b.WriteString(Inline(s[i+2 : i+2+j]))
					i += 2 + j + 2
					continue
				}
			} else if j := model.InlineMathEnd(s, i+1); j > 0 {
				b.WriteString(Inline(s[i+1 : j-1]))
				i = j
				continue
			}
			b.WriteByte('$')
			i++
		case strings.HasPrefix(s[i:], `\(`) || strings.HasPrefix(s[i:], `\[`):
			closer := `\)`
			if s[i+1] == '[' {
				closer = `\]`
			}
			if j := strings.Index(s[i+2:], closer); j >= 0 {
				b.WriteString(Inline(s[i+2 : i+2+j]))
				i += 2 + j + 2
				continue
			}
			b.WriteString(s[i : i+2])
			i += 2
		case c == '\\':
			r, j := TextCommand(s[i:])
			b.WriteString(r)
			i += j
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// textEnvs are the environments of prose, shown as what they are.
var textEnvs = map[string][2]string{
	"proof": {"Proof.", "∎"}, "enumerate": {"", ""}, "itemize": {"", ""}, "description": {"", ""},
	"center": {"", ""}, "quote": {"", ""}, "flushleft": {"", ""},
}

// TextCommand renders the text-mode command that s starts with (s[0] is a backslash):
// what it reads as and how many bytes of s it takes. An unknown command is returned as
// written, with the groups that follow it, between RawOpen and RawClose.
func TextCommand(s string) (string, int) {
	name, j := commandAt(s, 0)
	switch {
	case name == "":
		return `\`, j
	case name == "begin" || name == "end":
		env, k := argument(s, j)
		if e, ok := textEnvs[env]; ok && k > j && s[j] == '{' {
			if name == "begin" {
				_, k2, _ := optional(s, k)
				return e[0], k2
			}
			return e[1], k
		}
	case name == "item":
		if label, k, ok := optional(s, j); ok {
			return label, k
		}
		return "•", j
	case textStyles[name]:
		a, k := argument(s, j)
		return renderText(a, 1), k
	case name == `\`:
		return "\n", j
	case name == "qed" || name == "qedsymbol" || name == "QED":
		return "∎", j
	case len(name) == 1 && strings.Contains(`$%&#_{} ,;`, name):
		if name == "," || name == ";" {
			return " ", j
		}
		return name, j
	}
	if sym, ok := symbols[name]; ok && textSafe(name) {
		return sym, j
	}
	switch name {
	case "boxed", "fbox", "framebox":
		var b strings.Builder
		var unclosed map[string]bool
		k := command(&b, s, 0, 1, &unclosed)
		return b.String(), k
	case "multicolumn":
		// \multicolumn{n}{spec}{content}: the content (the grid does not span columns).
		_, k := argument(s, j)
		_, k = argument(s, k)
		a, k := argument(s, k)
		return renderText(a, 1), k
	case "hline", "bf", "it", "rm", "sf", "tt", "em", "bfseries", "itshape", "normalfont", "centering":
		return "", j // rules and font switches
	case "cline":
		_, k := argument(s, j)
		return "", k
	}
	// Math written outside $…$ (a \equiv b, \pmod{p}) reads as that math.
	var b strings.Builder
	var unclosed map[string]bool
	if k := command(&b, s, 0, 1, &unclosed); !strings.HasPrefix(b.String(), RawOpen) {
		return b.String(), k
	}
	// Unknown: as written, with the groups that follow it, marked.
	k := j
	for k < len(s) && s[k] == '{' {
		_, k = group(s, k)
	}
	return marked(s[:k]), k
}

// textSafe are the symbol commands that also make sense in prose.
func textSafe(name string) bool {
	switch name {
	case "ldots", "dots", "S", "P", "dag", "ddag", "quad", "qquad", "noindent", "bigskip",
		"medskip", "smallskip", "newline", "checkmark", "Box", "square", "blacksquare":
		return true
	}
	return false
}

// HasMath reports whether s holds anything Text would change.
func HasMath(s string) bool {
	return strings.ContainsAny(s, `$\~`)
}

// Mode says how math is shown: readable (Unicode, the default) or as its source.
type Mode int

const (
	Unicode Mode = iota // rendered for reading
	Raw                 // the LaTeX source as written
)

func (m Mode) String() string {
	if m == Raw {
		return "raw"
	}
	return "unicode"
}

// ParseMode reads "unicode" or "raw".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "unicode":
		return Unicode, nil
	case "raw":
		return Raw, nil
	}
	return Unicode, fmt.Errorf("math mode %q: want raw or unicode", s)
}

// PieceKind says what a piece of a text is.
type PieceKind int

const (
	Prose       PieceKind = iota // text outside math (text-mode commands rendered)
	InlineMath                   // $…$, \(…\), or a $$…$$ or \[…\] inside a line
	DisplayMath                  // a display block: Shown is its rows, one a line, indented
)

// Piece is a piece of a text: its source and how it reads.
type Piece struct {
	Kind  PieceKind
	Raw   string
	Shown string
}

// Pieces cuts a text into prose, inline math and display blocks, in order: their Raw
// fields joined are the text. A text-mode command that reads otherwise (\emph{…},
// \begin{proof}) is a prose piece of its own. Shown is what Text would show for each (a display's rows
// joined by "\n", each indented, without the line breaks around it).
func Pieces(s string, width int) []Piece {
	var out []Piece
	// text adds prose: plain runs, and each text-mode command that reads otherwise as a
	// piece of its own.
	text := func(raw string) {
		from := 0
		for i := 0; i < len(raw); {
			if raw[i] != '\\' {
				i++
				continue
			}
			shown, n := TextCommand(raw[i:])
			if shown == raw[i:i+n] {
				i += n
				continue
			}
			if from < i {
				out = append(out, Piece{Kind: Prose, Raw: raw[from:i], Shown: raw[from:i]})
			}
			out = append(out, Piece{Kind: Prose, Raw: raw[i : i+n], Shown: shown})
			i += n
			from = i
		}
		if from < len(raw) {
			out = append(out, Piece{Kind: Prose, Raw: raw[from:], Shown: raw[from:]})
		}
	}
	prose := func(raw string) {
		for len(raw) > 0 {
			i, j := nextInline(raw)
			if i < 0 {
				text(raw)
				return
			}
			if i > 0 {
				text(raw[:i])
			}
			out = append(out, Piece{Kind: InlineMath, Raw: raw[i:j], Shown: renderText(raw[i:j], 0)})
			raw = raw[j:]
		}
	}
	from := 0
	for _, bl := range model.DisplayBlocks(s) {
		prose(s[from:bl.Start])
		rows := Display(s[bl.Start:bl.End], width-len(DisplayIndent))
		for i := range rows {
			rows[i] = DisplayIndent + rows[i]
		}
		out = append(out, Piece{Kind: DisplayMath, Raw: s[bl.Start:bl.End], Shown: strings.Join(rows, "\n")})
		from = bl.End
	}
	prose(s[from:])
	return out
}

// nextInline finds the first inline math span of s (as renderText reads them): its
// start and end, or -1, -1.
func nextInline(s string) (int, int) {
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '$':
			if strings.HasPrefix(s[i:], "$$") {
				if j := strings.Index(s[i+2:], "$$"); j >= 0 {
					return i, i + 2 + j + 2
				}
			} else if j := model.InlineMathEnd(s, i+1); j > 0 {
				return i, j
			}
			i++
		case strings.HasPrefix(s[i:], `\(`) || strings.HasPrefix(s[i:], `\[`):
			closer := `\)`
			if s[i+1] == '[' {
				closer = `\]`
			}
			if j := strings.Index(s[i+2:], closer); j >= 0 {
				return i, i + 2 + j + 2
			}
			i += 2
		case c == '\\':
			i += 2
		default:
			i++
		}
	}
	return -1, -1
}
