// Package model is referee's domain, pure: what a contents folder holds and what follows
// from it, with no file, terminal or clock of its own.
//
//   - The objects (types.go): problems, statements, experiences, their proofs, issues and
//     responses as the agents write them (FORMAT.md), and the statuses of both
//     vocabularies (status.go).
//   - The text in them: the sentence splitter that numbers a proof's sentences as the
//     checker counts them (sentences.go), the parsers of issues, responses, progress
//     notes and log lines, and the sanitiser every text passes before a terminal. The
//     objects are read and written with model/pyjson, the JSON codec that writes byte
//     for byte what the agents' Python writes.
//   - What is derived: a Snapshot is one consistent view of a folder; Derive makes its
//     Graph (references, the tree, phases, what the orchestrator would run next, fully
//     proved and stale marks) and Graph.Update brings it to a newer snapshot by what
//     changed. Objects, the maps both hold per object, copy only what a change touched.
//   - Reading aids over a snapshot: blocking scores and the review order, the graveyard,
//     object diffs, the stall alarm. Similar statements and re-treads are in model/similar.
//
// It imports nothing of referee's but its codec (model/pyjson): store reads and writes
// files into it, and the views and the workbench draw from it.
package model
