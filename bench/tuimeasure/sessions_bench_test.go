package tuimeasure

import (
	"testing"

	"referee/internal/testutil"
)

// BenchmarkSessionLineOnScreen times an agent's new transcript line until the runs
// pane shows it (MeasureSessionLine), on a transcript of 50 MB; p50 and max of b.N
// lines are reported.
func BenchmarkSessionLineOnScreen(b *testing.B) {
	dir := testutil.Copy(b, testutil.DemoDir())
	p50, worst, err := MeasureSessionLine(dir, 50, b.N)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-ms")
}
