package nb

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// EquivProps collects the checks of prop:equiv-props for one setting and
// threshold (see [CheckEquivProps]): counts of what was checked, of the
// violations, and the largest deviations.
type EquivProps struct {
	Refl, Pairs, Triples, Premise, TransViol, RIChecks, RIViol int
	TriViol                                                    int
	ReflMax, SymMax, LibMax, TriMargin                         float64
	Counts, Bound                                              []int // classes per depth, histories per depth
}

// CheckEquivProps tests the relation d^Π ≤ thr (thr = 0: ≡^Π) on every
// history of r at horizon T: reflexivity (W1 of every law of ls with
// itself), symmetry and agreement with the library of independently
// computed distances (fwd[t] holds d(h_i, h_j), bwd[t] d(h_j, h_i), i < j),
// the triangle inequality and transitivity over all triples, and right
// invariance (h ~ h′ ⇒ h·z ~ h′·z) of the relation.
func CheckEquivProps(r *distance.Result, ls []*law.Laws, fwd, bwd []partition.Matrix, g ot.Ground, T int, thr float64) (EquivProps, error) {
	if len(r.D) <= T || len(fwd) < T || len(bwd) < T {
		return EquivProps{}, fmt.Errorf("nb: CheckEquivProps: distances of %d, %d and %d depths for T = %d", len(r.D), len(fwd), len(bwd), T)
	}
	res := EquivProps{TriMargin: math.Inf(1)}
	p := r.Partition(thr)
	var s ot.Solver
	for t := 0; t <= T; t++ {
		n := r.Tree.Count(t)
		res.Counts, res.Bound = append(res.Counts, p.Classes(t)), append(res.Bound, n)
		if t == T {
			break
		}
		if err := res.pairs(&s, r.D[t], fwd[t], bwd[t], ls, g, T, t, n); err != nil {
			return res, err
		}
		res.triples(r.D[t], n, thr)
		if t+1 < T {
			res.rightInvariance(r.D[t], r.D[t+1], n, r.Tree.NumObs, thr)
		}
	}
	return res, nil
}

// pairs checks reflexivity, symmetry and the library's distances at depth t.
func (res *EquivProps) pairs(s *ot.Solver, d, fwd, bwd partition.Matrix, ls []*law.Laws, g ot.Ground, T, t, n int) error {
	for i := 0; i < n; i++ {
		for _, l := range ls {
			w, err := s.SeqW1(g, T-t, l.Suffix(t, i), l.Suffix(t, i))
			if err != nil {
				return fmt.Errorf("depth %d, history %d: %w", t, i, err)
			}
			res.ReflMax = math.Max(res.ReflMax, w.Value)
		}
		res.Refl++
		for j := i + 1; j < n; j++ {
			res.Pairs++
			res.SymMax = math.Max(res.SymMax, math.Abs(fwd.At(i, j)-bwd.At(i, j)))
			res.LibMax = math.Max(res.LibMax, math.Abs(fwd.At(i, j)-d.At(i, j)))
		}
	}
	return nil
}

// triples checks the triangle inequality and transitivity of d ≤ thr over
// all n³ triples of one depth.
func (res *EquivProps) triples(d partition.Matrix, n int, thr float64) {
	eq := func(i, j int) bool { return d.At(i, j) <= thr+partition.ZeroTol }
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				res.Triples++
				margin := d.At(i, j) + d.At(j, k) - d.At(i, k)
				res.TriMargin = math.Min(res.TriMargin, margin)
				if margin < -1e-12 {
					res.TriViol++
				}
				if eq(i, j) && eq(j, k) {
					res.Premise++
					if !eq(i, k) {
						res.TransViol++
					}
				}
			}
		}
	}
}

// rightInvariance checks h ~ h′ ⇒ h·z ~ h′·z from depth d to depth next.
func (res *EquivProps) rightInvariance(d, next partition.Matrix, n, nO int, thr float64) {
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			for z := 0; z < nO && d.At(i, j) <= thr+partition.ZeroTol; z++ {
				res.RIChecks++
				if next.At(i*nO+z, j*nO+z) > thr+partition.ZeroTol {
					res.RIViol++
				}
			}
		}
	}
}

// ClassRightInvariance checks right invariance of a partition's classes on
// the history tree tr up to horizon T: h, h′ in one class ⇒ h·z, h′·z in
// one class. It returns the number of (h, h′, z) checked and of violations.
func ClassRightInvariance(tr law.Tree, p *partition.Partition, T int) (checks, viol int) {
	nO := tr.NumObs
	for t := 0; t+1 < T; t++ {
		for i := 0; i < tr.Count(t); i++ {
			for j := i + 1; j < tr.Count(t); j++ {
				for z := 0; z < nO && p.Labels[t][i] == p.Labels[t][j]; z++ {
					checks++
					if p.Labels[t+1][i*nO+z] != p.Labels[t+1][j*nO+z] {
						viol++
					}
				}
			}
		}
	}
	return checks, viol
}
