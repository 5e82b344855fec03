package distance

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// The exact classes from classes (docs/algorithms.md#classes-not-histories).
//
// Per probe, law.DAG lists the distinct posteriors depth by depth; a
// backward pass gives each DAG node its class under that probe alone
// (equal next-observation probabilities, to the tolerances of refine, and
// equal children classes). A forward pass over the joint classes then
// builds depth t + 1 from depth t: a forward state is, per probe, the
// class of its posterior and whether it is impossible (impossible
// histories propagate the stand-in, not their law's successors), and its
// representative's DAG nodes expand by each observation. The joint class
// of a state forgets the impossibility flags. Work and memory follow
// Σ_t states_t·|O|·probes, not the tree; only the labels of the histories
// (one int each, the partition's own storage) are per history.

// classDAGLimit bounds the nodes of one depth of one probe's DAG and the
// forward states of one depth.
var classDAGLimit = 1 << 26

// useClassDAG makes every run but the all-pairs, tensor and sharded ones
// take the class path, also below classPathMin; useRepLaws makes the
// later phases of a class-path run read the representatives' laws from
// the DAGs below law.MaxHistories too; noClassDAG refuses the class path
// (the oracle's reference). Tests set them.
var useClassDAG, useRepLaws, noClassDAG = false, false, false

// probeClasses is one probe's DAG and its per-node classes.
type probeClasses struct {
	dag *law.DAG
	cls [][]int32 // cls[t][v], the class of node v under this probe alone
}

// nodeClasses labels the nodes of d by equality of their suffix laws
// under d's probe, from depth T − 1 down: two nodes are equal when their
// next-observation probabilities are equal to the tolerances of refine
// (entry-wise LawTol, Σ within sumTolerance) and every observation of
// positive probability leads to nodes of one class. A node joins the
// first class (in order of creation) whose first node it equals, as in
// refine.
func nodeClasses(d *law.DAG, tol func(k int) float64) [][]int32 {
	T, nO := d.T, d.NumObs
	cls := make([][]int32, T+1)
	cls[T] = []int32{0}
	key := make([]byte, 4*nO)
	for t := T - 1; t >= 0; t-- {
		n := d.Len[t]
		out := make([]int32, n)
		sumTol := tol(T - t)
		groups := map[string]*nodeGroup{}
		next := int32(0)
		for v := 0; v < n; v++ {
			row, ch := d.Prob[t][v*nO:(v+1)*nO], d.Child[t][v*nO:(v+1)*nO]
			for o, c := range ch {
				k := int32(-1)
				if row[o] != 0 {
					k = cls[t+1][c]
				}
				binary.LittleEndian.PutUint32(key[4*o:], uint32(k))
			}
			g := groups[string(key)]
			if g == nil {
				g = &nodeGroup{cells: map[uint64][]int32{}}
				groups[string(key)] = g
			}
			cell, near := probCell(row)
			found := g.find(d.Prob[t], nO, row, cell, near, sumTol)
			if found < 0 {
				found = next
				next++
				g.add(int32(v), found, cell)
			}
			out[v] = found
		}
		cls[t] = out
	}
	return cls
}

// nodeGroup holds the classes of nodes with one pattern of children
// classes: their first nodes in order of creation, and by grid cell of
// their probabilities.
type nodeGroup struct {
	reps, labels []int32
	cells        map[uint64][]int32 // cell → positions in reps, in order
}

// probGrid is the cell size of the probabilities' grid (2^−20), and
// probMargin the distance to a cell's edge below which a node is compared
// with every class of its group: a node farther than LawTol from every
// edge can equal (to LawTol) only first nodes of its own cell.
const (
	probGrid   = 1 << 20
	probMargin = 1e-12
	probShift  = 0.381966
)

// probCell returns the grid cell of row and whether a coordinate lies
// within probMargin of a cell edge.
func probCell(row []float64) (uint64, bool) {
	h := uint64(14695981039346656037)
	near := false
	for _, x := range row {
		// The grid is shifted so that round values (0, 1/2, 1) lie
		// inside cells.
		y := x*probGrid + probShift
		f := math.Floor(y)
		if y-f < probMargin*probGrid || f+1-y < probMargin*probGrid {
			near = true
		}
		h ^= uint64(int64(f))
		h *= 1099511628211
	}
	return h, near
}

// find returns the label of the first class of g whose first node's
// probabilities equal row, or −1.
func (g *nodeGroup) find(prob []float64, nO int, row []float64, cell uint64, near bool, sumTol float64) int32 {
	if near {
		for i, r := range g.reps {
			if equalLaws(row, prob[int(r)*nO:(int(r)+1)*nO], sumTol) {
				return g.labels[i]
			}
		}
		return -1
	}
	for _, i := range g.cells[cell] {
		r := g.reps[i]
		if equalLaws(row, prob[int(r)*nO:(int(r)+1)*nO], sumTol) {
			return g.labels[i]
		}
	}
	return -1
}

func (g *nodeGroup) add(v, label int32, cell uint64) {
	g.cells[cell] = append(g.cells[cell], int32(len(g.reps)))
	g.reps = append(g.reps, v)
	g.labels = append(g.labels, label)
}

// classDAGs builds the DAG and node classes of the family members idx on
// the workers.
func (r *runner) classDAGs(ctx context.Context, idx []int) ([]probeClasses, error) {
	out := make([]probeClasses, len(idx))
	tol := func(k int) float64 { return sumTolerance(r.opt.Metric, r.g, k) }
	rel := mergeTolerance(r.opt.Metric, r.g, r.T)
	workers := max(1, min(r.workers, len(idx)))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	next, done := 0, 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := law.NewEngineLimit(r.m, r.T, r.opt.Convention, maxTreeHistories)
			for {
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if firstErr != nil || next == len(idx) {
					mu.Unlock()
					return
				}
				k := next
				next++
				mu.Unlock()
				var d *law.DAG
				d, err = e.DAGMerge(ctx, r.fam.At(idx[k]), classDAGLimit, rel)
				if err != nil {
					err = fmt.Errorf("distance: controller %d of %v: %w", idx[k], r.fam, err)
					continue
				}
				out[k] = probeClasses{dag: d, cls: nodeClasses(d, tol)}
				mu.Lock()
				done++
				if r.opt.Progress != nil {
					r.opt.Progress(done, len(idx))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return out, ctx.Err()
}

// mergeTolerance is the relative tolerance at which the DAGs merge
// posteriors (law.DAGMerge): law.MergeRel, or less where refine's
// tolerances are tighter. A history's posterior is within that of its
// node's, state by state; after each later merge its descendants'
// posteriors drift by at most about twice as much again, so over T
// depths two histories of one node have suffix laws within 4T·rel of
// each other relative to each entry, in Σ and in every entry. Below
// LawTol and the tightest sumTolerance (at k = T), refine finds them
// equal as the DAG does. On a discrete ground this is 10⁻¹³/(4T) from
// T = 3 on (1.4·10⁻¹⁵ at T = 18). A tighter tolerance only merges fewer
// posteriors (more nodes), never wrongly: measured against 10⁻¹⁴, the
// DAGs (16 probes at most) of tiger m ≤ 2 up to T = 18, hallway:10 T = 9,
// gridworld:3 T = 8, tiger95 T = 10, tag T = 3 and rocksample:5:7 T = 3
// have as many nodes, tiger T = 30 2 % more (963) and rocksample:5:7
// T = 6 7 % more (772): posteriors that rounding sets apart by more.
func mergeTolerance(metric Metric, g ot.Ground, T int) float64 {
	if T == 0 {
		return law.MergeRel
	}
	tight := min(LawTol, sumTolerance(metric, g, T)) / float64(4*T)
	return min(law.MergeRel, tight)
}

// maxTreeHistories is the largest history tree the class path accepts:
// its labels are 8 bytes per history (in the memory estimate).
const maxTreeHistories = 1 << 31

// classPlan is the result of the joint forward pass.
type classPlan struct {
	labels [][]int // canonical labels per depth, over all histories
	// standIns[k] counts the (history, probe k) pairs whose law is a
	// stand-in, over all depths.
	standIns []int
	// repNodes[t][c·P + k] is probe k's DAG node at class c's first
	// history (−1: impossible, the stand-in node).
	repNodes [][]int32
	states   []int // forward states per depth (the work done)
}

// jointClasses runs the forward pass over the probes' node classes.
func jointClasses(ctx context.Context, tree law.Tree, pcs []probeClasses) (*classPlan, error) {
	T, nO, P := tree.T, tree.NumObs, len(pcs)
	plan := &classPlan{labels: make([][]int, T+1), standIns: make([]int, P), repNodes: make([][]int32, T+1), states: make([]int, T+1)}
	nodes := make([]int32, P) // depth 0: every probe at its root
	joint := []int32{0}
	hist := []int32{0} // forward state of every history of the depth
	key := make([]byte, 4*P)
	for t := 0; ; t++ {
		nStates := len(nodes) / P
		plan.states[t] = nStates
		plan.label(t, hist, joint, nodes, P)
		if t == T {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		child, nextNodes, err := forwardStep(ctx, t, nO, pcs, nodes)
		if err != nil {
			return nil, err
		}
		// Joint classes: the states' per-probe classes, impossible as
		// the stand-in's class.
		jidx := map[string]int32{}
		njoint := make([]int32, len(nextNodes)/max(P, 1))
		for s := range njoint {
			for k, pc := range pcs {
				v := nextNodes[s*P+k]
				if v < 0 {
					v = pc.dag.StandIn[t+1]
				}
				binary.LittleEndian.PutUint32(key[4*k:], uint32(pc.cls[t+1][v]))
			}
			id, ok := jidx[string(key)]
			if !ok {
				id = int32(len(jidx))
				jidx[string(key)] = id
			}
			njoint[s] = id
		}
		nh := make([]int32, len(hist)*nO)
		for i, s := range hist {
			copy(nh[i*nO:(i+1)*nO], child[int(s)*nO:(int(s)+1)*nO])
		}
		hist, nodes, joint = nh, nextNodes, njoint
	}
	return plan, nil
}

// forwardStep expands the forward states of depth t (nodes, P per state)
// by each observation: child[s·|O| + o] is the depth-(t+1) state of
// state s and o, and nextNodes the representatives' nodes of those
// states. The limit (classDAGLimit) is checked as states are added, and
// ctx every few thousand: a depth can hold |O| times the states of the
// one before.
func forwardStep(ctx context.Context, t, nO int, pcs []probeClasses, nodes []int32) (child, nextNodes []int32, err error) {
	P := len(pcs)
	nStates := len(nodes) / max(P, 1)
	key := make([]byte, 4*P)
	cand := make([]int32, P)
	child = make([]int32, nStates*nO)
	index := map[string]int32{}
	for s := 0; s < nStates; s++ {
		if s%(1<<12) == 1<<12-1 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		for o := 0; o < nO; o++ {
			for k, pc := range pcs {
				v := nodes[s*P+k]
				nv := int32(-1)
				if v >= 0 && pc.dag.Prob[t][int(v)*nO+o] != 0 {
					nv = pc.dag.Child[t][int(v)*nO+o]
				}
				cand[k] = nv
				c := int32(-1)
				if nv >= 0 {
					c = pc.cls[t+1][nv]
				}
				binary.LittleEndian.PutUint32(key[4*k:], uint32(c))
			}
			id, ok := index[string(key)]
			if !ok {
				if len(index) == classDAGLimit {
					return nil, nil, fmt.Errorf("distance: %d forward states at depth %d already, above the limit %d", len(index)+1, t+1, classDAGLimit)
				}
				id = int32(len(index))
				index[string(key)] = id
				nextNodes = append(nextNodes, cand...)
			}
			child[s*nO+o] = id
		}
	}
	return child, nextNodes, nil
}

// label sets the canonical labels of depth t (classes numbered by their
// first history), the representatives' nodes and the stand-in counts.
func (plan *classPlan) label(t int, hist, joint, nodes []int32, P int) {
	nJoint := 0
	for _, j := range joint {
		nJoint = max(nJoint, int(j)+1)
	}
	canon := make([]int, nJoint)
	for i := range canon {
		canon[i] = -1
	}
	count := make([]int, len(joint))
	labels := make([]int, len(hist))
	var reps []int32
	for i, s := range hist {
		count[s]++
		j := joint[s]
		if canon[j] < 0 {
			canon[j] = len(reps) / max(P, 1)
			reps = append(reps, nodes[int(s)*P:(int(s)+1)*P]...)
		}
		labels[i] = canon[j]
	}
	for s, n := range count {
		for k := 0; k < P; k++ {
			if nodes[s*P+k] < 0 {
				plan.standIns[k] += n
			}
		}
	}
	plan.labels[t], plan.repNodes[t] = labels, reps
}

// classLaws hands the later phases the suffix laws of the class
// representatives, computed from the DAGs (one block per class).
type classLaws struct {
	pcs      []probeClasses
	repNodes [][]int32
	standIns []int
	counts   []int       // classes per depth
	column   map[int]int // family index → position in pcs
}

// fill writes probe k's representative laws into dst (from law.NewBlocks).
func (cl *classLaws) fill(dst *law.Laws, k int) {
	P := len(cl.pcs)
	d := cl.pcs[k].dag
	for t, n := range cl.counts {
		for c := 0; c < n; c++ {
			v := cl.repNodes[t][c*P+k]
			if v < 0 {
				v = d.StandIn[t]
			}
			d.Fill(dst.Block(t, c), t, v)
		}
	}
	dst.StandIns = cl.standIns[k]
}

// identityReps returns, per depth, the class indices 0 … counts[t] − 1:
// the representatives' positions in classLaws' blocks.
func identityReps(counts []int) [][]int {
	reps := make([][]int, len(counts))
	for t, n := range counts {
		reps[t] = make([]int, n)
		for i := range reps[t] {
			reps[t][i] = i
		}
	}
	return reps
}

// exactFromDAGs is the class path of the classes phase: the DAGs of the
// representatives reps, the members of groups that need stand-ins
// (expandGroups), the joint classes and the representatives' laws.
func (r *runner) exactFromDAGs(ctx context.Context, reps []int, members [][]int) (*partition.Partition, []int, *classLaws, error) {
	pcs, err := r.classDAGs(ctx, reps)
	if err != nil {
		return nil, nil, nil, err
	}
	tree := r.tree
	plan, err := jointClasses(ctx, tree, pcs)
	if err != nil {
		return nil, nil, nil, err
	}
	probes := expandGroups(reps, members, plan.standIns)
	if extra := probes[len(reps):]; len(extra) > 0 {
		more, err := r.classDAGs(ctx, extra)
		if err != nil {
			return nil, nil, nil, err
		}
		pcs = append(pcs, more...)
		if plan, err = jointClasses(ctx, tree, pcs); err != nil {
			return nil, nil, nil, err
		}
	}
	p := &partition.Partition{Labels: plan.labels}
	cl := &classLaws{pcs: pcs, repNodes: plan.repNodes, standIns: plan.standIns, counts: p.Counts(), column: map[int]int{}}
	for k, i := range probes {
		cl.column[i] = k
	}
	return p, probes, cl, nil
}

// classPathMin is the number of histories above which a run's exact
// classes take the class path by default: the refinement of every
// history's laws costs a pass over the tree per probe and a copy of the
// labels per worker, the class path the distinct posteriors (hallway
// m = 1, T = 5: 4.3 million histories, 156,218 DAG nodes at most per
// depth and probe). Below law.MaxHistories the later phases still read
// the engine's laws, so the outputs are unchanged.
const classPathMin = 1 << 20

// classMode says how a run computes its exact classes and laws: the class
// path above classPathMin histories, with the representatives' laws from
// the DAGs above law.MaxHistories, where the history tree's laws are
// refused.
type classMode struct {
	// dag: the exact classes from the probes' posterior DAGs (the class
	// path) rather than by refining the laws of every history.
	dag bool
	// repLaws: the later phases read the representatives' laws from the
	// DAGs; taken when the history tree is above law.MaxHistories, where
	// no engine over the tree is built.
	repLaws bool
}

// protoEngine returns the engine that checks and groups the family, and
// the run's classMode. The all-pairs, tensor and sharded paths refine the
// history tree and keep its limit (law.MaxHistories).
func protoEngine(m *pomdp.Model, T int, opt Options, gv given) (*law.Engine, classMode, error) {
	e, err := law.NewEngine(m, T, opt.Convention)
	plain := opt.AllPairs || gv.probes != nil || gv.classes != nil || noClassDAG
	if err == nil {
		dag := (useClassDAG || e.Tree().Len() > classPathMin) && !plain
		return e, classMode{dag: dag, repLaws: dag && useRepLaws}, nil
	}
	if plain {
		return nil, classMode{}, err
	}
	big, err2 := law.NewEngineLimit(m, T, opt.Convention, maxTreeHistories)
	if err2 != nil {
		return nil, classMode{}, err2
	}
	return big, classMode{dag: true, repLaws: true}, nil
}

// classPathCost adjusts c to the class path: with the representatives'
// laws, the law term is per worker Σ_t c_t·|O|^{T−t} floats in place of
// the engine's buffers over the tree, counted once the classes are known
// (before, when cl is nil, it is 0: those blocks are allocated after the
// check that knows the classes, and the DAGs are bounded as they grow by
// classDAGLimit); the DAGs are added (a probability, a child and a class
// per node and observation), and the labels are the partition's only (8
// bytes a history) plus a forward state per history of two depths.
func classPathCost(c Cost, mode classMode, cl *classLaws) Cost {
	if !mode.dag {
		return c
	}
	if mode.repLaws && cl == nil {
		c.Laws = 0
	}
	T := len(c.Classes) - 1
	nO := 0
	if T >= 1 {
		nO = c.Histories[1]
	}
	if mode.repLaws {
		var laws int64
		for t, k := range c.Classes {
			laws += int64(k) * pow(nO, T-t)
		}
		if cl != nil {
			c.Laws = int64(c.Workers) * 8 * laws
		}
		var n int64
		for _, h := range c.Histories {
			n += int64(h)
		}
		c.Labels = 8*n + 4*int64(c.Histories[T]) + 4*int64(c.Histories[max(T-1, 0)])
	}
	if cl != nil {
		for _, pc := range cl.pcs {
			for t := 0; t < pc.dag.T; t++ {
				c.Laws += int64(pc.dag.Len[t]) * int64(nO) * 12
			}
			for _, x := range pc.cls {
				c.Laws += 4 * int64(len(x))
			}
		}
	}
	return c
}

// pow returns b^k as an int64 (saturating at 2^62).
func pow(b, k int) int64 {
	p := int64(1)
	for ; k > 0; k-- {
		if p > (1<<62)/int64(max(b, 1)) {
			return 1 << 62
		}
		p *= int64(b)
	}
	return p
}
