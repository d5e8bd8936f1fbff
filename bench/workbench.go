package bench

import (
	"fmt"
	"slices"
	"time"

	"referee/bench/tuimeasure"
)

// The workbench's rows: the UI's goals, measured through the tui's Model as the program
// drives it (package bench/tuimeasure). The agents have no UI: their cells say so.

// The terminal the frames are drawn for.
const frameWidth, frameHeight = 160, 50

const (
	keysPerRun     = 100  // keypresses timed together: one is well under a millisecond
	lookupsPerRun  = 1000 // cached proof lookups timed together
	writesAtLeast  = 100  // agent's writes behind a p99
	keypressGoalAt = 100_000
	writeGoalAt    = 10_000
	firstGoalAt    = 10_000
)

func workbenchRows(env *Env) ([]Row, error) {
	rows := firstFrameRows(env, tuimeasure.MeasureFirstFrame)
	rows = append(rows, keypressRow(env))
	rows = append(rows, writeRows(env)...)
	rows = append(rows, sessionRows(env)...)
	proofs, err := proofRows()
	if err != nil {
		return nil, err
	}
	return append(rows, proofs...), nil
}

// uiCells is a row's cells when only referee does the work.
func uiCells(c Cell) [numCols]Cell { return [numCols]Cell{c, {Note: "—"}, {Note: "—"}} }

// sizeFor is want if it is one of the sizes asked, else the largest asked.
func sizeFor(env *Env, want int) int {
	if slices.Contains(env.Opts.Sizes, want) {
		return want
	}
	return slices.Max(env.Opts.Sizes)
}

// timeGoal states a goal set at one size (goal reads e.g. "≤2 ms") and, measured at that
// size, whether d meets it.
func timeGoal(goal string, limit time.Duration, at, n int, d time.Duration) string {
	if n != at {
		return fmt.Sprintf("(goal %s at %s)", goal, thousands(at))
	}
	return goal + " " + mark(d <= limit)
}

// keypressRow times one j and its frame, at 100k if that size is asked. The workbench
// opens in the warm-up run.
func keypressRow(env *Env) Row {
	n := sizeFor(env, keypressGoalAt)
	dir := env.Folders[n]
	var c *tuimeasure.KeypressCase
	return Row{
		Work: fmt.Sprintf("keypress (j) → frame, %s statements", thousands(n)),
		Cells: uiCells(Cell{Time: func() (time.Duration, error) {
			if c == nil {
				var err error
				if c, err = tuimeasure.NewKeypressCase(dir, frameWidth, frameHeight); err != nil {
					return 0, err
				}
			}
			return c.Mean(keysPerRun), nil
		}}),
		Goal: func(m [numCols]time.Duration) string {
			return timeGoal("≤2 ms", 2*time.Millisecond, keypressGoalAt, n, m[colReferee])
		},
		Close: func() {
			if c != nil {
				c.Close()
				c = nil // a 100k tree is hundreds of MiB
			}
		},
	}
}

// writeRows time an agent's write reaching the screen, on a work copy of the 10k folder
// (else the largest): the p99 and the mean of the same writes, first from the watcher's
// batch on (tuimeasure.WriteCase: the work the program does), then from the write itself
// (tuimeasure.WatchedWriteCase: the watcher and its quiet time included, what a reviewer sees).
func writeRows(env *Env) []Row {
	n := sizeFor(env, writeGoalAt)
	direct := writeRowPair(env, fmt.Sprintf("agent's write → frame, %s: p99", thousands(n)), n,
		func(dir string) (writeCase, error) { return tuimeasure.NewWriteCase(dir, frameWidth, frameHeight) })
	watched := writeRowPair(env, fmt.Sprintf("agent's write → watcher → frame, %s: p99", thousands(n)), n,
		func(dir string) (writeCase, error) {
			return tuimeasure.NewWatchedWriteCase(dir, frameWidth, frameHeight, 0)
		})
	return append(direct, watched...)
}

// writeCase is tuimeasure.WriteCase or tuimeasure.WatchedWriteCase.
type writeCase interface {
	Write() (time.Duration, error)
	Run(n int, budget time.Duration) (p99, mean time.Duration, err error)
	Close()
}

// writeRowPair is the p99 row and the mean row of one way of timing writes.
func writeRowPair(env *Env, work string, n int, open func(dir string) (writeCase, error)) []Row {
	cached := env.Folders[n]
	budget := env.Opts.Budget
	var p99, mean time.Duration
	return []Row{{
		Work: work,
		Cells: uiCells(Cell{Value: func() (string, error) {
			dir, cleanup, err := workCopy(cached) // the file is replaced, never written in place
			if err != nil {
				return "", err
			}
			defer cleanup()
			c, err := open(dir)
			if err != nil {
				return "", err
			}
			defer c.Close()
			if _, err := c.Write(); err != nil { // warm up
				return "", err
			}
			p99, mean, err = c.Run(writesAtLeast, budget)
			return formatDuration(p99), err
		}}),
		Goal: func([numCols]time.Duration) string {
			return timeGoal("≤50 ms p99", 50*time.Millisecond, writeGoalAt, n, p99)
		},
	}, {
		Work:  "  mean of the same writes",
		Cells: uiCells(Cell{Value: func() (string, error) { return formatDuration(mean), nil }}),
	}}
}

// firstFrameRows time a workbench opening the 10k folder (else the largest): until its
// first frame, which shows the load's progress, and until the frame with the tree.
// measure is tuimeasure.MeasureFirstFrame; both figures come from the same runs.
func firstFrameRows(env *Env, measure func(dir string, width, height int) (loading, full time.Duration, err error)) []Row {
	n := sizeFor(env, firstGoalAt)
	dir := env.Folders[n]
	var fulls []time.Duration
	var full time.Duration
	goal := func(d time.Duration) string { return timeGoal("≤150 ms", 150*time.Millisecond, firstGoalAt, n, d) }
	return []Row{{
		Work: fmt.Sprintf("first frame (load progress), %s", thousands(n)),
		Cells: uiCells(Cell{Time: func() (time.Duration, error) {
			loading, withTree, err := measure(dir, frameWidth, frameHeight)
			fulls = append(fulls, withTree)
			return loading, err
		}}),
		Goal: func(m [numCols]time.Duration) string { return goal(m[colReferee]) },
	}, {
		Work: "  first frame with the tree, same runs",
		Cells: uiCells(Cell{Value: func() (string, error) {
			slices.Sort(fulls)
			full = fulls[len(fulls)/2]
			return formatDuration(full), nil
		}}),
		Goal: func([numCols]time.Duration) string { return goal(full) },
	}}
}

// proofRows time showing a 2 KB and a 20 KB proof: rendered (cold) and from the cache.
func proofRows() ([]Row, error) {
	var rows []Row
	for _, kb := range []int{2, 20} {
		c, err := tuimeasure.NewProofCase(kb)
		if err != nil {
			for _, r := range rows {
				if r.Close != nil {
					r.Close()
				}
			}
			return nil, err
		}
		rows = append(rows, Row{
			Work:  fmt.Sprintf("proof render %d KB, cold", kb),
			Cells: uiCells(Cell{Time: c.Cold}),
			Goal:  func([numCols]time.Duration) string { return "off the UI goroutine " + mark(c.OffUIGoroutine) },
		}, Row{
			Work:  "  cached",
			Cells: uiCells(Cell{Time: func() (time.Duration, error) { return c.Cached(lookupsPerRun) }}),
			Goal:  func([numCols]time.Duration) string { return "once per (hash, width, theme) " + mark(c.RenderedOnce) },
			Close: c.Close,
		})
	}
	return rows, nil
}
