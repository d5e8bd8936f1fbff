package model

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// s007Proof is proof.full of the real fixture statement s-007.
func s007Proof(t testing.TB) string {
	t.Helper()
	needShared(t)
	data, err := os.ReadFile(filepath.Join(fixture, "statement", "s-007.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Proof struct{ Full string }
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Proof.Full
}

// checkTiling checks the invariants every split must satisfy: numbering, offsets in
// range and tiling the proof, Text the trimmed span and never empty.
func checkTiling(t testing.TB, proof string, sents []Sentence) {
	t.Helper()
	if strings.TrimSpace(proof) == "" {
		if len(sents) != 0 {
			t.Fatalf("blank proof %q gave %d sentences", proof, len(sents))
		}
		return
	}
	if len(sents) == 0 {
		t.Fatalf("proof %q gave no sentences", proof)
	}
	var joined strings.Builder
	for i, s := range sents {
		if s.N != i+1 {
			t.Fatalf("sentence %d numbered %d", i+1, s.N)
		}
		if s.Start < 0 || s.Start > s.End || s.End > len(proof) {
			t.Fatalf("sentence %d: bad offsets [%d:%d] in %d bytes", s.N, s.Start, s.End, len(proof))
		}
		wantStart := 0
		if i > 0 {
			wantStart = sents[i-1].End
		}
		if s.Start != wantStart {
			t.Fatalf("sentence %d starts at %d, want %d", s.N, s.Start, wantStart)
		}
		if s.Text == "" || s.Text != strings.TrimSpace(proof[s.Start:s.End]) {
			t.Fatalf("sentence %d: Text %q for span %q", s.N, s.Text, proof[s.Start:s.End])
		}
		if i > 0 && (s.Paragraph < sents[i-1].Paragraph || s.Paragraph > sents[i-1].Paragraph+1) {
			t.Fatalf("sentence %d: paragraph %d after %d", s.N, s.Paragraph, sents[i-1].Paragraph)
		}
		joined.WriteString(proof[s.Start:s.End])
	}
	if sents[0].Paragraph != 0 || sents[len(sents)-1].End != len(proof) {
		t.Fatalf("first paragraph %d, last end %d of %d", sents[0].Paragraph, sents[len(sents)-1].End, len(proof))
	}
	if joined.String() != proof {
		t.Fatalf("sentences do not cover the proof")
	}
}

func TestSplitSentencesS007(t *testing.T) {
	proof := s007Proof(t)
	sents := SplitSentences(proof)
	checkTiling(t, proof, sents)
	if len(sents) != 108 {
		t.Fatalf("s-007 has %d sentences, want 108", len(sents))
	}
	want := []struct {
		n, para, step int
		text          string
	}{
		{1, 0, 0, "We prove that (Olivia=Knave, Alice=Spy, Ivy=Knave) is the unique solution by showing it is consistent and all alternatives lead to contradictions."},
		{2, 1, 1, "Step 1: We first verify the proposed solution is consistent."},
		{3, 1, 1, "Suppose Olivia=Knave, Alice=Spy, Ivy=Knave."},
		// A sentence ending inside a quotation ends at the closing quote.
		{4, 2, 2, `Step 2: Check Olivia's statement "Alice and I have the same role."`},
		{5, 2, 2, "Since Olivia=Knave and Alice=Spy, they do NOT have the same role."},
		{8, 3, 3, `Step 3: Check Alice's statement "I am a spy."`},
		{15, 5, 5, `Step 5: Check the "exactly one spy" constraint (s-005).`},
		{24, 8, 8, `Alice says "I am a spy" (s-003).`},
		{27, 8, 8, "Contradiction."},
		{44, 12, 12, "Step 12: Case B.1.a: Alice=Knave, Olivia=Spy, Ivy=Knight."},
		{107, 27, 27, "Therefore the unique solution is: Olivia=Knave, Alice=Spy, Ivy=Knave."},
		{108, 27, 27, "QED."},
	}
	for _, w := range want {
		s := sents[w.n-1]
		if s.Text != w.text || s.Paragraph != w.para || s.Step != w.step {
			t.Errorf("sentence %d = %q (paragraph %d, step %d), want %q (paragraph %d, step %d)",
				w.n, s.Text, s.Paragraph, s.Step, w.text, w.para, w.step)
		}
	}
	// Offsets: the first sentence's span carries the blank line after it.
	if s := sents[0]; s.Start != 0 || s.End != 148 || proof[s.End-2:s.End] != "\n\n" {
		t.Errorf("sentence 1 span [%d:%d]", s.Start, s.End)
	}
	if s := sents[107]; s.Start != 5242 || s.End != 5246 {
		t.Errorf("sentence 108 span [%d:%d], want [5242:5246]", s.Start, s.End)
	}
}

func TestSplitSentences(t *testing.T) {
	type sent struct {
		text            string
		paragraph, step int
	}
	tests := []struct {
		name  string
		proof string
		want  []sent
	}{
		{"empty", "", nil},
		{"blank", " \n\t\n \u00a0 ", nil},
		{"no terminal punctuation", "  Hence x  ", []sent{{"Hence x", 0, 0}}},
		{"basic", "A holds. B holds! Does C? Yes.", []sent{{"A holds.", 0, 0}, {"B holds!", 0, 0}, {"Does C?", 0, 0}, {"Yes.", 0, 0}}},
		{"lower case after the point", "Let x = 1. then y = 2.", []sent{{"Let x = 1. then y = 2.", 0, 0}}},
		{"no space after the point", "See s-005.Then x.", []sent{{"See s-005.Then x.", 0, 0}}},
		{"starters", "It is. 2 is even. $x$ is odd. (Here.) 'Quoted.' \"Too.\" \\[x\\] holds. \\(y\\) too.",
			[]sent{{"It is.", 0, 0}, {"2 is even.", 0, 0}, {"$x$ is odd.", 0, 0}, {"(Here.)", 0, 0}, {"'Quoted.'", 0, 0},
				{`"Too."`, 0, 0}, {`\[x\] holds.`, 0, 0}, {`\(y\) too.`, 0, 0}}},
		{"blank line ends a sentence", "First line\nstill first\n\n  second paragraph\n \n\nthird",
			[]sent{{"First line\nstill first", 0, 0}, {"second paragraph", 1, 0}, {"third", 2, 0}}},
		{"inline math", "Let $x = 1. Y$ hold. Then $a. B$ too.", []sent{{"Let $x = 1. Y$ hold.", 0, 0}, {"Then $a. B$ too.", 0, 0}}},
		{"display math", "We get $$x. Y\n= 2. Z$$ and \\[ a. B \\] and \\( c. D \\). Done.",
			[]sent{{"We get $$x. Y\n= 2. Z$$ and \\[ a. B \\] and \\( c. D \\).", 0, 0}, {"Done.", 0, 0}}},
		{"escaped dollar", `It costs \$5. Then $a. B$ ok.`, []sent{{`It costs \$5.`, 0, 0}, {"Then $a. B$ ok.", 0, 0}}},
		{"unclosed dollar is literal", "It costs $5. Then we stop.", []sent{{"It costs $5.", 0, 0}, {"Then we stop.", 0, 0}}},
		{"a later dollar closes", "It costs $5. Then $x. Y.", []sent{{"It costs $5. Then $x.", 0, 0}, {"Y.", 0, 0}}},
		{"math does not cross paragraphs", "Open $x.\n\nBo. Close $ here.", []sent{{"Open $x.", 0, 0}, {"Bo.", 1, 0}, {"Close $ here.", 1, 0}}},
		{"abbreviations", "Use e.g. Thm. 3, i.e. X, cf. Lem. 2 and w.r.t. Y, etc. Also Fig. 2. Then done.",
			[]sent{{"Use e.g. Thm. 3, i.e. X, cf. Lem. 2 and w.r.t. Y, etc. Also Fig. 2.", 0, 0}, {"Then done.", 0, 0}}},
		{"single letters end sentences", "It divides n. Then n. So x.", []sent{{"It divides n.", 0, 0}, {"Then n.", 0, 0}, {"So x.", 0, 0}}},
		{"decimals and ellipsis", "Pi is 3.14 roughly. We list 1, 2, ... N and so on... Then stop.",
			[]sent{{"Pi is 3.14 roughly.", 0, 0}, {"We list 1, 2, ... N and so on... Then stop.", 0, 0}}},
		{"closers after the point", `He said "done." Then (as shown.) Next **bold.** End`,
			[]sent{{`He said "done."`, 0, 0}, {"Then (as shown.)", 0, 0}, {"Next **bold.**", 0, 0}, {"End", 0, 0}}},
		{"question inside a quote", `Alice asks "Are you a knight?" and Bob answers. Fine.`,
			[]sent{{`Alice asks "Are you a knight?" and Bob answers.`, 0, 0}, {"Fine.", 0, 0}}},
		{"list items", "Cases:\n1. Alice is a Knight. So x.\n2) Alice is a Knave\n(a) sub\n(iv) roman\nb. letter\n- dash\n* star\n+ plus\n• bullet\nnot a marker\n-1 is negative",
			[]sent{{"Cases:", 0, 0}, {"1. Alice is a Knight.", 0, 0}, {"So x.", 0, 0}, {"2) Alice is a Knave", 0, 0},
				{"(a) sub", 0, 0}, {"(iv) roman", 0, 0}, {"b. letter", 0, 0}, {"- dash", 0, 0}, {"* star", 0, 0},
				{"+ plus", 0, 0}, {"• bullet\nnot a marker\n-1 is negative", 0, 0}}},
		{"step labels", "Intro.\n\nStep 1: A. B.\nStep 2. C.\n\n**Step 3:** D. Step 4: E.\n\n## Step 5.1) F\n\nafter step",
			[]sent{{"Intro.", 0, 0}, {"Step 1: A.", 1, 1}, {"B.", 1, 1}, {"Step 2. C.", 1, 2}, {"**Step 3:** D.", 2, 3},
				{"Step 4: E.", 2, 4}, {"## Step 5.1) F", 3, 5}, {"after step", 4, 0}}},
		{"step number too large", "Step 99999999999999999999: A. B.", []sent{{"Step 99999999999999999999: A.", 0, 0}, {"B.", 0, 0}}},
		{"CRLF", "A.\r\nB.\r\n\r\nC.", []sent{{"A.", 0, 0}, {"B.", 0, 0}, {"C.", 1, 0}}},
		{"invalid UTF-8", "A\xff. \xfeB. C.", []sent{{"A\xff. \xfeB.", 0, 0}, {"C.", 0, 0}}},
		{"unicode capital", "Soit x. Égal. ß ok.", []sent{{"Soit x.", 0, 0}, {"Égal. ß ok.", 0, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sents := SplitSentences(tt.proof)
			checkTiling(t, tt.proof, sents)
			var got []sent
			for _, s := range sents {
				got = append(got, sent{s.Text, s.Paragraph, s.Step})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SplitSentences(%q)\n got %+v\nwant %+v", tt.proof, got, tt.want)
			}
		})
	}
}

func TestSplitSentencesOffsets(t *testing.T) {
	proof := "\n  A b.  C\nd.\n\nE."
	got := SplitSentences(proof)
	want := []Sentence{
		{N: 1, Text: "A b.", Start: 0, End: 9, Paragraph: 0},
		{N: 2, Text: "C\nd.", Start: 9, End: 15, Paragraph: 0},
		{N: 3, Text: "E.", Start: 15, End: 17, Paragraph: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SplitSentences(%q)\n got %+v\nwant %+v", proof, got, want)
	}
}

func TestNormalizeSpace(t *testing.T) {
	for in, want := range map[string]string{
		"":                   "",
		"  a \n\t b  c\r\n ": "a b c",
		"x\u00a0\u2003y":     "x y",
		"one":                "one",
	} {
		if got := NormalizeSpace(in); got != want {
			t.Errorf("NormalizeSpace(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLocateSentence(t *testing.T) {
	sents := SplitSentences(s007Proof(t))
	tests := []struct {
		name   string
		number int
		quoted string
		index  int
		rule   LocateRule
	}{
		{"exact text wins over the number", 40, "Step 1: We first verify the proposed solution is consistent.", 1, LocatedByText},
		{"white space normalised", 0, "  Step 1:\n We first  verify the proposed solution is consistent. ", 1, LocatedByText},
		{"repeated text: nearest the number", 60, "Contradiction.", 54, LocatedByText},
		{"repeated text: tie goes to the earlier", 61, "Contradiction.", 54, LocatedByText},
		{"repeated text: no number", 0, "Contradiction.", 26, LocatedByText},
		{"part of a sentence", 0, "We first verify the proposed solution is consistent.", 1, LocatedByTextPart},
		{"trailing ellipsis", 9, "Since Olivia=Knave and Alice=Spy, they do NOT...", 4, LocatedByTextPart},
		{"unicode ellipsis", 0, "…verify the proposed solution…", 1, LocatedByTextPart},
		{"quote spanning two sentences", 3, "Step 1: We first verify the proposed solution is consistent. Suppose Olivia=Knave, Alice=Spy, Ivy=Knave.", 2, LocatedByTextPart},
		{"quote ending in a short sentence", 0, "Ivy=Knave. QED.", 107, LocatedByTextPart},
		{"short quote is not matched in part", 5, "Since", 4, LocatedByNumber},
		{"text not found", 5, "This sentence is not in the proof at all.", 4, LocatedByNumber},
		{"no text", 108, "", 107, LocatedByNumber},
		{"number out of range", 109, "nowhere to be found", -1, NotLocated},
		{"negative number", -3, "", -1, NotLocated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i, rule := LocateSentence(sents, tt.number, tt.quoted)
			if i != tt.index || rule != tt.rule {
				t.Errorf("LocateSentence(%d, %q) = %d, %q; want %d, %q", tt.number, tt.quoted, i, rule, tt.index, tt.rule)
			}
		})
	}
	if i, rule := LocateSentence(nil, 1, "x"); i != -1 || rule != NotLocated {
		t.Errorf("LocateSentence(nil) = %d, %q", i, rule)
	}
}

// The bundled demo's s-004 (tools/demo/mkdemo.py writes it as the checker would): the
// issue's sentence number and quote agree with SplitSentences.
func TestLocateDemoIssue(t *testing.T) {
	proof := "We show that $4p - 1$ has no divisor other than $1$ and itself.\n\nStep 1: Since $4p \\equiv 0 \\pmod{4}$, we have $4p - 1 \\equiv 3 \\pmod{4}$. In particular $4p - 1$ is odd, and $4p - 1 \\ge 11$ because $p \\ge 3$.\n\nStep 2: Suppose that $p$ divides $4p - 1$. Since $p$ also divides $4p$, s-003 shows that $p$ divides $4p - (4p - 1) = 1$, which is impossible.\n\nStep 3: So $p$ does not divide $4p - 1$. Consequently $4p - 1$ has no divisor other than $1$ and itself, so it is prime. QED."
	issue := ParseIssue("[Issue #1] Sentence 7: 'Consequently $4p - 1$ has no divisor other than $1$ and itself, so it is prime.' | Type: unjustified_leap | Explanation: Step 2 only rules out the divisor $p$. Nothing rules out other primes dividing $4p - 1$: being coprime to $p$ is far from being prime. | Fix: Show that no prime $q \\ne p$ divides $4p - 1$ — or test small cases first; $p = 7$ looks suspicious.")
	want := Issue{Raw: issue.Raw, Parsed: true, Number: 1, Sentence: 7,
		SentenceText: "Consequently $4p - 1$ has no divisor other than $1$ and itself, so it is prime.",
		ErrorType:    "unjustified_leap",
		Explanation:  "Step 2 only rules out the divisor $p$. Nothing rules out other primes dividing $4p - 1$: being coprime to $p$ is far from being prime.",
		Fix:          "Show that no prime $q \\ne p$ divides $4p - 1$ — or test small cases first; $p = 7$ looks suspicious."}
	if issue != want {
		t.Fatalf("ParseIssue\n got %+v\nwant %+v", issue, want)
	}
	sents := SplitSentences(proof)
	checkTiling(t, proof, sents)
	if len(sents) != 8 || sents[7].Text != "QED." || sents[2].Text != "In particular $4p - 1$ is odd, and $4p - 1 \\ge 11$ because $p \\ge 3$." {
		t.Fatalf("s-004 split into %d sentences: %+v", len(sents), sents)
	}
	if i, rule := LocateSentence(sents, issue.Sentence, issue.SentenceText); i != 6 || rule != LocatedByText {
		t.Errorf("LocateSentence = %d, %q; want 6, %q", i, rule, LocatedByText)
	}
}

func TestQuoteIn(t *testing.T) {
	proof := "We prove it.  Step 1: Let  n be even.\nThen n² is even. QED."
	for _, c := range []struct {
		quote string
		in    bool
	}{
		{"Step 1: Let n be even.", true},
		{"Let n be even. Then", true},
		{"Step 1: … is even", true},
		{"Step 1: ... is even", true},
		{"n is odd", false},
		{"is even … Step 1", false}, // the parts in order only
		{"", false},
		{"…", false},
	} {
		if got := QuoteIn(c.quote, proof); got != c.in {
			t.Errorf("QuoteIn(%q) = %v", c.quote, got)
		}
	}
}
