package similar

import (
	"fmt"
	"testing"
)

// Small buckets keep no postings (every claim in one is a candidate); large ones do,
// and a bucket crosses between the two as claims come and go. Whatever the size at
// which postings start, re-treads, their updates and similar statements are the same:
// the tests of the index run again with buckets always small, and with postings from
// the second claim on.
func TestSimilarityWhateverTheBucketSize(t *testing.T) {
	for _, n := range []int{1, 2, 1 << 30} {
		t.Run(fmt.Sprintf("smallBucket=%d", n), func(t *testing.T) {
			was := smallBucket
			smallBucket = n
			t.Cleanup(func() { smallBucket = was })
			TestRetreadCandidatesMatchFullComparison(t)
			TestSimilarityUpdate(t)
			TestSimilarityUpdateChanged(t)
			TestSimilarAndRetreads(t)
		})
	}
}
