package filebuild

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// RewardBuilder fills Model.R and Model.Rewards from a reward given entry
// by entry; every reader uses it, so that the expectation is computed the
// same way (the same sums in the same order) whatever the format, and a
// model written and read back has the same R bit for bit.
type RewardBuilder struct {
	m       *pomdp.Model
	keep    bool // build the table (false: ExpectedRewards)
	dropped int  // entries not kept because of ExpectedRewards
	tab     pomdp.RewardTable
	last    int
}

// NewRewardBuilder returns a builder for m's rewards; keep false drops
// the table and keeps the expectation only (pomdp.ExpectedRewards).
func NewRewardBuilder(m *pomdp.Model, keep bool) *RewardBuilder {
	return &RewardBuilder{m: m, keep: keep, last: -1, tab: pomdp.RewardTable{Ptr: []int{0}}}
}

// Visits returns the number of (s', o) pairs that row(s, a, …) visits.
func (b *RewardBuilder) Visits(s, a int) int64 {
	n := int64(0)
	z := b.m.Z[a]
	b.m.T[a].Entries(s, func(s2 int, _ float64) { n += int64(z.RowPtr[s2+1] - z.RowPtr[s2]) })
	return n
}

// Row sets R(s, a) to the expectation of value(s', o) over the (s', o)
// that can follow (s, a) and, when the values are not all equal, keeps
// them as the pair's entries (R(s, a) is then that value exactly). Pairs
// must come in increasing a·|S| + s.
func (b *RewardBuilder) Row(s, a int, value func(s2, o int) float64) {
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

func (b *RewardBuilder) truncate(n int) {
	b.tab.Next, b.tab.Obs, b.tab.Val = b.tab.Next[:n], b.tab.Obs[:n], b.tab.Val[:n]
}

// done stores the table in the model (nil when no pair was kept).
func (b *RewardBuilder) done() {
	if len(b.tab.Pairs) == 0 {
		b.m.Rewards = nil
		return
	}
	t := b.tab
	b.m.Rewards = &t
}

// RewardsDone stores the table b built and reports what was dropped.
func RewardsDone(c *pomdp.ReadConfig, b *RewardBuilder) {
	b.done()
	if c.Source != nil {
		c.Source.DroppedRewards = b.dropped
	}
}
