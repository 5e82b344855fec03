package main

import (
	"bytes"
	"flag"
	"slices"
	"strings"
	"testing"
)

// The reporter writes one plain line per finished phase when stderr is
// not a terminal, an in-place bar when asked for one, nothing when off,
// and keeps every phase's time for the JSON.
func TestReporter(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want []string
		not  []string
	}{
		{"auto", []string{"pomdpq: laws done in ", "(3/3)", "pomdpq: linkage done in "}, []string{"\r"}},
		{"lines", []string{"pomdpq: laws done in "}, []string{"\r"}},
		{"bar", []string{"\r\033[K", "[########################] 3/3"}, []string{"pomdpq: laws done"}},
		{"off", nil, []string{"laws"}},
	} {
		var buf bytes.Buffer
		r := newReporter(&buf, tc.mode)
		r.Phase("laws")
		for i := 1; i <= 3; i++ {
			r.Progress(i, 3)
		}
		r.Phase("linkage")
		r.Phase("")
		out := buf.String()
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output %q lacks %q", tc.mode, out, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(out, w) {
				t.Errorf("%s: output %q has %q", tc.mode, out, w)
			}
		}
		if ph := r.Phases(); len(ph) != 2 || ph[0].Name != "laws" || ph[1].Name != "linkage" {
			t.Errorf("%s: phases %v", tc.mode, ph)
		}
	}
}

// TestProgressSpaced checks that "--progress off" (a space, not "=") sets
// the mode instead of leaving "off" as a positional argument.
func TestProgressSpaced(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		pos  []string
	}{
		{[]string{"--progress", "off"}, "off", nil},
		{[]string{"-progress", "lines", "x"}, "lines", []string{"x"}},
		{[]string{"--progress=bar"}, "bar", nil},
		{[]string{"--progress", "tiger"}, "bar", []string{"tiger"}},
		{[]string{"x", "--progress", "auto"}, "auto", []string{"x"}},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		p := progressFlag("auto")
		fs.Var(&p, "progress", "")
		pos, err := parseFlags(fs, tc.args)
		if err != nil || string(p) != tc.want || !slices.Equal(pos, tc.pos) {
			t.Errorf("%q: progress %q, positional %q, err %v; want %q, %q", tc.args, p, pos, err, tc.want, tc.pos)
		}
	}
}
