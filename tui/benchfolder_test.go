package tui

import "referee/internal/benchfolder"

// benchFolder is a generated folder of n statements, made once and kept across runs.
var benchFolder = benchfolder.Get
