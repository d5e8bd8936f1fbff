package bench

import (
	"fmt"
	"slices"
	"time"

	"referee/agents"
	"referee/bench/tuimeasure"
)

// sessionRows measure following the agents' Claude Code transcripts (issue 14): a new
// line of a 50 MB transcript until the runs pane shows it, and the CPU of following
// such a transcript as a busy agent writes to it.
func sessionRows(env *Env) []Row {
	dir := env.Folders[slices.Min(env.Opts.Sizes)]
	const lines, mb = 20, 50
	var worst time.Duration
	var share float64
	return []Row{{
		Work: fmt.Sprintf("transcript line → runs pane, %d MB: max", mb),
		Cells: uiCells(Cell{Runs: 1, Value: func() (string, error) {
			var err error
			_, worst, err = tuimeasure.MeasureSessionLine(dir, mb, lines)
			return formatDuration(worst), err
		}}),
		Goal: func([numCols]time.Duration) string { return "≤200 ms " + mark(worst <= 200*time.Millisecond) },
	}, {
		Work: fmt.Sprintf("following a %d MB transcript: CPU", mb),
		Cells: uiCells(Cell{Runs: 1, Value: func() (string, error) {
			var err error
			_, share, err = agents.MeasureFollow(mb, 5*time.Second)
			return fmt.Sprintf("%.1f%% CPU", 100*share), err
		}}),
		Goal: func([numCols]time.Duration) string { return "≤5% of one core " + mark(share <= 0.05) },
	}}
}
