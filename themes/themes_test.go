package themes

import (
	"strings"
	"testing"

	"referee/model"
)

func TestResolve(t *testing.T) {
	if p := Resolve("", true, false); p.Name != "dark" {
		t.Errorf("auto on dark: %s", p.Name)
	}
	if p := Resolve("auto", false, false); p.Name != "light" {
		t.Errorf("auto on light: %s", p.Name)
	}
	if p := Resolve("high-contrast", false, false); p.Name != "high-contrast" {
		t.Errorf("high-contrast: %s", p.Name)
	}
	if p := Resolve("dark", true, true); !p.NoColour {
		t.Error("NO_COLOR does not win over --theme")
	}
	if !Valid("") || !Valid("light") || Valid("pink") {
		t.Error("Valid")
	}
}

func TestNoColourHasNoColourEscapes(t *testing.T) {
	st := New(None(true))
	for ph := model.PhaseUnknown; ph <= model.PhaseProblemSolved; ph++ {
		if b := st.Badge(ph, "x", BadgeWidth); strings.Contains(b, "\x1b[3") || strings.Contains(b, "\x1b[9") {
			t.Errorf("badge %v has a colour: %q", ph, b)
		}
	}
	if st.MarkdownStyle() != "notty" {
		t.Error("markdown is coloured without colour")
	}
}

func TestStatusColoursAreConsistent(t *testing.T) {
	for _, p := range []Palette{Dark(), Light(), HighContrast()} {
		st := New(p)
		for ph := range p.Status {
			if !strings.Contains(st.Status(ph).Render("x"), "x") || !strings.Contains(st.Badge(ph, "", 0), BadgeFor(ph, "").Word) {
				t.Errorf("%s: %v", p.Name, ph)
			}
		}
	}
}
