package law

import (
	"fmt"
	"math"
	"strings"
)

// Tree is the observation-history tree of depth T over |O| observations:
// Σ_{t=0..T} |O|^t histories. A history is (t, i) with depth t and index
// i ∈ [0, |O|^t); its global ID is Offset(t) + i.
type Tree struct {
	NumObs int
	T      int
	pow    []int // pow[k] = |O|^k
	off    []int // off[t] = Σ_{u<t} |O|^u
}

// MaxHistories bounds the tree size accepted by NewTree unless raised by the
// caller through NewTreeLimit.
const MaxHistories = 1 << 24

// NewTree returns the history tree, or an error when it would have more than
// MaxHistories nodes.
func NewTree(numObs, T int) (Tree, error) { return NewTreeLimit(numObs, T, MaxHistories) }

// NewTreeLimit is NewTree with an explicit limit on the number of histories.
func NewTreeLimit(numObs, T, limit int) (Tree, error) {
	if numObs < 1 {
		return Tree{}, fmt.Errorf("law: need at least one observation")
	}
	if T < 0 {
		return Tree{}, fmt.Errorf("law: horizon T = %d is negative", T)
	}
	est := 0.0
	for t := 0; t <= T; t++ {
		est += math.Pow(float64(numObs), float64(t))
	}
	if est > float64(limit) {
		return Tree{}, fmt.Errorf("law: the history tree for |O| = %d and T = %d has %.4g histories, above the limit %d; lower T or raise the limit", numObs, T, est, limit)
	}
	tr := Tree{NumObs: numObs, T: T, pow: make([]int, T+1), off: make([]int, T+2)}
	tr.pow[0] = 1
	for k := 1; k <= T; k++ {
		tr.pow[k] = tr.pow[k-1] * numObs
	}
	for t := 0; t <= T; t++ {
		tr.off[t+1] = tr.off[t] + tr.pow[t]
	}
	return tr, nil
}

// Len returns the number of histories Σ_{t=0..T} |O|^t.
func (tr Tree) Len() int { return tr.off[tr.T+1] }

// Count returns |O|^t, the number of histories of depth t.
func (tr Tree) Count(t int) int { return tr.pow[t] }

// Offset returns the global ID of the first history of depth t.
func (tr Tree) Offset(t int) int { return tr.off[t] }

// SuffixLen returns |O|^{T−t}, the number of suffixes after a depth-t history.
func (tr Tree) SuffixLen(t int) int { return tr.pow[tr.T-t] }

// History returns the observation indices (o_1 … o_t) of history (t, i).
func (tr Tree) History(t, i int) []int {
	h := make([]int, t)
	for k := t - 1; k >= 0; k-- {
		h[k] = i % tr.NumObs
		i /= tr.NumObs
	}
	return h
}

// Index returns the index of the history h within its depth.
func (tr Tree) Index(h []int) int {
	i := 0
	for _, o := range h {
		i = i*tr.NumObs + o
	}
	return i
}

// Label returns a printable name of history (t, i): "ε" for the empty
// history, the concatenated names when every name is one character
// ("LR"), else the names joined by "·" ("NE·SW"), which cannot be confused
// with the commas of a list of histories.
func (tr Tree) Label(names []string, t, i int) string {
	if t == 0 {
		return "ε"
	}
	h := tr.History(t, i)
	parts := make([]string, t)
	short := true
	for k, o := range h {
		if o < len(names) {
			parts[k] = names[o]
		} else {
			parts[k] = fmt.Sprint(o)
		}
		if len([]rune(parts[k])) != 1 {
			short = false
		}
	}
	if short {
		return strings.Join(parts, "")
	}
	return strings.Join(parts, "·")
}
