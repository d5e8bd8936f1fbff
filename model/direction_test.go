package model

import (
	"strings"
	"testing"
)

// The openings agents write (issue 21's differential found the first three confirmed as
// proofs), and the ones that must be refused rather than guessed.
func TestReadDirection(t *testing.T) {
	const dis, pro = DirectionDisproof, DirectionProof
	for _, c := range []struct{ text, want string }{
		{"This statement is wrong. We disprove as follows.\n\nStep 1: x.", dis},
		{"DISPROOF: This statement is wrong. We disprove as follows.\n\nStep 1: x.", dis},
		{"DISPROOF:\n\nThis statement is wrong. We disprove as follows.", dis},
		{"Disproof. This statement is wrong. We disprove as follows.", dis},
		{"Disproof.\nThis statement is wrong.\nWe disprove as follows.", dis},
		{"> This statement is wrong. We disprove as follows.\n>\n> Step 1: x.", dis},
		{"> **DISPROOF:** This statement is\n> wrong. We disprove as follows.", dis},
		{"\"This statement is wrong. We disprove as follows.\"\n\nStep 1", dis},
		{"“This statement is wrong.” We disprove as follows.", dis},
		{"## Disproof\n\nThis statement is wrong. We disprove as follows.", dis},
		{"\\textbf{Disproof.} This statement is wrong. We disprove as follows. $x \\neq y$", dis},
		{"  \n\tThis\u00a0statement is wrong.\u2003We disprove as follows.", dis},
		{"*This statement is wrong.* We disprove as follows.", dis},
		{"Disproof: Suppose Alice is a Knight.", dis},
		{"We prove this statement as follows.\n\nStep 1: x.", pro},
		{"PROOF:\nWe prove this statement as follows.", pro},
		{"**Proof.** We prove this statement as follows. Step 1: $\\forall x \\in \\mathbb{R}$", pro},
		{"> We prove this statement as follows.", pro},
		{"Proof (by contradiction): Suppose not.", pro},
		{"We prove this statement as follows: suppose ∀ε>0 …", pro},
		{"We prove that (Olivia=Knave, Alice=Spy, Ivy=Knave) is the unique solution", pro},
		{"We argue by contradiction, looking at the prime factors of $n$ modulo $4$.", pro},
		{"Suppose the claim is false. Then x > 0.", pro},
		{"Assume, for contradiction, that the claim is false.", pro},
		{"DISPROOF： This statement is wrong. We disprove as follows.", dis},
		{"Step 1: Suppose Alice is a Knight.", pro},
		{"A counterexample: Olivia is the Spy.", dis},
		{"The claim does not hold. Take x = 0.", dis},
		{"We disprove the statement.", dis},
	} {
		if got, why := ReadDirection(c.text); got != c.want {
			t.Errorf("ReadDirection(%q) = %q (%s), want %q", c.text, got, why, c.want)
		}
	}
	for _, c := range []struct{ text, why string }{
		{"", "the proof is empty"},
		{"Step 1 refutes the claim by a counterexample.", "does not open as a disproof"},
		{"It is false that every knave lies.", "does not open as a disproof"},
		{"PROOF: This statement is wrong. We disprove as follows.", "headed PROOF but its first sentence"},
		{"Disproof. We prove this statement as follows.", "headed DISPROOF"},
		{"We prove that this statement is false.", "both of proving and of refuting"},
		{"> \n> ", "the proof is empty"},
	} {
		got, why := ReadDirection(c.text)
		if got != "" || !strings.Contains(why, c.why) {
			t.Errorf("ReadDirection(%q) = %q, %q; want no direction, saying %q", c.text, got, why, c.why)
		}
	}
}
