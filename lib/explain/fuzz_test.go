package explain

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// fuzzModel is a three-observation model whose names include a digit
// string ("2" is the name of observation 0, so "2" must read as that name,
// not as index 2) and a name that is also an action's.
func fuzzModel() *pomdp.Model {
	m := randomModel(7, 2, 2, 3)
	m.Observations = []string{"2", "hear-left", "go"}
	m.Actions = []string{"go", "listen"}
	return m
}

// FuzzParseHistory: ParseHistory never panics; what it accepts is a
// sequence of valid observation indices, one per word, that reads back the
// same from its own rendering; what it refuses names the word and lists
// the valid observations.
func FuzzParseHistory(f *testing.F) {
	for _, s := range []string{"", "ε", "eps", "2 hear-left", "0 1 2", "3", "-1", "go", "listen", "hear-left  go\t2", "01", "+1", "1e0", "ε ε"} {
		f.Add(s)
	}
	m := fuzzModel()
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHistory(m, s)
		if err != nil {
			if !strings.Contains(err.Error(), "valid") {
				t.Fatalf("ParseHistory(%q): %v: the error lists no valid choices", s, err)
			}
			return
		}
		words := strings.Fields(s)
		if len(h) != len(words) && !(len(h) == 0 && len(words) == 1) {
			t.Fatalf("ParseHistory(%q) = %v: %d observations for %d words", s, h, len(h), len(words))
		}
		for k, o := range h {
			if o < 0 || o >= m.NumObservations() {
				t.Fatalf("ParseHistory(%q)[%d] = %d, out of range", s, k, o)
			}
		}
		back, err := ParseHistory(m, HistoryWords(m, h))
		if err != nil || !slices.Equal(back, h) {
			t.Fatalf("ParseHistory(HistoryWords(%v)) = %v, %v", h, back, err)
		}
	})
}

// FuzzParseClass: ParseClass never panics, accepts exactly the ids
// "t:c" (canonical decimal) of classes of the partition, and refuses the
// rest with a message that says what is valid.
func FuzzParseClass(f *testing.F) {
	for _, s := range []string{"2:2", "0:0", "1:2", "5:0", "x", "2:-1", "02:1", "2:1 ", ":", "1:1:1", "-0:0", "+1:0"} {
		f.Add(s)
	}
	p := partition.FromLabels([][]int{{0}, {0, 1}, {0, 0, 1, 2}})
	f.Fuzz(func(t *testing.T, id string) {
		d, c, err := ParseClass(p, id)
		valid := false
		for dd := range p.Depths() {
			for cc := range p.Classes(dd) {
				if id == fmt.Sprintf("%d:%d", dd, cc) {
					valid = true
				}
			}
		}
		if valid != (err == nil) {
			t.Fatalf("ParseClass(%q) = %d, %d, %v; a class id of the partition: %v", id, d, c, err, valid)
		}
		if err == nil && fmt.Sprintf("%d:%d", d, c) != id {
			t.Fatalf("ParseClass(%q) = %d:%d", id, d, c)
		}
		if err != nil && !strings.Contains(err.Error(), "want depth:class") && !strings.Contains(err.Error(), "valid depths") && !strings.Contains(err.Error(), "has classes") {
			t.Fatalf("ParseClass(%q): %v: the error says nothing of what is valid", id, err)
		}
	})
}
