package model

// Parsers and formatters for the strings the agents keep in validation.issues,
// validation.responses and progresses (FORMAT.md, "Text conventions inside the lists").
//
// The free text inside these strings may itself contain " | ", quotes and newlines, so
// every field is delimited by the label that follows it, chosen so that the free text
// can hold as much as possible: an issue's sentence text ends at the first closing quote
// followed by "| Type:", its explanation at the LAST "| Fix:"; a response's last field
// runs to the end of the string. Labels are matched case-insensitively with any spacing.
// Surrounding white space of a field is not significant: parsers trim it and formatters
// drop it, so Format(Parse(Format(x))) == Format(x).
//
// A string that does not have the expected shape is never dropped: Raw keeps it, Parsed is
// false, Problem says what is missing, and the fields hold whatever could be read.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// ErrorTypes are the checker's issue types.
var ErrorTypes = []string{"gap", "unjustified_leap", "hidden_assumption", "circular", "scope_error", "wrong_target"}

// ResponseTypes are the fixer's response types.
var ResponseTypes = []string{"patch", "substatement", "false", "modification"}

// ModificationTypes are the kinds of change a modification may propose.
var ModificationTypes = []string{"strengthen_premises", "weaken_conclusion", "add_condition"}

// fieldLabel matches "| Name:" with any spacing and case; the match includes the white
// space after the colon, so the field's value starts at the end of the match.
func fieldLabel(name string) func() *regexp.Regexp {
	return lazyRegexp(`(?i)\|\s*` + name + `\s*:\s*`)
}

var (
	typeLabel           = fieldLabel(`type`)
	explanationLabel    = fieldLabel(`explanation`)
	fixLabel            = fieldLabel(`fix`)
	changeLabel         = fieldLabel(`change`)
	subIDLabel          = fieldLabel(`sub[\s_-]?id`)
	purposeLabel        = fieldLabel(`purpose`)
	counterexampleLabel = fieldLabel(`counter[\s_-]?example`)
	modTypeLabel        = fieldLabel(`mod(?:ification)?[\s_-]?type`)
	proposalLabel       = fieldLabel(`proposal`)
	rationaleLabel      = fieldLabel(`rationale`)

	issueHeader     = lazyRegexp(`(?i)^\s*\[\s*issue\s*#?\s*(\d+)\s*\]`)
	issueMention    = lazyRegexp(`(?i)issue\s*#\s*(\d+)`)
	sentenceField   = lazyRegexp(`(?i)^\s*sentence\s*#?\s*(\d*)\s*:?`)
	responseHeader  = lazyRegexp(`(?i)^\s*\[\s*response\s*#?\s*(\d+)\s*\]`)
	responseMention = lazyRegexp(`(?i)response\s*#\s*(\d+)`)
	fixesField      = lazyRegexp(`(?i)\bfix(?:es)?\s+issue\s*#?\s*(\d+)`)
	progressTag     = lazyRegexp(`(?i)^\s*(proof|verified|disproof[\s_]+verified|decomposed|counterexample|modification(?:[\s_]+proposed)?|abandoned)\s*:`)
	modTypeSetting  = lazyRegexp(`(?i)^type\s*[=:]`)
)

// Issue is one parsed string of validation.issues:
// "[Issue #N] Sentence M: '<text>' | Type: <t> | Explanation: <e> | Fix: <f>".
type Issue struct {
	Raw          string // always the original string
	Parsed       bool   // false: shown verbatim, Problem says why
	Problem      string
	Number       int    // N of [Issue #N]; 0 if unknown
	Sentence     int    // M of "Sentence M:"; 0 if unknown
	SentenceText string // the quoted text between the single quotes
	ErrorType    string // canonical spelling when it is one of ErrorTypes, else as written
	Explanation  string
	Fix          string
}

// ParseIssue parses one string of validation.issues. It never fails: see Issue.Parsed.
func ParseIssue(s string) Issue {
	is := Issue{Raw: s}
	var p problems
	rest := s
	if m := issueHeader().FindStringSubmatchIndex(rest); m != nil {
		is.Number = p.number(rest[m[2]:m[3]], "issue number")
		rest = rest[m[1]:]
	} else {
		p.add(`no "[Issue #N]" header`)
		is.Number = mentionedNumber(issueMention(), s)
	}

	if m := sentenceField().FindStringSubmatchIndex(rest); m != nil {
		if m[2] == m[3] {
			p.add(`no sentence number`)
		} else {
			is.Sentence = p.number(rest[m[2]:m[3]], "sentence number")
		}
		rest = rest[m[1]:]
	} else {
		p.add(`no "Sentence M:" field`)
	}

	text, afterType, ok := quotedUntilType(rest)
	is.SentenceText = text
	if !ok {
		p.add(`no "| Type:" field`)
		return is.done(p)
	}
	rest = afterType

	explanation := explanationLabel().FindStringIndex(rest)
	if explanation == nil {
		p.add(`no "| Explanation:" field`)
		// Still show the type and any fix that can be found.
		typ, fix, _ := cutLast(rest, fixLabel())
		is.ErrorType = canonicalType(typ, ErrorTypes)
		is.Fix = fix
		return is.done(p)
	}
	is.ErrorType = canonicalType(rest[:explanation[0]], ErrorTypes)
	if is.ErrorType == "" {
		p.add(`empty "Type:" field`)
	}
	var found bool
	is.Explanation, is.Fix, found = cutLast(rest[explanation[1]:], fixLabel())
	if !found {
		p.add(`no "| Fix:" field`)
	}
	return is.done(p)
}

func (is Issue) done(p problems) Issue {
	is.Parsed, is.Problem = p.result()
	return is
}

// quotedUntilType reads an issue's sentence text up to its "| Type:" label and returns the
// text and what follows the label. A text that opens with a quote ends at the first
// matching quote followed by "| Type:", so it may hold quotes and " | " itself.
func quotedUntilType(s string) (text, rest string, ok bool) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	labels := typeLabel().FindAllStringIndex(s, -1)
	if len(labels) == 0 {
		return trimQuotes(s), "", false
	}
	if q := s[0]; q == '\'' || q == '"' {
		for _, l := range labels {
			before := strings.TrimRightFunc(s[1:l[0]], unicode.IsSpace)
			if strings.HasSuffix(before, string(q)) {
				return strings.TrimSpace(before[:len(before)-1]), s[l[1]:], true
			}
		}
	}
	// No closing quote before any label: lenient, the text runs to the first label.
	return trimQuotes(s[:labels[0][0]]), s[labels[0][1]:], true
}

// trimQuotes trims white space and a pair of surrounding quotes, or a lone one.
func trimQuotes(s string) string {
	s = strings.TrimSpace(s)
	for _, q := range []string{"'", `"`} {
		if strings.HasPrefix(s, q) {
			s = strings.TrimSpace(strings.TrimSuffix(s[1:], q))
			break
		}
	}
	return s
}

// FormatIssue writes an issue string as the checker does:
// "[Issue #N] Sentence M: '<text>' | Type: <t> | Explanation: <e> | Fix: <f>".
func FormatIssue(number, sentence int, sentenceText, errorType, explanation, fix string) string {
	return fmt.Sprintf("[Issue #%d] Sentence %d: '%s' | Type: %s | Explanation: %s | Fix: %s",
		number, sentence, strings.TrimSpace(sentenceText), canonicalType(errorType, ErrorTypes),
		strings.TrimSpace(explanation), strings.TrimSpace(fix))
}

// Response is one parsed string of validation.responses:
// "[Response #N] Fixes Issue #M | Type: <type> | <type's fields>".
type Response struct {
	Raw     string // always the original string
	Parsed  bool   // false: shown verbatim, Problem says why
	Problem string
	Number  int    // N of [Response #N]; 0 if unknown
	Fixes   int    // M of "Fixes Issue #M"; 0 if unknown
	Type    string // canonical when one of ResponseTypes, else as written

	Change         string // patch: "| Change: <text>"
	SubID, Purpose string // substatement: "| SubID: s-XXX | Purpose: <text>"
	Counterexample string // false: "| Counterexample: <text>"
	ModType        string // modification: "| ModType: <type> | Proposal: <text>"
	Proposal       string
}

// ParseResponse parses one string of validation.responses. It never fails: see
// Response.Parsed.
func ParseResponse(s string) Response {
	r := Response{Raw: s}
	var p problems
	head, rest := s, ""
	typ := typeLabel().FindStringIndex(s)
	if typ != nil {
		head, rest = s[:typ[0]], s[typ[1]:]
	}

	if m := responseHeader().FindStringSubmatchIndex(head); m != nil {
		r.Number = p.number(head[m[2]:m[3]], "response number")
	} else {
		p.add(`no "[Response #N]" header`)
		r.Number = mentionedNumber(responseMention(), head)
	}
	if m := fixesField().FindStringSubmatchIndex(head); m != nil {
		r.Fixes = p.number(head[m[2]:m[3]], "issue number")
	} else {
		p.add(`no "Fixes Issue #M" field`)
	}
	if typ == nil {
		p.add(`no "| Type:" field`)
		return r.done(p)
	}

	// The type is one word; the type's own fields follow from the next "|" on.
	if bar := strings.IndexByte(rest, '|'); bar >= 0 {
		r.Type, rest = rest[:bar], rest[bar:]
	} else {
		r.Type, rest = rest, ""
	}
	r.Type = canonicalType(r.Type, ResponseTypes)
	switch r.Type {
	case "patch":
		r.Change = p.lastField(rest, changeLabel(), "Change")
	case "substatement":
		r.SubID, r.Purpose = p.twoFields(rest, subIDLabel(), "SubID", purposeLabel(), "Purpose")
	case "false":
		r.Counterexample = p.lastField(rest, counterexampleLabel(), "Counterexample")
	case "modification":
		r.ModType, r.Proposal = p.twoFields(rest, modTypeLabel(), "ModType", proposalLabel(), "Proposal")
		r.ModType = canonicalType(r.ModType, ModificationTypes)
	case "":
		p.add(`empty "Type:" field`)
	default:
		p.add(fmt.Sprintf("unknown response type %q", r.Type))
	}
	return r.done(p)
}

func (r Response) done(p problems) Response {
	r.Parsed, r.Problem = p.result()
	return r
}

// lastField returns everything after the first "| Name:" label in s.
func (p *problems) lastField(s string, label *regexp.Regexp, name string) string {
	l := label.FindStringIndex(s)
	if l == nil {
		p.add(`no "| ` + name + `:" field`)
		return ""
	}
	return strings.TrimSpace(s[l[1]:])
}

// twoFields reads "| A: <short value> | B: <text to the end>".
func (p *problems) twoFields(s string, a *regexp.Regexp, aName string, b *regexp.Regexp, bName string) (string, string) {
	la := a.FindStringIndex(s)
	if la == nil {
		p.add(`no "| ` + aName + `:" field`)
		return "", ""
	}
	s = s[la[1]:]
	lb := b.FindStringIndex(s)
	if lb == nil {
		p.add(`no "| ` + bName + `:" field`)
		first, _, _ := strings.Cut(s, "|")
		return strings.TrimSpace(first), ""
	}
	return strings.TrimSpace(s[:lb[0]]), strings.TrimSpace(s[lb[1]:])
}

func formatResponse(number, issue int, typ, fields string) string {
	return fmt.Sprintf("[Response #%d] Fixes Issue #%d | Type: %s | %s", number, issue, typ, fields)
}

// FormatPatchResponse writes "[Response #N] Fixes Issue #M | Type: patch | Change: <text>".
func FormatPatchResponse(number, issue int, change string) string {
	return formatResponse(number, issue, "patch", "Change: "+strings.TrimSpace(change))
}

// FormatSubstatementResponse writes
// "[Response #N] Fixes Issue #M | Type: substatement | SubID: s-XXX | Purpose: <text>".
func FormatSubstatementResponse(number, issue int, subID, purpose string) string {
	return formatResponse(number, issue, "substatement",
		"SubID: "+strings.TrimSpace(subID)+" | Purpose: "+strings.TrimSpace(purpose))
}

// FormatFalseResponse writes "[Response #N] Fixes Issue #M | Type: false | Counterexample: <text>".
func FormatFalseResponse(number, issue int, counterexample string) string {
	return formatResponse(number, issue, "false", "Counterexample: "+strings.TrimSpace(counterexample))
}

// FormatModificationResponse writes
// "[Response #N] Fixes Issue #M | Type: modification | ModType: <type> | Proposal: <text>".
func FormatModificationResponse(number, issue int, modType, proposal string) string {
	return formatResponse(number, issue, "modification",
		"ModType: "+canonicalType(modType, ModificationTypes)+" | Proposal: "+strings.TrimSpace(proposal))
}

// Thread is an issue with the responses that fix it.
type Thread struct {
	Issue     Issue
	Responses []Response
}

// Threads pairs responses to issues by Response.Fixes == Issue.Number, keeping list order.
// Every issue forms a thread, parsed or not; a response goes to the first issue with its
// number. Responses that fix no listed issue (or whose issue number is unknown) are stray.
func Threads(issues, responses []string) (threads []Thread, stray []Response) {
	byNumber := make(map[int]int, len(issues)) // issue number -> first thread index
	for _, s := range issues {
		is := ParseIssue(s)
		if _, dup := byNumber[is.Number]; !dup && is.Number > 0 {
			byNumber[is.Number] = len(threads)
		}
		threads = append(threads, Thread{Issue: is})
	}
	for _, s := range responses {
		r := ParseResponse(s)
		if i, ok := byNumber[r.Fixes]; ok {
			threads[i].Responses = append(threads[i].Responses, r)
		} else {
			stray = append(stray, r)
		}
	}
	return threads, stray
}

// Unanswered lists, in list order and once each, the numbers of issues that no response
// fixes. Issues whose number cannot be read are left out: nothing can answer them.
func Unanswered(issues, responses []string) []int {
	fixed := make(map[int]bool, len(responses))
	for _, s := range responses {
		fixed[ParseResponse(s).Fixes] = true
	}
	var open []int
	for _, s := range issues {
		n := ParseIssue(s).Number
		if n > 0 && !fixed[n] {
			fixed[n] = true // list a repeated number once
			open = append(open, n)
		}
	}
	return open
}

// Progress is one parsed string of progresses: "TAG: body".
type Progress struct {
	Raw  string
	Tag  string // canonical upper-case tag: "PROOF", "VERIFIED", "DISPROOF VERIFIED", "DECOMPOSED", "COUNTEREXAMPLE", "MODIFICATION PROPOSED" (also for the agents' "MODIFICATION:" at d8d7638), "ABANDONED"; "" when none
	Body string // text after "TAG: "; the whole trimmed string when there is no tag

	// Only for MODIFICATION PROPOSED: "Type=<type> | <change> | Rationale: <text>".
	ModType, Change, Rationale string
}

// ParseProgress parses one string of progresses. Tags are matched case-insensitively
// ("Verified:" is seen in real data); a string without a known tag is all Body.
func ParseProgress(s string) Progress {
	pr := Progress{Raw: s, Body: strings.TrimSpace(s)}
	m := progressTag().FindStringSubmatchIndex(s)
	if m == nil {
		return pr
	}
	pr.Tag = strings.ToUpper(strings.Join(strings.FieldsFunc(s[m[2]:m[3]], isSpaceOrUnderscore), " "))
	if pr.Tag == "MODIFICATION" { // the agents' note at d8d7638, same shape as the older one
		pr.Tag = "MODIFICATION PROPOSED"
	}
	pr.Body = strings.TrimSpace(s[m[1]:])
	if pr.Tag != "MODIFICATION PROPOSED" {
		return pr
	}
	rest := pr.Body
	if l := modTypeSetting().FindStringIndex(rest); l != nil {
		typ, after, _ := strings.Cut(rest[l[1]:], "|")
		pr.ModType, rest = canonicalType(typ, ModificationTypes), after
	}
	// The change is the structured part and may hold " | " (claim | premises), so the
	// rationale is what follows the last label.
	pr.Change, pr.Rationale, _ = cutLast(rest, rationaleLabel())
	return pr
}

func isSpaceOrUnderscore(r rune) bool { return r == '_' || unicode.IsSpace(r) }

// cutLast splits s around the last match of label, trimming both parts; without a match,
// before is all of s.
func cutLast(s string, label *regexp.Regexp) (before, after string, found bool) {
	all := label.FindAllStringIndex(s, -1)
	if len(all) == 0 {
		return strings.TrimSpace(s), "", false
	}
	l := all[len(all)-1]
	return strings.TrimSpace(s[:l[0]]), strings.TrimSpace(s[l[1]:]), true
}

// canonicalType returns the known spelling of a type written with any case, spacing,
// "-" or " " for "_"; an unknown type is returned trimmed, as written.
func canonicalType(t string, known []string) string {
	t = strings.TrimSpace(t)
	key := strings.Map(func(r rune) rune {
		if r == '-' || unicode.IsSpace(r) {
			return '_'
		}
		return unicode.ToLower(r)
	}, t)
	for _, k := range known {
		if key == k {
			return k
		}
	}
	return t
}

// mentionedNumber is the fallback for a missing header: the first "Issue #N" (or
// "Response #N") before the first field separator.
func mentionedNumber(re *regexp.Regexp, s string) int {
	head, _, _ := strings.Cut(s, "|")
	if m := re.FindStringSubmatch(head); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n
		}
	}
	return 0
}

// problems collects the first thing wrong with a string being parsed.
type problems struct{ first string }

func (p *problems) add(msg string) {
	if p.first == "" {
		p.first = msg
	}
}

func (p problems) result() (parsed bool, problem string) { return p.first == "", p.first }

// number converts digits matched by a pattern; only an overflow can fail.
func (p *problems) number(digits, what string) int {
	n, err := strconv.Atoi(digits)
	if err != nil {
		p.add(what + " out of range")
		return 0
	}
	return n
}
