package cassandra

import (
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Renames returns the renames Write makes for m: the
// names the .pomdp format cannot hold (see SafeNames), none for a space
// written as a count.
func Renames(m *pomdp.Model) []pomdp.Rename {
	_, rs, _ := cassandraNames(m)
	return rs
}

// cassandraNames returns the names Write writes for the states,
// actions and observations, and the renames.
func cassandraNames(m *pomdp.Model) ([3][]string, []pomdp.Rename, error) {
	var out [3][]string
	var renames []pomdp.Rename
	for k, sp := range [3]struct {
		space string
		names []string
	}{{"states", m.States}, {"actions", m.Actions}, {"observations", m.Observations}} {
		out[k] = sp.names
		if isCount(sp.names) {
			continue
		}
		// isCassandraName accepts every sanitized name followed by "_", so
		// this does not fail.
		names, rs, err := pomdp.SafeNames(sp.space, sp.names, isCassandraName)
		if err != nil {
			return out, nil, err
		}
		out[k] = names
		renames = append(renames, rs...)
	}
	return out, renames, nil
}

// headerRenames reads the rename comments of the comment block at the top
// of a .pomdp file: the lines before the first line that is neither blank
// nor a "#" comment. It returns the renames and the line of each, or a
// *ParseError naming the line of a rename comment it cannot read.
func headerRenames(src, file string) ([]pomdp.Rename, []int, error) {
	var rs []pomdp.Rename
	var lines []int
	line := 0
	for len(src) > 0 {
		line++
		l := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			l, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if t[0] != '#' {
			break
		}
		r, ok, err := pomdp.ParseRename(t[1:])
		if err != nil {
			return nil, nil, &pomdp.ParseError{File: file, Line: line, Field: "rename comment", Msg: err.Error()}
		}
		if ok {
			rs = append(rs, r)
			lines = append(lines, line)
		}
	}
	return rs, lines, nil
}
