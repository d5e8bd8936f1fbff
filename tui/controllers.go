package tui

// The Model's work is done by controllers, in the manner of lazygit's helpers: each is
// a view of the workbench for one job, holding no state of its own (the state is the
// Model's groups and the components'), so that the Model itself only routes and lays
// out. A controller is made where it is used (m.reader().refreshDetail()).

// reader is what the reviewer reads: the selection, the detail built for it, the
// proofs' renderings, the links, sentences and issues under the cursors, the review
// queue (model.go, actions.go, view.go).
type reader struct{ *Model }

func (m *Model) reader() reader { return reader{m} }

// changer is a change from the first key to the write: the skill's form and its
// drafts, the confirmation, the decision, the editor, undo, redo and rewind
// (mutate.go, prefill.go, dialogs.go, drafts.go, rewind.go).
type changer struct{ *Model }

func (m *Model) changer() changer { return changer{m} }

// loader is the live room's side: the first load of the folder, the frames that
// follow, pause, and a shared engine's frames (live.go, loading.go, shared.go).
type loader struct{ *Model }

func (m *Model) loader() loader { return loader{m} }

// supervisor is the supervising panes and workers: the side pane shown, time travel,
// the runs, the sessions, the activity's changes and the extras (supervise.go,
// travel.go, runs.go, sessions.go, changes.go, similar.go, activity.go).
type supervisor struct{ *Model }

func (m *Model) supervisor() supervisor { return supervisor{m} }

// presence is this workbench among the others on the folder under referee serve
// (presence.go).
type presence struct{ *Model }

func (m *Model) room() presence { return presence{m} }
