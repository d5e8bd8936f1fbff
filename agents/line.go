package agents

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"time"
)

// Line is one transcript line, reduced to what referee uses. Claude Code writes one
// JSON object per line; the fields follow the sources named in testdata/README.md.
type Line struct {
	Type             string          `json:"type"` // user, assistant, system, summary, …
	Subtype          string          `json:"subtype"`
	UUID             string          `json:"uuid"`
	ParentUUID       string          `json:"parentUuid"`
	SessionID        string          `json:"sessionId"`
	CWD              string          `json:"cwd"`
	Timestamp        string          `json:"timestamp"`
	IsSidechain      bool            `json:"isSidechain"`
	AgentID          string          `json:"agentId"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	Summary          string          `json:"summary"`  // type summary
	LeafUUID         string          `json:"leafUuid"` // type summary
	Content          string          `json:"content"`  // system lines
	Message          *Message        `json:"message"`
	Compact          *CompactMeta    `json:"compactMetadata"`
	ToolUseResult    json.RawMessage `json:"toolUseResult"` // not decoded: can be large
	RequestID        string          `json:"requestId"`
	// CostUSD is the cost Claude Code itself wrote on a line (older versions).
	CostUSD *float64 `json:"costUSD"`

	at time.Time
}

// CompactMeta comes with a compact_boundary system line.
type CompactMeta struct {
	Trigger   string `json:"trigger"`
	PreTokens int64  `json:"preTokens"`
}

// Message is the API message of a user or assistant line.
type Message struct {
	ID    string `json:"id"`
	Role  string `json:"role"`
	Model string `json:"model"`
	// RawContent is decoded on demand (Content): a tool result holding a file need
	// not be unquoted when no skill call waits for it.
	RawContent json.RawMessage `json:"content"`
	StopReason string          `json:"stop_reason"`
	Usage      *Usage          `json:"usage"`
}

// Usage is an assistant message's token counts.
type Usage struct {
	Input         int64 `json:"input_tokens"`
	Output        int64 `json:"output_tokens"`
	CacheCreation int64 `json:"cache_creation_input_tokens"`
	CacheRead     int64 `json:"cache_read_input_tokens"`
	// CacheCreationDetail splits the cache writes by lifetime, when the API says.
	CacheCreationDetail CacheCreation `json:"cache_creation"`
	// Floats says a count was written as a number with a fraction or exponent: it
	// is rounded, and the agent notes it.
	Floats bool `json:"-"`
}

// CacheCreation is usage.cache_creation: cache writes by lifetime.
type CacheCreation struct {
	Ephemeral5m int64 `json:"ephemeral_5m_input_tokens"`
	Ephemeral1h int64 `json:"ephemeral_1h_input_tokens"`
}

// Total is every token of the usage: the size that decides which line of a response
// holds its final usage.
func (u *Usage) Total() int64 { return u.Input + u.Output + u.CacheCreation + u.CacheRead }

// UnmarshalJSON takes counts written as integers or as other JSON numbers (12.0,
// 1e3), rounding the latter, so one odd count does not lose the line.
func (u *Usage) UnmarshalJSON(b []byte) error {
	var raw struct {
		Input         json.Number `json:"input_tokens"`
		Output        json.Number `json:"output_tokens"`
		CacheCreation json.Number `json:"cache_creation_input_tokens"`
		CacheRead     json.Number `json:"cache_read_input_tokens"`
		Detail        *struct {
			Ephemeral5m json.Number `json:"ephemeral_5m_input_tokens"`
			Ephemeral1h json.Number `json:"ephemeral_1h_input_tokens"`
		} `json:"cache_creation"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*u = Usage{}
	count := func(n json.Number, to *int64) {
		if n == "" {
			return
		}
		if i, err := n.Int64(); err == nil {
			*to = i
			return
		}
		if f, err := n.Float64(); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) < 1<<62 {
			*to = int64(math.Round(f))
		}
		u.Floats = true
	}
	count(raw.Input, &u.Input)
	count(raw.Output, &u.Output)
	count(raw.CacheCreation, &u.CacheCreation)
	count(raw.CacheRead, &u.CacheRead)
	if raw.Detail != nil {
		count(raw.Detail.Ephemeral5m, &u.CacheCreationDetail.Ephemeral5m)
		count(raw.Detail.Ephemeral1h, &u.CacheCreationDetail.Ephemeral1h)
	}
	return nil
}

// Content is a message's content: a plain string (a user's prompt) or blocks; a
// string comes back as one text block.
func (m *Message) Content() []Block {
	b := m.RawContent
	if len(b) > 0 && b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return nil
		}
		return []Block{{Type: "text", Text: s}}
	}
	var blocks []Block
	if json.Unmarshal(b, &blocks) != nil {
		return nil
	}
	return blocks
}

var toolUseIDRe = regexp.MustCompile(`"tool_use_id"\s*:\s*"([^"\\]*)"`)

// ResultIDs lists the tool_use_id of every tool result in the content without
// decoding it; ok is false when the content is a plain string (a prompt).
func (m *Message) ResultIDs() (ids []string, ok bool) {
	b := m.RawContent
	if len(b) == 0 || b[0] != '[' {
		return nil, false
	}
	for _, mm := range toolUseIDRe.FindAllSubmatch(b, -1) {
		ids = append(ids, string(mm[1]))
	}
	return ids, true
}

// Block is one content block: text, thinking, tool_use or tool_result.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`    // tool_use
	Name      string          `json:"name"`  // tool_use
	Input     json.RawMessage `json:"input"` // tool_use
	ToolUseID string          `json:"tool_use_id"`
	Result    ResultContent   `json:"content"` // tool_result
	IsError   bool            `json:"is_error"`
}

// ResultContent is a tool result's content: a string or text blocks, joined.
type ResultContent string

// UnmarshalJSON takes a string or a list of blocks (text kept, images left out).
func (r *ResultContent) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := json.Unmarshal(b, &s)
		*r = ResultContent(s)
		return err
	}
	if len(b) > 0 && b[0] == '[' {
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &blocks); err != nil {
			return err
		}
		var parts []string
		for _, bl := range blocks {
			if bl.Type == "text" {
				parts = append(parts, bl.Text)
			}
		}
		*r = ResultContent(strings.Join(parts, "\n"))
	}
	return nil
}

// ParseLine reads one transcript line.
func ParseLine(b []byte) (*Line, error) {
	var l Line
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, err
	}
	if l.Timestamp != "" {
		l.at, _ = time.Parse(time.RFC3339Nano, l.Timestamp)
	}
	return &l, nil
}

// At is the line's timestamp (zero when it has none).
func (l *Line) At() time.Time { return l.at }

// compactPrefix starts the user message Claude Code writes after compacting, in
// versions before isCompactSummary.
const compactPrefix = "This session is being continued from a previous conversation"

// IsCompaction says whether the line marks a compaction: a summary line, a
// compact_boundary system line, or the summary message that follows one.
func (l *Line) IsCompaction() bool {
	switch {
	case l.Type == "summary", l.Type == "system" && l.Subtype == "compact_boundary", l.IsCompactSummary:
		return true
	case l.Type == "user" && l.Message != nil && len(l.Message.RawContent) > 0:
		if !bytes.Contains(l.Message.RawContent[:min(len(l.Message.RawContent), 200)], []byte(compactPrefix[:40])) {
			return false
		}
		c := l.Message.Content()
		return len(c) > 0 && strings.HasPrefix(c[0].Text, compactPrefix)
	}
	return false
}
