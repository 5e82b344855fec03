package nb

import (
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/law"
)

func TestSingleMerges(t *testing.T) {
	const T = 3
	b, fam, r := tigerDistances(t, T)
	p := r.Partition(0)
	e, err := law.NewEngine(b.Model, T, law.UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	var ls []*law.Laws
	for i := 0; i < fam.Len(); i++ {
		l, err := e.Compute(fam.At(i))
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	rows, err := SingleMerges(b.Model, b.Ground, r.Tree, T, fam, p, ls)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for d := 0; d < T; d++ {
		want += p.Classes(d) * (p.Classes(d) - 1) / 2
	}
	if len(rows) != want || want == 0 {
		t.Fatalf("%d merges, want %d", len(rows), want)
	}
	for _, m := range rows {
		q := MergeClasses(p, m.T, m.C1, m.C2)
		if q.Total() != p.Total()-1 || len(m.Seen) != fam.Len() || m.All < m.Possible {
			t.Errorf("merge %+v: %d classes after, %d before; %d probes seen", m, q.Total(), p.Total(), len(m.Seen))
		}
		// Exact classes differ under some probe: the merge cannot be
		// both sound and separated on possible histories (thm:myhill-nerode).
		if m.Sound() && !m.StandInOnly() {
			t.Errorf("merge %+v: sound though separated on possible histories", m)
		}
	}
}

func TestSummarizeMerges(t *testing.T) {
	tests := []struct {
		rows []ClassMerge
		want MergeSummary
	}{
		{nil, MergeSummary{Weakest: math.Inf(1)}},
		{
			[]ClassMerge{{Gap: 0, Possible: 0}, {Gap: 0.3, Possible: 0}, {Gap: 0.2, Possible: 0.5, C1: 7}, {Gap: 0.4, Possible: 0.1}},
			MergeSummary{Candidates: 4, Sound: 1, StandIn: 2, StandInSound: 1, PossibleSep: 2, Weakest: 0.2, Worst: ClassMerge{Gap: 0.2, Possible: 0.5, C1: 7}},
		},
	}
	for _, tt := range tests {
		got := SummarizeMerges(tt.rows)
		if got.Candidates != tt.want.Candidates || got.Sound != tt.want.Sound || got.StandIn != tt.want.StandIn ||
			got.StandInSound != tt.want.StandInSound || got.PossibleSep != tt.want.PossibleSep ||
			got.PossibleSepSound != tt.want.PossibleSepSound || got.Weakest != tt.want.Weakest || got.Worst.C1 != tt.want.Worst.C1 {
			t.Errorf("SummarizeMerges(%v) = %+v, want %+v", tt.rows, got, tt.want)
		}
	}
}
