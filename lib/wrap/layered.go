package wrap

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// LayerOptions configure Layer. The zero value means: discrete ground
// metric, uniform stand-in, all cores, seeds by uniform averaging, no
// progress.
type LayerOptions struct {
	Ground     ot.Ground      // nil: discrete
	Convention law.Convention // impossible-history stand-in (distance.Options)
	Workers    int            // 0: runtime.GOMAXPROCS(0)
	// Weighted seeds the next segment with the probability-weighted
	// average Σ_h P^π(h) b_h of the terminal beliefs — the exact state
	// marginal at the boundary — instead of the canonical uniform average
	// of Prop. C.1.
	Weighted bool
	// Progress, when set, is called after each segment with the number of
	// segments done and their total.
	Progress func(done, total int)
}

// Segment is one segment of a layered decomposition.
type Segment struct {
	// Start is the time step at which the segment starts; Tau its length.
	Start, Tau int
	// D are the per-depth probe distances of the segment's history tree
	// (each probe from its own seed), Partition their greedy ε-partition.
	D         []partition.Matrix
	Partition *partition.Partition
	// Classes is the total class count over the segment's depths 0 … τ.
	Classes int
	// Diameter is the largest distance between two histories of one class.
	Diameter float64
	// Eps is the measured residual of the segment, the model-level
	// distortion of its quotient,
	//	ε_k = max_π W1(P^π_{M_k}, P^π_{Q_k})   over O^{τ_k},
	// where M_k is M started from π's seed and Q_k its quotient seen by π.
	Eps float64
	// EpsProbe is the family index attaining Eps.
	EpsProbe int
	// Seeds is the number of distinct seed beliefs among the probes.
	Seeds int
	// Histories is the number of histories of the segment's tree.
	Histories int
	// StandIns counts (history, probe) pairs that used the stand-in.
	StandIns int
	Seconds  float64
}

// Layered is a layered horizon decomposition (see Layer).
type Layered struct {
	Model  *pomdp.Model
	Family fsc.Family
	Ground ot.Ground
	T, Tau int
	Eps    float64
	// Segments in time order.
	Segments []Segment
	// Histories is Σ_k Segments[k].Histories (HistoriesLayered).
	Histories int
	// Bound is the composed bound of eq:layered-composition with identity
	// wrappers between segments (L_j = 1) and Γ_1 = 0: Σ_k ε_k.
	Bound   float64
	Seconds float64
	// seeds[k][i] is the seed belief of family member i in segment k.
	seeds [][][]float64
}

// Layer returns the layered decomposition of horizon T into segments of
// length τ (Segments) with a greedy ε-partition per segment, for a family
// of stationary probes (thm:layered-composition, App. H "hierarchical
// scaling").
//
// Construction (our reading of the paper, see the package documentation):
// segment k runs M for τ_k steps from a seed belief per probe; the first
// seed is b0. The next seed of probe π is the class belief of the terminal
// class of segment k — the depth-τ_k histories form one class (empty suffix)
// — under π: the uniform average of the beliefs of the members possible
// under π (Prop. C.1, quotient.ClassBeliefs), or the
// probability-weighted average with LayerOptions.Weighted. A probe is
// restarted in node 0 at every segment. The distances of a segment are the
// element-wise maximum over probes of the suffix-law distances on the
// segment's tree, each probe on its own seeded model (probes sharing a seed
// are computed together by distance.Compute). Each segment also measures its
// residual ε_k (Segment.Eps); Bound = Σ_k ε_k.
//
// Cost: per segment, distance.Compute on a tree of Σ_{t ≤ τ_k} |O|^t histories
// per distinct seed, plus one quotient and two law passes per distinct probe
// for the residual and the seeds — instead of one tree of Σ_{t ≤ T} |O|^t.
// It returns an error for a bad segmentation, ε < 0 or NaN, a clock-aware
// controller in the family (a stage-indexed probe cannot be restarted per
// segment), or any error of distance.Compute or quotient construction; it is
// cancelled with ctx.
func Layer(ctx context.Context, m *pomdp.Model, fam fsc.Family, T, tau int, eps float64, opt LayerOptions) (*Layered, error) {
	start := time.Now()
	segs, err := Segments(T, tau)
	if err != nil {
		return nil, err
	}
	if !(eps >= 0) {
		return nil, fmt.Errorf("wrap: ε = %v must be ≥ 0", eps)
	}
	n := fam.Len()
	ctrls := make([]*fsc.FSC, n)
	for i := range ctrls {
		ctrls[i] = fam.At(i)
		if ctrls[i].Clock() {
			return nil, fmt.Errorf("wrap: family member %d is clock-aware; layering restarts stationary probes at each segment (use a stationary family)", i)
		}
	}
	g := opt.Ground
	if g == nil {
		g = ot.Discrete(m.NumObservations())
	}
	l := &Layered{Model: m, Family: fam, Ground: g, T: T, Tau: tau, Eps: eps}
	seeds := make([][]float64, n)
	for i := range seeds {
		seeds[i] = m.B0
	}
	t0 := 0
	for k, tk := range segs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		segStart := time.Now()
		l.seeds = append(l.seeds, seeds)
		seg, next, err := layerSegment(ctx, m, ctrls, fam, seeds, tk, eps, g, opt, k < len(segs)-1)
		if err != nil {
			return nil, fmt.Errorf("wrap: segment %d (steps %d–%d): %w", k+1, t0+1, t0+tk, err)
		}
		seg.Start = t0
		seg.Seconds = time.Since(segStart).Seconds()
		l.Segments = append(l.Segments, seg)
		l.Histories += seg.Histories
		l.Bound += seg.Eps
		seeds = next
		t0 += tk
		if opt.Progress != nil {
			opt.Progress(k+1, len(segs))
		}
	}
	l.Seconds = time.Since(start).Seconds()
	return l, nil
}

// seedKey interns a belief (rounded to 12 decimals, docs/conventions.md#tolerances).
func seedKey(b []float64) string {
	var sb strings.Builder
	for _, v := range b {
		sb.WriteString(strconv.FormatFloat(math.Round(v*1e12)/1e12, 'g', -1, 64))
		sb.WriteByte(',')
	}
	return sb.String()
}

// seeded returns m started from belief b.
func seeded(m *pomdp.Model, b []float64) (*pomdp.Model, error) {
	out := &pomdp.Model{Name: m.Name, States: m.States, Actions: m.Actions, Observations: m.Observations,
		Discount: m.Discount, HasDiscount: m.HasDiscount, T: m.T, Z: m.Z, R: m.R, B0: b}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("seed belief: %w", err)
	}
	return out, nil
}

// seedGroup is the set of probes sharing one seed belief.
type seedGroup struct {
	seed    []float64
	members []int
}

func groupSeeds(seeds [][]float64) []seedGroup {
	var groups []seedGroup
	at := map[string]int{}
	for i, s := range seeds {
		k := seedKey(s)
		j, ok := at[k]
		if !ok {
			j = len(groups)
			at[k] = j
			groups = append(groups, seedGroup{seed: s})
		}
		groups[j].members = append(groups[j].members, i)
	}
	return groups
}

// layerSegment computes one segment and, when wantNext, the next seeds.
func layerSegment(ctx context.Context, m *pomdp.Model, ctrls []*fsc.FSC, fam fsc.Family, seeds [][]float64, tk int, eps float64, g ot.Ground, opt LayerOptions, wantNext bool) (Segment, [][]float64, error) {
	seg := Segment{Tau: tk, EpsProbe: -1}
	groups := groupSeeds(seeds)
	seg.Seeds = len(groups)
	models := make([]*pomdp.Model, len(groups))
	for gi, grp := range groups {
		mg, err := seeded(m, grp.seed)
		if err != nil {
			return seg, nil, err
		}
		models[gi] = mg
		list := &fsc.List{Name: fmt.Sprintf("%v (seed group %d)", fam, gi), K: fam.Kind(), Mem: fam.M()}
		for _, i := range grp.members {
			list.Ctrls = append(list.Ctrls, ctrls[i])
		}
		r, err := distance.Compute(ctx, mg, list, tk, distance.Options{Ground: g, Convention: opt.Convention, Workers: opt.Workers})
		if err != nil {
			return seg, nil, err
		}
		seg.StandIns += r.StandIns
		if seg.D == nil {
			seg.D = r.D
			seg.Histories = r.Tree.Len()
			continue
		}
		for t := range seg.D {
			seg.D[t].MaxInto(r.D[t])
		}
	}
	seg.Partition = partition.Greedy(seg.D, eps)
	seg.Classes = seg.Partition.Total()
	seg.Diameter = Diameter(seg.D, seg.Partition)

	next := make([][]float64, len(ctrls))
	tree, err := law.NewTree(m.NumObservations(), tk)
	if err != nil {
		return seg, nil, err
	}
	type done struct {
		w    float64
		seed []float64
	}
	for gi, grp := range groups {
		q, err := quotient.New(models[gi], tk, seg.Partition)
		if err != nil {
			return seg, nil, err
		}
		memo := map[string]done{}
		for _, i := range grp.members {
			if err := ctx.Err(); err != nil {
				return seg, nil, err
			}
			pi := ctrls[i]
			key := ""
			if pi.Deterministic() {
				key = string(law.ActionTree(nil, pi, tree))
				if d, ok := memo[key]; ok {
					next[i] = d.seed
					if d.w > seg.Eps {
						seg.Eps, seg.EpsProbe = d.w, i
					}
					continue
				}
			}
			w, err := probeW1(Fixed(models[gi]), Quotient(q), pi, tk, g)
			if err != nil {
				return seg, nil, err
			}
			if seg.EpsProbe < 0 || w > seg.Eps {
				seg.Eps, seg.EpsProbe = w, i
			}
			if wantNext {
				if next[i], err = nextSeed(q, models[gi], pi, tk, opt.Weighted); err != nil {
					return seg, nil, err
				}
			}
			if key != "" {
				memo[key] = done{w, next[i]}
			}
		}
	}
	return seg, next, nil
}

// nextSeed returns the belief that seeds the next segment for probe pi.
func nextSeed(q *quotient.Quotient, m *pomdp.Model, pi *fsc.FSC, tk int, weighted bool) ([]float64, error) {
	if !weighted {
		cb, err := q.ClassBeliefs(pi)
		if err != nil {
			return nil, err
		}
		if len(cb[tk]) != 1 {
			return nil, fmt.Errorf("terminal depth %d has %d classes, want 1", tk, len(cb[tk]))
		}
		return cb[tk][0], nil
	}
	e, err := law.NewEngine(m, tk, law.UniformStandIn)
	if err != nil {
		return nil, err
	}
	beliefs, _, err := e.Beliefs(pi)
	if err != nil {
		return nil, err
	}
	laws, err := e.Compute(pi)
	if err != nil {
		return nil, err
	}
	tree := e.Tree()
	out := make([]float64, m.NumStates())
	tot := 0.0
	for i := 0; i < tree.Count(tk); i++ {
		id := tree.Offset(tk) + i
		w := laws.Mass[id]
		tot += w
		for s, v := range beliefs[id] {
			out[s] += w * v
		}
	}
	for s := range out {
		out[s] /= tot
	}
	return out, nil
}

// Diameter returns the largest distance between two histories of the same
// class of p under the per-depth distances d (0 when every class is a
// singleton). It panics if p and d have different shapes.
func Diameter(d []partition.Matrix, p *partition.Partition) float64 {
	diam := 0.0
	for t, lab := range p.Labels {
		if t >= len(d) || d[t].N < 2 {
			continue
		}
		if d[t].N != len(lab) {
			panic(fmt.Sprintf("wrap: depth %d: %d distances for %d labels", t, d[t].N, len(lab)))
		}
		for i := range lab {
			for j := i + 1; j < len(lab); j++ {
				if lab[i] == lab[j] {
					diam = math.Max(diam, d[t].At(i, j))
				}
			}
		}
	}
	return diam
}

// Classes returns the total class count of the layered partition of the
// full tree (Partition): 1 at depth 0 plus every segment's classes at its
// depths 1 … τ_k.
func (l *Layered) Classes() int {
	c := 1
	for _, s := range l.Segments {
		c += s.Classes - 1 // depth 0 of every segment is the boundary class
	}
	return c
}

// Partition returns the layered partition of the full history tree of
// depth T: a depth-t history in segment k (start s < t ≤ s + τ_k) is
// labelled by the class of its last t − s observations in segment k's
// partition. It returns an error when the full tree has more than limit
// histories (0 means law.MaxHistories).
func (l *Layered) Partition(limit int) (*partition.Partition, error) {
	if limit <= 0 {
		limit = law.MaxHistories
	}
	tree, err := law.NewTreeLimit(l.Model.NumObservations(), l.T, limit)
	if err != nil {
		return nil, err
	}
	labels := make([][]int, l.T+1)
	labels[0] = []int{0}
	for _, s := range l.Segments {
		for r := 1; r <= s.Tau; r++ {
			t := s.Start + r
			seg := s.Partition.Labels[r]
			mod := len(seg)
			labels[t] = make([]int, tree.Count(t))
			for j := range labels[t] {
				labels[t][j] = seg[j%mod]
			}
		}
	}
	return partition.FromLabels(labels), nil
}

// SegmentModels returns, for segment k and family member i, the model the
// probe runs on in that segment (M from its seed) and the segment quotient
// it sees. Values of additive objectives over the segmented model are sums
// of per-segment values on these models (cor:layered-value).
func (l *Layered) SegmentModels(k, i int) (seededModel, quot *pomdp.Model, err error) {
	if k < 0 || k >= len(l.Segments) || i < 0 || i >= l.Family.Len() {
		return nil, nil, fmt.Errorf("wrap: no segment %d / family member %d (have %d segments, %d members)", k, i, len(l.Segments), l.Family.Len())
	}
	mk, err := seeded(l.Model, l.seeds[k][i])
	if err != nil {
		return nil, nil, err
	}
	q, err := quotient.New(mk, l.Segments[k].Tau, l.Segments[k].Partition)
	if err != nil {
		return nil, nil, err
	}
	qm, err := q.ForProbe(l.Family.At(i))
	return mk, qm, err
}

// DefaultDistortionLimit is the largest |O|^T Distortion accepts unless the
// caller raises it.
const DefaultDistortionLimit = 1 << 14

// Distortion holds the full-horizon distances of a layered decomposition.
type Distortion struct {
	// Gamma = D_T(R, Q̃): the layered model Q̃ (segment quotients
	// concatenated) against the segmented reference R (M restarted from
	// the seeds at the boundaries). eq:layered-composition bounds it by
	// Bound.
	Gamma float64
	// Bound = Σ_k ε_k (Layered.Bound).
	Bound float64
	// Cut = D_T(M, R): what restarting from the seeds loses; the theorem
	// does not cover it.
	Cut float64
	// Total = D_T(M, Q̃) ≤ Cut + Gamma (triangle inequality).
	Total float64
	// Probe indices attaining Gamma, Cut and Total.
	GammaProbe, CutProbe, TotalProbe int
}

// Distortion computes the left-hand side of eq:layered-composition for the
// layered decomposition, Γ = D_T(R, Q̃), and the distances D_T(M, R) and
// D_T(M, Q̃), from exact trajectory laws over O^T: a probe's law on R (on Q̃)
// is the product of its trajectory laws on the seeded segment models (on the
// segment quotients it sees). Cost per probe: a law pass per segment and
// per model, one on M at horizon T, and three transport problems on |O|^T
// points. It returns an error when |O|^T exceeds limit (0 means
// DefaultDistortionLimit) or a computation fails; it is cancelled with ctx.
func (l *Layered) Distortion(ctx context.Context, limit int) (Distortion, error) {
	if limit <= 0 {
		limit = DefaultDistortionLimit
	}
	nO := l.Model.NumObservations()
	if float64(l.T)*math.Log(float64(nO)) > math.Log(float64(limit))+1e-9 {
		return Distortion{}, fmt.Errorf("wrap: distortion compares laws over |O|^T = %d^%d sequences, over the limit %d (raise it)", nO, l.T, limit)
	}
	d := Distortion{Bound: l.Bound, GammaProbe: -1, CutProbe: -1, TotalProbe: -1}
	for i := 0; i < l.Family.Len(); i++ {
		if err := ctx.Err(); err != nil {
			return d, err
		}
		pi := l.Family.At(i)
		var refParts, quotParts [][]float64
		for k, s := range l.Segments {
			mk, qm, err := l.SegmentModels(k, i)
			if err != nil {
				return d, err
			}
			pr, err := trajectory(Fixed(mk), pi, s.Tau)
			if err != nil {
				return d, err
			}
			pq, err := trajectory(Fixed(qm), pi, s.Tau)
			if err != nil {
				return d, err
			}
			refParts, quotParts = append(refParts, pr), append(quotParts, pq)
		}
		ref, quot := product(refParts), product(quotParts)
		exact, err := trajectory(Fixed(l.Model), pi, l.T)
		if err != nil {
			return d, err
		}
		for _, c := range []struct {
			p, q  []float64
			v     *float64
			probe *int
		}{{ref, quot, &d.Gamma, &d.GammaProbe}, {exact, ref, &d.Cut, &d.CutProbe}, {exact, quot, &d.Total, &d.TotalProbe}} {
			w, err := ot.SeqW1(l.Ground, l.T, c.p, c.q)
			if err != nil {
				return d, fmt.Errorf("wrap: probe %d: %w", i, err)
			}
			if *c.probe < 0 || w > *c.v {
				*c.v, *c.probe = w, i
			}
		}
	}
	return d, nil
}

// product returns the law of the concatenation of independent segments
// (first segment most significant, as in package law).
func product(parts [][]float64) []float64 {
	out := []float64{1}
	for _, p := range parts {
		next := make([]float64, len(out)*len(p))
		for i, a := range out {
			for j, b := range p {
				next[i*len(p)+j] = a * b
			}
		}
		out = next
	}
	return out
}
