package pomdp

import (
	"errors"
	"fmt"
	"strings"
)

// FileRowTol is the tolerance within which probability rows read from files
// must sum to 1 (pomdp-solve's tolerance). Rows that pass are divided by
// their sum unless they already sum to 1 within RowTol, so that every model
// a reader returns passes Validate and a model written by cassandra.Write or
// pomdpjson.Write reads back bit for bit.
const FileRowTol = 1e-5

// Default limits of the readers (see MaxSize and MaxEntries).
const (
	DefaultMaxSize    = 1 << 20
	DefaultMaxEntries = 1 << 25
)

// ErrTooLarge is wrapped by the *ParseError a reader returns when a file
// declares more states, actions or observations than MaxSize allows, or
// would expand to more matrix entries than MaxEntries allows.
var ErrTooLarge = errors.New("pomdp: model exceeds the reader's size limits")

// ParseError reports invalid content in a model file: a syntax error, an
// unknown name, a wrong number of values, a row that is not stochastic, a
// missing declaration or a violated size limit. It prints as
//
//	pomdp: tiger.pomdp:12:4: T: expected a probability, got "abc"
//
// Line and Col are 1-based; 0 means unknown (for instance a row that no line
// ever specified). Err, when not nil, is the underlying error: an
// *EntryError naming the offending entry, ErrTooLarge, or an I/O error.
type ParseError struct {
	File  string // file name given to the reader
	Line  int    // line of the offending token, or 0
	Col   int    // column (byte offset in the line, 1-based), or 0
	Field string // statement or JSON field, e.g. "T", "start", "transitions[3].p"
	Msg   string // what was wrong or expected
	Err   error  // underlying error, or nil
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("pomdp: ")
	file := e.File
	if file == "" {
		file = "input"
	}
	b.WriteString(file)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// ReadOption configures cassandra.Read, pomdpjson.Read and modelfile.Load.
type ReadOption func(*ReadConfig)

// ReadConfig is the configuration that the ReadOption values given to a
// reader set; the format packages read it (NewReadConfig).
type ReadConfig struct {
	MaxSize    int          // MaxSize
	MaxEntries int64        // MaxEntries
	Lenient    bool         // Lenient
	Note       func(string) // Lenient's note, or nil
	Source     *Source      // filled when not nil (Describe)
	Expected   bool         // ExpectedRewards
}

// ExpectedRewards makes a reader keep only the expected reward R(s, a) of
// a file whose rewards depend on the next state or the observation: the
// model's Rewards is nil and R is the same expectation as without the
// option (no value changes). Describe reports how many entries were
// dropped. Without it such rewards are kept in Model.Rewards.
func ExpectedRewards() ReadOption {
	return func(c *ReadConfig) { c.Expected = true }
}

// NewReadConfig returns the defaults (DefaultMaxSize, DefaultMaxEntries)
// with opts applied in order.
func NewReadConfig(opts []ReadOption) ReadConfig {
	c := ReadConfig{MaxSize: DefaultMaxSize, MaxEntries: DefaultMaxEntries}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// MaxSize sets the largest number of states, actions or observations a file
// may declare (default DefaultMaxSize); n ≤ 0 keeps the default. Larger
// declarations are refused with a *ParseError wrapping ErrTooLarge before
// any memory is allocated for them.
func MaxSize(n int) ReadOption {
	return func(c *ReadConfig) {
		if n > 0 {
			c.MaxSize = n
		}
	}
}

// MaxEntries bounds the work a reader may do (default DefaultMaxEntries); n ≤ 0
// keeps the default. It counts |A|·|S| (the rows every model needs), every
// matrix entry written by a statement after wildcard and matrix expansion
// (so "T: * uniform" counts |A|·|S|² entries), and every (s', o) pair
// visited while reducing rewards to R(s,a). Exceeding it returns a
// *ParseError wrapping ErrTooLarge, which keeps hostile or mistaken files
// (e.g. "states: 100000000") from exhausting memory or time.
func MaxEntries(n int) ReadOption {
	return func(c *ReadConfig) {
		if n > 0 {
			c.MaxEntries = int64(n)
		}
	}
}

// Lenient makes cassandra.Read accept files that pomdp-solve rejects in the
// ways found in published example files (ejs4 and ejs5), and calls note
// (if not nil) with a message, naming file and line, for every assumption:
//
//   - "values: rewards" / "values: costs" are read as "values: reward" / "cost";
//   - a missing "values:" line is read as "values: reward";
//   - a missing "discount:" line gives a model without a discount
//     (HasDiscount false).
//
// Without Lenient these are errors. It has no effect on pomdpjson.Read.
func Lenient(note func(msg string)) ReadOption {
	return func(c *ReadConfig) {
		c.Lenient = true
		c.Note = note
	}
}
