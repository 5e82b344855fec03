package policy

import (
	"fmt"
	"strings"
)

// ParseError reports invalid content in a policy file (.pg or .alpha). It
// prints as
//
//	policy: tiger.pg:3: node 2, next node for observation tiger-left: 12 is not a node (the graph has nodes 0 … 8)
//
// Line is 1-based; 0 means the whole file (for instance a node id that no
// line gives).
type ParseError struct {
	File  string // file name given to the reader
	Line  int    // line of the offending entry, or 0
	Field string // the entry, e.g. "node 2, action"
	Msg   string // what was wrong
	Err   error  // underlying error (I/O), or nil
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("policy: ")
	file := e.File
	if file == "" {
		file = "input"
	}
	b.WriteString(file)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
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

// MaxNodes is the largest number of nodes (or alpha vectors) the readers
// accept; larger files are refused with a *ParseError.
const MaxNodes = 1 << 20

// maxLine is the longest line the readers accept, in bytes.
const maxLine = 1 << 24
