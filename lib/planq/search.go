package planq

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/plan"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// BatchPlanner is a Planner that plans on several quotients of one model
// at once (the ε-quotients of one run), sharing the work they have in
// common. Run uses it when the planner implements it.
type BatchPlanner interface {
	Planner
	// Quotients returns one plan per quotient, in order.
	Quotients(ctx context.Context, env *Env, qs []*quotient.Quotient) ([]*Plan, error)
}

// maxDedupBytes bounds the action-tree keys held to find controllers that
// behave alike (above it every controller is valued); a variable for tests.
var maxDedupBytes = 256 << 20

// searchQuotients values every controller of fam on each quotient of qs,
// on the quotient the controller sees (quotient.ForProbe), and returns
// each quotient's first maximum in family order. The work is shared:
//
//   - quotients with the same partition (ε values the linkage does not
//     separate) are searched once;
//   - controllers with the same action tree (law.ActionTree: the action at
//     every history of depth < T) are valued once, on the first of them:
//     the member beliefs, hence the class beliefs, and the actions the
//     controller takes on the quotient are functions of the action tree;
//   - a controller's value is computed from the class beliefs directly
//     (probeEval), without building the quotient model;
//   - the controllers are split over env.Workers goroutines (0: GOMAXPROCS).
//
// Each value is a pure function of the controller and the quotient, so the
// result does not depend on the number of workers. The chosen controller's
// V_Q is then recomputed on the quotient model itself (ForProbe, then
// value.Evaluate: what `pomdpq evaluate` on the exported quotient prints)
// and must agree with the direct value within 1e-9 relative.
func searchQuotients(ctx context.Context, env *Env, fam fsc.Family, qs []*quotient.Quotient) ([]*Plan, error) {
	pass, err := valuePass(ctx, env, fam, qs)
	if err != nil {
		return nil, err
	}
	totalBusy := 0.0
	for _, b := range pass.busy {
		totalBusy += b
	}
	plans := make([]*Plan, len(qs))
	for k, q := range qs {
		u := pass.uq[k]
		start := time.Now()
		p, err := planOf(env, fam, q, func(i int) float64 { return pass.value(u, i) })
		if err != nil {
			return nil, err
		}
		// The pass's wall time, attributed by the time spent on each
		// distinct quotient, and this quotient's own V_Q check.
		p.Seconds = pass.wall
		if totalBusy > 0 {
			p.Seconds = pass.wall * pass.busy[u] / totalBusy
		}
		p.Seconds += time.Since(start).Seconds()
		var notes []string
		if p.Note != "" {
			notes = append(notes, p.Note)
		}
		if len(qs) > 1 {
			notes = append(notes, fmt.Sprintf("searched in one pass over %d controllers (%d distinct action trees) with the other ε values (%d of the %d partitions distinct); t_planQ is this partition's share of the pass plus the check of V_Q on the quotient model", fam.Len(), pass.distinct, len(pass.busy), len(qs)))
		}
		p.Note = strings.Join(notes, "; ")
		plans[k] = p
	}
	return plans, nil
}

// pass is the outcome of valuePass.
type pass struct {
	// vals[u][j] is the value of controller todo[j] on the u-th distinct
	// quotient; slot[i] is the j of controller i (nil: j = i); uq[k] is
	// the distinct quotient of qs[k].
	vals [][]float64
	slot []int32
	uq   []int
	// busy[u] is the worker time spent on quotient u, wall the pass's
	// wall time, distinct the number of controllers valued.
	busy     []float64
	wall     float64
	distinct int
}

// value returns controller i's value on distinct quotient u.
func (p *pass) value(u, i int) float64 {
	if p.slot == nil {
		return p.vals[u][i]
	}
	return p.vals[u][p.slot[i]]
}

// valuePass values every controller of fam on every distinct quotient of
// qs (see searchQuotients). Memory: 8 bytes per distinct controller and
// distinct quotient, plus 4 bytes per controller and the action-tree keys
// while deduplicating (at most maxDedupBytes).
func valuePass(ctx context.Context, env *Env, fam fsc.Family, qs []*quotient.Quotient) (*pass, error) {
	start := time.Now()
	uq, uniq := distinctPartitions(qs)
	slot, todo, err := distinctBehaviours(ctx, fam, env.T, env.Model.NumObservations())
	if err != nil {
		return nil, err
	}
	vals := make([][]float64, len(uniq))
	for u := range vals {
		vals[u] = make([]float64, len(todo))
	}
	busy, err := valueAll(ctx, env, fam, uniq, todo, vals)
	if err != nil {
		return nil, err
	}
	return &pass{vals: vals, slot: slot, uq: uq, busy: busy, wall: time.Since(start).Seconds(), distinct: len(todo)}, nil
}

// planOf returns the plan of the first maximum of val (controller i's
// value on q) in family order, with V_Q recomputed on the quotient model
// seen by the chosen controller.
func planOf(env *Env, fam fsc.Family, q *quotient.Quotient, val func(int) float64) (*Plan, error) {
	best, v, ties := plan.BestOf(fam.Len(), val, value.DefaultTol)
	c := fam.At(best)
	qm, err := q.ForProbe(c)
	if err != nil {
		return nil, err
	}
	vq, err := value.Evaluate(qm, c, env.T, env.Obj)
	if err != nil {
		return nil, err
	}
	if math.Abs(vq-v) > 1e-9*max(1, math.Abs(vq)) {
		return nil, fmt.Errorf("planq: controller %d valued %.17g from the class beliefs but %.17g on the quotient model it sees", best, v, vq)
	}
	p, err := controllerPlan(env, c, vq)
	if err != nil {
		return nil, err
	}
	if ties > 1 {
		p.Note = fmt.Sprintf("%d controllers tie on the quotient within %g; the first in family order is kept", ties, value.DefaultTol)
	}
	return p, nil
}

// distinctPartitions maps each quotient to the first one with the same
// partition: uq[k] indexes uniq.
func distinctPartitions(qs []*quotient.Quotient) (uq []int, uniq []*quotient.Quotient) {
	uq = make([]int, len(qs))
	for k, q := range qs {
		uq[k] = -1
		for u, p := range uniq {
			if samePartition(q, p) {
				uq[k] = u
				break
			}
		}
		if uq[k] < 0 {
			uq[k] = len(uniq)
			uniq = append(uniq, q)
		}
	}
	return uq, uniq
}

func samePartition(a, b *quotient.Quotient) bool {
	if a.T != b.T || len(a.Partition.Labels) != len(b.Partition.Labels) {
		return false
	}
	for t := range a.Partition.Labels {
		if !slices.Equal(a.Partition.Labels[t], b.Partition.Labels[t]) {
			return false
		}
	}
	return true
}

// distinctBehaviours returns the controllers of fam to value (todo, in
// family order: the first of each action tree) and, for every controller
// i, the position slot[i] in todo of the first controller with i's action
// tree. Stochastic families, and families whose keys would exceed
// maxDedupBytes, are not deduplicated: slot is nil and todo every index.
func distinctBehaviours(ctx context.Context, fam fsc.Family, T, nO int) (slot []int32, todo []int, err error) {
	n := fam.Len()
	// The action tree: the action at every history of depth < T.
	tree, err := law.NewTree(nO, T)
	if err != nil || n > math.MaxInt32 || !fam.At(0).Deterministic() || float64(n)*float64(tree.Offset(T)+52) > float64(maxDedupBytes) {
		todo = make([]int, n)
		for i := range todo {
			todo[i] = i
		}
		return nil, todo, nil
	}
	slot = make([]int32, n)
	seen := make(map[string]int32, n)
	var key []byte
	for i := 0; i < n; i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		key = law.ActionTree(key[:0], fam.At(i), tree)
		if j, ok := seen[string(key)]; ok {
			slot[i] = j
			continue
		}
		slot[i] = int32(len(todo))
		seen[string(key)] = slot[i]
		todo = append(todo, i)
	}
	return slot, todo, nil
}

// valueAll fills vals[u][j] with the value of controller todo[j] on
// quotient uniq[u], with workers taking chunks of todo; it returns the busy
// seconds per quotient.
func valueAll(ctx context.Context, env *Env, fam fsc.Family, uniq []*quotient.Quotient, todo []int, vals [][]float64) ([]float64, error) {
	workers := env.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := len(todo)
	chunk := max(1, min(256, n/(8*workers)))
	workers = max(1, min(workers, (n+chunk-1)/chunk))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	jobs := make(chan int)
	done := make(chan int, workers)
	busy := make([][]float64, workers)
	errs := make([]error, workers)
	errAt := make([]int, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		busy[w] = make([]float64, len(uniq))
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := newProbeEval(env.Model, env.T, env.Obj.Discount)
			for lo := range jobs {
				hi := min(lo+chunk, n)
				for j := lo; j < hi; j++ {
					i := todo[j]
					c := fam.At(i)
					for u, q := range uniq {
						t0 := time.Now()
						v, err := ev.value(q, c)
						busy[w][u] += time.Since(t0).Seconds()
						if err != nil && errs[w] == nil {
							errs[w], errAt[w] = err, i
							cancel()
						}
						vals[u][j] = v
					}
				}
				done <- hi - lo
			}
		}()
	}
	go func() {
		defer close(jobs)
		for lo := 0; lo < n; lo += chunk {
			select {
			case jobs <- lo:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(done)
	}()
	finished := 0
	for k := range done {
		finished += k
		if env.Progress != nil {
			env.Progress(finished, n)
		}
	}
	// The error of the first controller in family order that failed.
	var first error
	at := math.MaxInt
	for w, err := range errs {
		if err != nil && errAt[w] < at {
			first, at = fmt.Errorf("planq: controller %d on the quotient: %w", errAt[w], err), errAt[w]
		}
	}
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil && finished != n {
		return nil, err
	}
	if finished != n {
		return nil, fmt.Errorf("planq: search stopped after %d of %d controllers", finished, n)
	}
	out := make([]float64, len(uniq))
	for _, b := range busy {
		for u, x := range b {
			out[u] += x
		}
	}
	return out, nil
}

// probeEval values a deterministic controller on the quotient it sees
// from the class beliefs alone. On the quotient model of ForProbe a state
// (depth t, class c, entering observation z) has reward
// R̄(c, a) = Σ_s b̄_c(s) R(s, a) and moves to (t+1, Next[c][z'], z') with
// probability P(z' | b̄_c, a); both depend on the class only, and the
// controller's next node depends on z', so the joint law of (class, node)
// depth by depth gives the value: Σ_t γ^t Σ_{c,n} P(c, n) R̄(c, α_t(n)).
type probeEval struct {
	m           *pomdp.Model
	T           int
	gamma       float64
	pred, probs []float64
	cur, next   []float64
}

func newProbeEval(m *pomdp.Model, T int, gamma float64) *probeEval {
	return &probeEval{m: m, T: T, gamma: gamma, pred: make([]float64, m.NumStates()), probs: make([]float64, m.NumObservations())}
}

// value returns V_Q(c) on the quotient q seen by c (the value
// value.Evaluate gives on q.ForProbe(c), up to rounding).
func (e *probeEval) value(q *quotient.Quotient, c *fsc.FSC) (float64, error) {
	if !c.Deterministic() {
		qm, err := q.ForProbe(c)
		if err != nil {
			return 0, err
		}
		return value.Evaluate(qm, c, e.T, value.LatentReward{Discount: e.gamma})
	}
	cb, err := q.ClassBeliefs(c)
	if err != nil {
		return 0, err
	}
	m, nodes := e.m, c.Nodes
	cur := e.grow(&e.cur, nodes)
	cur[0] = 1
	v, w := 0.0, 1.0
	for t := 0; t < e.T; t++ {
		last := t == e.T-1
		var next []float64
		if !last {
			next = e.grow(&e.next, q.Partition.Classes(t+1)*nodes)
		}
		for k, p := range cur {
			if p == 0 {
				continue
			}
			cl, n := k/nodes, k%nodes
			a := c.Action(t, n)
			b := cb[t][cl]
			r := 0.0
			for s, x := range b {
				r += x * m.R[s][a]
			}
			v += w * p * r
			if last {
				continue
			}
			m.Predict(e.pred, b, a)
			m.ObsProbs(e.probs, e.pred, a)
			tot := 0.0
			for _, x := range e.probs {
				tot += x
			}
			for z, pz := range e.probs {
				if pz > 0 {
					next[q.Next[t][cl][z]*nodes+c.NextNode(t, n, z)] += p * pz / tot
				}
			}
		}
		if !last {
			e.cur, e.next = e.next, e.cur
			cur = e.cur
		}
		w *= e.gamma
	}
	return v, nil
}

// grow returns (*buf)[:n] cleared, reallocating when too short.
func (e *probeEval) grow(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	*buf = (*buf)[:n]
	clear(*buf)
	return *buf
}
