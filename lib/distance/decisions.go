package distance

import (
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/partition"
)

// Decisions is the compact layout of a decision-mode run
// (Options.Compact): instead of the distance of each pair of class
// representatives, which listed ε it is within. Apart[t][k] holds the
// pairs of depth-t classes with d^Π > Eps[k] + partition.ZeroTol, one bit
// per pair: exactly what the greedy partition at Eps[k] reads
// (partition.GreedyApart), so the partitions are those of the distance
// matrices, label for label.
//
// A pair's bits are a thermometer code: it is apart at Eps[k] for every k
// below the index of the smallest threshold it is within. The maximum of
// two codes (the merge over probes) is then the union of their bits, and
// workers mark one shared Decisions concurrently.
type Decisions struct {
	// Eps are the listed ε, ascending, without duplicates.
	Eps []float64
	// Apart[t][k]: the pairs of depth-t classes farther apart than
	// Eps[k] + partition.ZeroTol. Depth T has no storage.
	Apart [][]partition.Apart
	// Max is the largest distance computed, or lower bound recorded,
	// over all pairs: Result.MaxDistance.
	Max float64
	thr []float64 // Eps[k] + partition.ZeroTol
}

// newDecisions returns empty decisions at the listed ε over the classes
// of each depth (reps), nT classes at depth T.
func newDecisions(eps []float64, reps [][]int, T, nT int) *Decisions {
	d := &Decisions{Eps: decisionEps(eps), Apart: make([][]partition.Apart, T+1)}
	for _, e := range d.Eps {
		d.thr = append(d.thr, e+partition.ZeroTol)
	}
	for t := range d.Apart {
		planes := make([]partition.Apart, len(d.Eps))
		for k := range planes {
			if t == T {
				planes[k] = partition.Apart{N: nT}
			} else {
				planes[k] = partition.NewApart(len(reps[t]))
			}
		}
		d.Apart[t] = planes
	}
	return d
}

// decisionEps returns eps sorted, without duplicates (−0 counts as 0).
func decisionEps(eps []float64) []float64 {
	out := make([]float64, 0, len(eps))
	for _, e := range eps {
		out = append(out, e+0) // −0 + 0 = +0
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// code returns how many thresholds pair idx of depth t is known to
// exceed: it is within Eps[code] (when code < len(Eps)) as far as the
// probes seen so far tell. Bits are set from the lowest threshold up, so
// scanning from the highest reads a consistent code.
func (d *Decisions) code(t, idx int) int {
	planes := d.Apart[t]
	for k := len(planes) - 1; k >= 0; k-- {
		if planes[k].Has(idx) {
			return k + 1
		}
	}
	return 0
}

// mark records that pair idx of depth t is at least w apart.
func (d *Decisions) mark(t, idx int, w float64) {
	planes := d.Apart[t]
	for k, thr := range d.thr {
		if w <= thr {
			return
		}
		planes[k].Set(idx)
	}
}

// bracket returns the code of a pair at distance w: the number of
// thresholds w exceeds.
func (d *Decisions) bracket(w float64) int {
	k := 0
	for k < len(d.thr) && w > d.thr[k] {
		k++
	}
	return k
}

// upper returns the largest distance a pair of the given code can hold
// without changing it: its threshold, +Inf above the last.
func (d *Decisions) upper(code int) float64 {
	if code == len(d.thr) {
		return math.Inf(1)
	}
	return d.thr[code]
}

// partition returns the greedy partition of the classes at a listed ε.
func (d *Decisions) partition(eps float64) *partition.Partition {
	k := slices.Index(d.Eps, eps)
	if k < 0 {
		panic(fmt.Sprintf("distance: Partition(%g) of a compact run (Options.Compact) that decided ε ∈ %v only; add %g to Options.Eps", eps, d.Eps, eps))
	}
	planes := make([]partition.Apart, len(d.Apart))
	for t, p := range d.Apart {
		planes[t] = p[k]
	}
	return partition.GreedyApart(planes)
}

// bytes returns the storage of decisions at k thresholds over the given
// class counts (depths < T).
func decisionBytes(classes []int, k int) int64 {
	var b int64
	for t := 0; t+1 < len(classes); t++ {
		b += 8 * int64(partition.ApartWords(classes[t])) * int64(k)
	}
	return b
}
