package distance

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/law"
)

// The pre-flight estimate of the classes phase on the class path
// (classdag.go): the probes' posterior DAGs, their node classes, the
// workers' build scratch and the forward pass over the joint states.
//
// A DAG's nodes per depth are not known before it is built: the distinct
// posteriors reachable are at most the histories (|O|^t) and the node
// limit (classDAGLimit), but on models with deterministic observations
// (tag) they are thousands of times fewer. So the estimate builds the
// cheap first depths of a few probes' DAGs (law.Engine.DAGGrowth, depths
// of at most dagCheapNodes nodes), counts their nodes, and extrapolates
// the deeper depths by the last built depth's growth factor, capped by
// the histories (plus the stand-in) and the node limit. Once the DAGs are
// built, the estimate is recomputed from their counted nodes.

// dagCheapNodes is the largest depth of a DAG that DAGGrowth expands for
// the estimate: a few thousand joint steps per sampled probe; and
// dagCheapEntries the most posterior entries (floats) its children may
// hold, 32 MiB (models of 10⁵ states and more).
var dagCheapNodes = 2048

const dagCheapEntries = 1 << 22

// dagSample is the largest number of probes whose DAG prefix the estimate
// builds; the others are counted as the sampled ones' average.
const dagSample = 8

// Bytes per DAG node, calibrated on random:20:3:8 T = 6 and hallway
// T = 5 (TestDAGEstimateMeasured): a DAG keeps per node and observation a
// probability and a child (12 bytes) and per node its class (4 bytes);
// while a depth is built, the interned posteriors (8 bytes per entry,
// grown by append), the hash index and chain (about 48 bytes a node);
// while its nodes are classed, a group per distinct children pattern
// (its key of 4 bytes per observation and about 160 bytes of maps and
// slices).
const (
	dagIndexBytes = 48
	dagGroupBytes = 160
	// dagStateBytes is a forward state's index entry besides its key:
	// the string header and the map slot, and its joint class entry.
	dagStateBytes = 96
)

// dagPlan is the DAG part of a Cost: nodes per depth summed over the
// probes, and how they were obtained.
type dagPlan struct {
	nodes   []int64 // per depth, summed over the probes
	largest []int64 // per depth, the largest probe's
	counted int     // depths 0 … counted−1 counted, the others extrapolated
	probes  int
	width   int // a posterior's entries (controller nodes × |S|)
}

// extrapolate returns the node counts per depth 0 … T of a DAG whose
// first depths have lens nodes: beyond them, each depth has the last
// built depth's growth factor (at least 1; |O| when only depth 0 was
// built) times the one before, at most the depth's histories plus one
// (the stand-in) and the node limit.
func extrapolate(lens []int, tree law.Tree, limit int) []int64 {
	T := tree.T
	out := make([]int64, T+1)
	for t := range out {
		if t < len(lens) {
			out[t] = int64(lens[t])
			continue
		}
		g := float64(tree.NumObs)
		if k := len(lens) - 1; k >= 1 && lens[k-1] > 0 {
			g = max(1, float64(lens[k])/float64(lens[k-1]))
		}
		v := float64(out[t-1]) * g
		hi := float64(tree.Count(t)) + 1
		if t == T {
			hi = 1
		}
		out[t] = int64(min(v, hi, float64(limit)))
	}
	return out
}

// dagPreflight builds the cheap depths of the DAGs of (up to dagSample
// evenly spaced) probes among the family members idx and returns the
// extrapolated node counts of all of them.
func (r *runner) dagPreflight(ctx context.Context, idx []int) (*dagPlan, error) {
	e, err := law.NewEngineLimit(r.m, r.T, r.opt.Convention, maxTreeHistories)
	if err != nil {
		return nil, err
	}
	T := r.T
	p := &dagPlan{nodes: make([]int64, T+1), largest: make([]int64, T+1), counted: T + 1, probes: len(idx)}
	n := min(len(idx), dagSample)
	for j := 0; j < n; j++ {
		c := r.fam.At(idx[j*len(idx)/n])
		p.width = max(p.width, c.Nodes*r.m.NumStates())
		lens, err := e.DAGGrowth(ctx, c, dagCheapNodes, dagCheapEntries)
		if err != nil {
			return nil, fmt.Errorf("distance: controller %d of %v: %w", idx[j*len(idx)/n], r.fam, err)
		}
		p.counted = min(p.counted, len(lens))
		for t, v := range extrapolate(lens, r.tree, classDAGLimit) {
			p.nodes[t] += v
			p.largest[t] = max(p.largest[t], v)
		}
	}
	if n > 0 && n < len(idx) {
		for t := range p.nodes {
			p.nodes[t] = p.nodes[t] * int64(len(idx)) / int64(n)
		}
	}
	return p, nil
}

// countedDAGs returns the dagPlan of built DAGs.
func countedDAGs(pcs []probeClasses, width int) *dagPlan {
	if len(pcs) == 0 {
		return nil
	}
	T := pcs[0].dag.T
	p := &dagPlan{nodes: make([]int64, T+1), largest: make([]int64, T+1), counted: T + 1, probes: len(pcs), width: width}
	for _, pc := range pcs {
		for t, v := range pc.dag.Len {
			p.nodes[t] += int64(v)
			p.largest[t] = max(p.largest[t], int64(v))
		}
	}
	return p
}

// bytes returns the live bytes of the classes phase for these DAGs: all
// the probes' DAGs and node classes, the largest build or classing
// scratch of a worker times the workers, and the forward pass's states
// (at most the histories, taken as the largest probe's nodes).
func (p *dagPlan) bytes(tree law.Tree, workers int) (kept, phase int64) {
	T, nO := tree.T, int64(tree.NumObs)
	for t := 0; t < T; t++ {
		kept += p.nodes[t] * (12*nO + 4)
	}
	var scratch, forward int64
	for t := 0; t < T; t++ {
		w := int64(p.width)
		if t == T-1 && t >= 1 {
			w = nO // the last depth is interned by its rows
		}
		build := p.largest[t] * (8*w + dagIndexBytes)
		if t+1 < T {
			wn := int64(p.width)
			if t+1 == T-1 {
				wn = nO
			}
			build += p.largest[t+1] * (8*wn + dagIndexBytes)
		}
		classing := p.largest[t] * (4*nO + dagGroupBytes)
		scratch = max(scratch, build, classing)
		P := int64(p.probes)
		s, s1 := min(p.largest[t], int64(tree.Count(t))), min(p.largest[t+1], int64(tree.Count(t+1)))
		forward = max(forward, s*(4*P+4*nO+8)+s1*(12*P+dagStateBytes))
	}
	return kept, kept + int64(max(1, workers))*scratch + forward
}

// ClassesPhaseBytes returns the estimated peak resident memory of the
// class path's classes phase: its DAGs (DAGsAhead with ahead, else
// DAGs), the labels and the grouping, as Bytes converts live memory; 0
// off the class path.
func (c Cost) ClassesPhaseBytes(ahead bool) int64 {
	d := c.DAGs
	if ahead {
		d = c.DAGsAhead
	}
	if d == 0 {
		return 0
	}
	return runtimeBase + c.Base + int64(gcFactor*float64(d+c.Labels+c.Family))
}

// dagTerm names Cost.DAGs and says how its nodes were obtained.
func (c Cost) dagTerm() string {
	if c.DAGCounted >= len(c.DAGNodes) {
		return "posterior DAGs of the classes phase (nodes counted)"
	}
	return fmt.Sprintf("posterior DAGs of the classes phase (nodes of depths < %d counted, deeper ones extrapolated by the last depth's growth, at most the histories and the node limit)", c.DAGCounted)
}

// withDAGs adds the classes phase of the class path to c: its bytes from
// p (nil: c unchanged), and the labels of that path (the partition's, 8
// bytes a history, and the forward pass's state of every history of the
// last two depths) in place of the refinement's. ahead marks the
// pre-flight estimate: with the representatives' laws read from the
// DAGs (mode.repLaws), the DAGs are then kept through the later phases
// and counted in Laws (classPathCost counts the built ones).
func withDAGs(c Cost, mode classMode, p *dagPlan, tree law.Tree, ahead bool) Cost {
	if !mode.dag || p == nil {
		return c
	}
	kept, phase := p.bytes(tree, c.Workers)
	c.DAGs, c.DAGNodes, c.DAGCounted = phase, p.nodes, p.counted
	if ahead {
		c.DAGsAhead = phase
		if mode.repLaws {
			c.Laws += kept
		}
	}
	T := tree.T
	c.Labels = 8*int64(tree.Len()) + 4*int64(tree.Count(T)) + 4*int64(tree.Count(max(T-1, 0)))
	return c
}

// classesPreflight estimates the class path's classes phase before any
// DAG is built (off the class path it does nothing) and checks the run
// with it against the budget, "before the classes"; famSize is the
// family size of the estimate. It returns the phase's estimated bytes
// (Cost.DAGsAhead). A dry run (plan) over the budget is not refused: it
// stops (pr.stopped) with the estimate in pr.res.Cost.
func (pr *prepared) classesPreflight(ctx context.Context, gv given, famSize int, plan bool, base int64) (int64, error) {
	if !pr.dagPhase(gv) {
		return 0, nil
	}
	r, tree := pr.r, pr.res.Tree
	dp, err := r.dagPreflight(ctx, pr.reps)
	if err != nil {
		return 0, err
	}
	c := estimate(tree, r.m.NumStates(), famSize, len(pr.reps), r.workers, nil, pr.opt, pr.fullLimit)
	c = withDAGs(classPathCost(c, pr.mode, nil), pr.mode, dp, tree, true)
	if err := pr.check(c, "before the classes"); err != nil {
		if !plan {
			return 0, err
		}
		c.Base = base
		pr.res.Cost, pr.stopped = c, true
	}
	return c.DAGsAhead, nil
}

// dagPhase reports whether the classes phase takes the class path (as
// classesPhase decides).
func (pr *prepared) dagPhase(gv given) bool {
	return pr.mode.dag && gv.classes == nil && !pr.opt.AllPairs
}

// dagWidth returns the longest posterior of the probes idx (controller
// nodes × |S|).
func (r *runner) dagWidth(idx []int) int {
	w := 0
	for _, i := range idx {
		w = max(w, r.fam.At(i).Nodes*r.m.NumStates())
	}
	return w
}
