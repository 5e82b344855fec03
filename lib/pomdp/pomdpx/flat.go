package pomdpx

import (
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/filebuild"
)

// Where a table's parent takes its value from while the flat model is
// built.
const (
	srcAction = iota // an action variable
	srcPrev          // a state variable's current value
	srcNext          // a state variable's next value (initial value for a belief)
	srcObs           // an observation variable
)

type pxSrc struct {
	from   uint8
	idx    int // position of the variable among its kind
	stride int
}

// pxBuild holds the digits of the joint values being enumerated.
type pxBuild struct {
	p              *pxParser
	ad, sd, nd, od []int // action, state, next-state and observation-variable digits
	radix          []int // place value of each state variable in a joint state
	oradix         []int // place value of each observation variable in its part of a joint observation
	col            []int
	val            []float64
	nnz            map[string]int // size of the last kernel built, per section
}

func (b *pxBuild) row(f *pxFunc) int {
	r := 0
	for _, s := range f.srcs {
		var d int
		switch s.from {
		case srcAction:
			d = b.ad[s.idx]
		case srcPrev:
			d = b.sd[s.idx]
		case srcNext:
			d = b.nd[s.idx]
		default:
			d = b.od[s.idx]
		}
		r += d * s.stride
	}
	return r
}

// sources fills f.srcs. In an initial distribution every state identifier
// is the initial value, enumerated like a next value.
func (f *pxFunc) sources() {
	f.srcs = make([]pxSrc, len(f.parents))
	for i, r := range f.parents {
		s := pxSrc{idx: r.v.pos, stride: f.strides[i]}
		switch r.v.kind {
		case pxAction:
			s.from = srcAction
		case pxObs:
			s.from = srcObs
		default:
			s.from = srcPrev
			if r.next || f.section == secBelief {
				s.from = srcNext
			}
		}
		f.srcs[i] = s
	}
}

// digits sets d to the mixed-radix digits of x over vars (the first most
// significant).
func digits(d []int, x int, vars []*pxVar) {
	for i := len(vars) - 1; i >= 0; i-- {
		n := vars[i].size()
		d[i] = x % n
		x /= n
	}
}

// finish checks that every variable has its functions and builds the flat
// model.
func (p *pxParser) finish() (*pomdp.Model, error) {
	if _, ok := p.seen["Variable"]; !ok {
		return nil, p.errAt(0, "pomdpx", "no <Variable>")
	}
	if p.discountLine == 0 {
		return nil, p.errAt(0, "pomdpx", "no <Discount>")
	}
	for _, v := range p.states {
		if v.belief == nil {
			return nil, p.errAt(v.line, secBelief, "no <CondProb> gives the initial distribution of %s", v.prev)
		}
		if v.fn == nil {
			return nil, p.errAt(v.line, secTrans, "no <CondProb> gives the transition of %s", v.curr)
		}
	}
	for _, v := range p.obs {
		if v.fn == nil {
			return nil, p.errAt(v.line, secObs, "no <CondProb> gives the observation function of %s", v.vname)
		}
	}
	for _, v := range p.rewards {
		if v.fn == nil {
			return nil, p.errAt(v.line, secReward, "no <Func> gives the reward %s", v.vname)
		}
	}
	for _, f := range p.funcs {
		f.sources()
	}
	b := &pxBuild{p: p,
		ad: make([]int, len(p.actions)), sd: make([]int, len(p.states)),
		nd: make([]int, len(p.states)), od: make([]int, len(p.obs)),
		radix: make([]int, len(p.states)), oradix: make([]int, len(p.obs)), nnz: map[string]int{}}
	x := 1
	for i := len(p.states) - 1; i >= 0; i-- {
		b.radix[i] = x
		x *= p.states[i].size()
	}
	x = 1
	for i := len(p.obs) - 1; i >= 0; i-- {
		b.oradix[i] = x
		x *= p.obs[i].size()
	}
	m := &pomdp.Model{
		States:       p.tupleNames(p.states, nil),
		Actions:      p.tupleNames(nil, p.actions),
		Observations: p.obsNames(),
		Discount:     p.discount, HasDiscount: true,
	}
	var err error
	if m.B0, err = b.belief(); err != nil {
		return nil, err
	}
	m.T = make([]pomdp.Kernel, p.nA)
	m.Z = make([]*pomdp.Sparse, p.nA)
	for a := 0; a < p.nA; a++ {
		digits(b.ad, a, p.actions)
		t, err := b.transition()
		if err != nil {
			return nil, err
		}
		m.T[a] = t
		if m.Z[a], err = b.observation(); err != nil {
			return nil, err
		}
	}
	if m.R, err = b.rewards(m); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, &pomdp.ParseError{File: p.file, Msg: "the flat model is invalid: " + strings.TrimPrefix(err.Error(), "pomdp: "), Err: err}
	}
	return m, nil
}

// useObs reports whether observation variables enter the observations
// (not in an MDP, where every state variable is fully observed).
func (p *pxParser) useObs() bool { return !p.states[len(p.states)-1].fullyObs }

// tupleNames names the joint values of states (labels) or actions (vnames):
// a single variable's values, or "var=value,…".
func (p *pxParser) tupleNames(states, others []*pxVar) []string {
	vars := append(append([]*pxVar(nil), states...), others...)
	if len(vars) == 1 {
		return vars[0].values
	}
	if len(vars) == 0 {
		return []string{"none"}
	}
	n := 1
	for _, v := range vars {
		n *= v.size()
	}
	names := make([]string, n)
	d := make([]int, len(vars))
	var sb strings.Builder
	for i := range names {
		digits(d, i, vars)
		sb.Reset()
		for k, v := range vars {
			if k > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(v.label)
			sb.WriteByte('=')
			sb.WriteString(v.values[d[k]])
		}
		names[i] = sb.String()
	}
	return names
}

// obsNames names the joint observations: fully observed state variables,
// then observation variables.
func (p *pxParser) obsNames() []string {
	var x []*pxVar
	for _, v := range p.states {
		if v.fullyObs {
			x = append(x, v)
		}
	}
	var o []*pxVar
	if p.useObs() {
		o = p.obs
	}
	return p.tupleNames(x, o)
}

// belief returns b0, the product of the initial distributions.
func (b *pxBuild) belief() ([]float64, error) {
	p := b.p
	b0 := make([]float64, p.nS)
	var rec func(i, col int, pr float64)
	n := 0
	rec = func(i, col int, pr float64) {
		if i == len(p.states) {
			b0[col] = pr
			n++
			return
		}
		f := p.states[i].belief
		r := b.row(f)
		for k := f.ptr[r]; k < f.ptr[r+1]; k++ {
			c := int(f.col[k])
			b.nd[i] = c
			rec(i+1, col+c*b.radix[i], pr*f.val[k])
		}
	}
	rec(0, 0, 1)
	if err := p.spend(0, secBelief, int64(n)); err != nil {
		return nil, err
	}
	return b0, nil
}

// transition returns the joint transition kernel of the action whose
// digits are in b.ad.
func (b *pxBuild) transition() (*pomdp.Sparse, error) {
	p := b.p
	sp := &pomdp.Sparse{Rows: p.nS, Cols: p.nS, RowPtr: make([]int, 1, p.nS+1)}
	b.col, b.val = make([]int, 0, b.guess(secTrans)), make([]float64, 0, b.guess(secTrans))
	var rec func(i, col int, pr float64)
	rec = func(i, col int, pr float64) {
		if i == len(p.states) {
			b.col = append(b.col, col)
			b.val = append(b.val, pr)
			return
		}
		f := p.states[i].fn
		r := b.row(f)
		for k := f.ptr[r]; k < f.ptr[r+1]; k++ {
			c := int(f.col[k])
			b.nd[i] = c
			rec(i+1, col+c*b.radix[i], pr*f.val[k])
		}
	}
	for s := 0; s < p.nS; s++ {
		digits(b.sd, s, p.states)
		before := len(b.col)
		rec(0, 0, 1)
		if err := p.spend(0, secTrans, int64(len(b.col)-before)); err != nil {
			return nil, err
		}
		sp.RowPtr = append(sp.RowPtr, len(b.col))
	}
	sp.Col, sp.Val = b.col, b.val
	b.nnz[secTrans] = len(b.col)
	return sp, nil
}

// observation returns the joint observation kernel of the action whose
// digits are in b.ad: Z(s', a, (x', o)) = [x' is the fully observed part
// of s'] · Π_j P(o_j | a, s').
func (b *pxBuild) observation() (*pomdp.Sparse, error) {
	p := b.p
	sp := &pomdp.Sparse{Rows: p.nS, Cols: p.nO, RowPtr: make([]int, 1, p.nS+1)}
	b.col, b.val = make([]int, 0, b.guess(secObs)), make([]float64, 0, b.guess(secObs))
	use := p.useObs() && len(p.obs) > 0
	var rec func(j, col int, pr float64)
	rec = func(j, col int, pr float64) {
		if j == len(p.obs) {
			b.col = append(b.col, col)
			b.val = append(b.val, pr)
			return
		}
		f := p.obs[j].fn
		r := b.row(f)
		for k := f.ptr[r]; k < f.ptr[r+1]; k++ {
			c := int(f.col[k])
			rec(j+1, col+c*b.oradix[j], pr*f.val[k])
		}
	}
	for s := 0; s < p.nS; s++ {
		x := s / p.nY
		before := len(b.col)
		if use {
			digits(b.nd, s, p.states)
			rec(0, x*p.nOv, 1)
		} else {
			b.col = append(b.col, x)
			b.val = append(b.val, 1)
		}
		if err := p.spend(0, secObs, int64(len(b.col)-before)); err != nil {
			return nil, err
		}
		sp.RowPtr = append(sp.RowPtr, len(b.col))
	}
	sp.Col, sp.Val = b.col, b.val
	b.nnz[secObs] = len(b.col)
	return sp, nil
}

// guess returns the capacity to reserve for the next kernel of a
// section: the size of the previous one, or |S|.
func (b *pxBuild) guess(section string) int {
	if n, ok := b.nnz[section]; ok {
		return n
	}
	return b.p.nS
}

// rewards returns R(s, a), the expected immediate reward: the sum of the
// reward functions, averaged over T and Z where they depend on the next
// state or the observation; such rewards are kept in m.Rewards (unless
// ExpectedRewards).
func (b *pxBuild) rewards(m *pomdp.Model) ([][]float64, error) {
	p := b.p
	flat := make([]float64, p.nS*p.nA)
	R := make([][]float64, p.nS)
	for s := range R {
		R[s] = flat[s*p.nA : (s+1)*p.nA : (s+1)*p.nA]
	}
	m.R = R
	var simple, detail []*pxFunc // rewards of (a, s) only; of s' or o too
	for _, v := range p.rewards {
		f := v.fn
		dep := false
		for i, s := range f.srcs {
			dep = dep || s.from == srcNext || s.from == srcObs
			if s.from == srcObs && !p.useObs() {
				return nil, p.errAt(f.line, f.field("Parent"), "every state variable is fully observed, so the model is an MDP whose observation variables are ignored (as SARSOP does); the reward cannot depend on %s", f.parents[i].name)
			}
		}
		if dep {
			detail = append(detail, f)
		} else {
			simple = append(simple, f)
		}
	}
	rb := filebuild.NewRewardBuilder(m, !p.cfg.Expected)
	for a := 0; a < p.nA; a++ {
		digits(b.ad, a, p.actions)
		for s := 0; s < p.nS; s++ {
			digits(b.sd, s, p.states)
			base := 0.0
			for _, f := range simple {
				base += f.value(b.row(f))
			}
			if len(detail) == 0 {
				R[s][a] = base
				continue
			}
			// Pay for the visits before making them.
			if err := p.spendIn(detail[0], "", detail[0].line, rb.Visits(s, a)*int64(len(detail))); err != nil {
				return nil, err
			}
			last := -1
			rb.Row(s, a, func(s2, o int) float64 {
				if s2 != last {
					digits(b.nd, s2, p.states)
					last = s2
				}
				digits(b.od, o%p.nOv, p.obs)
				r := base
				for _, f := range detail {
					r += f.value(b.row(f))
				}
				return r
			})
		}
	}
	filebuild.RewardsDone(&p.cfg, rb)
	return R, nil
}
