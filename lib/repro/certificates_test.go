package repro

import (
	"context"
	"testing"
)

// TestCertificateTables pins how many rows of the tables of notebook 05
// agree with the paper (low-rank.csv; the §7.4 and conj:hankel-rank lines
// of inline-claims.csv) and that no row differs.
func TestCertificateTables(t *testing.T) {
	want := map[string][2]int{ // table → {agree, compared}
		"low-rank":           {4, 4},
		"certificate-claims": {9, 9},
	}
	env := &Env{}
	for name, w := range want {
		s, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := s.Build(context.Background(), env)
		if err != nil {
			t.Fatal(err)
		}
		agree, err := tab.Compare()
		if err != nil {
			t.Fatal(err)
		}
		if agree != w[0] || tab.Compared() != w[1] {
			t.Errorf("%s: %d/%d rows agree, want %d/%d", name, agree, tab.Compared(), w[0], w[1])
		}
		for i, st := range tab.Status {
			if st == Differs {
				t.Errorf("%s row %d differs: %s", name, i, tab.Note[i])
			}
		}
	}
}
