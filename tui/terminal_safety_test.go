package tui

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
)

// hostile holds every kind of sequence an agent's text could carry to take over a
// terminal. Each carries the marker PWNED or the numbers 1337 so that it can be told apart
// from what the renderer itself sends.
var hostile = strings.Join([]string{
	"\x1b[2J\x1b[1337;1337H",              // CSI: clear, move the cursor
	"\x1b[31337m",                         // CSI: an SGR we never send
	"\x1b]0;PWNED-title\x07",              // OSC 0: window title
	"\x1b]8;;https://PWNED.example\x1b\\", // OSC 8: hyperlink
	"\x1b]52;c;UFdORUQ=\x07",              // OSC 52: clipboard
	"\x1bP+qPWNED\x1b\\",                  // DCS
	"\x1b_PWNED-apc\x1b\\",                // APC
	"\u009b1337A",                         // C1 CSI
	"\u009d0;PWNED-c1\u009c",              // C1 OSC … ST
	"\u202eDEWNP\u202c \u2066PWNED\u2069", // bidi overrides and isolates
	"\x00\x07\x08\x7f",                    // NUL, BEL, BS, DEL
}, " ")

// Every string from a file passes through the sanitiser: put the hostile text in every
// field a reviewer sees, run the real program, and read what reached the terminal.
func TestNoEscapeFromAFileReachesTheTerminal(t *testing.T) {
	dir := testutil.Demo(t)
	p := filepath.Join(dir, "statement", "s-015.json")
	doc, err := pyjson.Parse([]byte(readFile(t, p)))
	if err != nil {
		t.Fatal(err)
	}
	evil := pyjson.Str("Claim " + hostile)
	doc.Set("conclusion", pyjson.Value{Kind: pyjson.Array, Arr: []pyjson.Value{evil}})
	doc.Set("hypothesis", pyjson.Strs([]string{"(s-005) " + hostile}))
	doc.Set("progresses", pyjson.Strs([]string{"PROOF: " + hostile}))
	proof, _ := doc.Get("proof")
	proof.Set("full", pyjson.Str("We start. "+hostile+"\n\nStep 1: Then "+hostile+". QED."))
	validation, _ := doc.Get("validation")
	validation.Set("issues", pyjson.Strs([]string{model.FormatIssue(1, 2, hostile, "gap", hostile, hostile)}))
	validation.Set("responses", pyjson.Strs([]string{model.FormatPatchResponse(1, 1, hostile)}))
	if err := os.WriteFile(p, pyjson.EncodeIndent(doc), 0o644); err != nil {
		t.Fatal(err)
	}

	m, err := New(dir, Options{Theme: "dark", NoWatch: true, SyncLoad: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.TrueColor)))
	var out []byte
	// waitFor reads the output until it holds text: frames can coalesce, so each screen
	// is waited for before the keys that leave it.
	waitFor := func(text string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(string(out), text); time.Sleep(20 * time.Millisecond) {
			b, _ := io.ReadAll(tm.Output())
			out = append(out, b...)
			if time.Now().After(deadline) {
				t.Fatalf("%q never reached the screen; the test proves nothing", text)
			}
		}
	}
	tm.Type("/s-015")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor("DEWNP") // the claim in the detail
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Type("]]i") // move in the proof, select the issue
	waitFor("issue #1")
	tm.Type("a") // the activity pane
	waitFor("Activity")
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if !strings.Contains(string(out), "␛]52;c;UFdORUQ=") {
		t.Error("the OSC 52 sequence is not shown as a visible stand-in")
	}

	// Walk the output as a terminal would: every sequence the renderer sent must be its
	// own, and no control or bidi character may stand outside one.
	s := string(out)
	var state byte
	for len(s) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(s, state, nil)
		state = newState
		if n <= 0 {
			break
		}
		switch {
		case width == 0 && strings.HasPrefix(seq, "\x1b"):
			if strings.Contains(seq, "PWNED") || strings.Contains(seq, "1337") {
				t.Errorf("a sequence from the file reached the terminal: %q", seq)
			}
		default:
			for _, r := range seq {
				if (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || (r >= 0x7f && r <= 0x9f) ||
					(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c {
					t.Errorf("control character U+%04X reached the terminal in %q", r, seq)
				}
			}
		}
		s = s[n:]
	}
}
