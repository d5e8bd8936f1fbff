package common

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// NavKeyMap is how every pane and every dialog that scrolls moves: one map, so the
// same key moves the same way everywhere. A part's own keys are matched first (the
// tree's space folds).
type NavKeyMap struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
}

// DefaultNavKeyMap returns the navigation keys.
func DefaultNavKeyMap() NavKeyMap {
	return NavKeyMap{
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k/↑", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/↓", "down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top (the activity: newest)")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom (the activity: oldest)")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d", "space"), key.WithHelp("pgdn/space", "page down (the tree: space folds)")),
	}
}

// Bindings are the keys in the order help lists them.
func (k NavKeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Down, k.Up, k.Top, k.Bottom, k.PageUp, k.PageDown}
}

// Move is where a navigation key takes a cursor (or a window's first line) at cur among
// n positions, a page being page positions; ok is false for any other key. The caller
// clamps: up from the top stays there. A window that does not know n (a dialog, which
// lays out its body in View) passes a large n and clamps in View.
func (k NavKeyMap) Move(msg tea.KeyPressMsg, cur, n, page int) (to int, ok bool) {
	switch {
	case key.Matches(msg, k.Up):
		return cur - 1, true
	case key.Matches(msg, k.Down):
		return cur + 1, true
	case key.Matches(msg, k.Top):
		return 0, true
	case key.Matches(msg, k.Bottom):
		return n - 1, true
	case key.Matches(msg, k.PageUp):
		return cur - page, true
	case key.Matches(msg, k.PageDown):
		return cur + page, true
	}
	return cur, false
}

// Unbounded is n for Move over a window whose length only View knows.
const Unbounded = 1 << 30

// NavHelp is a navigation binding as a part lists it in help: the same binding, in the
// part's words ("move down", "scroll down", "newest"), its keys in the order given (by
// default the binding's). It panics on a key the binding does not have: help cannot
// list a key the part does not move by.
func NavHelp(b key.Binding, help, desc string, keys ...string) key.Binding {
	if len(keys) == 0 {
		keys = b.Keys()
	}
	for _, k := range keys {
		if !slices.Contains(b.Keys(), k) {
			panic("common: " + k + " is not a key of " + b.Help().Desc)
		}
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}
