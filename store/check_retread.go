package store

import "referee/model/similar"

// retreads warns about claims that repeat an older statement that already failed or
// already holds (similar.Retreads), naming both.
func (c *checker) retreads() {
	for _, r := range similar.Retreads(c.snap) {
		what := "is " + r.OfStatus
		switch r.OfStatus {
		case "true":
			what = "already holds (true)"
		case "false":
			what = "already failed (false)"
		case "abandoned":
			what = "was abandoned"
		}
		c.add(SeverityWarning, objectRelPath(r.ID), r.ID, "re-tread: its claim repeats %s, which %s (similarity %.2f)", r.Of, what, r.Score)
	}
}
