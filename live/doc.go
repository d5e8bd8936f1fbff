// Package live is the workbench's live path, the room between the store and the tui.
// Data flows one way: files → store (load, reload) → live (watch, reload chain, graph
// and tree rows) → tui (draws and routes) → views (renders). live reads the folder
// through the store, derives each snapshot's graph (model.Derive, or Graph.Update for
// what a write touched) and its tree (Forest), and hands the tui the result; nothing in
// it draws, and nothing it hands out is changed after.
//
// It imports model, store and views (for the row types views draws, TreeRow);
// it never imports the tui.
package live
