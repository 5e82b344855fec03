package nb

import (
	"context"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

// EpsRow is one ε of def:eps-equiv on one model (see [EpsEquiv]).
type EpsRow struct {
	Model   string
	T       int
	Eps     float64
	Classes int     // classes of the greedy ε-partition
	Diam    float64 // its largest in-class distance
	D       float64 // D_T^Π(M, Q_ε) over Π^op_1
	PropC1  float64 // the bound ε(1 + 2T|S||O|) of prop:eps-quotient-c1
}

// EpsEquiv measures, for benchmark b (named name) at horizon T and each ε
// of eps, D(M, Q_ε) over Π^op_1 (one deterministic node: the constant
// strings) for the quotient Q_ε of the greedy ε-partition of d^Π.
func EpsEquiv(ctx context.Context, b bench.Benchmark, name string, T int, eps []float64) ([]EpsRow, error) {
	m := b.Model
	op1, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), 1, fsc.Options{})
	if err != nil {
		return nil, err
	}
	r, err := distance.Compute(ctx, m, op1, T, distance.Options{Ground: b.Ground})
	if err != nil {
		return nil, err
	}
	var rows []EpsRow
	for _, e := range eps {
		p := r.Partition(e)
		q, err := quotient.New(m, T, p)
		if err != nil {
			return nil, err
		}
		d, err := wrap.Distance(ctx, wrap.Fixed(m), wrap.Quotient(q), op1, T, b.Ground)
		if err != nil {
			return nil, err
		}
		rows = append(rows, EpsRow{name, T, e, p.Total(), wrap.Diameter(r.D, p), d.Distance,
			e * float64(1+2*T*m.NumStates()*m.NumObservations())})
	}
	return rows, nil
}
