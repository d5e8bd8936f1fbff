package agents

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
)

// Price is one model's list price in US dollars per million tokens.
type Price struct {
	Input           float64 `json:"input"`
	Output          float64 `json:"output"`
	CacheCreation   float64 `json:"cache_creation"`    // 5-minute cache writes
	CacheCreation1h float64 `json:"cache_creation_1h"` // 1-hour cache writes
	CacheRead       float64 `json:"cache_read"`
	// IDs are the model IDs Claude Code writes for this model besides the table's
	// key: its dated snapshot names. A model is priced only by an exact ID.
	IDs []string `json:"ids,omitempty"`
	// LongContext is the price of a request whose prompt (input, cache writes and
	// cache reads) exceeds Above tokens, where the model has such a tier.
	LongContext *LongContext `json:"long_context,omitempty"`
}

// LongContext is a model's price above a prompt size: the whole request is priced so.
type LongContext struct {
	Above           int64   `json:"above"`
	Input           float64 `json:"input"`
	Output          float64 `json:"output"`
	CacheCreation   float64 `json:"cache_creation"`
	CacheCreation1h float64 `json:"cache_creation_1h"`
	CacheRead       float64 `json:"cache_read"`
}

// Prices is a dated price table, keyed by model ID.
type Prices struct {
	Date   string           `json:"date"`
	Source string           `json:"source"`
	Models map[string]Price `json:"models"`

	once sync.Once
	byID map[string]string // every ID and key → the key
}

// std is a price with Anthropic's prompt-caching multipliers: 5-minute writes 1.25×
// input, 1-hour writes 2×, reads 0.1×.
func std(in, out float64, ids ...string) Price {
	return Price{Input: in, Output: out, CacheCreation: in * 1.25, CacheCreation1h: in * 2, CacheRead: in / 10, IDs: ids}
}

// sonnetLong is the long-context tier of Sonnet 4 and 4.5: above 200k prompt tokens,
// $6 / $22.50 with the same cache multipliers.
var sonnetLong = &LongContext{Above: 200_000, Input: 6, Output: 22.50, CacheCreation: 7.50, CacheCreation1h: 12, CacheRead: 0.60}

// DefaultPrices are Anthropic's list prices as published on the date given; a file
// passed to LoadPrices overrides them model by model.
func DefaultPrices() *Prices {
	sonnet45, sonnet4 := std(3, 15, "claude-sonnet-4-5-20250929"), std(3, 15, "claude-sonnet-4-20250514", "claude-sonnet-4-0")
	sonnet45.LongContext, sonnet4.LongContext = sonnetLong, sonnetLong
	return &Prices{
		Date:   "2026-11-26",
		Source: "https://platform.claude.com/docs/en/about-claude/pricing (standard API, per million tokens)",
		Models: map[string]Price{
			"claude-opus-5-5": {Input: 4, Output: 20, CacheCreation: 5, CacheCreation1h: 8, CacheRead: 0.20},
			"claude-opus-5":   std(5, 25),
			"claude-opus-4-8": std(5, 25),
			"claude-opus-4-7": std(5, 25),
			"claude-opus-4-6": std(5, 25),
			"claude-opus-4-5": std(5, 25, "claude-opus-4-5-20251101"),
			"claude-opus-4-1": std(15, 75, "claude-opus-4-1-20250805"),
			"claude-opus-4":   std(15, 75, "claude-opus-4-20250514", "claude-opus-4-0"),
			"claude-sonnet-5": {Input: 2, Output: 10, CacheCreation: 2.50, CacheCreation1h: 4, CacheRead: 0.20},
			// Sonnet 4.6 has its 1M context at the standard price.
			"claude-sonnet-4-6": std(3, 15),
			"claude-sonnet-4-5": sonnet45,
			"claude-sonnet-4":   sonnet4,
			"claude-3-7-sonnet": std(3, 15, "claude-3-7-sonnet-20250219", "claude-3-7-sonnet-latest"),
			"claude-3-5-sonnet": std(3, 15, "claude-3-5-sonnet-20241022", "claude-3-5-sonnet-20240620", "claude-3-5-sonnet-latest"),
			"claude-haiku-4-5":  std(1, 5, "claude-haiku-4-5-20251001"),
			"claude-3-5-haiku":  std(0.80, 4, "claude-3-5-haiku-20241022", "claude-3-5-haiku-latest"),
			"claude-3-opus":     std(15, 75, "claude-3-opus-20240229", "claude-3-opus-latest"),
			"claude-3-haiku":    {Input: 0.25, Output: 1.25, CacheCreation: 0.30, CacheCreation1h: 0.50, CacheRead: 0.03, IDs: []string{"claude-3-haiku-20240307"}},
		},
	}
}

// priceFile is a price file's entry: a cache price left out follows the multipliers.
type priceFile struct {
	Input           float64      `json:"input"`
	Output          float64      `json:"output"`
	CacheCreation   *float64     `json:"cache_creation"`
	CacheCreation1h *float64     `json:"cache_creation_1h"`
	CacheRead       *float64     `json:"cache_read"`
	IDs             []string     `json:"ids"`
	LongContext     *LongContext `json:"long_context"`
}

// LoadPrices reads a price file ({"date": …, "models": {"claude-…": {"input": …,
// "output": …, "cache_creation": …, "cache_creation_1h": …, "cache_read": …}}}) over
// the default table. A model named by its key or one of its IDs replaces that model's
// price; another name adds a model.
func LoadPrices(path string) (*Prices, error) {
	p := DefaultPrices()
	if path == "" {
		return p, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("price table %s: %w", path, err)
	}
	var over struct {
		Date   string               `json:"date"`
		Source string               `json:"source"`
		Models map[string]priceFile `json:"models"`
	}
	if err := json.Unmarshal(data, &over); err != nil {
		return nil, fmt.Errorf("price table %s: expected {\"date\": \"…\", \"models\": {\"<model>\": {\"input\": n, \"output\": n, \"cache_creation\": n, \"cache_creation_1h\": n, \"cache_read\": n}}}: %v", path, err)
	}
	for name, f := range over.Models {
		if f.Input < 0 || f.Output < 0 {
			return nil, fmt.Errorf("price table %s: model %s: a negative price", path, name)
		}
		pr := std(f.Input, f.Output, f.IDs...)
		for _, c := range []struct {
			from *float64
			to   *float64
		}{{f.CacheCreation, &pr.CacheCreation}, {f.CacheCreation1h, &pr.CacheCreation1h}, {f.CacheRead, &pr.CacheRead}} {
			if c.from != nil {
				*c.to = *c.from
			}
		}
		pr.LongContext = f.LongContext
		key := name
		for k, old := range p.Models {
			if k == name || slices.Contains(old.IDs, name) {
				key = k
				if pr.IDs == nil {
					pr.IDs = old.IDs
				}
			}
		}
		p.Models[key] = pr
	}
	if over.Date != "" {
		p.Date = over.Date
	}
	p.Source = path
	if over.Source != "" {
		p.Source = over.Source
	}
	return p, nil
}

// Of finds a model's price by its exact ID; ok is false for a model the table does
// not know (never priced as another whose name it starts with).
func (p *Prices) Of(model string) (Price, bool) {
	if p == nil {
		return Price{}, false
	}
	p.once.Do(func() {
		p.byID = map[string]string{}
		for k, pr := range p.Models {
			p.byID[k] = k
			for _, id := range pr.IDs {
				p.byID[id] = k
			}
		}
	})
	k, ok := p.byID[model]
	if !ok {
		return Price{}, false
	}
	return p.Models[k], true
}

// Cost is what one response's usage cost, in dollars; ok is false for a model the
// table does not know. 1-hour cache writes are priced apart when the usage splits
// them out; the long-context tier applies to the whole request above its size.
func (p *Prices) Cost(model string, u *Usage) (cost float64, ok bool) {
	pr, ok := p.Of(model)
	if !ok || u == nil {
		return 0, ok
	}
	in, out, w5, w1, rd := pr.Input, pr.Output, pr.CacheCreation, pr.CacheCreation1h, pr.CacheRead
	if lc := pr.LongContext; lc != nil && u.Input+u.CacheCreation+u.CacheRead > lc.Above {
		in, out, w5, w1, rd = lc.Input, lc.Output, lc.CacheCreation, lc.CacheCreation1h, lc.CacheRead
	}
	h1 := min(max(u.CacheCreationDetail.Ephemeral1h, 0), u.CacheCreation)
	return (float64(u.Input)*in + float64(u.Output)*out + float64(u.CacheCreation-h1)*w5 +
		float64(h1)*w1 + float64(u.CacheRead)*rd) / 1e6, true
}
