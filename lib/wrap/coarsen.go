package wrap

import (
	"fmt"
	"math"
	"math/big"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// MaxCoverSubsets is the number of candidate subsets Cover examines unless
// the caller raises it.
const MaxCoverSubsets = 1 << 22

// Cover returns a minimum δ-covering O_δ of the observations under g
// (def:delta-coarsening): a smallest set of observation indices such that
// every o has min_{r ∈ O_δ} g[o][r] ≤ δ + partition.ZeroTol. Among the
// smallest it returns the first in lexicographic order of increasing index
// lists (minimum coverings are rarely unique; Quantize accepts any other).
//
// The search is exhaustive by size, Σ_{k ≤ |O_δ|} C(|O|, k) subsets of O(|O|·k)
// each; before searching a size it counts that size's subsets and returns an
// error when the running total would exceed limit (0 means MaxCoverSubsets),
// naming the limit to raise. It returns an error for δ < 0 or NaN and for an
// empty metric.
func Cover(g ot.Ground, delta float64, limit int) ([]int, error) {
	n := len(g)
	if n == 0 {
		return nil, fmt.Errorf("wrap: cover of an empty observation set")
	}
	if !(delta >= 0) {
		return nil, fmt.Errorf("wrap: cover resolution δ = %v must be ≥ 0", delta)
	}
	if limit <= 0 {
		limit = MaxCoverSubsets
	}
	covers := make([]uint64, n) // covers[r]: bit o when d(o, r) ≤ δ
	if n > 64 {
		return nil, fmt.Errorf("wrap: cover of %d observations: at most 64 supported", n)
	}
	for r := range n {
		for o := range n {
			if g[o][r] <= delta+partition.ZeroTol {
				covers[r] |= 1 << o
			}
		}
	}
	all := uint64(1)<<n - 1
	if n == 64 {
		all = math.MaxUint64
	}
	examined := new(big.Int)
	for k := 1; k <= n; k++ {
		examined.Add(examined, new(big.Int).Binomial(int64(n), int64(k)))
		if examined.Cmp(big.NewInt(int64(limit))) > 0 {
			return nil, fmt.Errorf("wrap: a δ-cover of %d observations needs more than %d elements; searching size %d means %v subsets, over the limit %d (raise it)", n, k-1, k, examined, limit)
		}
		idx := make([]int, k)
		for i := range idx {
			idx[i] = i
		}
		for {
			var u uint64
			for _, r := range idx {
				u |= covers[r]
			}
			if u == all {
				return idx, nil
			}
			// next combination in lexicographic order
			i := k - 1
			for i >= 0 && idx[i] == n-k+i {
				i--
			}
			if i < 0 {
				break
			}
			idx[i]++
			for j := i + 1; j < k; j++ {
				idx[j] = idx[j-1] + 1
			}
		}
	}
	return nil, fmt.Errorf("wrap: no δ-cover found") // unreachable: O itself covers
}

// Coarsening is a δ_O-coarsening of the observations (def:delta-coarsening):
// the representatives O_δ, the quantization map q_δ and the channel it
// defines.
type Coarsening struct {
	// Reps are the representatives O_δ (indices into O, in the order given).
	Reps []int
	// Map[o] is the index into Reps of q_δ(o) = argmin_{r ∈ O_δ} d_O(o, r)
	// (ties to the first representative).
	Map []int
	// Delta is the achieved resolution δ_O = max_o d_O(o, q_δ(o)).
	Delta float64
	// Channel is the deterministic channel o ↦ q_δ(o); its outputs are
	// named after the representatives and its metric is d_O restricted to
	// O_δ.
	Channel *Channel
}

// Quantize returns the coarsening of the observations names (metric g) onto
// the representatives reps. It returns an error when reps is empty, holds
// an index outside O or a repeated index, or when names and g differ in size.
// Cost O(|O|·|O_δ|) plus the channel's construction.
func Quantize(g ot.Ground, names []string, reps []int) (*Coarsening, error) {
	n := len(g)
	if len(names) != n {
		return nil, fmt.Errorf("wrap: %d observation names for a %d×%d metric", len(names), n, n)
	}
	if len(reps) == 0 {
		return nil, fmt.Errorf("wrap: a coarsening needs at least one representative")
	}
	seen := map[int]bool{}
	for _, r := range reps {
		if r < 0 || r >= n || seen[r] {
			return nil, fmt.Errorf("wrap: representative %d is outside [0, %d) or repeated", r, n)
		}
		seen[r] = true
	}
	c := &Coarsening{Reps: append([]int(nil), reps...), Map: make([]int, n)}
	groups := make([][]int, len(reps))
	for o := range n {
		best := 0
		for j, r := range reps {
			if g[o][r] < g[o][reps[best]] {
				best = j
			}
		}
		c.Map[o] = best
		c.Delta = math.Max(c.Delta, g[o][reps[best]])
		groups[best] = append(groups[best], o)
	}
	outNames := make([]string, len(reps))
	sub := make([][]float64, len(reps))
	for i, r := range reps {
		outNames[i] = names[r]
		sub[i] = make([]float64, len(reps))
		for j, s := range reps {
			sub[i][j] = g[r][s]
		}
	}
	p := make([][]float64, n)
	for o := range p {
		p[o] = make([]float64, len(reps))
		p[o][c.Map[o]] = 1
	}
	ch, err := NewChannel(p, outNames, sub)
	if err != nil {
		return nil, err
	}
	c.Channel = ch
	return c, nil
}

// Histories returns Σ_{t=0..T} |O_δ|^t, the number of coarsened histories
// and so the largest class count of a quotient under the coarsened agent
// class (prop:obs-resolution (b)).
func (c *Coarsening) Histories(T int) int { return HistoriesDirect(len(c.Reps), T) }
