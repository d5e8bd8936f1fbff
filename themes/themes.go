// Package themes holds referee's palettes and the one Styles struct every view draws
// with. Status colours come from one table, so a status looks the same in the tree, the
// badges, the detail pane and the status bar; every badge also carries a symbol and a
// word, so it reads without colour (NO_COLOR, monochrome terminals, screen readers).
package themes

import (
	"image/color"
	"os"
	"slices"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"

	"referee/cells"
	"referee/model"
)

// Names lists the themes --theme accepts ("auto" follows the terminal background).
var Names = []string{"auto", "dark", "light", "high-contrast", "none"}

// Valid reports whether name is a theme name ("" counts as auto).
func Valid(name string) bool { return name == "" || slices.Contains(Names, name) }

// Palette is a theme's colours. A nil colour means "the terminal's default".
type Palette struct {
	Name     string
	Dark     bool // drawn on a dark background (chooses the markdown style)
	Fg       color.Color
	Muted    color.Color
	Faint    color.Color
	Accent   color.Color
	Border   color.Color
	Focus    color.Color
	SelBg    color.Color
	SelFg    color.Color
	FlashBg  color.Color
	Error    color.Color
	Warn     color.Color
	Link     color.Color
	Status   map[model.Phase]color.Color
	NoColour bool
}

func c(s string) color.Color { return lipgloss.Color(s) }

// Dark is the default palette for dark terminals.
func Dark() Palette {
	return Palette{
		Name: "dark", Dark: true,
		Fg: c("#d8dee9"), Muted: c("#8a93a6"), Faint: c("#5c6370"), Accent: c("#82aaff"),
		Border: c("#4b5263"), Focus: c("#82aaff"), SelBg: c("#2c3e5c"), SelFg: c("#ffffff"),
		FlashBg: c("#4a3b10"), Error: c("#ff6b6b"), Warn: c("#e5c07b"), Link: c("#89ddff"),
		Status: map[model.Phase]color.Color{
			model.PhaseProved:        c("#7ee787"),
			model.PhaseRefuted:       c("#ff6b6b"),
			model.PhaseHasGap:        c("#ffa657"),
			model.PhaseAwaitingCheck: c("#d2a8ff"),
			model.PhaseAwaitingSubs:  c("#79c0ff"),
			model.PhaseNeedsProof:    c("#8b949e"),
			model.PhaseNeedsDecision: c("#f2cc60"),
			model.PhaseAbandoned:     c("#6e7681"),
			model.PhaseValidating:    c("#d2a8ff"),
			model.PhaseProblemOpen:   c("#79c0ff"),
			model.PhaseProblemSolved: c("#7ee787"),
			model.PhaseUnknown:       c("#ff6b6b"),
		},
	}
}

// Light is the palette for light terminals.
func Light() Palette {
	return Palette{
		Name: "light", Dark: false,
		Fg: c("#24292f"), Muted: c("#57606a"), Faint: c("#8c959f"), Accent: c("#0550ae"),
		Border: c("#afb8c1"), Focus: c("#0969da"), SelBg: c("#ddf4ff"), SelFg: c("#0a3069"),
		FlashBg: c("#fff8c5"), Error: c("#cf222e"), Warn: c("#9a6700"), Link: c("#0969da"),
		Status: map[model.Phase]color.Color{
			model.PhaseProved:        c("#1a7f37"),
			model.PhaseRefuted:       c("#cf222e"),
			model.PhaseHasGap:        c("#bc4c00"),
			model.PhaseAwaitingCheck: c("#8250df"),
			model.PhaseAwaitingSubs:  c("#0969da"),
			model.PhaseNeedsProof:    c("#57606a"),
			model.PhaseNeedsDecision: c("#9a6700"),
			model.PhaseAbandoned:     c("#8c959f"),
			model.PhaseValidating:    c("#8250df"),
			model.PhaseProblemOpen:   c("#0969da"),
			model.PhaseProblemSolved: c("#1a7f37"),
			model.PhaseUnknown:       c("#cf222e"),
		},
	}
}

// HighContrast uses the 16 basic ANSI colours at full strength, bold where it helps.
func HighContrast() Palette {
	return Palette{
		Name: "high-contrast", Dark: true,
		Fg: c("15"), Muted: c("15"), Faint: c("7"), Accent: c("14"),
		Border: c("15"), Focus: c("11"), SelBg: c("11"), SelFg: c("0"),
		FlashBg: c("5"), Error: c("9"), Warn: c("11"), Link: c("14"),
		Status: map[model.Phase]color.Color{
			model.PhaseProved:        c("10"),
			model.PhaseRefuted:       c("9"),
			model.PhaseHasGap:        c("11"),
			model.PhaseAwaitingCheck: c("13"),
			model.PhaseAwaitingSubs:  c("14"),
			model.PhaseNeedsProof:    c("15"),
			model.PhaseNeedsDecision: c("11"),
			model.PhaseAbandoned:     c("7"),
			model.PhaseValidating:    c("13"),
			model.PhaseProblemOpen:   c("14"),
			model.PhaseProblemSolved: c("10"),
			model.PhaseUnknown:       c("9"),
		},
	}
}

// None has no colours at all: NO_COLOR. Selection and focus use reverse video and bold.
func None(dark bool) Palette {
	return Palette{Name: "none", Dark: dark, NoColour: true, Status: map[model.Phase]color.Color{}}
}

// NoColorEnv reports whether NO_COLOR asks for no colour (https://no-color.org: any
// non-empty value).
func NoColorEnv() bool { return os.Getenv("NO_COLOR") != "" }

// Resolve picks the palette for a theme name and the terminal background.
func Resolve(name string, dark, noColor bool) Palette {
	if noColor || name == "none" {
		return None(dark)
	}
	switch name {
	case "dark":
		return Dark()
	case "light":
		return Light()
	case "high-contrast":
		return HighContrast()
	}
	if dark {
		return Dark()
	}
	return Light()
}

// Badge is how a phase reads without colour: a symbol and a short word.
type Badge struct{ Symbol, Word string }

var badges = map[model.Phase]Badge{
	model.PhaseProved:        {"✓", "true"},
	model.PhaseRefuted:       {"✗", "false"},
	model.PhaseHasGap:        {"●", "gap"},
	model.PhaseAwaitingCheck: {"?", "check"},
	model.PhaseAwaitingSubs:  {"…", "subs"},
	model.PhaseNeedsProof:    {"○", "pending"},
	model.PhaseNeedsDecision: {"~", "modify"},
	model.PhaseAbandoned:     {"⊘", "abandoned"},
	model.PhaseValidating:    {"◌", "validating"},
	model.PhaseProblemOpen:   {"◇", "open"},
	model.PhaseProblemSolved: {"◆", "solved"},
}

// BadgeWidth is the widest badge text ("⊘ abandoned"); tree rows pad badges to it.
const BadgeWidth = 11

// BadgeFor returns the badge of a phase; an unknown status shows "! <status>".
func BadgeFor(ph model.Phase, status string) Badge {
	if b, ok := badges[ph]; ok {
		return b
	}
	w := model.SanitizeLine(status)
	if w == "" {
		w = "unknown"
	}
	return Badge{"!", w}
}

func (b Badge) String() string { return b.Symbol + " " + b.Word }

// Styles is everything a view needs to draw: one struct, built from a palette.
type Styles struct {
	Palette Palette

	Base, Muted, Faint, Bold, Accent, Link, Error, Warn lipgloss.Style
	Title, Heading, ID                                  lipgloss.Style
	Selected, SelectedBlur, Flash                       lipgloss.Style
	Border, BorderFocus                                 lipgloss.Style
	StatusBar, StatusKey, StatusVal                     lipgloss.Style
	Dialog, DialogTitle, Danger                         lipgloss.Style
	Cursor, Gutter                                      lipgloss.Style
	Mark                                                lipgloss.Style // fully proved / next / shared marks
	statusStyles                                        map[model.Phase]lipgloss.Style
	kept                                                *keptStrings
}

// keptStrings are the strings Kept made, for one Styles.
type keptStrings struct {
	mu sync.Mutex
	m  map[string]string
}

// keptMax bounds Kept's strings: past it they are dropped and made again as drawn.
const keptMax = 512

// Kept is draw's string, made once per key with these styles (the key names what draw
// draws and every input it reads but the styles): the strings a screen draws the same
// way on every drawing (a box's borders, the footer's hints), which lipgloss would
// measure and style again each time; a server's sessions draw many times a second.
func (s *Styles) Kept(key string, draw func() string) string {
	k := s.kept
	if k == nil {
		return draw()
	}
	k.mu.Lock()
	out, ok := k.m[key]
	k.mu.Unlock()
	if ok {
		return out
	}
	out = draw()
	k.mu.Lock()
	if len(k.m) >= keptMax {
		clear(k.m)
	}
	k.m[key] = out
	k.mu.Unlock()
	return out
}

// New builds the styles of a palette.
func New(p Palette) *Styles {
	s := &Styles{Palette: p, statusStyles: map[model.Phase]lipgloss.Style{}, kept: &keptStrings{m: map[string]string{}}}
	fg := func(col color.Color) lipgloss.Style {
		st := lipgloss.NewStyle()
		if !p.NoColour && col != nil {
			st = st.Foreground(col)
		}
		return st
	}
	s.Base = fg(p.Fg)
	s.Muted = fg(p.Muted)
	s.Faint = fg(p.Faint)
	if p.NoColour {
		s.Faint = s.Faint.Faint(true)
	}
	s.Bold = fg(p.Fg).Bold(true)
	s.Accent = fg(p.Accent).Bold(true)
	s.Link = fg(p.Link).Underline(true)
	s.Error = fg(p.Error).Bold(true)
	s.Warn = fg(p.Warn)
	s.Title = fg(p.Accent).Bold(true)
	s.Heading = fg(p.Accent).Bold(true)
	s.ID = fg(p.Fg).Bold(true)
	s.Mark = fg(p.Warn)
	s.Border = fg(p.Border)
	s.BorderFocus = fg(p.Focus).Bold(true)
	s.StatusBar = fg(p.Muted)
	s.StatusKey = fg(p.Accent).Bold(true)
	s.StatusVal = fg(p.Fg)
	s.DialogTitle = fg(p.Accent).Bold(true)
	s.Danger = fg(p.Warn).Bold(true)
	s.Dialog = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	if !p.NoColour {
		s.Dialog = s.Dialog.BorderForeground(p.Focus)
	}
	if p.NoColour {
		s.Selected = lipgloss.NewStyle().Reverse(true)
		s.SelectedBlur = lipgloss.NewStyle().Underline(true)
		s.Flash = lipgloss.NewStyle().Bold(true)
		s.Cursor = lipgloss.NewStyle().Reverse(true)
		s.Gutter = lipgloss.NewStyle().Bold(true)
	} else {
		s.Selected = lipgloss.NewStyle().Background(p.SelBg).Foreground(p.SelFg).Bold(true)
		s.SelectedBlur = lipgloss.NewStyle().Background(p.SelBg)
		s.Flash = lipgloss.NewStyle().Background(p.FlashBg)
		s.Cursor = lipgloss.NewStyle().Reverse(true).Bold(true)
		s.Gutter = lipgloss.NewStyle().Foreground(p.Focus).Bold(true)
	}
	for ph, col := range p.Status {
		s.statusStyles[ph] = fg(col)
	}
	return s
}

// Status is the style of a phase: the same everywhere.
func (s *Styles) Status(ph model.Phase) lipgloss.Style {
	if st, ok := s.statusStyles[ph]; ok {
		return st
	}
	return s.Base
}

// Badge renders a phase's badge, coloured, padded to width cells when width > 0.
func (s *Styles) Badge(ph model.Phase, status string, width int) string {
	text := BadgeFor(ph, status).String()
	if width > 0 {
		if pad := width - cells.Width(text); pad > 0 {
			text += strings.Repeat(" ", pad)
		}
	}
	return s.Status(ph).Render(text)
}

// MarkdownStyle is the glamour standard style matching the palette.
func (s *Styles) MarkdownStyle() string {
	switch {
	case s.Palette.NoColour:
		return "notty"
	case s.Palette.Dark:
		return "dark"
	}
	return "light"
}
