package bench

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// checkGroups verifies that groups partition {0, …, n−1} into non-empty
// sets and returns the group of each point.
func checkGroups(n int, groups [][]int) ([]int, error) {
	of := make([]int, n)
	for i := range of {
		of[i] = -1
	}
	for g, grp := range groups {
		if len(grp) == 0 {
			return nil, fmt.Errorf("bench: coarsening group %d is empty", g)
		}
		for _, o := range grp {
			if o < 0 || o >= n {
				return nil, fmt.Errorf("bench: coarsening group %d: observation %d outside [0, %d)", g, o, n)
			}
			if of[o] >= 0 {
				return nil, fmt.Errorf("bench: coarsening: observation %d is in groups %d and %d", o, of[o], g)
			}
			of[o] = g
		}
	}
	for o, g := range of {
		if g < 0 {
			return nil, fmt.Errorf("bench: coarsening: observation %d is in no group", o)
		}
	}
	return of, nil
}

// CoarsenObservations returns the model m seen through the deterministic
// observation channel that maps every observation of groups[g] to the new
// observation names[g] (paper def:wrapper with a deterministic channel C;
// thm:data-processing):
//
//	Z'(s', a, g) = Σ_{o ∈ groups[g]} Z(s', a, o).
//
// States, actions, T (shared kernel values), R and b0 (copied) are those of
// m; the name is m.Name + "/coarse". groups must partition the observation
// indices of m into non-empty sets and names must hold one distinct,
// non-empty name per group; otherwise an error is returned. It costs
// O(nnz(Z)).
func CoarsenObservations(m *pomdp.Model, groups [][]int, names []string) (*pomdp.Model, error) {
	of, err := checkGroups(m.NumObservations(), groups)
	if err != nil {
		return nil, fmt.Errorf("%w (model %s)", err, m.Name)
	}
	if len(names) != len(groups) {
		return nil, fmt.Errorf("bench: coarsening %s: %d names for %d groups", m.Name, len(names), len(groups))
	}
	nS := m.NumStates()
	Z := make([]*pomdp.Sparse, len(m.Z))
	for a, z := range m.Z {
		if a > 0 && z == m.Z[a-1] {
			Z[a] = Z[a-1] // keep shared observation kernels shared
			continue
		}
		Z[a] = buildCSR(nS, len(groups), func(s int, add func(int, float64)) {
			cols, vals := z.Row(s)
			for k, o := range cols {
				add(of[o], vals[k])
			}
		})
	}
	R := make([][]float64, len(m.R))
	for s, row := range m.R {
		R[s] = append([]float64(nil), row...)
	}
	c := &pomdp.Model{
		Name:         m.Name + "/coarse",
		States:       m.States,
		Actions:      m.Actions,
		Observations: append([]string(nil), names...),
		Discount:     m.Discount,
		HasDiscount:  m.HasDiscount,
		T:            append([]pomdp.Kernel(nil), m.T...),
		Z:            Z,
		R:            R,
		B0:           append([]float64(nil), m.B0...),
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// CoarsenGround returns the quotient metric of g under the grouping: the
// largest pseudometric d' on the groups for which the merge map is
// 1-Lipschitz (channel constant L_C ≤ 1, paper def:wrapper), namely the
// shortest-path closure of
//
//	d₀(I, J) = min_{i ∈ I, j ∈ J} d(i, j),   d₀(I, I) = 0.
//
// For the GridWorld North/South merge of GridGround this gives
// d'(North, South) = 0.5. groups must partition {0, …, len(g)−1} into
// non-empty sets; otherwise an error is returned. It costs
// O(len(g)² + k³) for k groups.
func CoarsenGround(g ot.Ground, groups [][]int) (ot.Ground, error) {
	of, err := checkGroups(len(g), groups)
	if err != nil {
		return nil, err
	}
	k := len(groups)
	d := make([][]float64, k)
	for i := range d {
		d[i] = make([]float64, k)
		for j := range d[i] {
			if i != j {
				d[i][j] = math.Inf(1)
			}
		}
	}
	for i := range g {
		for j := range g {
			I, J := of[i], of[j]
			if I != J {
				d[I][J] = math.Min(d[I][J], g[i][j])
			}
		}
	}
	for m := 0; m < k; m++ {
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				d[i][j] = math.Min(d[i][j], d[i][m]+d[m][j])
			}
		}
	}
	return ot.NewGround(d)
}
