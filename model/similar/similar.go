// Package similar finds statements whose claims say the same thing: the similarity index
// (Index) over a snapshot's claims, its scores, and the re-treads it finds — a
// claim proposed again after an older one was decided. It reads model's snapshots and
// keeps no state of its own beyond the index.
package similar

import (
	"cmp"
	"encoding/binary"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"referee/model"
)

// Re-treads: agents often propose again a claim that already failed or already holds.
// Claims are compared by their normalised text (NormalizeClaim) with two TF-IDF cosines —
// over character trigrams (robust to rewording inside words, spacing and notation) and
// over words and math tokens (robust to reordering) — averaged: Score, how related two
// claims are, which ranks Similar. Both are computed from the folder itself: no network,
// no model. A repeat must be more than related (RepeatScore): claims whose numbers or
// names differ are marked down ("p ≡ 1 (mod 4)" is not "p ≡ 3 (mod 4)", "Olivia says …"
// is not "Ivy says …"), so is a claim much shorter than the other, and the score is
// capped by how much of the two token sequences a common subsequence keeps in order (a
// converse or swapped roles share every word). Only the conclusion is compared: the
// premises are mostly references to assumptions, which the agents restate freely.

// RetreadThreshold is the RepeatScore from which a claim counts as a repeat of another.
// On the demo and the fixture the closest pairs of distinct claims score 0.64
// (Σk = n(n+1)/2 against Σk³ = (n(n+1)/2)²) and 0.56 ("Olivia says …" against "Ivy says
// …"); converses and swapped roles score 0.7 at most; rewordings of their claims
// (notation, quantifier synonyms, dropped filler words, plurals) score 0.88 and more.
// 0.8 sits between with a margin either way. The store tests TestRetreadThreshold and
// TestRetreadsCaught and the model test TestSimilarAndRetreads pin both sides.
const RetreadThreshold = 0.8

// RetreadKeyPenalty multiplies the score of two claims whose numbers (in order) or names
// differ. It is below RetreadThreshold, so such claims are never repeats however alike
// their words: "if x₉ → 0 then x₆ → 0" is the converse of "if x₆ → 0 then x₉ → 0".
const RetreadKeyPenalty = 0.7

// RetreadLengthRatio is the shortest a claim may be, relative to the other, before its
// score is scaled down in proportion: a claim that adds or drops half of another's
// content (a lemma quoting a formula inside a larger one) is not a repeat of it.
const RetreadLengthRatio = 0.6

// Match is a statement and how alike its claim is to another's, from 0 to 1.
type Match struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

// Retread is a claim (ID) that repeats an older one (Of) that already failed (false,
// abandoned) or already holds (true).
type Retread struct {
	ID       string  `json:"id"`
	Of       string  `json:"of"`
	OfStatus string  `json:"of_status"`
	Score    float64 `json:"score"` // RepeatScore
}

var (
	mathSpan   = lazy(`(?s)\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]`)
	mathToken  = lazy(`\\[a-z]+|[a-z]|[0-9]+|[^\s{}]`)
	proseToken = lazy(`\\[a-z]+|[\pL]+|[0-9]+`)
	numberRun  = lazy(`[0-9]+`)
	// Layout-only commands: they change how a formula looks, not what it says.
	mathNoise = lazy(`\\(?:left|right|bigl|bigr|biggl|biggr|big|bigg|Big|Bigg|displaystyle|textstyle|quad|qquad|mathrm|mathit|mathbf|operatorname|text)\b|\\[,;:! ]`)
)

// lazy compiles expr on first use, as model's patterns do: most processes never compare
// claims.
func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// One spelling for symbols written several ways, inside math and out.
var mathSynonyms = strings.NewReplacer(
	`\geq`, `\ge`, `\leq`, `\le`, `\neq`, `\ne`, `\ldots`, `\dots`, `\cdots`, `\dots`,
	`\lvert`, `|`, `\rvert`, `|`, `\mid`, `|`, `\to`, `\rightarrow`, `\implies`, `\Rightarrow`,
	`\tfrac`, `\frac`, `\dfrac`, `\frac`,
	"≥", ` \ge `, "≤", ` \le `, "≠", ` \ne `, "≡", ` \equiv `, "→", ` \rightarrow `,
	"⇒", ` \rightarrow `, "∈", ` \in `, "∑", ` \sum `, "…", ` \dots `, "·", ` \cdot `,
	"×", ` \times `, "−", "-", "–", "-", "²", "^2", "³", "^3", "∀", " for every ", "∃", " there exists ",
)

// Words that carry no claim: articles, copulas, prepositions, connectives.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the is are be been being was were of in on at to by with as
		that this these those it its for from than so such well which who whom whose there
		holds hold also we us our let has have had do does doing into onto over under also both`) {
		stopWords[w] = true
	}
}

// Quantifiers and verbs the agents use interchangeably.
var wordSynonyms = map[string]string{"each": "every", "all": "every", "any": "every", "arbitrary": "every",
	"exist": "exists", "prove": "show", "shows": "show", "show": "show", "iff": "if and only if"}

// NormalizeClaim is the comparable form of a claim: lower case, one spelling per math
// symbol, layout commands and braces dropped, stop words dropped, quantifier synonyms
// merged, plurals folded; numbers are kept. Tokens are separated by single spaces.
func NormalizeClaim(s string) string {
	return strings.Join(claimTokens(s), " ")
}

func claimTokens(s string) []string {
	s = mathSynonyms.Replace(s)
	var out []string
	prose := func(text string) {
		for _, w := range proseToken().FindAllString(strings.ToLower(text), -1) {
			if syn, ok := wordSynonyms[w]; ok {
				w = syn
			}
			for _, part := range strings.Fields(w) {
				if stopWords[part] {
					continue
				}
				out = append(out, fold(part))
			}
		}
	}
	last := 0
	for _, m := range mathSpan().FindAllStringSubmatchIndex(s, -1) {
		prose(s[last:m[0]])
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				out = append(out, mathTokens(s[m[g]:m[g+1]])...)
			}
		}
		last = m[1]
	}
	prose(s[last:])
	return out
}

func mathTokens(m string) []string {
	m = mathNoise().ReplaceAllString(mathSynonyms.Replace(m), " ")
	return mathToken().FindAllString(m, -1)
}

// sentenceOpeners are capitalised only because they start a sentence.
var sentenceOpeners = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`for every each all any if then there let suppose assume given
		the no some in when hence therefore thus since because not`) {
		sentenceOpeners[w] = true
	}
}

// claimNames returns the capitalised words of a claim outside its formulas (names and
// roles: "Olivia", "Knave"; not the words that merely open a sentence), and every prose
// word, both in lower case, sorted and without repeats (the index keeps them as
// numbers, Index.proseNumbers).
func claimNames(s string) (names, words []string) {
	for _, w := range proseToken().FindAllString(mathSpan().ReplaceAllString(s, " "), -1) {
		lower := strings.ToLower(w)
		words = append(words, lower)
		r := []rune(w)
		if len(r) > 1 && unicode.IsUpper(r[0]) && !stopWords[lower] && !sentenceOpeners[lower] {
			names = append(names, lower)
		}
	}
	slices.Sort(names)
	slices.Sort(words)
	return slices.Compact(names), slices.Compact(words)
}

// sameNames says whether every name of either claim is a word of the other (in any case).
func sameNames(a, b *claimDoc) bool {
	for _, n := range a.names {
		if _, ok := slices.BinarySearch(b.prose, n); !ok {
			return false
		}
	}
	for _, n := range b.names {
		if _, ok := slices.BinarySearch(a.prose, n); !ok {
			return false
		}
	}
	return true
}

// fold turns a plural into its singular, roughly: enough that "primes" meets "prime".
func fold(w string) string {
	if len([]rune(w)) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") {
		return strings.TrimSuffix(w, "s")
	}
	return w
}

// claimDoc is one claim ready for comparison.
type claimDoc struct {
	id      string
	grams   packed  // TF-IDF over character trigrams, unit length
	words   vector  // TF-IDF over tokens, unit length
	numbers string  // the claim's numbers, in order
	tokens  []int32 // the normalised claim, as the words' term numbers
	// names and prose are claimNames' two sets as the index's prose word numbers
	// (Index.prose), sorted by number: numbers hold no pointers for the collector to
	// follow, where a string per word was millions of them at 100k statements.
	names []int32
	prose []int32
	empty bool
	pos   int // position in ID order: IDs are issued in order, so later is newer
}

// vector is a sparse vector sorted by term number: a cosine is a merge of two.
type vector []entry

// entry is one term's weight. float32 halves what the index holds per claim (the
// vectors are most of it at 100k statements); cosines are summed in float64 and scores
// rounded to three places, far above float32's precision.
type entry struct {
	term int32
	w    float32
}

// packed is a vector kept compact: each entry as its term's distance from the one
// before (a uvarint: one or two bytes for most) and its weight's four bytes. The
// character trigrams' vectors are most of what the index holds per claim, and are only
// ever read whole and in order (a cosine, a claim counted out), as a packed one is read.
type packed []byte

// pack is v packed, in a slice of its length.
func pack(v vector) packed {
	size, prev := 0, int32(0)
	for _, e := range v {
		size += uvarintLen(uint64(e.term-prev)) + 4
		prev = e.term
	}
	if size == 0 {
		return nil
	}
	out, prev := make(packed, 0, size), 0
	for _, e := range v {
		out = binary.AppendUvarint(out, uint64(e.term-prev))
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(e.w))
		prev = e.term
	}
	return out
}

func uvarintLen(x uint64) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
}

// next is the entry at offset i, whose term comes after prev, and the offset after it.
func (p packed) next(i int, prev int32) (entry, int) {
	d, n := binary.Uvarint(p[i:])
	i += n
	return entry{term: prev + int32(d), w: math.Float32frombits(binary.LittleEndian.Uint32(p[i:]))}, i + 4
}

// all yields the entries in order.
func (p packed) all(yield func(entry) bool) {
	for i, prev := 0, int32(0); i < len(p); {
		var e entry
		e, i = p.next(i, prev)
		if !yield(e) {
			return
		}
		prev = e.term
	}
}

// dot is vector.dot of the packed vectors: the same products summed in the same order.
func (a packed) dot(b packed) float64 {
	var sum float64
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	ea, i := a.next(0, 0)
	eb, j := b.next(0, 0)
	for {
		switch {
		case ea.term < eb.term:
			if i == len(a) {
				return sum
			}
			ea, i = a.next(i, ea.term)
		case ea.term > eb.term:
			if j == len(b) {
				return sum
			}
			eb, j = b.next(j, eb.term)
		default:
			sum += float64(ea.w) * float64(eb.w)
			if i == len(a) || j == len(b) {
				return sum
			}
			ea, i = a.next(i, ea.term)
			eb, j = b.next(j, eb.term)
		}
	}
}

func (a vector) dot(b vector) float64 {
	var sum float64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].term < b[j].term:
			i++
		case a[i].term > b[j].term:
			j++
		default:
			sum += float64(a[i].w) * float64(b[j].w)
			i++
			j++
		}
	}
	return sum
}

// Index compares the claims of one snapshot. Build it once (NewIndex)
// and ask it many times; it is read-only, and safe to share, until Update brings it to a
// newer snapshot (Update needs the index to itself).
type Index struct {
	snap *model.Snapshot
	docs map[string]*claimDoc
	// ids is position → ID, in ID order. A statement removed by Update keeps its position
	// (docs has no entry for it), to be taken again if the statement comes back.
	ids          []string
	gone         map[string]int32
	grams, words *terms
	// prose numbers the prose words of the claims (claimNames), never taking one back:
	// only equal words are compared.
	prose map[string]int32
	live  int // statements indexed
	drift int // claims weighed since the full build, against older document frequencies

	// buckets holds the claims by their numbers: claims whose numbers differ are never
	// repeats (RetreadKeyPenalty < RetreadThreshold), so only one bucket is searched.
	buckets map[string]*bucket

	// parse's scratch, kept from claim to claim (parse runs under Update's exclusive use).
	wtf, gtf map[string]float64
	starts   []int
}

// bucket is the claims that have the same numbers, and, once they are more than
// smallBucket, their postings. Most buckets hold a claim or two (numbers tell claims
// apart), and postings for every word of each were most of the index's memory at 100k
// (200 MB); a small bucket's claims are all candidates, compared word vector to word
// vector, which is cheaper than looking them up.
type bucket struct {
	members   []int32           // positions of its claims, ascending
	postings  map[int32][]int32 // word term → positions of the claims that have it, ascending; nil while small
	maxWeight map[int32]float64 // word term → at least its largest weight in those claims
}

// smallBucket is how many claims a bucket holds before it keeps postings.
var smallBucket = 16

// terms numbers the terms of one kind and counts the claims that have each.
type terms struct {
	num     map[string]int32
	df      []int
	scratch []float64 // weigh's, kept from claim to claim
}

// count numbers a claim's terms (a new term gets the next number, a copy of its text:
// the claim's own strings are not kept) and returns their counts as a vector sorted by
// term, which weigh then turns into weights in place: a short slice per claim where a
// map per claim stood until every claim was counted.
func (t *terms) count(tf map[string]float64) vector {
	out := make(vector, 0, len(tf))
	for k, f := range tf {
		n, ok := t.num[k]
		if !ok {
			n = int32(len(t.df))
			t.num[strings.Clone(k)] = n
			t.df = append(t.df, 0)
		}
		t.df[n]++
		out = append(out, entry{term: n, w: float32(f)})
	}
	slices.SortFunc(out, func(a, b entry) int { return cmp.Compare(a.term, b.term) })
	return out
}

// uncount takes back the counts of a claim's terms (its vector).
func (t *terms) uncount(v vector) {
	for _, e := range v {
		t.df[e.term]--
	}
}

// weighPacked is weigh of a packed vector of counts, in place (a term's weight has the
// same four bytes as its count): the trigrams' counts are packed as they are made, so
// what a full build holds until every claim is counted is packed too.
func (t *terms) weighPacked(p packed, docs int) packed {
	ws := t.scratch[:0]
	var norm float64
	for e := range p.all {
		w := (1 + math.Log(float64(e.w))) * (math.Log((1+float64(docs))/(1+float64(t.df[e.term]))) + 1)
		ws = append(ws, w)
		norm += w * w
	}
	norm = math.Sqrt(norm)
	for i, k := 0, 0; i < len(p); k++ {
		_, n := binary.Uvarint(p[i:])
		i += n
		binary.LittleEndian.PutUint32(p[i:], math.Float32bits(float32(ws[k]/norm)))
		i += 4
	}
	t.scratch = ws
	return p
}

// uncountPacked is uncount of a packed vector.
func (t *terms) uncountPacked(p packed) {
	for e := range p.all {
		t.df[e.term]--
	}
}

// weigh turns term counts into a unit TF-IDF vector; the IDF is smoothed, so a term
// every claim has still counts a little.
func (t *terms) weigh(tf vector, docs int) vector {
	ws := t.scratch[:0]
	var norm float64
	for _, e := range tf {
		w := (1 + math.Log(float64(e.w))) * (math.Log((1+float64(docs))/(1+float64(t.df[e.term]))) + 1)
		ws = append(ws, w)
		norm += w * w
	}
	norm = math.Sqrt(norm)
	for i := range tf {
		tf[i].w = float32(ws[i] / norm)
	}
	t.scratch = ws
	return tf
}

// NewIndex indexes every statement's claim (its conclusion).
func NewIndex(s *model.Snapshot) *Index {
	ix := &Index{snap: s, docs: make(map[string]*claimDoc, s.Statements.Len()),
		ids: model.SortedIDs(s.Statements), gone: map[string]int32{},
		grams: &terms{num: map[string]int32{}}, words: &terms{num: map[string]int32{}},
		prose: map[string]int32{}}
	ix.live = len(ix.ids)
	gramTF := make([]packed, len(ix.ids))
	wordTF := make([]vector, len(ix.ids))
	for i, id := range ix.ids {
		ix.docs[id], gramTF[i], wordTF[i] = ix.parse(id, s.Statements.Get(id).Claim(), i)
	}
	for i, id := range ix.ids {
		d := ix.docs[id]
		d.grams, d.words = ix.grams.weighPacked(gramTF[i], ix.live), ix.words.weigh(wordTF[i], ix.live)
	}
	ix.buckets = map[string]*bucket{}
	for pos, id := range ix.ids {
		ix.post(ix.docs[id], pos)
	}
	return ix
}

// parse reads one claim and counts its terms.
func (ix *Index) parse(id, claim string, pos int) (d *claimDoc, gramTF packed, wordTF vector) {
	toks := claimTokens(claim)
	// The counts' maps are kept from claim to claim, and a trigram's key is a piece of
	// the joined tokens, not a string of its own (count copies the new ones).
	wtf, gtf := ix.scratchTF(&ix.wtf), ix.scratchTF(&ix.gtf)
	for _, t := range toks {
		wtf[t]++
	}
	joined := strings.Join(toks, " ")
	text := " " + joined + " "
	starts := ix.starts[:0] // where each rune of text starts, and its end
	for i := range text {
		starts = append(starts, i)
	}
	starts = append(starts, len(text))
	ix.starts = starts
	for j := 0; j+3 < len(starts); j++ {
		gtf[text[starts[j]:starts[j+3]]]++
	}
	d = &claimDoc{id: id, empty: len(toks) == 0, pos: pos,
		numbers: strings.Join(numberRun().FindAllString(joined, -1), " ")}
	names, prose := claimNames(claim)
	d.names, d.prose = ix.proseNumbers(names), ix.proseNumbers(prose)
	gramTF, wordTF = pack(ix.grams.count(gtf)), ix.words.count(wtf)
	// The tokens as the words' term numbers (count numbered every one of them, and a
	// number stays its word's): a number per token instead of a string.
	d.tokens = make([]int32, len(toks))
	for i, t := range toks {
		d.tokens[i] = ix.words.num[t]
	}
	return d, gramTF, wordTF
}

// proseNumbers is words as their prose numbers (a new word gets the next one), sorted,
// in a slice of their length (nil when there are none).
func (ix *Index) proseNumbers(words []string) []int32 {
	if len(words) == 0 {
		return nil
	}
	out := make([]int32, len(words))
	for i, w := range words {
		n, ok := ix.prose[w]
		if !ok {
			n = int32(len(ix.prose))
			ix.prose[strings.Clone(w)] = n
		}
		out[i] = n
	}
	slices.Sort(out)
	return out
}

// scratchTF is a kept count map, emptied.
func (ix *Index) scratchTF(m *map[string]float64) map[string]float64 {
	if *m == nil {
		*m = map[string]float64{}
	}
	clear(*m)
	return *m
}

// post adds a claim to its bucket (appended when pos is the last position).
func (ix *Index) post(d *claimDoc, pos int) {
	if d.empty {
		return
	}
	b := ix.buckets[d.numbers]
	if b == nil {
		b = &bucket{}
		ix.buckets[d.numbers] = b
	}
	b.members = insertSorted(b.members, int32(pos))
	switch {
	case b.postings != nil:
		b.postWords(d, pos)
	case len(b.members) > smallBucket:
		b.postings, b.maxWeight = map[int32][]int32{}, map[int32]float64{}
		for _, p := range b.members {
			b.postWords(ix.docs[ix.ids[p]], int(p))
		}
	}
}

// postWords adds a claim's words to the bucket's postings.
func (b *bucket) postWords(d *claimDoc, pos int) {
	for _, e := range d.words {
		b.postings[e.term] = insertSorted(b.postings[e.term], int32(pos))
		b.maxWeight[e.term] = max(b.maxWeight[e.term], float64(e.w))
	}
}

// insertSorted puts p into an ascending list that may hold it already.
func insertSorted(list []int32, p int32) []int32 {
	if n := len(list); n == 0 || list[n-1] < p {
		return append(list, p)
	}
	if i, found := slices.BinarySearch(list, p); !found {
		return slices.Insert(list, i, p)
	}
	return list
}

// unpost takes a claim out of its bucket.
func (ix *Index) unpost(d *claimDoc) {
	b := ix.buckets[d.numbers]
	if b == nil || d.empty {
		return
	}
	if i, found := slices.BinarySearch(b.members, int32(d.pos)); found {
		b.members = slices.Delete(b.members, i, i+1)
	}
	if len(b.members) == 0 {
		delete(ix.buckets, d.numbers)
		return
	}
	if b.postings == nil {
		return
	}
	for _, e := range d.words {
		list := b.postings[e.term]
		if i, found := slices.BinarySearch(list, int32(d.pos)); found {
			list = slices.Delete(list, i, i+1)
		}
		if len(list) == 0 {
			delete(b.postings, e.term)
			delete(b.maxWeight, e.term)
		} else {
			b.postings[e.term] = list
		}
	}
}

// Update brings the index to s, a later snapshot of the same folder, and returns the
// statements whose claim, status or type differ (added and removed ones too), in ID
// order; claims says whether a claim changed (Similar may answer otherwise), rebuilt
// whether the index was made again from s (then every re-tread may differ). The work is
// a pointer comparison per statement changed since the indexed snapshot (per statement
// when s shares no base with it: model.Objects.Diff) and a parse per changed claim. A changed claim is
// weighed with the document frequencies of the moment and the others keep theirs: once
// a quarter of the claims were weighed so, the index is built again.
func (ix *Index) Update(s *model.Snapshot) (changed []string, claims, rebuilt bool) {
	if s == ix.snap {
		return nil, false, false
	}
	var added, removed, recounted []string
	// The statements whose pointer differs: when s was forked from the indexed snapshot
	// (as a reload's is), only the changes over their shared base are looked at, not
	// every statement.
	s.Statements.Diff(ix.snap.Statements, func(a, b *model.Statement) bool { return a == b }, func(id string) {
		st := s.Statements.Get(id)
		if st == nil {
			return // gone: removed below
		}
		switch old := ix.snap.Statements.Get(id); {
		case old == nil || ix.docs[id] == nil:
			added = append(added, id)
		case old.Claim() != st.Claim():
			recounted = append(recounted, id)
		case old.Status != st.Status || old.Type != st.Type:
			changed = append(changed, id)
		}
	})
	if s.Statements.Len()-len(added) != ix.live {
		for id := range ix.docs {
			if s.Statements.Get(id) == nil {
				removed = append(removed, id)
			}
		}
	}
	slices.SortFunc(added, model.CompareIDs)
	last := ""
	if len(ix.ids) > 0 {
		last = ix.ids[len(ix.ids)-1]
	}
	for _, id := range added {
		if _, back := ix.gone[id]; !back && last != "" && model.CompareIDs(id, last) <= 0 {
			return ix.rebuild(s)
		}
	}
	if ix.drift += len(added) + len(recounted); ix.drift > ix.live/4+64 {
		return ix.rebuild(s)
	}
	for _, id := range removed {
		d := ix.docs[id]
		ix.unpost(d)
		ix.grams.uncountPacked(d.grams)
		ix.words.uncount(d.words)
		delete(ix.docs, id)
		ix.gone[id] = int32(d.pos)
		ix.live--
	}
	for _, id := range recounted {
		d := ix.docs[id]
		ix.unpost(d)
		ix.grams.uncountPacked(d.grams)
		ix.words.uncount(d.words)
		ix.index(id, s.Statements.Get(id).Claim(), d.pos)
	}
	for _, id := range added {
		pos, back := ix.gone[id]
		if back {
			delete(ix.gone, id)
		} else {
			pos = int32(len(ix.ids))
			ix.ids = append(ix.ids, id)
		}
		ix.live++
		ix.index(id, s.Statements.Get(id).Claim(), int(pos))
	}
	ix.snap = s
	changed = slices.Concat(changed, added, removed, recounted)
	slices.SortFunc(changed, model.CompareIDs)
	return changed, len(added)+len(removed)+len(recounted) > 0, false
}

// index parses, weighs and posts one claim at a position.
func (ix *Index) index(id, claim string, pos int) {
	d, gtf, wtf := ix.parse(id, claim, pos)
	d.grams, d.words = ix.grams.weighPacked(gtf, ix.live), ix.words.weigh(wtf, ix.live)
	ix.docs[id] = d
	ix.post(d, pos)
}

func (ix *Index) rebuild(s *model.Snapshot) (changed []string, claims, rebuilt bool) {
	fresh := NewIndex(s)
	ix.snap, ix.docs, ix.ids, ix.gone = fresh.snap, fresh.docs, fresh.ids, fresh.gone
	ix.grams, ix.words, ix.live, ix.drift, ix.buckets = fresh.grams, fresh.words, fresh.live, 0, fresh.buckets
	ix.prose = fresh.prose
	return slices.Clone(ix.ids), true, true
}

// Serves reports whether the index answers for s as well as for the snapshot it was built
// from: the same statements with the same claims, statuses and types, which is all that
// similarity and re-treads read. Reload shares unchanged statements, so this is mostly
// pointer comparisons.
func (ix *Index) Serves(s *model.Snapshot) bool {
	if s.Statements.Len() != ix.live {
		return false
	}
	for id, st := range s.Statements.All() {
		old := ix.snap.Statements.Get(id)
		if old == st {
			continue
		}
		if old == nil || old.Status != st.Status || old.Type != st.Type || old.Claim() != st.Claim() {
			return false
		}
	}
	return true
}

// Score is how related the claims of two statements are, from 0 (nothing shared) to 1
// (the same normalised text): the mean of the two cosines; 0 when either is unknown or
// has no claim. Similar ranks by it; re-treads use RepeatScore.
func (ix *Index) Score(a, b string) float64 {
	da, db := ix.docs[a], ix.docs[b]
	if da == nil || db == nil || da.empty || db.empty {
		return 0
	}
	return round3(min((da.grams.dot(db.grams)+da.words.dot(db.words))/2, 1))
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// RepeatScore is how nearly two claims say the same thing: Score, marked down when
// their numbers or names differ (RetreadKeyPenalty) or one is much shorter
// (RetreadLengthRatio), and no more than the share of their normalised tokens that a
// longest common subsequence keeps in order — related claims share words in another
// order ("the map defined by A satisfies B" against "… by B satisfies A"), a
// restatement keeps the order of most.
func (ix *Index) RepeatScore(a, b string) float64 {
	s := ix.Score(a, b)
	if s == 0 {
		return 0
	}
	da, db := ix.docs[a], ix.docs[b]
	if da.numbers != db.numbers || !sameNames(da, db) {
		s *= RetreadKeyPenalty
	}
	if ratio := float64(min(len(da.tokens), len(db.tokens))) / float64(max(len(da.tokens), len(db.tokens))); ratio < RetreadLengthRatio {
		s *= ratio / RetreadLengthRatio
	}
	if s >= RetreadThreshold { // below it, the order cannot matter: skip the quadratic part
		s = min(s, inOrder(da.tokens, db.tokens))
	}
	return round3(s)
}

// inOrder is 2·LCS/(len a + len b) over tokens.
func inOrder[T comparable](a, b []T) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(cur[j-1], prev[j])
			}
		}
		prev, cur = cur, prev
	}
	return 2 * float64(prev[len(b)]) / float64(len(a)+len(b))
}

// Similar is the k statements whose claims are most like id's, best first (ties by
// ID), leaving out those that share nothing with it.
func (ix *Index) Similar(id string, k int) []Match {
	var out []Match
	for _, other := range ix.ids {
		if other == id || ix.docs[other] == nil {
			continue
		}
		if s := ix.Score(id, other); s > 0 {
			out = append(out, Match{ID: other, Score: s})
		}
	}
	slices.SortFunc(out, func(a, b Match) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return model.CompareIDs(a.ID, b.ID)
	})
	if k >= 0 && len(out) > k {
		// A copy: the k kept must not hold every statement's score alive (a workbench
		// keeps the matches of each statement it shows; a server has many workbenches).
		out = slices.Clone(out[:k])
	}
	return out
}

// Retreads lists every claim that repeats (scores RetreadThreshold or more against) an
// older statement that is true, false or abandoned, in ID order; a claim that repeats
// several is listed once per older one, the closest first.
func (ix *Index) Retreads() []Retread {
	var out []Retread
	for _, id := range ix.ids {
		out = append(out, ix.RetreadsOf(id)...)
	}
	return out
}

// RetreadsByID is Retreads by the statement that repeats.
func (ix *Index) RetreadsByID() map[string][]Retread {
	out := map[string][]Retread{}
	for _, r := range ix.Retreads() {
		out[r.ID] = append(out[r.ID], r)
	}
	return out
}

// decided says whether a statement is true, false or abandoned.
func decided(st *model.Statement) bool {
	ph, _, _ := model.StatusInfo(st.Status)
	return ph.Decided()
}

// RetreadsOf lists the older decided statements id repeats (RepeatScore at least
// RetreadThreshold), the closest first.
func (ix *Index) RetreadsOf(id string) []Retread {
	d := ix.docs[id]
	if d == nil || d.empty {
		return nil
	}
	st := ix.snap.Statements.Get(id)
	var found []Retread
	for _, pos := range ix.candidates(d, true) {
		older := ix.ids[pos]
		ost := ix.snap.Statements.Get(older)
		if !decided(ost) || ost.Type == "assumption" && st.Type == "assumption" {
			continue // two problems set up on the same premise: given, not proposed again
		}
		if s, ok := ix.repeats(d, ix.docs[older]); ok {
			found = append(found, Retread{ID: id, Of: older, OfStatus: ost.Status, Score: s})
		}
	}
	sortRetreads(found)
	return found
}

// repeats is RepeatScore of two claims when it reaches RetreadThreshold.
func (ix *Index) repeats(a, b *claimDoc) (float64, bool) {
	// RepeatScore ≤ Score, the mean of two cosines of at most 1: a word cosine under
	// 2·threshold − 1 cannot reach the threshold, and is the cheaper one.
	if a.words.dot(b.words) < 2*RetreadThreshold-1 {
		return 0, false
	}
	s := ix.RepeatScore(a.id, b.id)
	return s, s >= RetreadThreshold
}

// RepeatedBy lists the newer statements that repeat id, when id is decided (the
// re-treads RetreadsOf would list of them with id as the older one), in ID order.
func (ix *Index) RepeatedBy(id string) []Retread {
	d := ix.docs[id]
	if d == nil || d.empty || !decided(ix.snap.Statements.Get(id)) {
		return nil
	}
	st := ix.snap.Statements.Get(id)
	var found []Retread
	for _, pos := range ix.candidates(d, false) {
		newer := ix.ids[pos]
		if st.Type == "assumption" && ix.snap.Statements.Get(newer).Type == "assumption" {
			continue
		}
		if s, ok := ix.repeats(ix.docs[newer], d); ok {
			found = append(found, Retread{ID: newer, Of: id, OfStatus: st.Status, Score: s})
		}
	}
	return found
}

// UpdateRetreads is the re-treads by statement after Update reported changed, from
// prev, those before it (not modified): only the changed statements' own re-treads and
// those that repeat a changed statement are looked for again.
func (ix *Index) UpdateRetreads(prev map[string][]Retread, changed []string) map[string][]Retread {
	if len(changed) == 0 {
		return prev
	}
	isChanged := make(map[string]bool, len(changed))
	for _, id := range changed {
		isChanged[id] = true
	}
	out := make(map[string][]Retread, len(prev))
	for id, rs := range prev {
		if isChanged[id] {
			continue
		}
		keep := slices.DeleteFunc(slices.Clone(rs), func(r Retread) bool { return isChanged[r.Of] })
		if len(keep) > 0 {
			out[id] = keep
		}
	}
	touched := map[string]bool{}
	for _, id := range changed {
		if rs := ix.RetreadsOf(id); len(rs) > 0 {
			out[id] = rs
		}
		for _, r := range ix.RepeatedBy(id) {
			if !isChanged[r.ID] {
				out[r.ID] = append(out[r.ID], r)
				touched[r.ID] = true
			}
		}
	}
	for id := range touched {
		rs := out[id]
		slices.SortFunc(rs, func(a, b Retread) int { return model.CompareIDs(a.Of, b.Of) })
		sortRetreads(rs)
	}
	return out
}

// sortRetreads puts the closest repeats first, keeping ID order among equals.
func sortRetreads(found []Retread) {
	slices.SortStableFunc(found, func(a, b Retread) int { return cmp.Compare(b.Score, a.Score) })
}

// candidates lists, in ID order, the claims older (or newer) than d, with d's numbers,
// whose word cosine with d can reach 2·threshold − 1. Comparing with every claim is
// quadratic (minutes at 100k); instead d's most common words are set aside while the
// most they could add to a cosine (d's weight × the word's largest weight anywhere)
// stays under the cut, and only claims sharing one of the remaining words are
// candidates: any other claim's cosine is below the cut, so the result is exactly that
// of the full comparison.
func (ix *Index) candidates(d *claimDoc, older bool) []int32 {
	b := ix.buckets[d.numbers]
	if b == nil {
		return nil
	}
	if b.postings == nil { // a small bucket: every claim in it older (newer) than d
		i, found := slices.BinarySearch(b.members, int32(d.pos))
		if older {
			return slices.Clone(b.members[:i])
		}
		if found {
			i++
		}
		return slices.Clone(b.members[i:])
	}
	byCommon := slices.Clone(d.words)
	slices.SortFunc(byCommon, func(x, y entry) int {
		return cmp.Compare(len(b.postings[y.term]), len(b.postings[x.term]))
	})
	cut := 2*RetreadThreshold - 1
	var setAside float64
	start := 0
	for ; start < len(byCommon); start++ {
		e := byCommon[start]
		if w := float64(e.w) * b.maxWeight[e.term]; setAside+w < cut {
			setAside += w
			continue
		}
		break
	}
	var out []int32
	for _, e := range byCommon[start:] {
		list := b.postings[e.term]
		i, found := slices.BinarySearch(list, int32(d.pos))
		if older {
			out = append(out, list[:i]...)
		} else {
			if found {
				i++
			}
			out = append(out, list[i:]...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Similar is NewIndex(s).Similar(id, k); the UI keeps the index instead.
func Similar(s *model.Snapshot, id string, k int) []Match {
	return NewIndex(s).Similar(id, k)
}

// Retreads is NewIndex(s).Retreads().
func Retreads(s *model.Snapshot) []Retread { return NewIndex(s).Retreads() }
