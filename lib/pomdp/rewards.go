package pomdp

import (
	"fmt"
	"math"
	"sort"
)

// RewardTable is the reward R(s, a, s', o) of a model whose file made it
// depend on the next state s' or the observation o. Model.R holds its
// expectation
//
//	R(s, a) = Σ_{s'} T(s, a, s') Σ_o Z(s', a, o) R(s, a, s', o),
//
// which is all that the value of a policy needs, and which every value
// computation of this module uses; the table is kept so that nothing the
// file said is lost when the model is written again (cassandra.Write,
// pomdpx.Write and pomdpjson.Write write it, and their readers read it back entry
// for entry), and for readings of the reward paid on an observed
// transition (Model.Reward).
//
// It is sparse. It holds only the pairs (s, a) on which the reward is not
// one value for every (s', o) that can follow (a pair whose reward is the
// same for all of them pays exactly R(s, a) and is not stored), and for
// each such pair one entry per (s', o) with T(s, a, s')·Z(s', a, o) > 0,
// ordered by s' and then o: the entries where T·Z = 0 can never be paid,
// and no file form keeps them. A model whose rewards depend only on s and
// a has no table (Model.Rewards is nil), so RockSample-sized models cost
// nothing more.
type RewardTable struct {
	// Pairs lists the pairs held, as a·|S| + s, strictly increasing.
	Pairs []int
	// Ptr has len(Pairs)+1 entries: the entries of Pairs[k] are those
	// with index Ptr[k] ≤ i < Ptr[k+1].
	Ptr []int
	// Next, Obs and Val are the entries: s', o and R(s, a, s', o).
	Next, Obs []int32
	Val       []float64
}

// NumEntries returns the number of entries R(s, a, s', o) held.
func (t *RewardTable) NumEntries() int {
	if t == nil {
		return 0
	}
	return len(t.Val)
}

// Pair returns the position of pair a·nS + s in t.Pairs, or -1.
func (t *RewardTable) Pair(key int) int {
	k := sort.SearchInts(t.Pairs, key)
	if k < len(t.Pairs) && t.Pairs[k] == key {
		return k
	}
	return -1
}

// Reward returns R(s, a, s', o), the reward paid when action a taken in
// state s leads to s' and the observation o: the entry of Model.Rewards
// when the pair (s, a) has one, else R(s, a) (also for a (s', o) that
// cannot follow). It costs O(log) time.
func (m *Model) Reward(s, a, s2, o int) float64 {
	t := m.Rewards
	if t == nil {
		return m.R[s][a]
	}
	k := t.Pair(a*len(m.States) + s)
	if k < 0 {
		return m.R[s][a]
	}
	lo, hi := t.Ptr[k], t.Ptr[k+1]
	i := lo + sort.Search(hi-lo, func(i int) bool {
		e := lo + i
		return int(t.Next[e]) > s2 || int(t.Next[e]) == s2 && int(t.Obs[e]) >= o
	})
	if i < hi && int(t.Next[i]) == s2 && int(t.Obs[i]) == o {
		return t.Val[i]
	}
	return m.R[s][a]
}

// checkRewardTable checks the structure of m.Rewards, that each pair's
// entries are the (s', o) that can follow it in order, with finite values
// not all equal, and that R(s, a) is their expectation (within 1e-9 of the
// largest reward of the pair).
func (m *Model) checkRewardTable() error {
	t := m.Rewards
	if t == nil {
		return nil
	}
	nS, nA := len(m.States), len(m.Actions)
	bad := func(format string, args ...any) error {
		return m.entryErr("rewards", -1, -1, -1, -1, format, args...)
	}
	if len(t.Ptr) != len(t.Pairs)+1 || t.Ptr[0] != 0 || t.Ptr[len(t.Pairs)] != len(t.Val) ||
		len(t.Next) != len(t.Val) || len(t.Obs) != len(t.Val) {
		return bad("malformed table: %d pairs, %d pointers, %d/%d/%d entries", len(t.Pairs), len(t.Ptr), len(t.Next), len(t.Obs), len(t.Val))
	}
	for k, key := range t.Pairs {
		if key < 0 || key >= nS*nA || k > 0 && key <= t.Pairs[k-1] {
			return bad("pair %d (%d) is out of range or out of order", k, key)
		}
		lo, hi := t.Ptr[k], t.Ptr[k+1]
		if lo > hi || hi > len(t.Val) {
			return bad("pair %d: entries [%d, %d) are not a valid range", k, lo, hi)
		}
		a, s := key/nS, key%nS
		e := &EntryError{Model: m.Name, Field: "R", Action: a, State: s, Next: -1, Obs: -1, names: m}
		i := lo
		total, lead, same := 0.0, 0.0, true
		var fail error
		m.T[a].Entries(s, func(s2 int, p float64) {
			cols, vals := m.Z[a].Row(s2)
			inner := 0.0
			for c, o := range cols {
				if fail != nil {
					return
				}
				if i >= hi || int(t.Next[i]) != s2 || int(t.Obs[i]) != o {
					e.Msg = fmt.Sprintf("R(s, a, s', o): the entries must be the (s', o) with T·Z > 0 in order; (%s, %s) is missing or out of place", m.States[s2], m.Observations[o])
					fail = e
					return
				}
				r := t.Val[i]
				if math.IsNaN(r) || math.IsInf(r, 0) {
					e.Msg = fmt.Sprintf("R(s, a, %s, %s) = %v is not finite", m.States[s2], m.Observations[o], r)
					fail = e
					return
				}
				if r != t.Val[lo] {
					same = false
				}
				lead = max(lead, math.Abs(r))
				inner += vals[c] * r
				i++
			}
			total += p * inner
		})
		if fail != nil {
			return fail
		}
		if i != hi {
			e.Msg = fmt.Sprintf("R(s, a, s', o): %d entries for %d pairs (s', o) that can follow", hi-lo, i-lo)
			return e
		}
		if same {
			e.Msg = "R(s, a, s', o) is the same for every (s', o); such a pair is R(s, a) and is not stored"
			return e
		}
		if !(math.Abs(total-m.R[s][a]) <= 1e-9*(1+lead)) {
			e.Msg = fmt.Sprintf("R(s, a) = %v is not the expectation %v of R(s, a, s', o)", m.R[s][a], total)
			return e
		}
	}
	return nil
}

// RewardSummary describes how m holds its rewards, for a report:
// "R(s,a)" or "R(s,a,s',o) kept (N entries); values use the expectation".
func (m *Model) RewardSummary() string {
	if m.Rewards == nil {
		return "R(s,a)"
	}
	return fmt.Sprintf("R(s,a,s',o) kept (%d entries); values use the expectation R(s,a)", m.Rewards.NumEntries())
}
