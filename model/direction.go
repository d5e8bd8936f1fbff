package model

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Proof directions: what check-confirm-proof makes of a verified proof.
const (
	DirectionProof    = "proof"    // the statement becomes true
	DirectionDisproof = "disproof" // the statement becomes false
)

// The agents' checker (agent-check.md, check-confirm-proof's SKILL.md at d8d7638)
// decides the direction from the proof's first sentence: "We prove this statement as
// follows" is a proof, "This statement is wrong. We disprove as follows" a disproof.
// Agents wrap that sentence in many ways: a "DISPROOF:" or "Disproof." header on its own
// line or in front of the sentence, Markdown emphasis, a "> " quote, quotation marks,
// LaTeX, line breaks inside the sentence. ReadDirection strips those and reads the
// header and the first sentence; where the two disagree, or neither says a direction,
// it gives no direction and says why, rather than guess: a disproof confirmed as a proof
// makes a refuted claim a lemma.

var (
	// directionLabel is a "Proof" / "Disproof" label in front of the first sentence.
	directionLabel = regexp.MustCompile(`^(dis)?proof\b`)
	// disproofStart opens a sentence that says the proof refutes the claim.
	disproofStart = regexp.MustCompile(`^((this|the) (statement|claim|conjecture)( as stated)? (is (wrong|false|incorrect|not true|not correct)|does not hold|fails)|we (now |will |shall )?(disprove|refute)|(a |the )?counter-?example\b)`)
	// proofStart opens a sentence that says the proof establishes the claim.
	proofStart = regexp.MustCompile(`^((this|the) (statement|claim) is (true|correct)|we (now |will |shall )?(prove|show|establish|demonstrate|verify)\b)`)
	// refuting words anywhere in the first sentence speak of a disproof ("we prove that
	// the statement is false"); "false" alone does not ("suppose the claim is false" opens
	// many a proof by contradiction), unless the sentence opens as a proof.
	refutingWords  = regexp.MustCompile(`\bdisprov|\bdisproof|\brefut|\bcounter-?example`)
	falsehoodWords = regexp.MustCompile(`\b(is|are) (wrong|false|incorrect|not true|not correct)\b`)
	// hypothetical opens a sentence that supposes, not asserts.
	hypothetical = regexp.MustCompile(`^(suppose|assume|if|towards?|for (the sake of )?contradiction|by contradiction|aiming for|let us (suppose|assume))\b`)
	// latexWrapper is a LaTeX command around text (\textbf{…}, \begin{proof}).
	latexWrapper = regexp.MustCompile(`\\(textbf|textit|emph|textsc|underline|mathbf)\{|\\begin\{(proof|disproof)\}|\\(noindent|par)\b`)
)

// openingLimit bounds how much of a proof the direction is read from.
const openingLimit = 1000

// ReadDirection is the direction a proof's opening states, or "" and why it cannot tell.
func ReadDirection(full string) (direction, why string) {
	head, sentence := opening(full)
	if head == "" && sentence == "" {
		return "", "the proof is empty"
	}
	fromSentence := ""
	switch {
	case disproofStart.MatchString(sentence):
		fromSentence = DirectionDisproof
	case proofStart.MatchString(sentence):
		if refutingWords.MatchString(sentence) || falsehoodWords.MatchString(sentence) {
			return "", "its first sentence (" + quoteOpening(sentence) + ") speaks both of proving and of refuting"
		}
		fromSentence = DirectionProof
	}
	switch {
	case head != "" && fromSentence != "" && head != fromSentence:
		return "", "it is headed " + strings.ToUpper(head) + " but its first sentence (" + quoteOpening(sentence) + ") reads as a " + fromSentence
	case fromSentence != "":
		return fromSentence, ""
	case head != "":
		return head, ""
	case refutingWords.MatchString(sentence) || falsehoodWords.MatchString(sentence) && !hypothetical.MatchString(sentence):
		return "", "its first sentence (" + quoteOpening(sentence) + ") speaks of refuting but does not open as a disproof (\"This statement is wrong. We disprove as follows\")"
	}
	// A proof need not announce itself ("We argue by contradiction, …"); a disproof does.
	return DirectionProof, ""
}

// opening is the proof's header word (proof, disproof or "") and its first sentence,
// lower-cased, with quoting, emphasis, LaTeX wrappers and line breaks taken out.
func opening(full string) (head, sentence string) {
	if len(full) > openingLimit {
		full = full[:openingLimit]
		for len(full) > 0 && !utf8.ValidString(full) {
			full = full[:len(full)-1]
		}
	}
	var lines []string
	for line := range strings.SplitSeq(full, "\n") {
		line = strings.TrimLeftFunc(line, unicode.IsSpace)
		for { // quote, heading and list markers, in any order
			t := strings.TrimLeft(line, ">#|-+ \t")
			if t == line {
				break
			}
			line = t
		}
		line = latexWrapper.ReplaceAllString(line, " ")
		line = strings.Map(func(r rune) rune {
			switch r {
			case '*', '_', '`', '{', '}', '"', '“', '”', '„', '«', '»', '‘', '’', '\'':
				return -1
			}
			return unicode.ToLower(r)
		}, line)
		if line = strings.Join(strings.Fields(line), " "); line != "" {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return "", ""
	}
	// A header is a short "Proof"/"Disproof" label opening the first line, ended by
	// punctuation or the line's end: "DISPROOF:", "Disproof.", "Proof (by contradiction):".
	if m := directionLabel.FindStringSubmatch(lines[0]); m != nil {
		label, rest := lines[0], ""
		if i := sentenceEnd(lines[0]); i >= 0 {
			label, rest = lines[0][:i], strings.TrimSpace(strings.TrimLeft(lines[0][i:], ".!?:;)-–— "))
		}
		if len(strings.Fields(label)) <= 4 {
			head = DirectionProof
			if m[1] != "" {
				head = DirectionDisproof
			}
			lines[0] = rest
		}
	}
	text := strings.TrimSpace(strings.Join(lines, " "))
	if i := sentenceEnd(text); i >= 0 {
		text = text[:i]
	}
	return head, text
}

// sentenceEnd is the index of the full stop, question or exclamation mark, colon or
// dash that ends text's first sentence (followed by a space or the end), or -1.
func sentenceEnd(text string) int {
	for i, r := range text {
		switch r {
		case '.', '!', '?', ':', '。', '：', '—', '–':
			rest := text[i+utf8.RuneLen(r):]
			if rest == "" || rest[0] == ' ' {
				return i
			}
		}
	}
	return -1
}

func quoteOpening(s string) string {
	if s == "" {
		return "none"
	}
	if len(s) > 80 {
		s = s[:80]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return "\"" + s + "\""
}
