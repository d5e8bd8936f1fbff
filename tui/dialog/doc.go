// Package dialog is the workbench's dialogs: a skill's form, the confirmation of a
// change, the decision of a proposed modification, a notice that shows an error whole,
// and the picker behind help and the command palette. Each is a common.Component; the
// workbench (package tui) opens them and does what they answer.
package dialog
