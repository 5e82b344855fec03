package explain

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// quotientOf returns the full-distance result of a random model.
func quotientOf(t *testing.T, seed uint64, T int) (*Setup, *distance.Result) {
	t.Helper()
	m := randomModel(seed, 3, 2, 2)
	fam, err := fsc.New(fsc.KindStationary, 2, 2, 1+int(seed%2), T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := distance.Compute(context.Background(), m, fam, T, distance.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &Setup{Model: m, Family: fam, T: T, Top: 1000}, res
}

// TestClassAgainstQuotient: on random models and ε, every class card's
// belief is lib/quotient's canonical class belief under the same probe,
// its members are the partition's, its parents and children account for
// every member, and its rewards are the belief's expectations of R.
func TestClassAgainstQuotient(t *testing.T) {
	for seed := uint64(0); seed < 10; seed++ {
		s, res := quotientOf(t, seed, 3)
		m := s.Model
		for k, v := range m.R {
			for a := range v {
				m.R[k][a] = float64((k+1)*(a+2)%5) - 2
			}
		}
		eps := []float64{0, 0.1, 0.3}[seed%3]
		part := res.Partition(eps)
		q, err := quotient.New(m, s.T, part)
		if err != nil {
			t.Fatal(err)
		}
		probe := int(seed) % s.Family.Len()
		cb, err := q.ClassBeliefs(s.Family.At(probe))
		if err != nil {
			t.Fatal(err)
		}
		for d := 0; d < part.Depths(); d++ {
			for c := 0; c < part.Classes(d); c++ {
				card, err := ExplainClass(s, part, d, c, probe)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("seed %d ε %g class %s", seed, eps, card.ID)
				if card.Members != len(part.Members(d, c)) || len(card.First) != card.Members {
					t.Errorf("%s: %d members (%d shown), partition %d", name, card.Members, len(card.First), len(part.Members(d, c)))
				}
				b := make([]float64, m.NumStates())
				for _, sp := range card.Belief {
					b[m.StateIndex(sp.State)] = sp.Prob
				}
				for k := range b {
					if math.Abs(b[k]-cb[d][c][k]) > 1e-12 {
						t.Errorf("%s: belief %v, quotient %v", name, b, cb[d][c])
						break
					}
				}
				if len(card.Rewards) != m.NumActions() {
					t.Fatalf("%s: %d rewards, want one per action", name, len(card.Rewards))
				}
				for a, r := range card.Rewards {
					want := 0.0
					for k := range b {
						want += cb[d][c][k] * m.R[k][a]
					}
					if math.Abs(r.Reward-want) > 1e-12 {
						t.Errorf("%s: reward of %s %g, want %g", name, r.Action, r.Reward, want)
					}
				}
				from, to := 0, 0
				for _, x := range card.From {
					from += x.Histories
				}
				for _, x := range card.To {
					to += x.Histories
				}
				if d > 0 && from != card.Members || d < s.T && to != 2*card.Members {
					t.Errorf("%s: parents %d, children %d for %d members", name, from, to, card.Members)
				}
			}
		}
	}
}

// TestParseClass: bad class ids are refused with the valid range.
func TestParseClass(t *testing.T) {
	p := partition.FromLabels([][]int{{0}, {0, 1}, {0, 0, 1, 2}})
	for _, c := range []struct{ id, want string }{
		{"1:2", "1:0 … 1:1"},
		{"5:0", "valid depths 0 … 2"},
		{"x", "want depth:class"},
		{"2:-1", "2:0 … 2:2"},
	} {
		if _, _, err := ParseClass(p, c.id); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseClass(%q): %v, want %q", c.id, err, c.want)
		}
	}
	if d, c, err := ParseClass(p, "2:2"); err != nil || d != 2 || c != 2 {
		t.Errorf("ParseClass(2:2) = %d, %d, %v", d, c, err)
	}
}

// TestMergesAgainstMatrix: a step's merged classes are the coarse classes
// holding several fine ones, and each diameter is the largest entry of
// the full distance matrix (lib/distance) over the class's members, at
// most the larger ε.
func TestMergesAgainstMatrix(t *testing.T) {
	checked := 0
	for seed := uint64(0); seed < 12; seed++ {
		s, res := quotientOf(t, seed, 3)
		full := res.Full()
		grid := []float64{0, 0.05, 0.2, 0.5}
		for k := 1; k < len(grid); k++ {
			fine, coarse := res.Partition(grid[k-1]), res.Partition(grid[k])
			mg, err := ExplainMerges(context.Background(), s, res.Classes, fine, coarse, grid[k-1], grid[k])
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for d := 0; d < coarse.Depths(); d++ {
				for c := 0; c < coarse.Classes(d); c++ {
					labels := map[int]bool{}
					for _, i := range coarse.Members(d, c) {
						labels[fine.Labels[d][i]] = true
					}
					if len(labels) > 1 {
						want++
					}
				}
			}
			if mg.Count != want || len(mg.Merges) != want {
				t.Fatalf("seed %d step %d: %d merges (%d explained), want %d", seed, k, mg.Count, len(mg.Merges), want)
			}
			for _, x := range mg.Merges {
				var d, c int
				fmt.Sscanf(x.Class, "%d:%d", &d, &c)
				diam := 0.0
				ms := coarse.Members(d, c)
				for _, i := range ms {
					for _, j := range ms {
						diam = max(diam, full[d].At(i, j))
					}
				}
				if math.Abs(diam-x.Diameter) > 1e-12 || !x.Exact || x.Diameter > grid[k]+partition.ZeroTol {
					t.Errorf("seed %d class %s: diameter %g (exact %v), matrix %g, ε %g", seed, x.Class, x.Diameter, x.Exact, diam, grid[k])
				}
				checked++
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d merges checked", checked)
	}
}
