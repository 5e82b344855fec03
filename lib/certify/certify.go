package certify

import (
	"fmt"
	"math"
	"sort"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// Tensor is the distance tensor D_{(i,j),p}: one row per history pair (all
// depths concatenated in depth order, pairs in condensed order) and one
// column per distinct probe, columns ordered by their first family index.
type Tensor struct {
	// Cols[p] holds column p's distances over all pairs.
	Cols [][]float64
	// First[p] is the smallest family index with column p's laws.
	First []int
	// shape of the per-depth matrices, to rebuild envelopes: sizes[d]
	// histories, pairs[d] stored pairs (0 at depth T)
	sizes, pairs []int
	res          *distance.Result
}

// FromResult builds the tensor from a result computed with Options.Tensor.
func FromResult(r *distance.Result) (*Tensor, error) {
	if r.Tensor == nil {
		return nil, fmt.Errorf("certify: the distance result has no tensor; compute it with distance.Options{Tensor: true}")
	}
	first := make([]int, len(r.Tensor))
	for k := range first {
		first[k] = -1
	}
	for i, c := range r.Column {
		if first[c] < 0 {
			first[c] = i
		}
	}
	order := make([]int, len(r.Tensor))
	for k := range order {
		order[k] = k
	}
	sort.Slice(order, func(a, b int) bool { return first[order[a]] < first[order[b]] })
	t := &Tensor{res: r}
	for d, m := range r.D {
		t.sizes = append(t.sizes, m.N)
		t.pairs = append(t.pairs, len(r.Tensor[0][d].Data))
	}
	for _, k := range order {
		var col []float64
		for _, m := range r.Tensor[k] {
			col = append(col, m.Data...)
		}
		t.Cols = append(t.Cols, col)
		t.First = append(t.First, first[k])
	}
	return t, nil
}

// Pairs returns the number of history pairs (rows).
func (t *Tensor) Pairs() int {
	if len(t.Cols) == 0 {
		return 0
	}
	return len(t.Cols[0])
}

// Full returns the full probe envelope d(u) = max_p D_{u,p}.
func (t *Tensor) Full() []float64 {
	all := make([]int, len(t.Cols))
	for p := range all {
		all[p] = p
	}
	return t.Envelope(all)
}

// Envelope returns d_S(u) = max_{p ∈ S} D_{u,p} for the columns S (zero
// for the empty subset).
func (t *Tensor) Envelope(S []int) []float64 {
	env := make([]float64, t.Pairs())
	for _, p := range S {
		for u, v := range t.Cols[p] {
			env[u] = math.Max(env[u], v)
		}
	}
	return env
}

// Matrices splits an envelope back into per-depth matrices.
func (t *Tensor) Matrices(env []float64) []partition.Matrix {
	out := make([]partition.Matrix, len(t.sizes))
	off := 0
	for d, n := range t.sizes {
		out[d] = partition.NewMatrix(n)
		copy(out[d].Data, env[off:off+t.pairs[d]])
		off += t.pairs[d]
	}
	return out
}

// Greedy returns the first k columns chosen by alg:greedy-fsc: each step
// adds the column p maximising the coverage gain Σ_u max(0, D_{u,p} − d*_u),
// ties going to the column listed first (the smallest family index), and
// stops early when no column adds coverage. The objective is monotone
// submodular, so f(S_k) ≥ (1 − 1/e) f(S*_k) (prop:submodular).
func Greedy(t *Tensor, k int) []int {
	best := make([]float64, t.Pairs())
	used := make([]bool, len(t.Cols))
	var S []int
	for len(S) < k {
		arg, gain := -1, 0.0
		for p, col := range t.Cols {
			if used[p] {
				continue
			}
			g := 0.0
			for u, v := range col {
				if v > best[u] {
					g += v - best[u]
				}
			}
			if arg < 0 || g > gain {
				arg, gain = p, g
			}
		}
		if arg < 0 {
			break
		}
		used[arg] = true
		S = append(S, arg)
		for u, v := range t.Cols[arg] {
			best[u] = math.Max(best[u], v)
		}
	}
	return S
}

// Gap returns δ_S = max_u (d(u) − d_S(u)), the probe-envelope gap of S.
func Gap(t *Tensor, S []int) float64 {
	full, sub := t.Full(), t.Envelope(S)
	g := 0.0
	for u := range full {
		g = math.Max(g, full[u]-sub[u])
	}
	return g
}

// Row is one line of a partition-agreement report (tab:partition-agreement).
type Row struct {
	Eps         float64
	K           int     // subset size asked for
	Selected    []int   // family indices of the chosen controllers
	DeltaS      float64 // δ_S
	FullClasses int     // classes of the full family's ε-partition
	SubClasses  int     // classes of the subset's ε-partition
	ARI         float64 // between the two partitions
}

// Agreement returns, for each budget k, the greedy subset, its certificate
// δ_S and the agreement of its ε-partition with the full family's.
func Agreement(t *Tensor, eps float64, budgets []int) []Row {
	full := partition.Greedy(t.Matrices(t.Full()), eps)
	var rows []Row
	for _, k := range budgets {
		S := Greedy(t, k)
		sub := partition.Greedy(t.Matrices(t.Envelope(S)), eps)
		sel := make([]int, len(S))
		for i, p := range S {
			sel[i] = t.First[p]
		}
		rows = append(rows, Row{Eps: eps, K: k, Selected: sel, DeltaS: Gap(t, S),
			FullClasses: full.Total(), SubClasses: sub.Total(), ARI: partition.ARIPartitions(full, sub)})
	}
	return rows
}
