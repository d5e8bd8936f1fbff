package sessions

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Price is one model's list price in US dollars per million tokens.
type Price struct {
	Input         float64 `json:"input"`
	Output        float64 `json:"output"`
	CacheCreation float64 `json:"cache_creation"` // 5-minute cache writes
	CacheRead     float64 `json:"cache_read"`
}

// Prices is a dated price table: a model's price is that of the longest key its name
// starts with.
type Prices struct {
	Date   string           `json:"date"`
	Source string           `json:"source"`
	Models map[string]Price `json:"models"`
}

// DefaultPrices are Anthropic's list prices as published on the date given; a file
// passed to LoadPrices overrides them model by model.
func DefaultPrices() *Prices {
	return &Prices{
		Date:   "2025-11-24",
		Source: "https://www.anthropic.com/pricing (API, standard, per million tokens)",
		Models: map[string]Price{
			"claude-opus-4-5":   {Input: 5, Output: 25, CacheCreation: 6.25, CacheRead: 0.50},
			"claude-opus-4-1":   {Input: 15, Output: 75, CacheCreation: 18.75, CacheRead: 1.50},
			"claude-opus-4":     {Input: 15, Output: 75, CacheCreation: 18.75, CacheRead: 1.50},
			"claude-sonnet-4":   {Input: 3, Output: 15, CacheCreation: 3.75, CacheRead: 0.30},
			"claude-3-7-sonnet": {Input: 3, Output: 15, CacheCreation: 3.75, CacheRead: 0.30},
			"claude-haiku-4-5":  {Input: 1, Output: 5, CacheCreation: 1.25, CacheRead: 0.10},
			"claude-3-5-haiku":  {Input: 0.80, Output: 4, CacheCreation: 1, CacheRead: 0.08},
		},
	}
}

// LoadPrices reads a price file ({"date": …, "models": {"claude-…": {"input": …,
// "output": …, "cache_creation": …, "cache_read": …}}}) over the default table.
func LoadPrices(path string) (*Prices, error) {
	p := DefaultPrices()
	if path == "" {
		return p, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("price table %s: %w", path, err)
	}
	var over Prices
	if err := json.Unmarshal(data, &over); err != nil {
		return nil, fmt.Errorf("price table %s: expected {\"date\": \"…\", \"models\": {\"<model>\": {\"input\": n, \"output\": n, \"cache_creation\": n, \"cache_read\": n}}}: %v", path, err)
	}
	for k, v := range over.Models {
		p.Models[k] = v
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

// Of finds a model's price; ok is false for a model the table does not know.
func (p *Prices) Of(model string) (Price, bool) {
	if p == nil {
		return Price{}, false
	}
	keys := make([]string, 0, len(p.Models))
	for k := range p.Models {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) })
	for _, k := range keys {
		if strings.HasPrefix(model, k) {
			return p.Models[k], true
		}
	}
	return Price{}, false
}

// Cost is what one response's usage cost, in dollars (0 for an unknown model).
func (p *Prices) Cost(model string, u *Usage) float64 {
	pr, ok := p.Of(model)
	if !ok || u == nil {
		return 0
	}
	return (float64(u.Input)*pr.Input + float64(u.Output)*pr.Output +
		float64(u.CacheCreation)*pr.CacheCreation + float64(u.CacheRead)*pr.CacheRead) / 1e6
}
