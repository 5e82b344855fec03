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
// file said is lost when the model is written again (WriteCassandra,
// WritePOMDPX and WriteJSON write it, and their readers read it back entry
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

// pair returns the position of pair a·nS + s in t.Pairs, or -1.
func (t *RewardTable) pair(key int) int {
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
	k := t.pair(a*len(m.States) + s)
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

// rewardBuilder fills Model.R and Model.Rewards from a reward given entry
// by entry; every reader uses it, so that the expectation is computed the
// same way (the same sums in the same order) whatever the format, and a
// model written and read back has the same R bit for bit.
type rewardBuilder struct {
	m       *Model
	keep    bool // build the table (false: ExpectedRewards)
	dropped int  // entries not kept because of ExpectedRewards
	tab     RewardTable
	last    int
}

func newRewardBuilder(m *Model, keep bool) *rewardBuilder {
	return &rewardBuilder{m: m, keep: keep, last: -1, tab: RewardTable{Ptr: []int{0}}}
}

// visits returns the number of (s', o) pairs that row(s, a, …) visits.
func (b *rewardBuilder) visits(s, a int) int64 {
	n := int64(0)
	z := b.m.Z[a]
	b.m.T[a].Entries(s, func(s2 int, _ float64) { n += int64(z.RowPtr[s2+1] - z.RowPtr[s2]) })
	return n
}

// row sets R(s, a) to the expectation of value(s', o) over the (s', o)
// that can follow (s, a) and, when the values are not all equal, keeps
// them as the pair's entries (R(s, a) is then that value exactly). Pairs
// must come in increasing a·|S| + s.
func (b *rewardBuilder) row(s, a int, value func(s2, o int) float64) {
	m := b.m
	z := m.Z[a]
	start := len(b.tab.Val)
	total, first, same, v0 := 0.0, true, true, 0.0
	m.T[a].Entries(s, func(s2 int, t float64) {
		cols, vals := z.Row(s2)
		inner := 0.0
		for k, o := range cols {
			r := value(s2, o)
			if first {
				v0, first = r, false
			} else if r != v0 {
				same = false
			}
			inner += vals[k] * r
			b.tab.Next = append(b.tab.Next, int32(s2))
			b.tab.Obs = append(b.tab.Obs, int32(o))
			b.tab.Val = append(b.tab.Val, r)
		}
		total += t * inner
	})
	if same {
		m.R[s][a] = v0
		b.truncate(start)
		return
	}
	m.R[s][a] = total
	if !b.keep {
		b.dropped += len(b.tab.Val) - start
		b.truncate(start)
		return
	}
	key := a*len(m.States) + s
	if key <= b.last {
		panic(fmt.Sprintf("pomdp: reward pairs out of order (%d after %d)", key, b.last))
	}
	b.last = key
	b.tab.Pairs = append(b.tab.Pairs, key)
	b.tab.Ptr = append(b.tab.Ptr, len(b.tab.Val))
}

func (b *rewardBuilder) truncate(n int) {
	b.tab.Next, b.tab.Obs, b.tab.Val = b.tab.Next[:n], b.tab.Obs[:n], b.tab.Val[:n]
}

// done stores the table in the model (nil when no pair was kept).
func (b *rewardBuilder) done() {
	if len(b.tab.Pairs) == 0 {
		b.m.Rewards = nil
		return
	}
	t := b.tab
	b.m.Rewards = &t
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
