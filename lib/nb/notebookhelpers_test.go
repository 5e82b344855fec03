package nb

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/value"
)

// TestShowText: every cell is printed as written (no number formatting),
// and a ragged row is an error.
func TestShowText(t *testing.T) {
	var buf bytes.Buffer
	old := Output
	Output = &buf
	defer func() { Output = old }()
	if err := ShowText("cap", []string{"a", "b"}, [][]string{{"0.10000", "x"}, {"2e-3", "y"}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cap", "0.10000", "2e-3"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
	if err := ShowText("cap", []string{"a", "b"}, [][]string{{"1"}}); err == nil {
		t.Error("ragged row: no error")
	}
}

func TestSuffixLawText(t *testing.T) {
	tests := []struct {
		names   []string
		k       int
		p       []float64
		want    string
		wantErr bool
	}{
		{[]string{"U", "X"}, 2, []float64{0.75, 0.25, 0, 0}, "{UU: 0.75, UX: 0.25}", false},
		{[]string{"U", "X"}, 1, []float64{0, 1}, "{X: 1}", false},
		{[]string{"U", "X"}, 2, []float64{1}, "", true},
	}
	for _, tc := range tests {
		got, err := SuffixLawText(tc.names, tc.k, tc.p)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("%v: %q, %v; want %q (error %v)", tc.p, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestAfterLR: prop:stationary-counterexample — both constant probes
// leave the laws after L and R equal, the stochastic mixture does not; a
// model without L and R is an error.
func TestAfterLR(t *testing.T) {
	w := mustBench(t, "witness")
	nO := w.Model.NumObservations()
	tests := []struct {
		c        *fsc.FSC
		positive bool
	}{{fsc.Constant(2, nO, 0), false}, {fsc.Constant(2, nO, 1), false}, {fsc.Mixed(nO, []float64{0.5, 0.5}), true}}
	for i, tc := range tests {
		pL, pR, d, err := AfterLR(w, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if (d > 1e-12) != tc.positive || math.Abs(sum(pL)-1) > 1e-12 || math.Abs(sum(pR)-1) > 1e-12 {
			t.Errorf("probe %d: W1 %g, masses %g %g", i, d, sum(pL), sum(pR))
		}
	}
	if _, _, _, err := AfterLR(mustBench(t, "gridworld:3"), fsc.Constant(5, 4, 0)); err == nil {
		t.Error("no L/R observations: no error")
	}
}

func sum(p []float64) (s float64) {
	for _, v := range p {
		s += v
	}
	return s
}

func TestClassLabel(t *testing.T) {
	p := partition.FromLabels([][]int{{0}, {0, 0, 0, 0, 0, 1}})
	label := func(t, i int) string { return string(rune('a' + i)) }
	tests := []struct {
		t, c int
		want string
	}{{0, 0, "{a}"}, {1, 0, "{a, b, c, d, …}"}, {1, 1, "{f}"}}
	for _, tc := range tests {
		if got := ClassLabel(p, tc.t, tc.c, label); got != tc.want {
			t.Errorf("class %d of depth %d: %q, want %q", tc.c, tc.t, got, tc.want)
		}
	}
}

func TestLipschitzFrame(t *testing.T) {
	ls := []value.Lipschitz{{Pairs: 3, LR: 1}, {Pairs: 5, Violations: 1, LR: math.Inf(1)}}
	df := LipschitzFrame([]string{"a", "b"}, []int{2, 3}, ls)
	if df.Err != nil || df.Nrow() != 2 || df.Col("(probe, pair)s compared").Elem(1).Float() != 5 {
		t.Errorf("frame: %v\n%v", df.Err, df)
	}
	if LipschitzFrame([]string{"a"}, []int{2, 3}, ls).Err == nil {
		t.Error("lengths differ: no error")
	}
}

// TestRankStudy: the ranks never exceed the distinct columns, and the
// numerical rank bounds the 99% effective rank.
func TestRankStudy(t *testing.T) {
	for _, mem := range []int{1, 2} {
		r, err := RankStudy(context.Background(), tigerStudy(t, mem, 2))
		if err != nil {
			t.Fatal(err)
		}
		if r.Distinct > r.Columns || r.Extreme > r.Distinct || r.REnv0 > r.Distinct || r.Anchors01 > r.Distinct || r.Eff99 > r.Numerical || r.Numerical < 1 {
			t.Errorf("m = %d: %+v", mem, r)
		}
	}
}

func TestBuildRepro(t *testing.T) {
	tab, agree, err := BuildRepro(context.Background(), nil, "worked-examples")
	if err != nil {
		t.Fatal(err)
	}
	if agree > tab.Compared() || tab.Compared() == 0 || len(tab.Status) != len(tab.Rows) {
		t.Errorf("agree %d of %d compared, %d statuses for %d rows", agree, tab.Compared(), len(tab.Status), len(tab.Rows))
	}
	if _, _, err := BuildRepro(context.Background(), nil, "no-such-table"); err == nil {
		t.Error("unknown table: no error")
	}
}

// TestPartitionText: six members shown, then "…", comma-separated, one
// line per depth.
func TestPartitionText(t *testing.T) {
	p := partition.FromLabels([][]int{{0}, {0, 0, 0, 0, 0, 0, 0, 1}})
	label := func(t, i int) string { return string(rune('a' + i)) }
	want := "3 classes (per depth [1 2])\nt=0: {a}\nt=1: {a,b,c,d,e,f,…} {h}\n"
	if got := PartitionText(p, label); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
