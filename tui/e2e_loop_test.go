package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/model"
)

// TestEndToEndReviewLoop drives the real binary in a pseudo-terminal at 120×40 through
// the reviewer's loop: n to the first statement waiting, read it, R with an agent's
// write in the middle (the draft is kept and the new version said), then C y, and n
// to the next one waiting.
func TestEndToEndReviewLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs a pseudo-terminal")
	}
	bin := refereeBinary(t)
	dir := testutil.Demo(t)
	cmd := exec.Command(bin, "--contents", dir, "--theme", "dark")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "REFEREE_ACTOR=", "NO_COLOR=")
	vt := startVT(t, cmd, 120, 40)
	vt.waitText("● live")

	// n: the first statement of the review queue, in the words of its badge and next.
	vt.send("n")
	vt.waitText("s-014: awaiting check, next agent-check (1 of 3 in the review queue)")
	// Read: the detail, a sentence further.
	vt.send("\t")
	vt.send("j")
	vt.send("]")
	vt.waitText("cursor on 2")

	// R: the form, with the sentence under the cursor.
	vt.send("R")
	vt.waitText("check-reject-proof · s-014")
	vt.send("The identity is asserted")
	vt.send("\r")
	vt.send("Expand both sides")
	// An agent writes s-014 meanwhile.
	p := filepath.Join(dir, "statement/s-014.json")
	changed := strings.Replace(readFile(t, p), `"count_usage": 0`, `"count_usage": 1`, 1)
	if err := os.WriteFile(p, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // let the watcher see it or not: either way the check does
	vt.send("\x13")                    // ctrl+s
	scr := vt.waitText("s-014 changed since you read it")
	if !strings.Contains(scr, "The identity is asserted") || !strings.Contains(scr, "Expand both sides") {
		t.Fatalf("the draft is not kept:\n%s", scr)
	}
	vt.waitText("status validating (unchanged)")
	if readFile(t, p) != changed {
		t.Fatal("something was written over the agent's version")
	}

	// The reviewer reads the new version, drops the rejection and confirms instead.
	vt.send("\x1b")
	vt.waitText("cancelled: nothing was written")
	vt.send("C")
	vt.waitText("Proof checked and confirmed.")
	vt.send("\r")
	vt.waitText("will write:")
	vt.waitText("y write it")
	vt.send("y")
	vt.waitText("check-confirm-proof by human")
	vt.waitFor("s-014 true in the tree", func(s string) bool { return strings.Contains(s, "✓ true      s-014") })
	st := model.StatementFrom(mustParse(t, readFile(t, p)))
	if st.Status != "true" || st.CountUsage != 1 {
		t.Fatalf("s-014 on disk: status %q count_usage %d (the agent's write must be kept)", st.Status, st.CountUsage)
	}

	// n: the next one waiting.
	vt.send("n")
	vt.waitText("s-012: awaiting check, next agent-check (1 of 3 in the review queue)") // its lemma s-014 is true now

	vt.send("q")
	select {
	case <-vt.done:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not quit")
	}
}

// TestEndToEndDemoIsAScratchCopy: the binary opened on the bundled demo (a copy of
// ../contents with its marker) works on a scratch copy, says so, and leaves the folder
// it was given as it was after C y.
func TestEndToEndDemoIsAScratchCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs a pseudo-terminal")
	}
	bin := refereeBinary(t)
	demo := testutil.Copy(t, testutil.DemoDir())
	before := readFile(t, filepath.Join(demo, "statement/s-014.json"))
	cmd := exec.Command(bin, "--contents", demo, "--theme", "dark")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "REFEREE_ACTOR=", "NO_COLOR=")
	vt := startVT(t, cmd, 120, 40)
	vt.waitText("(demo: scratch copy)")
	vt.waitText("Tree · 27 rows") // loaded: a key pressed before waits for nothing
	vt.send("n")
	vt.waitText("s-014: awaiting check")
	vt.send("C")
	vt.waitText("Proof checked and confirmed.")
	vt.send("\r")
	vt.waitText("y write it")
	vt.send("y")
	vt.waitText("check-confirm-proof by human")
	if readFile(t, filepath.Join(demo, "statement/s-014.json")) != before {
		t.Fatal("C y on the demo changed the folder it was opened on")
	}
	vt.send("q")
	select {
	case <-vt.done:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not quit")
	}
}
