package serve

import (
	"bytes"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// screen draws a workbench's views to its terminal in place of Bubble Tea's renderer
// (the program runs WithoutRenderer). Bubble Tea's parses the whole screen's text into
// cells and compares every line, cell by cell, for each drawing, whatever changed;
// here a line whose text is the same as in the last drawing, and which starts in the
// same (reset) style, is neither parsed nor compared: a drawing costs the lines that
// changed, under a run mostly the status bar. What reaches the terminal is made by the
// same ultraviolet cell buffer and terminal renderer Bubble Tea uses, given only those
// lines. The workbench is always drawn full screen on the alternate screen; of a
// view's modes, the mouse, bracketed paste, the window title and the cursor are kept
// as Bubble Tea keeps them (the workbench sets no colours, cursor shape or progress bar).
type screen struct {
	out     io.Writer
	scr     *uv.TerminalRenderer
	buf     uv.ScreenBuffer
	pending bytes.Buffer // what scr flushed, sent with the modes in one write
	w, h    int
	rows    []row     // the last drawing, by screen line
	last    *tea.View // the last drawing's modes; nil before the first
	profile colorprofile.Profile
	syncd   bool // the terminal said it has synchronized output (mode 2026)
	closed  bool
}

// row is one screen line as last drawn: its text, and whether it starts in the reset
// style (the style a line starts in is the one the lines above left open; a line that
// does not start reset is parsed with the lines above it, from the last one that does).
type row struct {
	text  string
	clean bool
	after bool // startsClean(text, clean): the next line starts reset
}

// newScreen draws to out for a terminal whose colours are profile's.
func newScreen(out io.Writer, env []string, profile colorprofile.Profile) *screen {
	s := &screen{out: out, profile: profile, buf: uv.NewScreenBuffer(0, 0)}
	s.buf.Method = ansi.GraphemeWidth
	s.scr = uv.NewTerminalRenderer(&s.pending, env)
	s.scr.SetColorProfile(profile)
	s.scr.SetTabStops(-1)
	// The session's pseudo-terminal is emulated by the SSH server, which sends each
	// "\n" as "\r\n": a line feed also returns the cursor to the line's start.
	s.scr.SetMapNewline(true)
	// No scrolling of whole lines: the panes stand side by side, so a line seldom
	// moves whole, and finding the lines that did hashes every line at each drawing.
	s.scr.SetScrollOptim(false)
	return s
}

// resize is the terminal's new size: every line is drawn again.
func (s *screen) resize(w, h int) {
	if w == s.w && h == s.h {
		return
	}
	s.w, s.h = w, h
	s.buf.Resize(w, h)
	s.scr.Resize(w, h)
	s.scr.Erase()
	s.rows = nil
}

// setProfile is the terminal's colour profile (Bubble Tea's ColorProfileMsg): a change
// repaints the screen from the cells, which keep their full colours.
func (s *screen) setProfile(p colorprofile.Profile) {
	if p == s.profile {
		return
	}
	s.profile = p
	s.scr.SetColorProfile(p)
	s.scr.Erase()
}

// startsClean says whether the line after text starts in the reset style, given
// whether text does: it does if text sets no style or link, or ends by resetting the
// style (lipgloss ends every styled line so) and opens no link. A sequence other than
// SGR after the last reset, or any OSC, DCS, APC, SOS or PM, counts as not clean.
func startsClean(text string, clean bool) bool {
	last := strings.LastIndexByte(text, ansi.ESC)
	if last < 0 {
		return clean
	}
	for _, intro := range []string{"\x1b]", "\x1bP", "\x1b_", "\x1bX", "\x1b^"} {
		if strings.Contains(text, intro) {
			return false
		}
	}
	tail := text[last:]
	return strings.HasPrefix(tail, "\x1b[m") || strings.HasPrefix(tail, "\x1b[0m")
}

// draw draws v, sending only what changed; nothing before the terminal's size is known.
func (s *screen) draw(v tea.View) {
	if s.closed || s.w <= 0 || s.h <= 0 {
		return
	}
	lines := strings.SplitN(strings.ReplaceAll(v.Content, "\r\n", "\n"), "\n", s.h+1)
	if v.Content == "" {
		lines = nil
	}
	rows := make([]row, s.h)
	clean := true
	for y := range rows {
		switch {
		case y < len(lines) && y < len(s.rows) && s.rows[y].text == lines[y] && s.rows[y].clean == clean:
			// The same line as last drawn: not scanned again (the new text is kept, so
			// that the last drawing's whole screen is not held by its lines).
			rows[y] = row{lines[y], clean, s.rows[y].after}
		case y < len(lines):
			rows[y] = row{lines[y], clean, startsClean(lines[y], clean)}
		default:
			rows[y] = row{"", true, true}
		}
		clean = rows[y].after
	}
	// A run is a line that starts clean and the lines after it that do not: it is
	// drawn again whole when any of its lines differs from the last drawing.
	for y := 0; y < s.h; {
		end := y + 1
		for end < s.h && !rows[end].clean {
			end++
		}
		same := s.rows != nil
		for i := y; same && i < end; i++ {
			same = s.rows[i] == rows[i]
		}
		if !same {
			text := rows[y].text
			for i := y + 1; i < end; i++ {
				text += "\n" + rows[i].text
			}
			uv.NewStyledString(text).Draw(s.buf, uv.Rect(0, y, s.w, end-y))
		}
		y = end
	}
	s.rows = rows

	first := s.last == nil
	var modes strings.Builder
	if first {
		s.scr.SaveCursor()
		s.scr.SetFullscreen(true)
		s.scr.SetRelativeCursor(false)
		s.scr.Erase()
	}
	if first || v.DisableBracketedPasteMode != s.last.DisableBracketedPasteMode {
		if !v.DisableBracketedPasteMode {
			modes.WriteString(ansi.SetModeBracketedPaste)
		} else if !first {
			modes.WriteString(ansi.ResetModeBracketedPaste)
		}
	}
	if first || v.MouseMode != s.last.MouseMode {
		if !first {
			modes.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
		}
		switch v.MouseMode {
		case tea.MouseModeCellMotion:
			modes.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
		case tea.MouseModeAllMotion:
			modes.WriteString(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
		}
	}
	if first && v.WindowTitle != "" || !first && v.WindowTitle != s.last.WindowTitle {
		modes.WriteString(ansi.SetWindowTitle(v.WindowTitle))
	}
	if first {
		// As Bubble Tea: keys disambiguated (modifyOtherKeys and the kitty protocol),
		// widths by grapheme cluster (mode 2027), and the question whether the
		// terminal has synchronized output (the answer comes as a ModeReportMsg).
		modes.WriteString(ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(kittyFlags(v.KeyboardEnhancements)) + ansi.RequestKittyKeyboard)
		modes.WriteString(ansi.SetModeUnicodeCore + ansi.RequestModeSynchronizedOutput)
	}
	_, _ = s.scr.WriteString(modes.String())
	s.scr.Render(s.buf.RenderBuffer)
	if v.Cursor != nil {
		s.scr.MoveTo(v.Cursor.X, v.Cursor.Y)
	}
	_ = s.scr.Flush()

	var out bytes.Buffer
	if first {
		out.WriteString(ansi.ResetModifyOtherKeys + ansi.SetModeAltScreenSaveCursor)
	}
	updates := s.pending.Len() > 0
	if s.syncd && updates {
		out.WriteString(ansi.SetModeSynchronizedOutput)
	}
	shown, wasShown := v.Cursor != nil, !first && s.last.Cursor != nil
	if first || shown != wasShown || updates && shown {
		out.WriteString(ansi.ResetModeTextCursorEnable) // hidden while drawing
	}
	out.Write(s.pending.Bytes())
	s.pending.Reset()
	if shown && (first || !wasShown || updates) {
		out.WriteString(ansi.SetModeTextCursorEnable)
	}
	if s.syncd && updates {
		out.WriteString(ansi.ResetModeSynchronizedOutput)
	}
	s.last = &v
	if out.Len() > 0 {
		_, _ = s.out.Write(out.Bytes())
	}
}

// close gives the terminal back as Bubble Tea does: the main screen, the cursor, no
// mouse, paste or key reports, no title. Nothing more is drawn after it.
func (s *screen) close() {
	if s.closed || s.last == nil {
		s.closed = true
		return
	}
	s.closed = true
	lv := s.last
	var out bytes.Buffer
	out.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1))
	s.scr.MoveTo(0, s.h-1)
	_ = s.scr.Flush()
	out.Write(s.pending.Bytes())
	out.WriteString(ansi.ResetModeAltScreenSaveCursor + ansi.SetModeTextCursorEnable)
	if !lv.DisableBracketedPasteMode {
		out.WriteString(ansi.ResetModeBracketedPaste)
	}
	if lv.MouseMode != tea.MouseModeNone {
		out.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	}
	if lv.WindowTitle != "" {
		out.WriteString(ansi.SetWindowTitle(""))
	}
	out.WriteString(ansi.ResetModeUnicodeCore)
	_, _ = s.out.Write(out.Bytes())
}

// kittyFlags are the kitty keyboard protocol's flags for a view's enhancements, as
// Bubble Tea asks them: keys are always disambiguated.
func kittyFlags(ke tea.KeyboardEnhancements) int {
	flags := ansi.KittyDisambiguateEscapeCodes
	if ke.ReportEventTypes {
		flags |= ansi.KittyReportEventTypes
	}
	if ke.ReportAlternateKeys {
		flags |= ansi.KittyReportAlternateKeys
	}
	if ke.ReportAllKeysAsEscapeCodes {
		flags |= ansi.KittyReportAllKeysAsEscapeCodes
	}
	if ke.ReportAssociatedText {
		flags |= ansi.KittyReportAssociatedKeys
	}
	return flags
}
