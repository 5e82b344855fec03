package clock

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// SlicedGap is the column "max |d^clk − d^op|" of
// tab:probe-family-comparison recomputed by the mechanism of the authors'
// code (issue 9). At depth t the clock-aware distance takes suffix
// policies of length T − t and slices off their first t actions a second
// time, so it compares the laws of the next T − 2t observations only
// (nothing when 2t ≥ T). The operational side is the authors' d^op: the
// belief reached under a constant prefix a^t, compared under every
// continuation string (the same belief classes as PossibilityPattern):
//
//	d^clk_sliced(h, h') = max_{p ∈ A^t} max_{u ∈ A^{T−2t}} W1(P^u(O_{t+1:T−t} | b(h, p)), P^u(· | b(h', p)))   (0 when 2t ≥ T),
//	d^op_pipeline(h, h') = max_{a ∈ A} max_{u ∈ A^{T−t}} W1(P^u(O_{t+1:T} | b(h, a^t)), P^u(· | b(h', a^t))),
//	Value = max_t max_{h, h' of depth t} |d^clk_sliced(h, h') − d^op_pipeline(h, h')|.
//
// On every row of the table it equals the printed value to its three
// decimals (GridWorld 3×3 T = 3: 0.548571, printed 0.549, where the
// largest d^clk at depth ⌈T/2⌉, Distances.PaperColumn, is 0.549521). It
// is not a quantity of the theory (Distances.Gap is δ_clk); it is offered
// to explain the printed numbers.
type SlicedGap struct {
	T     int
	Value float64
	// PerDepth[t] is the maximum over the pairs of depth t; Sliced[t] and
	// Op[t] the largest d^clk_sliced and d^op_pipeline there.
	PerDepth, Sliced, Op []float64
	// Depth is the first depth attaining Value.
	Depth int
}

// String summarises the reconstruction on one line.
func (s *SlicedGap) String() string {
	return fmt.Sprintf("T=%d sliced gap %.6f (depth %d), per depth %.4f", s.T, s.Value, s.Depth, s.PerDepth)
}

// NewSlicedGap computes SlicedGap with the W1 transport (d holds the exact
// classes of the same model and horizon, as returned by NewDistances with
// TransportW1). Histories of one clk class have
// equivalent beliefs under every prefix, so pairs are taken over class
// representatives; the prefix trees of two representatives are aligned
// once per pair of distinct subtrees; belief-pair values are memoised as
// in NewDistances, the class pairs visited are those of NewDistances'
// clk stage (EstimateCost's ClkPairs, already within its budget when d
// was computed), and the nested values are bounded like
// NewDistances by opts.MaxWork; it returns ctx.Err() when ctx is
// cancelled, and an error when g does not have |O| points or d was not
// computed with TransportW1.
func NewSlicedGap(ctx context.Context, m *pomdp.Model, g ot.Ground, d *Distances, opts *Options) (*SlicedGap, error) {
	o := opts.get()
	T := d.T
	if _, err := checkArgs(m, T, o); err != nil {
		return nil, err
	}
	if len(g) != m.NumObservations() {
		return nil, fmt.Errorf("clock: ground metric has %d points, model %s has %d observations", len(g), m.Name, m.NumObservations())
	}
	if d.Transport != TransportW1 {
		return nil, fmt.Errorf("clock: NewSlicedGap needs W1 distances, got %v", d.Transport)
	}
	e, err := newEngine(ctx, m, T, o)
	if err != nil {
		return nil, err
	}
	if err := e.build(ctx); err != nil {
		return nil, err
	}
	mt := newMetric(ctx, e.bs, g, T, TransportW1, o.MaxWork)
	q := d.Quotients
	s := &SlicedGap{T: T, PerDepth: make([]float64, T+1), Sliced: make([]float64, T+1), Op: make([]float64, T+1), Depth: -1}
	for t := 1; t < T; t++ {
		k := T - 2*t
		gc := q.Clk.Labels[t]
		reps := make([]int, q.Clk.Classes(t))
		for i := len(gc) - 1; i >= 0; i-- {
			reps[gc[i]] = i
		}
		vec := e.vec[t]
		for ci := range reps {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for cj := ci + 1; cj < len(reps); cj++ {
				memo := map[[2]ref]float64{}
				var align func(u, v ref, level int) float64
				align = func(u, v ref, level int) float64 {
					if u == v {
						return 0
					}
					if level == 0 {
						return mt.clkValue(mt.planClk(^u, ^v, k))
					}
					key := [2]ref{u, v}
					if x, ok := memo[key]; ok {
						return x
					}
					x := 0.0
					for a := 0; a < mt.nA; a++ {
						x = math.Max(x, align(e.px.d.child(u, a), e.px.d.child(v, a), level-1))
					}
					memo[key] = x
					return x
				}
				i, j := reps[ci], reps[cj]
				sl := 0.0
				if k > 0 {
					sl = align(vec[i], vec[j], t)
				}
				op := 0.0
				for a := 0; a < mt.nA; a++ {
					op = math.Max(op, mt.clkValue(mt.planClk(e.px.at(vec[i], t, a), e.px.at(vec[j], t, a), T-t)))
				}
				if mt.err != nil {
					return nil, mt.err
				}
				s.Sliced[t] = math.Max(s.Sliced[t], sl)
				s.Op[t] = math.Max(s.Op[t], op)
				gap := math.Abs(sl - op)
				s.PerDepth[t] = math.Max(s.PerDepth[t], gap)
			}
		}
	}
	for t, v := range s.PerDepth {
		if v > s.Value {
			s.Value, s.Depth = v, t
		}
	}
	if err := e.overflow(); err != nil {
		return nil, err
	}
	return s, nil
}
