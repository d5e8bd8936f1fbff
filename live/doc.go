// Package live is the workbench's live path, the room between the store and the tui.
// Data flows one way: files → store (load, reload) → live (watch, reload chain, graph
// and tree rows) → tui (draws and routes) → views (renders). live reads the folder
// through the store, derives each snapshot's graph (model.Derive, or Graph.Update for
// what a write touched) and its tree (Forest), and hands the tui the result; nothing in
// it draws, and nothing it hands out is changed after.
//
// It imports model, store and agents (the run-state files, polled once for every screen) only: it owns the tree's row types (TreeRow, which the
// views draw), so the data path never depends on the renderer, and the MCP server's
// engine and the SSH server's hub (Hub: one watcher and derivation for every session)
// link no rendering package. It never imports the tui.
package live
