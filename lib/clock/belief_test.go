package clock

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// lockstep interns the beliefs of m reachable within depth steps, in the
// same order in the sparse store and in the dense oracle (the store of
// commit b8ef424, belief_oracle_test.go), at most maxBeliefs of them, and
// fails on the first difference: a belief ID, an observation probability
// or a successor that differs, or a representative whose masses are not
// bitwise those of the dense vector.
func lockstep(t *testing.T, name string, m *pomdp.Model, depth, maxBeliefs int) {
	t.Helper()
	g := newGuard(context.Background(), name, depth, -1)
	sp, de := newBeliefs(m, DefaultMaxNodes, g), newDBeliefs(m, DefaultMaxNodes, g)
	b0, d0 := sp.internDense(m.B0), de.intern(m.B0)
	if b0 != d0 {
		t.Fatalf("%s: initial belief %d, dense %d", name, b0, d0)
	}
	level := []int32{b0}
	seen := map[int32]bool{b0: true}
	for range depth {
		var next []int32
		for _, b := range level {
			for a := range m.NumActions() {
				rs, rd := sp.step(b, a), de.step(b, a)
				ps, pd := sp.obsRow(rs), de.obsRow(rd)
				ss, sd := sp.succRow(rs), de.succRow(rd)
				for o := range ps {
					if math.Float64bits(ps[o]) != math.Float64bits(pd[o]) || ss[o] != sd[o] {
						t.Fatalf("%s: belief %d, action %d, observation %d: P = %v → %d, dense %v → %d", name, b, a, o, ps[o], ss[o], pd[o], sd[o])
					}
					if !seen[ss[o]] {
						seen[ss[o]] = true
						next = append(next, ss[o])
					}
				}
			}
			if sp.len() > maxBeliefs {
				break
			}
		}
		level = next
	}
	if sp.len() != de.len() {
		t.Fatalf("%s: %d beliefs, dense %d", name, sp.len(), de.len())
	}
	dense := make([]float64, m.NumStates())
	for b := range int32(sp.len()) {
		clear(dense)
		prev := int32(-1)
		sup, val := sp.belief(b)
		for i, s := range sup {
			if s <= prev || val[i] == 0 {
				t.Fatalf("%s: belief %d: support not increasing or a zero mass stored", name, b)
			}
			prev = s
			dense[s] = val[i]
		}
		for s, x := range de.vecOf(b) {
			if math.Float64bits(x) != math.Float64bits(dense[s]) {
				t.Fatalf("%s: belief %d, state %d: %v, dense %v", name, b, s, dense[s], x)
			}
		}
	}
	t.Logf("%s: %d beliefs agree", name, sp.len()-1)
}

// TestSparseBeliefsMatchDense checks the sparse belief store against the
// dense one it replaced, bit for bit, with updates computed one by one and
// in parallel batches, on the benchmarks (netmon's kernels
// are Kronecker products, stepped densely; the others are read row by
// row) and on random models with zero entries, impossible observations
// and beliefs that differ below the rounding.
func TestSparseBeliefsMatchDense(t *testing.T) {
	for _, batched := range []bool{false, true} {
		t.Run(map[bool]string{false: "sequential", true: "batched"}[batched], func(t *testing.T) {
			if batched {
				// Every update in batches of all the actions, over
				// several goroutines.
				defer func(n, p int) { batchMin = n; runtime.GOMAXPROCS(p) }(batchMin, runtime.GOMAXPROCS(3))
				batchMin = 0
			}
			sparseMatchesDense(t)
		})
	}
}

func sparseMatchesDense(t *testing.T) {
	for _, c := range []struct {
		spec  string
		depth int
	}{{"tiger", 6}, {"gridworld:3", 4}, {"witness", 4}, {"netmon:4", 3}, {"rocksample:4:4", 3}, {"hallway:10", 3}, {"tag", 2}, {"inspection", 4}} {
		lockstep(t, c.spec, lookup(t, c.spec).Model, c.depth, 20000)
	}
	lockstep(t, "coincide", coincide(), 5, 20000)
	for i := range 40 {
		seed := uint64(i + 1)
		nS, nA, nO := 2+i%7, 1+i%3, 2+i%4
		m := randomModel(seed, nS, nA, nO)
		if i%2 == 1 {
			b, err := bench.RandomStructured(nS, nA, nO, seed)
			if err != nil {
				t.Fatal(err)
			}
			m = b.Model
		}
		lockstep(t, fmt.Sprintf("random %d (%d/%d/%d)", i, nS, nA, nO), m, 4, 20000)
	}
}

// unpackKey decodes a key of packKey into the dense rounded vector over
// nS states.
func unpackKey(t *testing.T, key []byte, nS int) []int64 {
	t.Helper()
	out := make([]int64, nS)
	var codes []int64
	s := -1
	for len(key) > 0 {
		gap, n := binary.Uvarint(key)
		if n <= 0 {
			t.Fatalf("bad gap in key")
		}
		key = key[n:]
		s += int(gap) + 1
		c := key[0]
		key = key[1:]
		var r int64
		if c == packNew {
			r = int64(binary.LittleEndian.Uint64(key))
			key = key[8:]
			if len(codes) < packCodes {
				codes = append(codes, r)
			}
		} else {
			r = codes[c]
		}
		out[s] = r
	}
	return out
}

// TestPackKey checks that a packed key decodes to the rounded dense
// vector (so equal keys mean equal rounded entries, and the converse holds
// because the encoding is a function of those entries): masses that round
// to 0, runs of equal masses, and more distinct masses than the one-byte
// codes.
func TestPackKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	var pk packer
	for i := range 300 {
		nS := 1 + rng.IntN(700)
		var sup []int32
		var val []float64
		distinct := 1 + rng.IntN(400)
		for s := range nS {
			if rng.IntN(3) == 0 {
				continue
			}
			x := float64(1+rng.IntN(distinct)) / float64(distinct) / float64(nS)
			if i%2 == 1 {
				// Runs of equal masses, past the codes too.
				x = float64(1+s/(1+i%5)) * 1e-4
			}
			switch rng.IntN(10) {
			case 0:
				x = 4e-13 * rng.Float64() // rounds to 0
			case 1:
				x += 1e-15 // the same rounded value
			}
			sup, val = append(sup, int32(s)), append(val, x)
		}
		dense := make([]float64, nS)
		for k, s := range sup {
			dense[s] = val[k]
		}
		got := unpackKey(t, packKey(nil, &pk, sup, val), nS)
		for s, x := range dense {
			if want := int64(math.Round(x * roundScale)); got[s] != want {
				t.Fatalf("case %d, state %d: decoded %d, want %d", i, s, got[s], want)
			}
		}
	}
}

// TestDistancesAsDenseStore pins NewDistances on larger models to the
// values the dense belief store gave (commit b8ef424, printed in full
// precision with %v): the same gap and attaining pair, per-depth maxima,
// beliefs, belief pairs and solves, exactly. RockSample(7,8) at T = 4 took
// 7.1 s of CPU and an estimated 7.2 GiB there.
func TestDistancesAsDenseStore(t *testing.T) {
	cases := []struct {
		spec                   string
		T                      int
		gap                    float64
		depth, i, j            int
		maxClk, maxOp          []float64
		beliefs, pairs, solves int
		slow                   bool
	}{
		{"rocksample:5:7", 4, 2, 2, 2, 6, []float64{0, 3.000000000000022, 2.0000000000000133, 1.0000000000000049, 0}, []float64{0, 3, 2, 1, 0}, 20167, 5761, 2724, false},
		{"netmon:9", 3, 0.1866580787633422, 2, 2, 7, []float64{0, 0.5142024291497981, 0.37954347260004523, 0}, []float64{0, 0.5142024291497981, 0.37954347260004523, 0}, 7240, 2511, 1836, false},
		{"hallway:10", 4, 0.6604325847604271, 2, 5, 7, []float64{0, 1.4974533106960952, 1.3397982277801224, 0.6961405625556509, 0}, []float64{0, 1.4974533106960948, 1.339798227780122, 0.6961405625556506, 0}, 5145, 6453, 698, false},
		{"tag", 3, 1.0000000000000004, 2, 1, 714, []float64{0, 2.0000000000000013, 1.0000000000000007, 0}, []float64{0, 2.0000000000000013, 1.0000000000000007, 0}, 3500, 30618, 33177, true},
		{"rocksample:7:8", 4, 2, 2, 2, 6, []float64{0, 3.0000000000000018, 2.0000000000000124, 1.0000000000000053, 0}, []float64{0, 3, 2, 1, 0}, 30347, 8202, 3422, true},
	}
	for _, c := range cases {
		if c.slow && testing.Short() {
			continue
		}
		b := lookup(t, c.spec)
		d, err := NewDistances(context.Background(), b.Model, b.Ground, c.T, &Options{MaxBytes: -1})
		if err != nil {
			t.Fatalf("%s T=%d: %v", c.spec, c.T, err)
		}
		if d.Gap != c.gap || d.GapDepth != c.depth || d.GapI != c.i || d.GapJ != c.j {
			t.Errorf("%s T=%d: δ_clk %v at (%d, %d, %d), dense store %v at (%d, %d, %d)", c.spec, c.T, d.Gap, d.GapDepth, d.GapI, d.GapJ, c.gap, c.depth, c.i, c.j)
		}
		for k := range c.maxClk {
			if d.MaxClk[k] != c.maxClk[k] || d.MaxOp[k] != c.maxOp[k] {
				t.Errorf("%s T=%d depth %d: maxima %v / %v, dense store %v / %v", c.spec, c.T, k, d.MaxClk[k], d.MaxOp[k], c.maxClk[k], c.maxOp[k])
			}
		}
		if d.Beliefs != c.beliefs || d.BeliefPairs != c.pairs || d.Solves != c.solves {
			t.Errorf("%s T=%d: %d beliefs, %d belief pairs, %d solves; dense store %d, %d, %d", c.spec, c.T, d.Beliefs, d.BeliefPairs, d.Solves, c.beliefs, c.pairs, c.solves)
		}
	}
}
