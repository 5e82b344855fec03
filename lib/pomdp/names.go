package pomdp

import (
	"fmt"
	"strconv"
	"strings"
)

// Rename records a name that a file format cannot hold and that a writer
// wrote under another name. Writers list their renames in comments at the
// top of the file (see Rename.String); readers restore the original names
// (RestoreNames), so that writing and reading back gives the same model.
type Rename struct {
	Space    string `json:"space"`    // "states", "actions" or "observations"
	Written  string `json:"written"`  // the name in the file
	Original string `json:"original"` // the model's name
}

// RenameTag starts the text of every rename comment.
const RenameTag = "pomdpq-rename"

// String returns the rename as the text of a comment line,
//
//	pomdpq-rename observations R_ "R"
//
// the tag, the space, the written name and the original name quoted as a Go
// string literal in ASCII (strconv.QuoteToASCII). The text holds no line
// break, no non-ASCII character and no "--" (a "-" is written \x2d when the
// quoted name would contain "--"), so it fits a "#" comment of a .pomdp file
// and an XML comment alike. ParseRename reads it back.
func (r Rename) String() string {
	q := strconv.QuoteToASCII(r.Original)
	if strings.Contains(q, "--") {
		q = strings.ReplaceAll(q, "-", `\x2d`)
	}
	return RenameTag + " " + r.Space + " " + r.Written + " " + q
}

// ParseRename reads the text of a comment (without the comment markers,
// surrounding space allowed). It returns ok false and no error for a
// comment that is not a rename comment (it does not start with RenameTag),
// and an error for a rename comment it cannot read.
func ParseRename(text string) (r Rename, ok bool, err error) {
	text = strings.TrimSpace(text)
	rest, found := strings.CutPrefix(text, RenameTag)
	if !found || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return Rename{}, false, nil
	}
	f := strings.Fields(rest)
	if len(f) < 3 {
		return Rename{}, true, fmt.Errorf("expected %q SPACE WRITTEN \"ORIGINAL\", got %q", RenameTag, text)
	}
	switch f[0] {
	case "states", "actions", "observations":
	default:
		return Rename{}, true, fmt.Errorf("unknown space %q (want states, actions or observations)", f[0])
	}
	// The quoted name starts after the written name; it may hold spaces.
	after := strings.TrimSpace(rest)
	after = strings.TrimSpace(after[len(f[0]):])
	after = strings.TrimSpace(after[len(f[1]):])
	orig, err := strconv.Unquote(after)
	if err != nil {
		return Rename{}, true, fmt.Errorf("the original name %s is not a quoted string", after)
	}
	return Rename{Space: f[0], Written: f[1], Original: orig}, true, nil
}

// SafeNames returns names as a format can hold them: every name that valid
// accepts is kept, and every other name is renamed. space ("states",
// "actions" or "observations") is recorded in the renames.
//
// A renamed name is the original with every character other than an ASCII
// letter, digit or "_" replaced by "_", prefixed with "x" unless it starts
// with a letter; if valid refuses that or it is already used in the space,
// "_" is appended, then "_2", "_3", … until valid accepts it and it is
// unused. So the paper's Tiger observation "R", a keyword of the .pomdp
// format, is written "R_"; "0" among named states is written "x0". The
// result is deterministic and the renamed names are distinct from each
// other and from the kept names, so the renames (listed in the file)
// restore the model's names exactly.
//
// cassandra.Write uses it with the names of the .pomdp format. It returns an
// error only when valid accepts none of the candidates (a predicate that
// refuses every name of letters, digits and "_").
func SafeNames(space string, names []string, valid func(string) bool) ([]string, []Rename, error) {
	used := make(map[string]bool, len(names))
	for _, n := range names {
		if valid(n) {
			used[n] = true
		}
	}
	var out []string
	var renames []Rename
	for i, n := range names {
		if valid(n) {
			continue
		}
		if out == nil {
			out = append([]string(nil), names...)
		}
		base := sanitizeName(n)
		found := false
		for k := 0; k <= len(names)+1; k++ {
			c := base
			switch {
			case k == 1:
				c += "_"
			case k > 1:
				c += "_" + strconv.Itoa(k)
			}
			if valid(c) && !used[c] {
				used[c] = true
				out[i] = c
				renames = append(renames, Rename{Space: space, Written: c, Original: n})
				found = true
				break
			}
		}
		if !found {
			return nil, nil, fmt.Errorf("pomdp: SafeNames: no name of the form %s, %s_, %s_2, … is valid for %s name %q", base, base, base, strings.TrimSuffix(space, "s"), n)
		}
	}
	if out == nil {
		return names, nil, nil
	}
	return out, renames, nil
}

// sanitizeName maps a name to [A-Za-z][A-Za-z0-9_]*.
func sanitizeName(n string) string {
	var b strings.Builder
	for i := 0; i < len(n); i++ {
		c := n[i]
		if nameLetter(c) || nameDigit(c) || c == '_' {
			b.WriteByte(c)
		} else if c < 0x80 || c >= 0xC0 { // one "_" per character, not per byte
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || !nameLetter(s[0]) {
		s = "x" + s
	}
	return s
}

// RestoreNames applies renames to m: each written name is replaced by its
// original. It returns a *RenameError naming the first rename whose written
// name is not a name of its space, whose original is empty, or which gives
// a name twice in its space. It takes time linear in the names and renames.
func RestoreNames(m *Model, renames []Rename) error {
	if len(renames) == 0 {
		return nil
	}
	spaces := map[string][]string{"states": m.States, "actions": m.Actions, "observations": m.Observations}
	index := map[string]map[string]int{}
	for sp, list := range spaces {
		idx := make(map[string]int, len(list))
		for i, n := range list {
			idx[n] = i
		}
		index[sp] = idx
	}
	for k, r := range renames {
		fail := func(format string, args ...any) error {
			return &RenameError{Index: k, Rename: r, Msg: fmt.Sprintf(format, args...)}
		}
		list, ok := spaces[r.Space]
		if !ok {
			return fail("unknown space %q", r.Space)
		}
		idx := index[r.Space]
		i, ok := idx[r.Written]
		if !ok || list[i] != r.Written {
			return fail("the file has no %s %q", strings.TrimSuffix(r.Space, "s"), r.Written)
		}
		if r.Original == "" {
			return fail("the original name is empty")
		}
		if j, ok := idx[r.Original]; ok && list[j] == r.Original {
			return fail("the %s %q exists already", strings.TrimSuffix(r.Space, "s"), r.Original)
		}
		list[i] = r.Original
		idx[r.Original] = i
	}
	return nil
}

// RenameError reports a rename that RestoreNames cannot apply.
type RenameError struct {
	Index  int // position in the list of renames
	Rename Rename
	Msg    string
}

func (e *RenameError) Error() string { return e.Rename.String() + ": " + e.Msg }

func nameLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func nameDigit(c byte) bool  { return c >= '0' && c <= '9' }
