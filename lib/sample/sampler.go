package sample

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// DefaultTrajectories is the paper's sample size per (history, probe) pair.
const DefaultTrajectories = 500

// DefaultLimit bounds the plan's enumeration, family size × (sampled
// histories + history pairs), unless Options.Limit raises it.
const DefaultLimit = 1 << 26

// MaxSuffixes bounds |O|^k, the size of a sampled law's suffix space.
const MaxSuffixes = 1 << 24

// Options configure New and Compute. The zero value means: 500
// trajectories, seed 0, the discrete ground metric, the uniform stand-in,
// suffixes of length T − t, all cores, no progress, DefaultLimit.
type Options struct {
	// Trajectories is N, the sample size of every law (Compute only; Run
	// takes it as an argument). 0 means DefaultTrajectories.
	Trajectories int
	// Seed selects the random streams (Compute only).
	Seed uint64
	// Ground is d_O; nil means the discrete metric.
	Ground ot.Ground
	// Convention is the impossible-history stand-in.
	Convention law.Convention
	// Suffix, when positive, gives every history of depth 0 … T a suffix of
	// this many observations (stationary probes only) instead of T − t.
	// This is not the paper's definition; it is the reading under which
	// its meaningful-scale class counts come out (package repro).
	Suffix int
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when set, is called with the work units done and their
	// total, from one goroutine at a time.
	Progress func(done, total int)
	// Limit bounds family size × (sampled histories + history pairs), the
	// plan's enumeration; 0 means DefaultLimit.
	Limit int64
	// Independent gives every controller its own samples (its family index
	// joins the stream key), as a sampler without de-duplication does:
	// duplicates then add noisy copies of the same law to the maximum.
	// The default shares one sample per distinct behaviour.
	Independent bool
}

// Sampler is the plan of a sampling run for one model, family and horizon:
// the distinct (history, behaviour) laws to sample, with their exact start
// distributions, and the distinct transport problems comparing them. It is
// independent of the sample size and the seed, so one plan serves many runs
// (the studies of this package). A Sampler is safe for concurrent use.
type Sampler struct {
	model   *pomdp.Model
	fam     fsc.Family
	T       int
	suffix  int
	indep   bool
	tree    law.Tree
	ground  ot.Ground
	conv    law.Convention
	workers int
	prog    func(done, total int)
	step    *stepper

	sampled []int // sampled depths (at least two histories, non-empty suffix)
	soff    []int // soff[t]: index of the first depth-t history among the sampled ones (−1 if not sampled)
	nHist   int   // number of sampled histories

	jobs   []job
	starts []start
	pairs  []pair
	jobOf  []int32 // jobOf[member·nHist + h]

	standIns int
	seconds  float64
}

// Job kinds.
const (
	jobBelief  = iota // deterministic controller from a node, state ~ belief
	jobJoint          // (node, state) ~ joint posterior (stochastic controller)
	jobUniform        // uniform stand-in: node and state uniform
	jobPoint          // point-mass stand-in: nothing to sample
)

// job is one distinct law to sample.
type job struct {
	kind   int
	t, i   int // a history with this law (the first met)
	k      int // suffix length
	ctrl   *fsc.FSC
	start  int    // index into starts (jobBelief, jobJoint)
	stream uint64 // hash of the law's key
}

// pair is one distinct transport problem between two laws of the same depth.
type pair struct {
	a, b int32 // jobs
	t    int32
	idx  int32 // entry of D[t]
}

// New plans a sampling run for model m, family fam and horizon T. It checks
// every controller, computes the exact beliefs along the histories (with
// each controller's own actions), and groups equal behaviours: the work is
// then proportional to the distinct laws, not to the family size.
//
// It returns an error for an empty family, a controller that does not fit
// the model or horizon, a bad ground metric, a fixed Suffix with
// clock-aware controllers, a suffix space beyond MaxSuffixes, or when family
// size × (sampled histories + history pairs) exceeds the limit (raise
// Options.Limit).
//
// Cost: one walk of the history tree per controller, plus one belief update
// O(nnz(T_a) + |S|) per distinct (history, action prefix).
func New(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options) (*Sampler, error) {
	start := time.Now()
	nO := m.NumObservations()
	g, err := ot.ForObservations(opt.Ground, nO)
	if err != nil {
		return nil, fmt.Errorf("sample: model %s: %w", m.Name, err)
	}
	if fam.Len() == 0 {
		return nil, fmt.Errorf("sample: empty probe family")
	}
	if opt.Suffix < 0 {
		return nil, fmt.Errorf("sample: Suffix = %d is negative (0 means T − t)", opt.Suffix)
	}
	eng, err := law.NewEngine(m, T, opt.Convention)
	if err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := &Sampler{model: m, fam: fam, T: T, suffix: opt.Suffix, indep: opt.Independent, tree: eng.Tree(), ground: g,
		conv: opt.Convention, workers: workers, prog: opt.Progress, step: newStepper(m)}
	s.soff = make([]int, T+1)
	for t := 0; t <= T; t++ {
		s.soff[t] = -1
		k := s.k(t)
		if k == 0 || s.tree.Count(t) < 2 {
			continue
		}
		if float64(k)*math.Log(float64(nO)) > math.Log(MaxSuffixes) {
			return nil, fmt.Errorf("sample: suffixes of length %d over %d observations exceed %d; lower T or Suffix", k, nO, MaxSuffixes)
		}
		s.soff[t] = s.nHist
		s.sampled = append(s.sampled, t)
		s.nHist += s.tree.Count(t)
	}
	limit := opt.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	pairs := 0.0
	for _, t := range s.sampled {
		c := float64(s.tree.Count(t))
		pairs += c * (c - 1) / 2
	}
	if work := float64(fam.Len()) * (float64(s.nHist) + pairs); work > float64(limit) {
		return nil, fmt.Errorf("sample: %d controllers × (%d sampled histories + %.0f history pairs) = %.4g exceeds the limit %d; use a smaller family or raise Options.Limit",
			fam.Len(), s.nHist, pairs, work, limit)
	}
	if err := s.plan(ctx, eng); err != nil {
		return nil, err
	}
	s.seconds = time.Since(start).Seconds()
	return s, nil
}

// k returns the suffix length of depth t.
func (s *Sampler) k(t int) int {
	if s.suffix > 0 {
		return s.suffix
	}
	return s.T - t
}

// planner holds the state of New's walk over the family.
type planner struct {
	s       *Sampler
	jobKey  map[string]int32
	belKey  map[string]int32
	beliefs [][]float64 // normalised; nil for an impossible history
	cdfOf   map[int32][]float64
	pairKey map[pair]bool
	pred    []float64
	key     []byte
}

func (s *Sampler) plan(ctx context.Context, eng *law.Engine) error {
	p := &planner{s: s, jobKey: map[string]int32{}, belKey: map[string]int32{}, cdfOf: map[int32][]float64{},
		pairKey: map[pair]bool{}, pred: make([]float64, s.model.NumStates())}
	n := s.fam.Len()
	s.jobOf = make([]int32, n*s.nHist)
	maxDepth := -1
	if len(s.sampled) > 0 {
		maxDepth = s.sampled[len(s.sampled)-1]
	}
	for member := 0; member < n; member++ {
		if member%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		c := s.fam.At(member)
		if err := eng.Check(c); err != nil {
			return fmt.Errorf("sample: controller %d of %v: %w", member, s.fam, err)
		}
		if s.suffix > 0 && c.Clock() {
			return fmt.Errorf("sample: controller %d of %v is clock-aware; a fixed Suffix needs stationary controllers", member, s.fam)
		}
		row := s.jobOf[member*s.nHist : (member+1)*s.nHist]
		if maxDepth < 0 {
			continue
		}
		if c.Deterministic() {
			root := p.belief(nil, -1, 0)
			p.walkDet(c, member, row, 0, 0, 0, root, nil, maxDepth)
		} else {
			joint := make([]float64, c.Nodes*s.model.NumStates())
			copy(joint, s.model.B0)
			p.walkJoint(c, member, row, 0, 0, joint, maxDepth)
		}
		p.addPairs(row)
	}
	return nil
}

// belief returns the index of the belief after history id reached with the
// action prefix acts, computing it from the parent's belief parent (−1 for
// the root, which is b0) with action a and observation o.
func (p *planner) belief(acts []int, parent int32, id int) int32 {
	key := binary.AppendUvarint(nil, uint64(id))
	for _, a := range acts {
		key = binary.AppendUvarint(key, uint64(a))
	}
	if b, ok := p.belKey[string(key)]; ok {
		return b
	}
	m := p.s.model
	var b []float64
	if parent < 0 {
		b = append([]float64(nil), m.B0...)
	} else if pb := p.beliefs[parent]; pb != nil {
		a := acts[len(acts)-1]
		o := (id - p.s.tree.Offset(len(acts))) % p.s.tree.NumObs
		m.Predict(p.pred, pb, a)
		b = make([]float64, m.NumStates())
		if mass := m.Observe(b, p.pred, a, o); mass > 0 {
			for k := range b {
				b[k] /= mass
			}
		} else {
			b = nil
		}
	}
	idx := int32(len(p.beliefs))
	p.beliefs = append(p.beliefs, b)
	p.belKey[string(key)] = idx
	return idx
}

// walkDet visits history (t, i) of a deterministic controller in node n
// with action prefix acts and belief bel.
func (p *planner) walkDet(c *fsc.FSC, member int, row []int32, t, i, n int, bel int32, acts []int, maxDepth int) {
	s := p.s
	if s.soff[t] >= 0 {
		row[s.soff[t]+i] = p.detJob(c, member, t, i, n, bel, acts)
	}
	if t == maxDepth {
		return
	}
	a := c.Action(t, n)
	acts = append(acts, a)
	nO := s.tree.NumObs
	for o := 0; o < nO; o++ {
		ci := i*nO + o
		cb := p.belief(acts, bel, s.tree.Offset(t+1)+ci)
		p.walkDet(c, member, row, t+1, ci, c.NextNode(t, n, o), cb, acts, maxDepth)
	}
}

// detJob returns the job of a deterministic controller at history (t, i).
func (p *planner) detJob(c *fsc.FSC, member, t, i, n int, bel int32, acts []int) int32 {
	s := p.s
	k := s.k(t)
	key := p.key[:0]
	switch {
	case p.beliefs[bel] != nil:
		key = append(key, 'P')
		key = binary.AppendUvarint(key, uint64(s.tree.Offset(t)+i))
		for _, a := range acts {
			key = binary.AppendUvarint(key, uint64(a))
		}
		key = append(key, '|')
		key = subtree(key, c, t, n, k, s.tree.NumObs)
	case s.conv == law.PointMassStandIn:
		key = append(key, 'M')
		key = binary.AppendUvarint(key, uint64(t))
	default:
		key = append(key, 'U')
		key = binary.AppendUvarint(key, uint64(t))
		key = binary.AppendUvarint(key, uint64(c.Nodes))
		for n0 := 0; n0 < c.Nodes; n0++ {
			key = subtree(key, c, t, n0, k, s.tree.NumObs)
		}
	}
	if s.indep && key[0] != 'M' {
		key = append(key, '#')
		key = binary.AppendUvarint(key, uint64(member))
	}
	p.key = key
	if j, ok := p.jobKey[string(key)]; ok {
		if p.s.jobs[j].kind != jobBelief {
			s.standIns++
		}
		return j
	}
	j := job{t: t, i: i, k: k, ctrl: c, stream: hash(key)}
	if key[0] == 'P' {
		j.kind = jobBelief
		cdf, ok := p.cdfOf[bel]
		if !ok {
			cdf = cumulative(p.beliefs[bel])
			p.cdfOf[bel] = cdf
		}
		// Jobs share the cumulative belief; the start node is the job's own.
		j.start = len(s.starts)
		s.starts = append(s.starts, start{cdf: cdf, nS: s.model.NumStates(), node: n})
		return p.register(j)
	}
	return p.standIn(j)
}

// standIn registers j as a stand-in job under p.key ('M': the point-mass
// stand-in, any other: the uniform one) and counts it.
func (p *planner) standIn(j job) int32 {
	j.kind = jobUniform
	if p.key[0] == 'M' {
		j.kind = jobPoint
	}
	p.s.standIns++
	return p.register(j)
}

// register appends j to the sampler's jobs under p.key and returns its
// index.
func (p *planner) register(j job) int32 {
	idx := int32(len(p.s.jobs))
	p.s.jobs = append(p.s.jobs, j)
	p.jobKey[string(p.key)] = idx
	return idx
}

// subtree appends the actions of deterministic controller c on the
// observation subtree of depth k below a history of depth t where it is in
// node n (depth-first, observations in order).
func subtree(dst []byte, c *fsc.FSC, t, n, k, nO int) []byte {
	dst = binary.AppendUvarint(dst, uint64(c.Action(t, n)))
	if k > 1 {
		for o := 0; o < nO; o++ {
			dst = subtree(dst, c, t+1, c.NextNode(t, n, o), k-1, nO)
		}
	}
	return dst
}

// walkJoint visits history (t, i) of a stochastic controller with the
// unnormalised joint over (node, state).
func (p *planner) walkJoint(c *fsc.FSC, member int, row []int32, t, i int, joint []float64, maxDepth int) {
	s := p.s
	total := 0.0
	for _, v := range joint {
		total += v
	}
	if s.soff[t] >= 0 {
		row[s.soff[t]+i] = p.jointJob(c, member, t, i, joint, total)
	}
	if t == maxDepth {
		return
	}
	nO := s.tree.NumObs
	children := p.jointStep(c, t, joint)
	for o := 0; o < nO; o++ {
		p.walkJoint(c, member, row, t+1, i*nO+o, children[o], maxDepth)
	}
}

// jointStep returns the unnormalised joints after each observation:
//
//	child_o(n', s') = Σ_{n,a} α_t(a|n) β_t(n'|n,o) Z(s',a,o) Σ_s T(s,a,s') joint(n, s).
func (p *planner) jointStep(c *fsc.FSC, t int, joint []float64) [][]float64 {
	m := p.s.model
	nS, nO := m.NumStates(), m.NumObservations()
	children := make([][]float64, nO)
	for o := range children {
		children[o] = make([]float64, c.Nodes*nS)
	}
	obs := make([]float64, nS)
	scaled := make([]float64, nS)
	for n := 0; n < c.Nodes; n++ {
		block := joint[n*nS : (n+1)*nS]
		for a := 0; a < m.NumActions(); a++ {
			pa := c.ActionProb(t, n, a)
			if pa == 0 {
				continue
			}
			for k, v := range block {
				scaled[k] = pa * v
			}
			m.Predict(p.pred, scaled, a)
			for o := 0; o < nO; o++ {
				if m.Observe(obs, p.pred, a, o) == 0 {
					continue
				}
				for n2 := 0; n2 < c.Nodes; n2++ {
					var pn float64
					if st := stage(c, t); st < len(c.NextProb) {
						pn = c.NextProb[st][n][o][n2]
					} else if n2 == n {
						pn = 1
					}
					if pn == 0 {
						continue
					}
					dst := children[o][n2*nS : (n2+1)*nS]
					for k, v := range obs {
						dst[k] += pn * v
					}
				}
			}
		}
	}
	return children
}

// jointJob returns the job of a stochastic controller at history (t, i).
func (p *planner) jointJob(c *fsc.FSC, member, t, i int, joint []float64, total float64) int32 {
	s := p.s
	key := p.key[:0]
	switch {
	case total > 0:
		key = append(key, 'S')
		key = binary.AppendUvarint(key, uint64(s.tree.Offset(t)+i))
	case s.conv == law.PointMassStandIn:
		key = append(key, 'M')
		key = binary.AppendUvarint(key, uint64(t))
	default:
		key = append(key, 's')
		key = binary.AppendUvarint(key, uint64(t))
	}
	if key[0] != 'M' {
		key = binary.AppendUvarint(key, uint64(member))
	}
	p.key = key
	if j, ok := p.jobKey[string(key)]; ok {
		s.standIns++ // only stand-ins repeat a key
		return j
	}
	j := job{t: t, i: i, k: s.k(t), ctrl: c, stream: hash(key)}
	if key[0] == 'S' {
		j.kind = jobJoint
		j.start = len(s.starts)
		s.starts = append(s.starts, start{cdf: cumulative(joint), nS: s.model.NumStates(), joint: true})
		return p.register(j)
	}
	return p.standIn(j)
}

// addPairs records the transport problems of one controller. A problem is
// oriented by history order (the law of the first history is transported
// to the second's), so that its value does not depend on the family's order.
func (p *planner) addPairs(row []int32) {
	s := p.s
	for _, t := range s.sampled {
		cnt := s.tree.Count(t)
		base := row[s.soff[t] : s.soff[t]+cnt]
		m := partition.Matrix{N: cnt}
		for i := 0; i < cnt; i++ {
			for j := i + 1; j < cnt; j++ {
				if base[i] == base[j] {
					continue // one law: distance 0
				}
				// The entry is part of the key: a stand-in law is shared by
				// the impossible histories of a depth, so one pair of laws
				// can compare several pairs of histories.
				pr := pair{a: base[i], b: base[j], t: int32(t), idx: int32(m.Index(i, j))}
				if p.pairKey[pr] {
					continue
				}
				p.pairKey[pr] = true
				s.pairs = append(s.pairs, pr)
			}
		}
	}
}

// hash mixes a key into a 64-bit stream selector (FNV-1a, then the
// SplitMix64 finaliser).
func hash(key []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range key {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return mix(h)
}

func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Laws returns the number of distinct laws a run samples.
func (s *Sampler) Laws() int { return len(s.jobs) }

// Problems returns the number of distinct transport problems a run solves.
func (s *Sampler) Problems() int { return len(s.pairs) }

// FamilySize returns the number of controllers, duplicates included.
func (s *Sampler) FamilySize() int { return s.fam.Len() }

// Tree returns the history tree.
func (s *Sampler) Tree() law.Tree { return s.tree }

// Depths returns the sampled depths: those with at least two histories
// and a non-empty suffix.
func (s *Sampler) Depths() []int { return append([]int(nil), s.sampled...) }

// sampleJob draws n trajectories of job j with seed and returns the
// empirical law; counts is dense scratch of length ≥ |O|^k, all zero on
// entry and on return.
func (s *Sampler) sampleJob(j *job, n int, seed uint64, counts []int32) Empirical {
	nO := s.tree.NumObs
	e := Empirical{NumObs: nO, K: j.k, N: n}
	if j.kind == jobPoint {
		e.Atoms, e.Counts = []int32{0}, []int32{int32(n)}
		return e
	}
	r := rand.NewPCG(seed, j.stream)
	ri := rand.New(r) // IntN for the uniform stand-in, on the same stream
	nS := s.model.NumStates()
	size := pow(nO, j.k)
	var touched []int32 // distinct suffixes, when the space is much larger than n
	sparse := size > 4*n
	var st *start
	if j.kind != jobUniform {
		st = &s.starts[j.start]
	}
	for range n {
		var node, state int
		if st != nil {
			node, state = st.draw(r)
		} else {
			node, state = ri.IntN(j.ctrl.Nodes), ri.IntN(nS)
		}
		x := s.step.simulate(j.ctrl, j.t, j.k, node, state, r)
		if sparse && counts[x] == 0 {
			touched = append(touched, int32(x))
		}
		counts[x]++
	}
	if sparse {
		slices.Sort(touched)
		for _, x := range touched {
			e.Atoms = append(e.Atoms, x)
			e.Counts = append(e.Counts, counts[x])
			counts[x] = 0
		}
		return e
	}
	for x := 0; x < size; x++ {
		if c := counts[x]; c > 0 {
			e.Atoms = append(e.Atoms, int32(x))
			e.Counts = append(e.Counts, c)
			counts[x] = 0
		}
	}
	return e
}
