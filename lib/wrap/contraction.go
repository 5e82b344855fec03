package wrap

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/distance"
)

// ContractionTol is the slack of PairwiseContraction's comparison.
const ContractionTol = 1e-12

// PairwiseContraction checks thm:data-processing history by history for a
// deterministic channel c: orig holds d^Π on M's history tree, coarse holds
// d^{Π'} on W(M)'s tree (same horizon), both from trajectory laws of
// positive probability. The conditional law after a coarse history h̄ is
// the channel's pushforward of a mixture of the laws after its preimages, so
//
//	d_{W(M)}(h̄, h̄') ≤ L · max_{h ∈ c⁻¹(h̄), h' ∈ c⁻¹(h̄')} d_M(h, h')
//
// for L ≥ L_C and a probe family closed under pullback. It returns the
// number of coarse pairs (of every depth) violating it beyond ContractionTol
// and the number of pairs checked. Under a stand-in convention, zero-probability
// coarse histories need not satisfy it. Cost O(Σ_t |O|^{2t}). It returns an
// error when c is not deterministic or the trees do not match c.
func PairwiseContraction(orig, coarse *distance.Result, c *Channel, L float64) (violations, pairs int, err error) {
	groups, ok := c.Groups()
	if !ok {
		return 0, 0, fmt.Errorf("wrap: PairwiseContraction needs a deterministic channel")
	}
	if orig.Tree.NumObs != c.Inputs() || coarse.Tree.NumObs != c.Outputs() || orig.Tree.T != coarse.Tree.T {
		return 0, 0, fmt.Errorf("wrap: trees (|O| = %d, T = %d) and (|O'| = %d, T = %d) do not match a channel %d → %d",
			orig.Tree.NumObs, orig.Tree.T, coarse.Tree.NumObs, coarse.Tree.T, c.Inputs(), c.Outputs())
	}
	out := make([]int, c.Inputs())
	for j, g := range groups {
		for _, o := range g {
			out[o] = j
		}
	}
	nO, nO2 := c.Inputs(), c.Outputs()
	for t := 1; t < orig.Tree.T; t++ {
		pre := make([][]int, coarse.Tree.Count(t))
		for i := 0; i < orig.Tree.Count(t); i++ {
			ci, x := 0, i
			scale := 1
			for range t { // least significant observation first
				ci += out[x%nO] * scale
				x /= nO
				scale *= nO2
			}
			pre[ci] = append(pre[ci], i)
		}
		for a := range pre {
			for b := a + 1; b < len(pre); b++ {
				mx := 0.0
				for _, i := range pre[a] {
					for _, j := range pre[b] {
						mx = max(mx, orig.D[t].At(i, j))
					}
				}
				pairs++
				if !(coarse.D[t].At(a, b) <= L*mx+ContractionTol) {
					violations++
				}
			}
		}
	}
	return violations, pairs, nil
}
