package model

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// fixtureStrings returns every string in the fixture's problem and statement files, as
// fuzz seeds.
func fixtureStrings(f *testing.F) []string {
	f.Helper()
	needShared(f)
	files, err := filepath.Glob(filepath.Join(fixture, "*", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no fixture files: %v", err)
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			f.Fatalf("%s: %v", name, err)
		}
		walk(v)
	}
	return out
}

func FuzzParseIssue(f *testing.F) {
	for _, s := range fixtureStrings(f) {
		f.Add(s, uint16(1), uint16(1), s, "gap", s, s)
	}
	f.Add("[Issue #12] Sentence 4: 'Check \"x.\" ' | Type: unjustified_leap | Explanation: a | Fix: b | Fix: c",
		uint16(12), uint16(4), "It's 'so' | x", "Unjustified Leap", "e | Fix: inside", "f")
	f.Add("", uint16(0), uint16(0), "", "", "", "")
	f.Fuzz(func(t *testing.T, raw string, number, sentence uint16, text, typ, explanation, fix string) {
		is := ParseIssue(raw)
		if is.Raw != raw || is.Parsed != (is.Problem == "") {
			t.Fatalf("ParseIssue(%q) = %+v", raw, is)
		}
		s := FormatIssue(int(number), int(sentence), text, typ, explanation, fix)
		// Fields that hold the label ending them cannot be told apart from it.
		if typeLabel().MatchString(text) || explanationLabel().MatchString(typ) || fixLabel().MatchString(fix) {
			return
		}
		p := ParseIssue(s)
		again := FormatIssue(p.Number, p.Sentence, p.SentenceText, p.ErrorType, p.Explanation, p.Fix)
		if again != s || p.Number != int(number) || p.Sentence != int(sentence) {
			t.Fatalf("round trip\n   %q\n-> %+v\n-> %q", s, p, again)
		}
	})
}

func FuzzParseResponse(f *testing.F) {
	for _, s := range fixtureStrings(f) {
		f.Add(s, uint16(1), uint16(1), uint8(0), "s-008", s)
	}
	f.Add("[Response #1] Fixes Issue #2 | Type: substatement | SubID: s-009 | Purpose: p | q",
		uint16(3), uint16(2), uint8(3), "Add-Condition", "Claim: x | Premises: y")
	f.Add("", uint16(0), uint16(0), uint8(1), "", "")
	f.Fuzz(func(t *testing.T, raw string, number, issue uint16, kind uint8, short, text string) {
		r := ParseResponse(raw)
		if r.Raw != raw || r.Parsed != (r.Problem == "") {
			t.Fatalf("ParseResponse(%q) = %+v", raw, r)
		}
		n, m := int(number), int(issue)
		var s string
		switch kind % 4 {
		case 0:
			s = FormatPatchResponse(n, m, text)
		case 1:
			s = FormatFalseResponse(n, m, text)
		case 2:
			if purposeLabel().MatchString(short) {
				return
			}
			s = FormatSubstatementResponse(n, m, short, text)
		case 3:
			if proposalLabel().MatchString(short) {
				return
			}
			s = FormatModificationResponse(n, m, short, text)
		}
		p := ParseResponse(s)
		var again string
		switch p.Type {
		case "patch":
			again = FormatPatchResponse(p.Number, p.Fixes, p.Change)
		case "false":
			again = FormatFalseResponse(p.Number, p.Fixes, p.Counterexample)
		case "substatement":
			again = FormatSubstatementResponse(p.Number, p.Fixes, p.SubID, p.Purpose)
		case "modification":
			again = FormatModificationResponse(p.Number, p.Fixes, p.ModType, p.Proposal)
		}
		if !p.Parsed || again != s || p.Number != n || p.Fixes != m {
			t.Fatalf("round trip\n   %q\n-> %+v\n-> %q", s, p, again)
		}
	})
}

func FuzzParseProgress(f *testing.F) {
	for _, s := range fixtureStrings(f) {
		f.Add(s)
	}
	f.Add("MODIFICATION PROPOSED: Type=weaken_conclusion | Claim: x | Premises: y | Rationale: r")
	f.Add("verified:")
	f.Fuzz(func(t *testing.T, raw string) {
		p := ParseProgress(raw)
		tags := []string{"", "PROOF", "VERIFIED", "DISPROOF VERIFIED", "DECOMPOSED", "COUNTEREXAMPLE", "MODIFICATION PROPOSED", "ABANDONED"}
		if p.Raw != raw || !slices.Contains(tags, p.Tag) || !strings.Contains(raw, p.Body) {
			t.Fatalf("ParseProgress(%q) = %+v", raw, p)
		}
		if p.Tag == "" && p.Body != strings.TrimSpace(raw) {
			t.Fatalf("untagged %q: body %q", raw, p.Body)
		}
		if p.Tag != "MODIFICATION PROPOSED" && p.ModType+p.Change+p.Rationale != "" {
			t.Fatalf("%q: modification fields on a %q note: %+v", raw, p.Tag, p)
		}
	})
}

func FuzzSplitSentences(f *testing.F) {
	for _, s := range fixtureStrings(f) {
		f.Add(s)
	}
	f.Add("Let $x = 1. Y$ hold.\n\n$$a. B$$ \\[c. D\\] \\(e. F\\) e.g. Thm. 3.14 ... \"q.\" Then.\n1. item\n- dash\n**Step 2:** x")
	f.Add("\xff\xfe. \x00. $\\")
	f.Add("relation\n\n$$\n\n|x \\pm y|^2\n\n$$\n\nIf \\[a\n\nb\\] \\begin{aligned}a&=b\\\\\n\nc\\end{aligned}, so that x.")
	for _, p := range loadCorpus(f) {
		f.Add(p.Proof)
	}
	f.Fuzz(func(t *testing.T, proof string) {
		sents := SplitSentences(proof)
		checkTiling(t, proof, sents)
		checkDisplay(t, proof, sents)
		for i, s := range sents {
			if s.Step < 0 {
				t.Fatalf("sentence %d: step %d", s.N, s.Step)
			}
			if j, rule := LocateSentence(sents, s.N, s.Text); j != i || rule != LocatedByText {
				t.Fatalf("sentence %d %q located as %d by %q", s.N, s.Text, j, rule)
			}
		}
	})
}

func FuzzSanitize(f *testing.F) {
	for _, s := range fixtureStrings(f) {
		f.Add(s)
	}
	for _, s := range []string{"\x1b[31mred\x1b[0m", "\x1b]52;c;aGk=\x07", "\x1b]8;;http://x\x1b\\y", "\x1bP1$r\x1b\\",
		"\u009b31m", "a\u202eb\u2066c", "\x00\r\n\t\x7f", "\xff\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range []bool{false, true} {
			clean := Sanitize
			if line {
				clean = SanitizeLine
			}
			out := clean(s)
			if !utf8.ValidString(out) {
				t.Fatalf("sanitize(%q, line=%v) = %q: invalid UTF-8", s, line, out)
			}
			for _, r := range out {
				bad := r < 0x20 && (r != '\n' && r != '\t' || line) ||
					r == 0x7f || 0x80 <= r && r <= 0x9f || isBidiControl(r)
				if bad {
					t.Fatalf("sanitize(%q, line=%v) = %q: holds %U", s, line, out, r)
				}
			}
			if again := clean(out); again != out {
				t.Fatalf("sanitize not idempotent: %q -> %q -> %q", s, out, again)
			}
			if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
				return r < 0x20 || r == 0x7f || 0x80 <= r && r <= 0x9f || isBidiControl(r)
			}) && out != s {
				t.Fatalf("sanitize changed clean %q to %q", s, out)
			}
		}
	})
}
