package model

import (
	"reflect"
	"testing"
)

func TestParseIssue(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Issue
	}{{
		name: "contract form",
		in:   "[Issue #1] Sentence 3: 'Suppose Olivia=Knave, Alice=Spy, Ivy=Knave.' | Type: gap | Explanation: The case is assumed, not derived. | Fix: Derive it from s-005.",
		want: Issue{Parsed: true, Number: 1, Sentence: 3,
			SentenceText: "Suppose Olivia=Knave, Alice=Spy, Ivy=Knave.", ErrorType: "gap",
			Explanation: "The case is assumed, not derived.", Fix: "Derive it from s-005."},
	}, {
		name: "quotes and bars inside the free text",
		in:   `[Issue #12] Sentence 4: 'Check Olivia's statement "Alice and I | have the same role." ' | Type: unjustified_leap | Explanation: Uses 'a | b' and "x | Type: y" | Fix: first | Fix: second`,
		want: Issue{Parsed: true, Number: 12, Sentence: 4,
			SentenceText: `Check Olivia's statement "Alice and I | have the same role."`, ErrorType: "unjustified_leap",
			Explanation: `Uses 'a | b' and "x | Type: y" | Fix: first`, Fix: "second"},
	}, {
		name: "newlines in the text",
		in:   "[Issue #2] Sentence 7: 'a\nb' | Type: circular | Explanation: line one\nline two | Fix: \n  rewrite\n",
		want: Issue{Parsed: true, Number: 2, Sentence: 7, SentenceText: "a\nb", ErrorType: "circular",
			Explanation: "line one\nline two", Fix: "rewrite"},
	}, {
		name: "lenient: spacing, no colon, case, spelled type",
		in:   "  [ issue  # 5 ]   sentence 9 'x' |type:Hidden Assumption|  EXPLANATION :e|fix:f",
		want: Issue{Parsed: true, Number: 5, Sentence: 9, SentenceText: "x", ErrorType: "hidden_assumption",
			Explanation: "e", Fix: "f"},
	}, {
		name: "unquoted sentence text",
		in:   "[Issue #3] Sentence 2: Therefore x=1 | Type: gap | Explanation: e | Fix: f",
		want: Issue{Parsed: true, Number: 3, Sentence: 2, SentenceText: "Therefore x=1", ErrorType: "gap",
			Explanation: "e", Fix: "f"},
	}, {
		name: "double-quoted sentence text",
		in:   `[Issue #3] Sentence 2: "It's 'so'." | Type: gap | Explanation: e | Fix: f`,
		want: Issue{Parsed: true, Number: 3, Sentence: 2, SentenceText: `It's 'so'.`, ErrorType: "gap",
			Explanation: "e", Fix: "f"},
	}, {
		name: "empty fields",
		in:   "[Issue #4] Sentence 1: '' | Type: scope_error | Explanation:  | Fix: ",
		want: Issue{Parsed: true, Number: 4, Sentence: 1, ErrorType: "scope_error"},
	}, {
		name: "unknown type kept as written",
		in:   "[Issue #6] Sentence 1: 's' | Type: Logic Error | Explanation: e | Fix: f",
		want: Issue{Parsed: true, Number: 6, Sentence: 1, SentenceText: "s", ErrorType: "Logic Error",
			Explanation: "e", Fix: "f"},
	}, {
		name: "no fix",
		in:   "[Issue #7] Sentence 2: 's' | Type: gap | Explanation: e",
		want: Issue{Problem: `no "| Fix:" field`, Number: 7, Sentence: 2, SentenceText: "s", ErrorType: "gap",
			Explanation: "e"},
	}, {
		name: "no type",
		in:   "[Issue #8] Sentence 2: 'the whole thing'",
		want: Issue{Problem: `no "| Type:" field`, Number: 8, Sentence: 2, SentenceText: "the whole thing"},
	}, {
		name: "no explanation",
		in:   "[Issue #9] Sentence 2: 's' | Type: gap | Fix: f",
		want: Issue{Problem: `no "| Explanation:" field`, Number: 9, Sentence: 2, SentenceText: "s",
			ErrorType: "gap", Fix: "f"},
	}, {
		name: "empty type",
		in:   "[Issue #9] Sentence 2: 's' | Type: | Explanation: e | Fix: f",
		want: Issue{Problem: `empty "Type:" field`, Number: 9, Sentence: 2, SentenceText: "s",
			Explanation: "e", Fix: "f"},
	}, {
		name: "no sentence number",
		in:   "[Issue #10] Sentence: 's' | Type: gap | Explanation: e | Fix: f",
		want: Issue{Problem: "no sentence number", Number: 10, SentenceText: "s", ErrorType: "gap",
			Explanation: "e", Fix: "f"},
	}, {
		name: "no sentence field",
		in:   "[Issue #10] 's' | Type: gap | Explanation: e | Fix: f",
		want: Issue{Problem: `no "Sentence M:" field`, Number: 10, SentenceText: "s", ErrorType: "gap",
			Explanation: "e", Fix: "f"},
	}, {
		name: "no header: number still found",
		in:   "Issue #11: Sentence 2 is wrong | Type: gap",
		want: Issue{Problem: `no "[Issue #N]" header`, Number: 11, SentenceText: "Issue #11: Sentence 2 is wrong",
			ErrorType: "gap"},
	}, {
		name: "no header, no number",
		in:   "The proof is wrong.",
		want: Issue{Problem: `no "[Issue #N]" header`, SentenceText: "The proof is wrong."},
	}, {
		name: "number overflow",
		in:   "[Issue #99999999999999999999] Sentence 1: 's' | Type: gap | Explanation: e | Fix: f",
		want: Issue{Problem: "issue number out of range", Sentence: 1, SentenceText: "s", ErrorType: "gap",
			Explanation: "e", Fix: "f"},
	}, {
		name: "empty string",
		in:   "",
		want: Issue{Problem: `no "[Issue #N]" header`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Raw = tt.in
			if got := ParseIssue(tt.in); got != tt.want {
				t.Errorf("ParseIssue(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestFormatIssue(t *testing.T) {
	got := FormatIssue(2, 5, " Since x=1. ", "Unjustified Leap", "why | because", "add 'a' | b\n")
	want := "[Issue #2] Sentence 5: 'Since x=1.' | Type: unjustified_leap | Explanation: why | because | Fix: add 'a' | b"
	if got != want {
		t.Fatalf("FormatIssue\n got %q\nwant %q", got, want)
	}
}

func TestIssueRoundTrip(t *testing.T) {
	tests := []Issue{
		{Number: 1, Sentence: 1, SentenceText: "s", ErrorType: "gap", Explanation: "e", Fix: "f"},
		{Number: 3, Sentence: 14, SentenceText: `Olivia's "claim" | Type 'x'`, ErrorType: "wrong_target",
			Explanation: "a | b | Fix: c 'd' \"e\"", Fix: "g | h\nnext line"},
		{Number: 7, Sentence: 2, SentenceText: "ends with a quote'", ErrorType: "circular",
			Explanation: "", Fix: ""},
		{Number: 0, Sentence: 0, SentenceText: "", ErrorType: "", Explanation: "| Type: gap", Fix: "x"},
	}
	for _, want := range tests {
		s := FormatIssue(want.Number, want.Sentence, want.SentenceText, want.ErrorType, want.Explanation, want.Fix)
		got := ParseIssue(s)
		want.Raw = s
		want.Parsed = want.ErrorType != ""
		if !want.Parsed {
			want.Problem = `empty "Type:" field`
		}
		if got != want {
			t.Errorf("ParseIssue(%q)\n got %+v\nwant %+v", s, got, want)
		}
	}
}

func TestParseResponse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Response
	}{{
		name: "patch",
		in:   "[Response #1] Fixes Issue #1 | Type: patch | Change: Derived the case | from s-005 | Change: kept",
		want: Response{Parsed: true, Number: 1, Fixes: 1, Type: "patch",
			Change: "Derived the case | from s-005 | Change: kept"},
	}, {
		name: "substatement",
		in:   "[Response #2] Fixes Issue #3 | Type: substatement | SubID: s-008 | Purpose: Shows 'x' | y",
		want: Response{Parsed: true, Number: 2, Fixes: 3, Type: "substatement", SubID: "s-008",
			Purpose: "Shows 'x' | y"},
	}, {
		name: "false",
		in:   "[Response #3] Fixes Issue #2 | Type: false | Counterexample: n=4 | \"even\"",
		want: Response{Parsed: true, Number: 3, Fixes: 2, Type: "false", Counterexample: "n=4 | \"even\""},
	}, {
		name: "modification",
		in:   "[Response #4] Fixes Issue #4 | Type: modification | ModType: weaken_conclusion | Proposal: Claim: x | Premises: y",
		want: Response{Parsed: true, Number: 4, Fixes: 4, Type: "modification", ModType: "weaken_conclusion",
			Proposal: "Claim: x | Premises: y"},
	}, {
		name: "lenient spacing and case",
		in:   "[response # 5]  fixes issue 6 |type:PATCH|change:c",
		want: Response{Parsed: true, Number: 5, Fixes: 6, Type: "patch", Change: "c"},
	}, {
		name: "lenient labels",
		in:   "[Response #6] Fixes Issue #6 | Type: modification | Modification Type: Add Condition | Proposal: p",
		want: Response{Parsed: true, Number: 6, Fixes: 6, Type: "modification", ModType: "add_condition", Proposal: "p"},
	}, {
		name: "unknown type",
		in:   "[Response #7] Fixes Issue #1 | Type: rewrite | Text: t",
		want: Response{Problem: `unknown response type "rewrite"`, Number: 7, Fixes: 1, Type: "rewrite"},
	}, {
		name: "type without fields",
		in:   "[Response #7] Fixes Issue #1 | Type: patch",
		want: Response{Problem: `no "| Change:" field`, Number: 7, Fixes: 1, Type: "patch"},
	}, {
		name: "substatement without purpose",
		in:   "[Response #8] Fixes Issue #2 | Type: substatement | SubID: s-009 | why",
		want: Response{Problem: `no "| Purpose:" field`, Number: 8, Fixes: 2, Type: "substatement", SubID: "s-009"},
	}, {
		name: "no type",
		in:   "[Response #9] Fixes Issue #2: patched the proof",
		want: Response{Problem: `no "| Type:" field`, Number: 9, Fixes: 2},
	}, {
		name: "no fixes",
		in:   "[Response #9] | Type: patch | Change: c",
		want: Response{Problem: `no "Fixes Issue #M" field`, Number: 9, Type: "patch", Change: "c"},
	}, {
		name: "no header: number still found",
		in:   "Response #10 Fixes Issue #2 | Type: false | Counterexample: c",
		want: Response{Problem: `no "[Response #N]" header`, Number: 10, Fixes: 2, Type: "false", Counterexample: "c"},
	}, {
		name: "free text only",
		in:   "I fixed it.",
		want: Response{Problem: `no "[Response #N]" header`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Raw = tt.in
			if got := ParseResponse(tt.in); got != tt.want {
				t.Errorf("ParseResponse(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestFormatResponses(t *testing.T) {
	tests := []struct {
		got, want string
		parsed    Response
	}{{
		got:    FormatPatchResponse(1, 2, " new | text 'q' "),
		want:   "[Response #1] Fixes Issue #2 | Type: patch | Change: new | text 'q'",
		parsed: Response{Number: 1, Fixes: 2, Type: "patch", Change: "new | text 'q'"},
	}, {
		got:    FormatSubstatementResponse(2, 1, "s-010", "fills the gap | \"at\" step 3"),
		want:   `[Response #2] Fixes Issue #1 | Type: substatement | SubID: s-010 | Purpose: fills the gap | "at" step 3`,
		parsed: Response{Number: 2, Fixes: 1, Type: "substatement", SubID: "s-010", Purpose: `fills the gap | "at" step 3`},
	}, {
		got:    FormatFalseResponse(3, 3, "x = -1\n| Type: patch"),
		want:   "[Response #3] Fixes Issue #3 | Type: false | Counterexample: x = -1\n| Type: patch",
		parsed: Response{Number: 3, Fixes: 3, Type: "false", Counterexample: "x = -1\n| Type: patch"},
	}, {
		got:    FormatModificationResponse(4, 3, "Strengthen-Premises", "Add | n > 0 | Proposal: z"),
		want:   "[Response #4] Fixes Issue #3 | Type: modification | ModType: strengthen_premises | Proposal: Add | n > 0 | Proposal: z",
		parsed: Response{Number: 4, Fixes: 3, Type: "modification", ModType: "strengthen_premises", Proposal: "Add | n > 0 | Proposal: z"},
	}}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("format\n got %q\nwant %q", tt.got, tt.want)
		}
		tt.parsed.Raw, tt.parsed.Parsed = tt.want, true
		if got := ParseResponse(tt.want); got != tt.parsed {
			t.Errorf("ParseResponse(%q)\n got %+v\nwant %+v", tt.want, got, tt.parsed)
		}
	}
}

func TestThreads(t *testing.T) {
	issues := []string{
		FormatIssue(1, 3, "a", "gap", "e1", "f1"),
		"garbage issue",
		FormatIssue(2, 5, "b", "circular", "e2", "f2"),
		FormatIssue(3, 6, "c", "gap", "e3", "f3"),
	}
	responses := []string{
		FormatPatchResponse(1, 2, "p1"),
		FormatSubstatementResponse(2, 1, "s-008", "why"),
		FormatPatchResponse(3, 9, "fixes nothing listed"),
		"unparseable response",
		FormatFalseResponse(4, 2, "cx"),
	}
	threads, stray := Threads(issues, responses)
	p := func(s string) Response { return ParseResponse(s) }
	want := []Thread{
		{Issue: ParseIssue(issues[0]), Responses: []Response{p(responses[1])}},
		{Issue: ParseIssue(issues[1])},
		{Issue: ParseIssue(issues[2]), Responses: []Response{p(responses[0]), p(responses[4])}},
		{Issue: ParseIssue(issues[3])},
	}
	if !reflect.DeepEqual(threads, want) {
		t.Errorf("threads\n got %+v\nwant %+v", threads, want)
	}
	if threads[1].Issue.Parsed || threads[1].Issue.Number != 0 {
		t.Errorf("unparsed issue thread: %+v", threads[1].Issue)
	}
	wantStray := []Response{p(responses[2]), p(responses[3])}
	if !reflect.DeepEqual(stray, wantStray) {
		t.Errorf("stray\n got %+v\nwant %+v", stray, wantStray)
	}
	if got := Unanswered(issues, responses); !reflect.DeepEqual(got, []int{3}) {
		t.Errorf("Unanswered = %v, want [3]", got)
	}
}

func TestThreadsEdgeCases(t *testing.T) {
	threads, stray := Threads(nil, nil)
	if threads != nil || stray != nil {
		t.Errorf("Threads(nil, nil) = %v, %v", threads, stray)
	}
	// A repeated issue number: responses go to the first; Unanswered lists it once.
	issues := []string{FormatIssue(1, 1, "a", "gap", "e", "f"), FormatIssue(1, 2, "b", "gap", "e", "f")}
	responses := []string{FormatPatchResponse(1, 1, "c")}
	threads, stray = Threads(issues, responses)
	if len(threads) != 2 || len(threads[0].Responses) != 1 || len(threads[1].Responses) != 0 || stray != nil {
		t.Errorf("repeated number: %+v, stray %+v", threads, stray)
	}
	if got := Unanswered(issues, nil); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("Unanswered(repeated) = %v, want [1]", got)
	}
	if got := Unanswered(issues, responses); got != nil {
		t.Errorf("Unanswered(all answered) = %v, want nil", got)
	}
	// A response whose issue number cannot be read does not answer an issue without one.
	threads, stray = Threads([]string{"garbage"}, []string{"more garbage"})
	if len(threads) != 1 || threads[0].Responses != nil || len(stray) != 1 {
		t.Errorf("garbage: %+v, stray %+v", threads, stray)
	}
	if got := Unanswered([]string{"garbage"}, nil); got != nil {
		t.Errorf("Unanswered(garbage) = %v, want nil", got)
	}
}

func TestParseProgress(t *testing.T) {
	tests := []struct {
		in   string
		want Progress
	}{
		{"PROOF: Case analysis proof with 27 steps showing consistency of proposed solution and contradiction in all alternatives",
			Progress{Tag: "PROOF", Body: "Case analysis proof with 27 steps showing consistency of proposed solution and contradiction in all alternatives"}},
		{"VERIFIED: 27 steps checked, all valid. Case analysis proof correctly establishes unique solution.",
			Progress{Tag: "VERIFIED", Body: "27 steps checked, all valid. Case analysis proof correctly establishes unique solution."}},
		{"Verified: ok", Progress{Tag: "VERIFIED", Body: "ok"}},
		{"  decomposed : into s-008, s-009", Progress{Tag: "DECOMPOSED", Body: "into s-008, s-009"}},
		{"COUNTEREXAMPLE: n = 2: PROOF: x", Progress{Tag: "COUNTEREXAMPLE", Body: "n = 2: PROOF: x"}},
		{"ABANDONED:", Progress{Tag: "ABANDONED"}},
		{"(s-007) The unique solution: Olivia=Knave, Alice=Spy, Ivy=Knave",
			Progress{Body: "(s-007) The unique solution: Olivia=Knave, Alice=Spy, Ivy=Knave"}},
		{"PROOFS: many", Progress{Body: "PROOFS: many"}},
		{"", Progress{}},
		{"MODIFICATION PROPOSED: Type=weaken_conclusion | Claim: x | Premises: y | Rationale: too strong | Rationale: really",
			Progress{Tag: "MODIFICATION PROPOSED", Body: "Type=weaken_conclusion | Claim: x | Premises: y | Rationale: too strong | Rationale: really",
				ModType: "weaken_conclusion", Change: "Claim: x | Premises: y | Rationale: too strong", Rationale: "really"}},
		{"Modification_Proposed: type = Add Condition|c|rationale:r",
			Progress{Tag: "MODIFICATION PROPOSED", Body: "type = Add Condition|c|rationale:r",
				ModType: "add_condition", Change: "c", Rationale: "r"}},
		{"MODIFICATION PROPOSED: just words",
			Progress{Tag: "MODIFICATION PROPOSED", Body: "just words", Change: "just words"}},
		{"MODIFICATION: Type=add_condition | Claim: c | Rationale: r", // the agents' note at d8d7638
			Progress{Tag: "MODIFICATION PROPOSED", Body: "Type=add_condition | Claim: c | Rationale: r", ModType: "add_condition", Change: "Claim: c", Rationale: "r"}},
		{"DISPROOF VERIFIED: 3 steps checked", Progress{Tag: "DISPROOF VERIFIED", Body: "3 steps checked"}},
		{"MODIFICATIONS: many", Progress{Body: "MODIFICATIONS: many"}},
		{"MODIFICATION PROPOSED: Type=strengthen_premises",
			Progress{Tag: "MODIFICATION PROPOSED", Body: "Type=strengthen_premises", ModType: "strengthen_premises"}},
	}
	for _, tt := range tests {
		tt.want.Raw = tt.in
		if got := ParseProgress(tt.in); got != tt.want {
			t.Errorf("ParseProgress(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
		}
	}
}

// Strings as the bundled demo's agents write them, math and all.
func TestParseDemoStrings(t *testing.T) {
	progress := "MODIFICATION PROPOSED: Type=add_condition | Claim: The sum $\\sum_{k=1}^n k^3$ is odd; Premises: $n \\ge 1$ is an integer; $n \\equiv 1 \\pmod{4}$ or $n \\equiv 2 \\pmod{4}$ | Rationale: The claim fails at $n = 3$, where $1 + 8 + 27 = 36$. Steps 1–3 are right."
	wantProgress := Progress{Raw: progress, Tag: "MODIFICATION PROPOSED", Body: progress[len("MODIFICATION PROPOSED: "):],
		ModType:   "add_condition",
		Change:    "Claim: The sum $\\sum_{k=1}^n k^3$ is odd; Premises: $n \\ge 1$ is an integer; $n \\equiv 1 \\pmod{4}$ or $n \\equiv 2 \\pmod{4}$",
		Rationale: "The claim fails at $n = 3$, where $1 + 8 + 27 = 36$. Steps 1–3 are right."}
	if got := ParseProgress(progress); got != wantProgress {
		t.Errorf("ParseProgress\n got %+v\nwant %+v", got, wantProgress)
	}
	response := "[Response #1] Fixes Issue #1 | Type: false | Counterexample: $p = 7$ is a prime with $7 \\equiv 3 \\pmod{4}$, but $4 \\cdot 7 - 1 = 27 = 3^3$ is not prime."
	wantResponse := Response{Raw: response, Parsed: true, Number: 1, Fixes: 1, Type: "false",
		Counterexample: "$p = 7$ is a prime with $7 \\equiv 3 \\pmod{4}$, but $4 \\cdot 7 - 1 = 27 = 3^3$ is not prime."}
	if got := ParseResponse(response); got != wantResponse {
		t.Errorf("ParseResponse\n got %+v\nwant %+v", got, wantResponse)
	}
}
