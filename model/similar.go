package model

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
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
	mathSpan   = lazyRegexp(`(?s)\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]`)
	mathToken  = lazyRegexp(`\\[a-z]+|[a-z]|[0-9]+|[^\s{}]`)
	proseToken = lazyRegexp(`\\[a-z]+|[\pL]+|[0-9]+`)
	numberRun  = lazyRegexp(`[0-9]+`)
	// Layout-only commands: they change how a formula looks, not what it says.
	mathNoise = lazyRegexp(`\\(?:left|right|bigl|bigr|biggl|biggr|big|bigg|Big|Bigg|displaystyle|textstyle|quad|qquad|mathrm|mathit|mathbf|operatorname|text)\b|\\[,;:! ]`)
)

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
// word, both in lower case.
func claimNames(s string) (names, words map[string]bool) {
	names, words = map[string]bool{}, map[string]bool{}
	for _, w := range proseToken().FindAllString(mathSpan().ReplaceAllString(s, " "), -1) {
		lower := strings.ToLower(w)
		words[lower] = true
		r := []rune(w)
		if len(r) > 1 && unicode.IsUpper(r[0]) && !stopWords[lower] && !sentenceOpeners[lower] {
			names[lower] = true
		}
	}
	return names, words
}

// sameNames says whether every name of either claim is a word of the other (in any case).
func sameNames(a, b *claimDoc) bool {
	for n := range a.names {
		if !b.words0[n] {
			return false
		}
	}
	for n := range b.names {
		if !a.words0[n] {
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
	grams   vector   // TF-IDF over character trigrams, unit length
	words   vector   // TF-IDF over tokens, unit length
	numbers string   // the claim's numbers, in order
	tokens  []string // the normalised claim
	names   map[string]bool
	words0  map[string]bool // every prose word, lower case, to look names up in
	empty   bool
	pos     int // position in ID order: IDs are issued in order, so later is newer
}

// vector is a sparse vector sorted by term number: a cosine is a merge of two.
type vector []entry

type entry struct {
	term int32
	w    float64
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
			sum += a[i].w * b[j].w
			i++
			j++
		}
	}
	return sum
}

// SimilarityIndex compares the claims of one snapshot. Build it once per snapshot
// (NewSimilarityIndex) and ask it many times; it is read-only and safe to share.
type SimilarityIndex struct {
	snap *Snapshot
	docs map[string]*claimDoc
	ids  []string

	postingsOnce sync.Once
	postings     map[int32][]int32 // word term → positions of decided claims that have it, ascending
	maxWeight    map[int32]float64 // word term → its largest weight in those claims
}

// terms numbers the terms of one kind and counts the claims that have each.
type terms struct {
	num map[string]int32
	df  []int
}

func (t *terms) count(tf map[string]float64) map[int32]float64 {
	out := make(map[int32]float64, len(tf))
	for k, f := range tf {
		n, ok := t.num[k]
		if !ok {
			n = int32(len(t.df))
			t.num[k] = n
			t.df = append(t.df, 0)
		}
		t.df[n]++
		out[n] = f
	}
	return out
}

// weigh turns term counts into a unit TF-IDF vector; the IDF is smoothed, so a term
// every claim has still counts a little.
func (t *terms) weigh(tf map[int32]float64, docs int) vector {
	v := make(vector, 0, len(tf))
	var norm float64
	for k, f := range tf {
		w := (1 + math.Log(f)) * (math.Log((1+float64(docs))/(1+float64(t.df[k]))) + 1)
		v = append(v, entry{k, w})
		norm += w * w
	}
	norm = math.Sqrt(norm)
	for i := range v {
		v[i].w /= norm
	}
	slices.SortFunc(v, func(a, b entry) int { return cmp.Compare(a.term, b.term) })
	return v
}

// NewSimilarityIndex indexes every statement's claim (its conclusion).
func NewSimilarityIndex(s *Snapshot) *SimilarityIndex {
	ix := &SimilarityIndex{snap: s, docs: map[string]*claimDoc{}, ids: sortedKeys(s.Statements)}
	grams, words := &terms{num: map[string]int32{}}, &terms{num: map[string]int32{}}
	gramTF := make([]map[int32]float64, len(ix.ids))
	wordTF := make([]map[int32]float64, len(ix.ids))
	for i, id := range ix.ids {
		claim := s.Statements[id].Claim()
		toks := claimTokens(claim)
		wtf, gtf := map[string]float64{}, map[string]float64{}
		for _, t := range toks {
			wtf[t]++
		}
		text := []rune(" " + strings.Join(toks, " ") + " ")
		for j := 0; j+3 <= len(text); j++ {
			gtf[string(text[j:j+3])]++
		}
		gramTF[i], wordTF[i] = grams.count(gtf), words.count(wtf)
		d := &claimDoc{id: id, tokens: toks, empty: len(toks) == 0, pos: i,
			numbers: strings.Join(numberRun().FindAllString(strings.Join(toks, " "), -1), " ")}
		d.names, d.words0 = claimNames(claim)
		ix.docs[id] = d
	}
	for i, id := range ix.ids {
		d := ix.docs[id]
		d.grams, d.words = grams.weigh(gramTF[i], len(ix.ids)), words.weigh(wordTF[i], len(ix.ids))
	}
	return ix
}

// Serves reports whether the index answers for s as well as for the snapshot it was built
// from: the same statements with the same claims, statuses and types, which is all that
// similarity and re-treads read. Most changes (a proof, an issue, a response) keep them,
// so a live view need not rebuild the index on every write; Reload shares unchanged
// statements, so this is mostly pointer comparisons.
func (ix *SimilarityIndex) Serves(s *Snapshot) bool {
	if len(s.Statements) != len(ix.snap.Statements) {
		return false
	}
	for id, st := range s.Statements {
		old := ix.snap.Statements[id]
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
func (ix *SimilarityIndex) Score(a, b string) float64 {
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
func (ix *SimilarityIndex) RepeatScore(a, b string) float64 {
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
func inOrder(a, b []string) float64 {
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
func (ix *SimilarityIndex) Similar(id string, k int) []Match {
	var out []Match
	for _, other := range ix.ids {
		if other == id {
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
		return CompareIDs(a.ID, b.ID)
	})
	if k >= 0 && len(out) > k {
		out = out[:k]
	}
	return out
}

// Retreads lists every claim that repeats (scores RetreadThreshold or more against) an
// older statement that is true, false or abandoned, in ID order; a claim that repeats
// several is listed once per older one, the closest first.
func (ix *SimilarityIndex) Retreads() []Retread {
	var out []Retread
	for _, id := range ix.ids {
		out = append(out, ix.RetreadsOf(id)...)
	}
	return out
}

// RetreadsOf lists the older decided statements id repeats (RepeatScore at least
// RetreadThreshold), the closest first.
func (ix *SimilarityIndex) RetreadsOf(id string) []Retread {
	d := ix.docs[id]
	if d == nil || d.empty {
		return nil
	}
	var found []Retread
	for _, pos := range ix.candidates(d) {
		older := ix.ids[pos]
		ost := ix.snap.Statements[older]
		if ost.Type == "assumption" && ix.snap.Statements[id].Type == "assumption" {
			continue // two problems set up on the same premise: given, not proposed again
		}
		// RepeatScore ≤ Score, the mean of two cosines of at most 1: a word cosine under
		// 2·threshold − 1 cannot reach the threshold, and is the cheaper one.
		if d.words.dot(ix.docs[older].words) < 2*RetreadThreshold-1 {
			continue
		}
		if s := ix.RepeatScore(id, older); s >= RetreadThreshold {
			found = append(found, Retread{ID: id, Of: older, OfStatus: ost.Status, Score: s})
		}
	}
	sortRetreads(found)
	return found
}

// sortRetreads puts the closest repeats first, keeping ID order among equals.
func sortRetreads(found []Retread) {
	slices.SortStableFunc(found, func(a, b Retread) int { return cmp.Compare(b.Score, a.Score) })
}

// candidates lists, in ID order, the older decided claims whose word cosine with d can
// reach 2·threshold − 1. Comparing with every older claim is quadratic (minutes at 100k);
// instead d's most common words are set aside while the most they could add to a cosine
// (d's weight × the word's largest weight anywhere) stays under the cut, and only claims
// sharing one of the remaining words are candidates: any other claim's cosine is below
// the cut, so the result is exactly that of the full comparison.
func (ix *SimilarityIndex) candidates(d *claimDoc) []int32 {
	ix.postingsOnce.Do(ix.buildPostings)
	byCommon := slices.Clone(d.words)
	slices.SortFunc(byCommon, func(a, b entry) int {
		return cmp.Compare(len(ix.postings[b.term]), len(ix.postings[a.term]))
	})
	cut := 2*RetreadThreshold - 1
	var setAside float64
	start := 0
	for ; start < len(byCommon); start++ {
		e := byCommon[start]
		if b := e.w * ix.maxWeight[e.term]; setAside+b < cut {
			setAside += b
			continue
		}
		break
	}
	var out []int32
	for _, e := range byCommon[start:] {
		for _, pos := range ix.postings[e.term] {
			if int(pos) >= d.pos {
				break
			}
			out = append(out, pos)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (ix *SimilarityIndex) buildPostings() {
	ix.postings, ix.maxWeight = map[int32][]int32{}, map[int32]float64{}
	for pos, id := range ix.ids {
		d := ix.docs[id]
		if ph, _, _ := StatusInfo(ix.snap.Statements[id].Status); d.empty || !ph.Decided() {
			continue
		}
		for _, e := range d.words {
			ix.postings[e.term] = append(ix.postings[e.term], int32(pos))
			ix.maxWeight[e.term] = max(ix.maxWeight[e.term], e.w)
		}
	}
}

// Similar is NewSimilarityIndex(s).Similar(id, k); the UI keeps the index instead.
func Similar(s *Snapshot, id string, k int) []Match { return NewSimilarityIndex(s).Similar(id, k) }

// Retreads is NewSimilarityIndex(s).Retreads().
func Retreads(s *Snapshot) []Retread { return NewSimilarityIndex(s).Retreads() }
