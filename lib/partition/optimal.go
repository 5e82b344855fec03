package partition

import "fmt"

// MaxOptimal is the largest depth size Optimal accepts unless raised.
const MaxOptimal = 24

// Optimal returns, per depth, a partition into the fewest classes whose
// members are pairwise within ε + ZeroTol (a minimum clique cover of the
// "within ε" graph), found by branch and bound. Greedy linkage gives an
// upper bound on the count; Optimal can only be smaller or equal. It
// returns an error when a depth has more than limit histories (0 means
// MaxOptimal): the search is exponential.
func Optimal(d []Matrix, eps float64, limit int) (*Partition, error) {
	if limit == 0 {
		limit = MaxOptimal
	}
	p := &Partition{Labels: make([][]int, len(d))}
	for t, m := range d {
		if m.N > limit {
			return nil, fmt.Errorf("partition: optimal partition of depth %d with %d histories exceeds the limit %d; use Greedy or raise the limit", t, m.N, limit)
		}
		p.Labels[t] = optimalDepth(m, eps)
	}
	return p, nil
}

func optimalDepth(m Matrix, eps float64) []int {
	n := m.N
	if n <= 1 {
		return make([]int, n)
	}
	thr := eps + ZeroTol
	best := greedyDepth(m, eps)
	bestK := 0
	for _, c := range best {
		bestK = max(bestK, c+1)
	}
	cur := make([]int, n)
	var members [][]int
	var rec func(i int)
	rec = func(i int) {
		if len(members) >= bestK {
			return
		}
		if i == n {
			bestK = len(members)
			copy(best, cur)
			return
		}
		for c := range members {
			ok := true
			for _, j := range members[c] {
				if !(m.At(i, j) <= thr) {
					ok = false
					break
				}
			}
			if ok {
				members[c] = append(members[c], i)
				cur[i] = c
				rec(i + 1)
				members[c] = members[c][:len(members[c])-1]
			}
		}
		members = append(members, []int{i})
		cur[i] = len(members) - 1
		rec(i + 1)
		members = members[:len(members)-1]
	}
	rec(0)
	return canonical(best)
}
