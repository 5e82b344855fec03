package fsc

import (
	"fmt"
	"math/big"
	"math/rand/v2"
)

// Kind names a probe family.
type Kind string

// The probe families of the paper.
const (
	// KindStationary is Π_op: deterministic stationary FSCs with ≤ m nodes.
	KindStationary Kind = "stationary"
	// KindClock is Π_clk restricted to deterministic controllers with m
	// nodes (sufficient by thm:witness).
	KindClock Kind = "clock"
	// KindStochasticStationary holds sampled stochastic stationary FSCs.
	KindStochasticStationary Kind = "stochastic-stationary"
	// KindStochasticClock holds sampled stochastic clock-aware FSCs.
	KindStochasticClock Kind = "stochastic-clock"
)

// ParseKind accepts "stationary" (or "op"), "clock" (or "clk"),
// "stochastic-stationary" and "stochastic-clock".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "stationary", "op":
		return KindStationary, nil
	case "clock", "clk", "clock-aware":
		return KindClock, nil
	case "stochastic-stationary":
		return KindStochasticStationary, nil
	case "stochastic-clock":
		return KindStochasticClock, nil
	}
	return "", fmt.Errorf("fsc: unknown family kind %q (want stationary, clock, stochastic-stationary or stochastic-clock)", s)
}

// DefaultLimit is the largest family size built unless the caller raises
// the limit (Options.Limit).
const DefaultLimit = 10_000_000

// TooLargeError reports a family refused because its size exceeds the limit.
type TooLargeError struct {
	Kind  Kind
	M, T  int
	Size  *big.Int
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("fsc: %s family with m=%d, T=%d has %s controllers, above the limit %d; raise the limit (Options.Limit, or --limit) if you mean it", e.Kind, e.M, e.T, e.Size.String(), e.Limit)
}

// Options configure family construction. The zero value means the
// defaults documented on each field.
type Options struct {
	// Limit is the largest size built; 0 means DefaultLimit.
	Limit int64
	// Samples is the number of controllers of a sampled stochastic family;
	// 0 means 100.
	Samples int
	// Seed seeds the sampler of stochastic families (PCG source).
	Seed uint64
	// Indexed draws sample i of a stochastic family from its own stream,
	// PCG(Seed, i), when it is asked for, instead of drawing every sample
	// in turn from one stream: any range of samples is built without the
	// others (sharded runs split a sampled family into seed ranges), and
	// the family holds no controller. Other samples than without it.
	Indexed bool
}

// Family is an indexed set of controllers for one model's action and
// observation counts. At must be safe for concurrent use.
type Family interface {
	// Len returns the number of controllers, duplicates included (the
	// count the paper reports).
	Len() int
	// At returns controller i, 0 ≤ i < Len(). The result is freshly built.
	At(i int) *FSC
	// Kind returns the family kind.
	Kind() Kind
	// M returns the memory bound and T the horizon (0 for stationary).
	M() int
	T() int
	// String describes the family, e.g. "stationary m≤2 (147 FSCs)".
	String() string
}

// Size returns the exact number of controllers of a deterministic family
// (kind stationary or clock) for |A| = nA and |O| = nO, without building it.
//
//	stationary: Σ_{k=1..m} |A|^k · k^{k|O|}
//	clock:      (|A|^m)^T · (m^{m|O|})^{T−1}
func Size(kind Kind, nA, nO, m, T int) (*big.Int, error) {
	if nA < 1 || nO < 1 || m < 1 {
		return nil, fmt.Errorf("fsc: family needs |A| ≥ 1, |O| ≥ 1, m ≥ 1 (have %d, %d, %d)", nA, nO, m)
	}
	pow := func(b, e int) *big.Int { return new(big.Int).Exp(big.NewInt(int64(b)), big.NewInt(int64(e)), nil) }
	switch kind {
	case KindStationary:
		total := new(big.Int)
		for k := 1; k <= m; k++ {
			total.Add(total, new(big.Int).Mul(pow(nA, k), pow(k, k*nO)))
		}
		return total, nil
	case KindClock:
		if T < 1 {
			return nil, fmt.Errorf("fsc: clock-aware family needs a horizon T ≥ 1 (have %d)", T)
		}
		return new(big.Int).Mul(pow(nA, m*T), pow(m, m*nO*(T-1))), nil
	}
	return nil, fmt.Errorf("fsc: size of a %s family is the number of samples", kind)
}

func checkLimit(kind Kind, nA, nO, m, T int, limit int64) (int, error) {
	size, err := Size(kind, nA, nO, m, T)
	if err != nil {
		return 0, err
	}
	if limit == 0 {
		limit = DefaultLimit
	}
	if !size.IsInt64() || size.Int64() > limit {
		return 0, &TooLargeError{Kind: kind, M: m, T: T, Size: size, Limit: limit}
	}
	return int(size.Int64()), nil
}

// New returns the family of the given kind for |A| = nA, |O| = nO, memory m
// and horizon T (T is ignored by stationary families).
func New(kind Kind, nA, nO, m, T int, opt Options) (Family, error) {
	switch kind {
	case KindStationary:
		return NewStationary(nA, nO, m, opt)
	case KindClock:
		return NewClock(nA, nO, m, T, opt)
	case KindStochasticStationary:
		return NewSampled(nA, nO, m, 0, opt)
	case KindStochasticClock:
		if T < 1 {
			return nil, fmt.Errorf("fsc: clock-aware family needs a horizon T ≥ 1 (have %d)", T)
		}
		return NewSampled(nA, nO, m, T, opt)
	}
	return nil, fmt.Errorf("fsc: unknown family kind %q", kind)
}

// Stationary is Π_op, every deterministic stationary FSC with 1 … m nodes.
// Controllers are ordered by node count k, then by action table (node 0's
// action most significant), then by next-node table flattened [n][o]
// (last entry varying fastest), as itertools.product enumerates them.
type Stationary struct {
	nA, nO, m int
	offsets   []int // offsets[k-1] = first index with k nodes; offsets[m] = Len
}

// NewStationary returns the stationary family, or a *TooLargeError.
func NewStationary(nA, nO, m int, opt Options) (*Stationary, error) {
	n, err := checkLimit(KindStationary, nA, nO, m, 0, opt.Limit)
	if err != nil {
		return nil, err
	}
	f := &Stationary{nA: nA, nO: nO, m: m, offsets: make([]int, m+1)}
	for k := 1; k <= m; k++ {
		f.offsets[k] = f.offsets[k-1] + ipow(nA, k)*ipow(k, k*nO)
	}
	if f.offsets[m] != n {
		panic("fsc: size mismatch")
	}
	return f, nil
}

func ipow(b, e int) int {
	r := 1
	for ; e > 0; e-- {
		r *= b
	}
	return r
}

// Len returns Σ_{k=1..m} |A|^k · k^{k|O|}.
func (f *Stationary) Len() int { return f.offsets[f.m] }

// Kind returns KindStationary.
func (f *Stationary) Kind() Kind { return KindStationary }

// M returns the memory bound.
func (f *Stationary) M() int { return f.m }

// T returns 0: stationary controllers have no horizon.
func (f *Stationary) T() int { return 0 }

func (f *Stationary) String() string {
	return fmt.Sprintf("stationary m≤%d (%d FSCs)", f.m, f.Len())
}

// Nodes returns the node count of controller i.
func (f *Stationary) Nodes(i int) int {
	for k := 1; k <= f.m; k++ {
		if i < f.offsets[k] {
			return k
		}
	}
	panic(fmt.Sprintf("fsc: index %d out of range [0, %d)", i, f.Len()))
}

// At decodes controller i.
func (f *Stationary) At(i int) *FSC {
	k := f.Nodes(i)
	r := i - f.offsets[k-1]
	nNext := ipow(k, k*f.nO)
	actIdx, nextIdx := r/nNext, r%nNext
	c := &FSC{Nodes: k, NumActions: f.nA, NumObs: f.nO}
	act := make([]int, k)
	for n := k - 1; n >= 0; n-- {
		act[n] = actIdx % f.nA
		actIdx /= f.nA
	}
	next := make([][]int, k)
	flat := make([]int, k*f.nO)
	for j := len(flat) - 1; j >= 0; j-- {
		flat[j] = nextIdx % k
		nextIdx /= k
	}
	for n := range next {
		next[n] = flat[n*f.nO : (n+1)*f.nO]
	}
	c.Act = [][]int{act}
	c.Next = [][][]int{next}
	return c
}

// Clock is the deterministic clock-aware family with exactly m nodes and
// T stages: α_τ for τ = 0 … T−1 and β_τ for τ = 0 … T−2. Controllers are
// ordered by the action tables (stage 0 node 0 most significant), then by
// the next-node tables.
type Clock struct {
	nA, nO, m, t int
	n            int
}

// NewClock returns the clock-aware family, or a *TooLargeError.
func NewClock(nA, nO, m, T int, opt Options) (*Clock, error) {
	n, err := checkLimit(KindClock, nA, nO, m, T, opt.Limit)
	if err != nil {
		return nil, err
	}
	return &Clock{nA: nA, nO: nO, m: m, t: T, n: n}, nil
}

// Len returns (|A|^m)^T · (m^{m|O|})^{T−1}.
func (f *Clock) Len() int { return f.n }

// Kind returns KindClock.
func (f *Clock) Kind() Kind { return KindClock }

// M returns the number of nodes.
func (f *Clock) M() int { return f.m }

// T returns the horizon.
func (f *Clock) T() int { return f.t }

func (f *Clock) String() string {
	return fmt.Sprintf("clock-aware m=%d T=%d (%d FSCs)", f.m, f.t, f.n)
}

// At decodes controller i.
func (f *Clock) At(i int) *FSC {
	if i < 0 || i >= f.n {
		panic(fmt.Sprintf("fsc: index %d out of range [0, %d)", i, f.n))
	}
	nNext := ipow(f.m, f.m*f.nO*(f.t-1))
	actIdx, nextIdx := i/nNext, i%nNext
	c := &FSC{Nodes: f.m, Stages: f.t, NumActions: f.nA, NumObs: f.nO}
	acts := make([]int, f.m*f.t)
	for j := len(acts) - 1; j >= 0; j-- {
		acts[j] = actIdx % f.nA
		actIdx /= f.nA
	}
	// Few allocations, each of its final size: the grouping of a sharded
	// run decodes billions of controllers.
	c.Act = make([][]int, f.t)
	for tau := range c.Act {
		c.Act[tau] = acts[tau*f.m : (tau+1)*f.m]
	}
	flat := make([]int, f.m*f.nO*(f.t-1))
	for j := len(flat) - 1; j >= 0; j-- {
		flat[j] = nextIdx % f.m
		nextIdx /= f.m
	}
	if f.t > 1 {
		c.Next = make([][][]int, f.t-1)
		rows := make([][]int, f.m*(f.t-1))
		for tau := range c.Next {
			tab := rows[tau*f.m : (tau+1)*f.m : (tau+1)*f.m]
			for n := range tab {
				base := (tau*f.m + n) * f.nO
				tab[n] = flat[base : base+f.nO : base+f.nO]
			}
			c.Next[tau] = tab
		}
	}
	return c
}

// Sampled is a family of stochastic controllers drawn from a seeded
// source: every action distribution α_τ(n) and node distribution
// β_τ(n, o) is an independent uniform draw from the simplex (Dirichlet(1)).
type Sampled struct {
	nA, nO, m, t int
	ctrl         []*FSC
	// indexed families (Options.Indexed) build sample i on demand.
	indexed bool
	n       int
	seed    uint64
}

// NewSampled draws opt.Samples (default 100) stochastic controllers with m
// nodes; T = 0 gives stationary controllers, T ≥ 1 clock-aware ones.
// The same Seed gives the same family.
func NewSampled(nA, nO, m, T int, opt Options) (*Sampled, error) {
	if nA < 1 || nO < 1 || m < 1 || T < 0 {
		return nil, fmt.Errorf("fsc: sampled family needs |A|, |O|, m ≥ 1 and T ≥ 0 (have %d, %d, %d, %d)", nA, nO, m, T)
	}
	n := opt.Samples
	if n == 0 {
		n = 100
	}
	f := &Sampled{nA: nA, nO: nO, m: m, t: T, n: n, indexed: opt.Indexed, seed: opt.Seed}
	if opt.Indexed {
		return f, nil
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))
	for range n {
		f.ctrl = append(f.ctrl, Random(rng, nA, nO, m, T))
	}
	return f, nil
}

// Random draws one stochastic controller with m nodes (T = 0: stationary,
// else T stages) from rng, every distribution uniform on its simplex.
func Random(rng *rand.Rand, nA, nO, m, T int) *FSC {
	stages := max(T, 1)
	c := &FSC{Nodes: m, Stages: T, NumActions: nA, NumObs: nO}
	for tau := 0; tau < stages; tau++ {
		tab := make([][]float64, m)
		for n := range tab {
			tab[n] = simplex(rng, nA)
		}
		c.ActProb = append(c.ActProb, tab)
		if T == 0 || tau < T-1 {
			nt := make([][][]float64, m)
			for n := range nt {
				nt[n] = make([][]float64, nO)
				for o := range nt[n] {
					nt[n][o] = simplex(rng, m)
				}
			}
			c.NextProb = append(c.NextProb, nt)
		}
	}
	return c
}

func simplex(rng *rand.Rand, k int) []float64 {
	p := make([]float64, k)
	s := 0.0
	for i := range p {
		p[i] = rng.ExpFloat64()
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// Len returns the number of samples.
func (f *Sampled) Len() int { return f.n }

// At returns sample i (shared; do not modify). An indexed family draws it
// from the stream PCG(Seed, i) at each call.
func (f *Sampled) At(i int) *FSC {
	if f.indexed {
		if i < 0 || i >= f.n {
			panic(fmt.Sprintf("fsc: index %d out of range [0, %d)", i, f.n))
		}
		return Random(rand.New(rand.NewPCG(f.seed, uint64(i))), f.nA, f.nO, f.m, f.t)
	}
	return f.ctrl[i]
}

// Indexed reports whether sample i is drawn from its own stream
// (Options.Indexed), and returns the seed.
func (f *Sampled) Indexed() (bool, uint64) { return f.indexed, f.seed }

// Kind returns the stochastic kind.
func (f *Sampled) Kind() Kind {
	if f.t > 0 {
		return KindStochasticClock
	}
	return KindStochasticStationary
}

// M returns the number of nodes.
func (f *Sampled) M() int { return f.m }

// T returns the horizon (0 for stationary samples).
func (f *Sampled) T() int { return f.t }

func (f *Sampled) String() string {
	if f.indexed {
		return fmt.Sprintf("%s m=%d T=%d (%d sampled FSCs, seed %d, indexed)", f.Kind(), f.m, f.t, f.n, f.seed)
	}
	return fmt.Sprintf("%s m=%d T=%d (%d sampled FSCs)", f.Kind(), f.m, f.t, f.n)
}

// List is a family given by an explicit list of controllers (a subset
// chosen by certify.Greedy, or hand-built probes).
type List struct {
	Name  string
	Ctrls []*FSC
	K     Kind
	Mem   int
	Hor   int
}

// Len returns the number of controllers.
func (f *List) Len() int { return len(f.Ctrls) }

// At returns controller i.
func (f *List) At(i int) *FSC { return f.Ctrls[i] }

// Kind returns the kind given at construction.
func (f *List) Kind() Kind { return f.K }

// M returns the memory bound given at construction.
func (f *List) M() int { return f.Mem }

// T returns the horizon given at construction.
func (f *List) T() int { return f.Hor }

func (f *List) String() string {
	name := f.Name
	if name == "" {
		name = "list"
	}
	return fmt.Sprintf("%s (%d FSCs)", name, len(f.Ctrls))
}
