package clock

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// sameBits reports whether x and y have the same bits.
func sameBits(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// compareOracle checks that NewDistances gives bit-for-bit the results of
// the full-matrix oracle (oracle_test.go) on m at horizon T.
func compareOracle(t *testing.T, name string, m *pomdp.Model, g ot.Ground, T int, tr Transport) {
	t.Helper()
	ctx := context.Background()
	opts := &Options{Transport: tr}
	want, err := oracleDistances(ctx, m, g, T, opts)
	if err != nil {
		t.Fatalf("%s T=%d %v: oracle: %v", name, T, tr, err)
	}
	got, err := NewDistances(ctx, m, g, T, opts)
	if err != nil {
		t.Fatalf("%s T=%d %v: %v", name, T, tr, err)
	}
	where := fmt.Sprintf("%s T=%d %v", name, T, tr)
	if !sameBits(got.Gap, want.Gap) || got.GapDepth != want.GapDepth || got.GapI != want.GapI || got.GapJ != want.GapJ {
		t.Errorf("%s: gap %v at (%d, %d, %d), oracle %v at (%d, %d, %d)", where,
			got.Gap, got.GapDepth, got.GapI, got.GapJ, want.Gap, want.GapDepth, want.GapI, want.GapJ)
	}
	for d := 0; d <= T; d++ {
		if !sameBits(got.MaxClk[d], want.MaxClk[d]) || !sameBits(got.MaxOp[d], want.MaxOp[d]) || !sameBits(got.MaxGap[d], want.MaxGap[d]) {
			t.Errorf("%s depth %d: maxima %v/%v/%v, oracle %v/%v/%v", where, d,
				got.MaxClk[d], got.MaxOp[d], got.MaxGap[d], want.MaxClk[d], want.MaxOp[d], want.MaxGap[d])
		}
	}
	if !sameBits(got.PaperColumn(), want.paperColumn()) {
		t.Errorf("%s: PaperColumn %v, oracle %v", where, got.PaperColumn(), want.paperColumn())
	}
	if got.BeliefPairs != want.BeliefPairs || got.Beliefs != want.Beliefs {
		t.Errorf("%s: %d belief pairs, %d beliefs; oracle %d, %d", where, got.BeliefPairs, got.Beliefs, want.BeliefPairs, want.Beliefs)
	}
	clk, op := got.ClkMatrices(), got.OpMatrices()
	for d := 0; d <= T; d++ {
		for _, c := range []struct {
			what      string
			got, want []float64
		}{{"clk", clk[d].Data, want.Clk[d].Data}, {"op", op[d].Data, want.Op[d].Data}} {
			if len(c.got) != len(c.want) {
				t.Fatalf("%s depth %d: %s has %d entries, oracle %d", where, d, c.what, len(c.got), len(c.want))
			}
			for k := range c.got {
				if !sameBits(c.got[k], c.want[k]) {
					t.Fatalf("%s depth %d: %s entry %d is %v, oracle %v", where, d, c.what, k, c.got[k], c.want[k])
				}
			}
		}
		n := len(got.Quotients.Clk.Labels[d])
		for i := 0; i < n; i += 1 + n/7 {
			for j := 0; j < n; j += 1 + n/5 {
				if !sameBits(got.ClkAt(d, i, j), clk[d].At(i, j)) || !sameBits(got.OpAt(d, i, j), op[d].At(i, j)) {
					t.Fatalf("%s depth %d: ClkAt/OpAt(%d, %d) differ from the matrices", where, d, i, j)
				}
			}
		}
	}
}

func (d *oracleResult) paperColumn() float64 {
	if d.T == 0 {
		return 0
	}
	return d.MaxClk[(d.T+1)/2]
}

// TestOracleBenchmarks compares NewDistances with the full-matrix oracle
// bit for bit on the benchmarks of tab:probe-family-comparison.
func TestOracleBenchmarks(t *testing.T) {
	cases := []struct {
		spec string
		maxT int
	}{{"tiger", 6}, {"gridworld:3", 3}, {"witness", 4}, {"tiger-listen", 4}, {"inspection", 3}}
	for _, c := range cases {
		b := lookup(t, c.spec)
		for T := 0; T <= c.maxT; T++ {
			if testing.Short() && T > 4 {
				continue
			}
			for _, tr := range []Transport{TransportW1, TransportNested} {
				compareOracle(t, c.spec, b.Model, b.Ground, T, tr)
			}
		}
	}
}

// TestOracleRandom compares NewDistances with the oracle bit for bit on
// many small random models, sparse (randomModel) and structured
// (bench.RandomStructured), under the discrete and an ordered metric.
func TestOracleRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	n := 120
	if testing.Short() {
		n = 30
	}
	for i := range n {
		seed := uint64(i + 1)
		nS, nA, nO := 2+rng.IntN(4), 1+rng.IntN(3), 2+rng.IntN(3)
		T := 1 + rng.IntN(4)
		var m *pomdp.Model
		if i%2 == 0 {
			m = randomModel(seed, nS, nA, nO)
		} else {
			b, err := bench.RandomStructured(nS, nA, nO, seed)
			if err != nil {
				t.Fatal(err)
			}
			m = b.Model
		}
		g := ot.Discrete(nO)
		if i%3 == 2 {
			g = ot.Ordered(nO)
		}
		for _, tr := range []Transport{TransportW1, TransportNested} {
			compareOracle(t, fmt.Sprintf("random %d (%d/%d/%d)", i, nS, nA, nO), m, g, T, tr)
		}
	}
}
