package pomdp

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// RowTol is the tolerance within which probability rows must sum to 1
// (docs/conventions.md#tolerances; the Cassandra reader accepts 1e-5 as pomdp-solve does and
// renormalises).
const RowTol = 1e-9

// Model is a finite POMDP ⟨S, A, O, T, Z, R, b0⟩ (paper def:pomdp).
//
// The fields are exported for reading; a Model must not be modified after
// it has been validated and used (derived indexes are cached on first use).
// Build models with New (from dense arrays), a reader (cassandra.Read, pomdpjson.Read) or a
// built-in constructor from package bench.
type Model struct {
	Name         string
	States       []string
	Actions      []string
	Observations []string

	// Discount is the discount factor when HasDiscount is true. The
	// finite-horizon quantities of this module do not discount.
	Discount    float64
	HasDiscount bool

	// T[a] is the transition kernel of action a (|S|×|S|).
	T []Kernel
	// Z[a] is the observation kernel of action a: rows s' (the state
	// arrived in), columns o.
	Z []*Sparse
	// R[s][a] is the expected immediate reward of action a in state s,
	// the reward every value computation uses (the value of a policy
	// depends on the rewards only through it).
	R [][]float64
	// Rewards, when not nil, is the reward R(s, a, s', o) that a file gave
	// depending on the next state or the observation, kept entry for entry
	// (sparse: see RewardTable) so that writing the model loses nothing; R
	// is its expectation. Readers fill it unless ExpectedRewards is given;
	// it is nil when the rewards depend only on s and a.
	Rewards *RewardTable
	// B0 is the initial belief over states.
	B0 []float64

	// Ground, when not nil, is the ground metric on the observations that
	// a model file gave (the JSON format's "ground"; the .pomdp format has
	// no place for one). It is carried, validated and written, never used:
	// the computations of this module take their ground metric from their
	// options (nil there means the discrete metric), and a caller that
	// loads a file passes Ground.D on. pomdpq's commands do, and print the
	// metric they used.
	Ground *Ground

	once sync.Once
	zcol [][]colVec // zcol[a][o]: the non-zeros of column o of Z[a]
}

type colVec struct {
	idx []int
	val []float64
}

// NumStates returns |S|.
func (m *Model) NumStates() int { return len(m.States) }

// NumActions returns |A|.
func (m *Model) NumActions() int { return len(m.Actions) }

// NumObservations returns |O|.
func (m *Model) NumObservations() int { return len(m.Observations) }

// String returns a one-line summary of the model.
func (m *Model) String() string {
	name := m.Name
	if name == "" {
		name = "POMDP"
	}
	return fmt.Sprintf("%s: |S|=%d |A|=%d |O|=%d", name, len(m.States), len(m.Actions), len(m.Observations))
}

// EntryError reports an invalid entry of a model. Indices that do not
// apply are -1. It prints the entry by name, e.g. "T(s, a, s')", a row as
// "T(s, a, ·)" or "Z(s', a, ·)", a whole kernel as "T[a]" or "Z[a]".
type EntryError struct {
	Model  string // model name, if any
	Field  string // "T", "Z", "R", "b0", "states", ...
	Action int
	State  int // s (row of T, or state of R)
	Next   int // s' (column of T, or row of Z)
	Obs    int
	Msg    string
	names  *Model
}

func (e *EntryError) Error() string {
	loc := e.Field
	name := func(list []string, i int) string {
		if i >= 0 && i < len(list) {
			return list[i]
		}
		return fmt.Sprint(i)
	}
	var st, ac, ob []string
	if e.names != nil {
		st, ac, ob = e.names.States, e.names.Actions, e.names.Observations
	}
	switch e.Field {
	case "T":
		switch {
		case e.State < 0 && e.Action >= 0:
			loc = fmt.Sprintf("T[%s]", name(ac, e.Action))
		case e.State < 0:
		case e.Next < 0:
			loc = fmt.Sprintf("T(%s, %s, ·)", name(st, e.State), name(ac, e.Action))
		default:
			loc = fmt.Sprintf("T(%s, %s, %s)", name(st, e.State), name(ac, e.Action), name(st, e.Next))
		}
	case "Z":
		switch {
		case e.Next < 0 && e.Action >= 0:
			loc = fmt.Sprintf("Z[%s]", name(ac, e.Action))
		case e.Next < 0:
		case e.Obs < 0:
			loc = fmt.Sprintf("Z(%s, %s, ·)", name(st, e.Next), name(ac, e.Action))
		default:
			loc = fmt.Sprintf("Z(%s, %s, %s)", name(st, e.Next), name(ac, e.Action), name(ob, e.Obs))
		}
	case "R":
		switch {
		case e.State < 0:
		case e.Action < 0:
			loc = fmt.Sprintf("R(%s, ·)", name(st, e.State))
		default:
			loc = fmt.Sprintf("R(%s, %s)", name(st, e.State), name(ac, e.Action))
		}
	case "b0":
		if e.State >= 0 {
			loc = fmt.Sprintf("b0(%s)", name(st, e.State))
		}
	}
	prefix := "pomdp: "
	if e.Model != "" {
		prefix += e.Model + ": "
	}
	return prefix + loc + ": " + e.Msg
}

func (m *Model) entryErr(field string, a, s, s2, o int, format string, args ...any) error {
	return &EntryError{Model: m.Name, Field: field, Action: a, State: s, Next: s2, Obs: o, Msg: fmt.Sprintf(format, args...), names: m}
}

// Validate checks sizes, finiteness, non-negativity and row sums (within
// RowTol) of T, Z and b0, finiteness of R, the reward table Rewards when
// set (its entries are the (s', o) that can follow each of its pairs, and
// R(s, a) is their expectation), uniqueness of names, and that
// Ground, when set, is a metric on the observations (ot.NewMetric). It
// returns an *EntryError naming the first offending entry.
func (m *Model) Validate() error {
	nS, nA, nO := len(m.States), len(m.Actions), len(m.Observations)
	if nS == 0 || nA == 0 || nO == 0 {
		return m.entryErr("sizes", -1, -1, -1, -1, "need at least one state, action and observation (have %d, %d, %d)", nS, nA, nO)
	}
	if err := m.checkNames(); err != nil {
		return err
	}
	if m.HasDiscount && !(m.Discount >= 0 && m.Discount <= 1) {
		return m.entryErr("discount", -1, -1, -1, -1, "discount %v outside [0, 1]", m.Discount)
	}
	if len(m.T) != nA {
		return m.entryErr("T", -1, -1, -1, -1, "have %d transition kernels for %d actions", len(m.T), nA)
	}
	if len(m.Z) != nA {
		return m.entryErr("Z", -1, -1, -1, -1, "have %d observation kernels for %d actions", len(m.Z), nA)
	}
	checked := map[Kernel]bool{}
	for a := 0; a < nA; a++ {
		k := m.T[a]
		if k == nil {
			return m.entryErr("T", a, -1, -1, -1, "missing kernel for action %s", m.Actions[a])
		}
		if r, c := k.Dims(); r != nS || c != nS {
			return m.entryErr("T", a, -1, -1, -1, "kernel is %d×%d, want %d×%d", r, c, nS, nS)
		}
		if sp, ok := k.(*Sparse); ok {
			if err := sp.check(); err != nil {
				return m.entryErr("T", a, -1, -1, -1, "malformed sparse matrix: %v", err)
			}
		}
		if !checked[k] { // the same kernel value may serve several actions
			checked[k] = true
			if err := m.checkKernel(a, k); err != nil {
				return err
			}
		}
		if err := m.checkObsKernel(a); err != nil {
			return err
		}
	}
	if err := m.checkR(); err != nil {
		return err
	}
	if err := m.checkRewardTable(); err != nil {
		return err
	}
	if len(m.B0) != nS {
		return m.entryErr("b0", -1, -1, -1, -1, "has %d entries for %d states", len(m.B0), nS)
	}
	sum := 0.0
	for s, p := range m.B0 {
		if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
			return m.entryErr("b0", -1, s, -1, -1, "probability %v is not a finite non-negative number", p)
		}
		sum += p
	}
	if !(math.Abs(sum-1) <= RowTol) {
		return m.entryErr("b0", -1, -1, -1, -1, "sums to %.12g, want 1 (within %g)", sum, RowTol)
	}
	return m.checkGround()
}

// checkNames checks that the names of each space are non-empty and unique.
func (m *Model) checkNames() error {
	for _, l := range []struct {
		field string
		names []string
	}{{"states", m.States}, {"actions", m.Actions}, {"observations", m.Observations}} {
		seen := make(map[string]int, len(l.names))
		for i, s := range l.names {
			if s == "" {
				return m.entryErr(l.field, -1, -1, -1, -1, "name %d is empty", i)
			}
			if j, ok := seen[s]; ok {
				return m.entryErr(l.field, -1, -1, -1, -1, "name %q used for %d and %d", s, j, i)
			}
			seen[s] = i
		}
	}
	return nil
}

// checkObsKernel checks Z[a]: its shape, structure and rows.
func (m *Model) checkObsKernel(a int) error {
	nS, nO := len(m.States), len(m.Observations)
	z := m.Z[a]
	if z == nil {
		return m.entryErr("Z", a, -1, -1, -1, "missing observation kernel for action %s", m.Actions[a])
	}
	if z.Rows != nS || z.Cols != nO {
		return m.entryErr("Z", a, -1, -1, -1, "kernel is %d×%d, want %d×%d", z.Rows, z.Cols, nS, nO)
	}
	if err := z.check(); err != nil {
		return m.entryErr("Z", a, -1, -1, -1, "malformed sparse matrix: %v", err)
	}
	for s := 0; s < nS; s++ {
		sum := 0.0
		cols, vals := z.Row(s)
		for i, p := range vals {
			if cols[i] < 0 || cols[i] >= nO {
				return m.entryErr("Z", a, -1, s, -1, "column %d out of range", cols[i])
			}
			if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
				return m.entryErr("Z", a, -1, s, cols[i], "probability %v is not a finite non-negative number", p)
			}
			sum += p
		}
		if !(math.Abs(sum-1) <= RowTol) {
			return m.entryErr("Z", a, -1, s, -1, "row sums to %.12g, want 1 (within %g)", sum, RowTol)
		}
	}
	return nil
}

// checkR checks the shape of R and that its rewards are finite.
func (m *Model) checkR() error {
	nS, nA := len(m.States), len(m.Actions)
	if len(m.R) != nS {
		return m.entryErr("R", -1, -1, -1, -1, "have %d reward rows for %d states", len(m.R), nS)
	}
	for s, row := range m.R {
		if len(row) != nA {
			return m.entryErr("R", -1, s, -1, -1, "row has %d entries for %d actions", len(row), nA)
		}
		for a, r := range row {
			if math.IsNaN(r) || math.IsInf(r, 0) {
				return m.entryErr("R", a, s, -1, -1, "reward %v is not finite", r)
			}
		}
	}
	return nil
}

// checkGround checks that m.Ground, when set, is a metric on the
// observations.
func (m *Model) checkGround() error {
	if m.Ground == nil {
		return nil
	}
	nO := len(m.Observations)
	if len(m.Ground.D) != nO {
		return m.entryErr("ground", -1, -1, -1, -1, "has %d points for %d observations", len(m.Ground.D), nO)
	}
	if _, err := ot.NewMetric(m.Ground.D); err != nil {
		var ge *ot.GroundError
		if errors.As(err, &ge) && ge.Kind != ot.RowLength {
			k := ge.J
			if ge.Kind == ot.Triangle {
				k = ge.K
			}
			return m.entryErr("ground", -1, -1, -1, -1, "d(%s, %s): %s (%v)", m.Observations[ge.I], m.Observations[k], ge.Kind.Rule(), err)
		}
		return m.entryErr("ground", -1, -1, -1, -1, "%v", err)
	}
	return nil
}

// checkKernel checks that every row of kernel k (of action a) is a
// probability distribution.
func (m *Model) checkKernel(a int, k Kernel) error {
	nS := len(m.States)
	if kr, ok := k.(*Kron); ok {
		// A product of stochastic factors is stochastic: check the factors,
		// O(Σ d²) instead of O(|S|·nnz per row).
		if err := kr.check(); err != nil {
			return m.entryErr("T", a, -1, -1, -1, "%v", err)
		}
		return nil
	}
	if sp, ok := k.(*Sparse); ok {
		// Direct access: a closure per row would cost an allocation per row.
		for s := 0; s < nS; s++ {
			sum := 0.0
			cols, vals := sp.Row(s)
			for i, p := range vals {
				if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
					return m.entryErr("T", a, s, cols[i], -1, "probability %v is not a finite non-negative number", p)
				}
				sum += p
			}
			if !(math.Abs(sum-1) <= RowTol) {
				return m.entryErr("T", a, s, -1, -1, "row sums to %.12g, want 1 (within %g)", sum, RowTol)
			}
		}
		return nil
	}
	for s := 0; s < nS; s++ {
		sum := 0.0
		var bad error
		k.Entries(s, func(j int, p float64) {
			if bad == nil && (math.IsNaN(p) || math.IsInf(p, 0) || p < 0) {
				bad = m.entryErr("T", a, s, j, -1, "probability %v is not a finite non-negative number", p)
			}
			sum += p
		})
		if bad != nil {
			return bad
		}
		if !(math.Abs(sum-1) <= RowTol) {
			return m.entryErr("T", a, s, -1, -1, "row sums to %.12g, want 1 (within %g)", sum, RowTol)
		}
	}
	return nil
}

// Dense is a model written as dense arrays, the easiest form to type in a
// notebook: T[a][s][s'], Z[a][s'][o], R[s][a] (nil means all zero), B0 (nil
// means uniform).
type Dense struct {
	Name                          string
	States, Actions, Observations []string
	T                             [][][]float64
	Z                             [][][]float64
	R                             [][]float64
	B0                            []float64
	Discount                      float64
	HasDiscount                   bool
}

// New builds and validates a model from dense arrays. It returns an
// *EntryError for sizes that do not match and for invalid entries.
func New(d Dense) (*Model, error) {
	m := &Model{Name: d.Name, States: d.States, Actions: d.Actions, Observations: d.Observations,
		Discount: d.Discount, HasDiscount: d.HasDiscount}
	nS, nA, nO := len(d.States), len(d.Actions), len(d.Observations)
	if len(d.T) != nA {
		return nil, m.entryErr("T", -1, -1, -1, -1, "has %d actions, want %d", len(d.T), nA)
	}
	if len(d.Z) != nA {
		return nil, m.entryErr("Z", -1, -1, -1, -1, "has %d actions, want %d", len(d.Z), nA)
	}
	for a := 0; a < nA; a++ {
		if len(d.T[a]) != nS {
			return nil, m.entryErr("T", a, -1, -1, -1, "has %d rows, want %d", len(d.T[a]), nS)
		}
		for s, row := range d.T[a] {
			if len(row) != nS {
				return nil, m.entryErr("T", a, s, -1, -1, "row has %d entries, want %d", len(row), nS)
			}
		}
		if len(d.Z[a]) != nS {
			return nil, m.entryErr("Z", a, -1, -1, -1, "has %d rows, want %d", len(d.Z[a]), nS)
		}
		for s, row := range d.Z[a] {
			if len(row) != nO {
				return nil, m.entryErr("Z", a, -1, s, -1, "row has %d entries, want %d", len(row), nO)
			}
		}
		m.T = append(m.T, NewSparseDense(d.T[a]))
		m.Z = append(m.Z, NewSparseDense(d.Z[a]))
	}
	m.R = d.R
	if m.R == nil {
		m.R = make([][]float64, nS)
		for s := range m.R {
			m.R[s] = make([]float64, nA)
		}
	}
	m.B0 = d.B0
	if m.B0 == nil {
		m.B0 = Uniform(nS)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// Must returns m and panics if err is not nil. It keeps notebook cells short.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Uniform returns the uniform distribution on n points.
func Uniform(n int) []float64 {
	b := make([]float64, n)
	for i := range b {
		b[i] = 1 / float64(n)
	}
	return b
}

func (m *Model) buildColumns() {
	m.once.Do(func() {
		nA, nO := len(m.Actions), len(m.Observations)
		m.zcol = make([][]colVec, nA)
		for a := 0; a < nA; a++ {
			t := m.Z[a].Transpose()
			m.zcol[a] = make([]colVec, nO)
			for o := 0; o < nO; o++ {
				idx, val := t.Row(o)
				m.zcol[a][o] = colVec{idx, val}
			}
		}
	})
}

// ObsColumn returns the states s' with Z(s', a, o) > 0 and those
// probabilities (shared slices; do not modify).
func (m *Model) ObsColumn(a, o int) (states []int, probs []float64) {
	m.buildColumns()
	c := m.zcol[a][o]
	return c.idx, c.val
}

// Predict sets dst = b·T_a, the distribution of the next state after action a
// from belief (or unnormalised mass vector) b. dst and b must not alias.
func (m *Model) Predict(dst, b []float64, a int) { m.T[a].Push(dst, b) }

// Observe sets dst(s') = pred(s')·Z(s', a, o), the unnormalised joint mass of
// arriving in s' and emitting o, and returns its total Σ dst. dst and pred
// must not alias (dst is cleared first). It does not allocate.
func (m *Model) Observe(dst, pred []float64, a, o int) float64 {
	states, probs := m.ObsColumn(a, o)
	clear(dst)
	total := 0.0
	for k, s := range states {
		v := pred[s] * probs[k]
		dst[s] = v
		total += v
	}
	return total
}

// ObsProbs sets dst[o] = Σ_s' pred(s')·Z(s', a, o), the one-step observation
// probabilities from the predicted next-state distribution pred.
func (m *Model) ObsProbs(dst, pred []float64, a int) {
	z := m.Z[a]
	clear(dst[:len(m.Observations)])
	for s, x := range pred {
		if x == 0 {
			continue
		}
		cols, vals := z.Row(s)
		for k, o := range cols {
			dst[o] += x * vals[k]
		}
	}
}

// Update returns the posterior belief after taking action a in belief b and
// observing o, together with the probability P(o | b, a). When that
// probability is 0 the posterior is nil.
func (m *Model) Update(b []float64, a, o int) (post []float64, prob float64) {
	pred := make([]float64, len(m.States))
	m.Predict(pred, b, a)
	post = make([]float64, len(m.States))
	prob = m.Observe(post, pred, a, o)
	if prob == 0 {
		return nil, 0
	}
	for i := range post {
		post[i] /= prob
	}
	return post, prob
}

// Index returns the position of name in list, or -1.
func Index(list []string, name string) int {
	for i, s := range list {
		if s == name {
			return i
		}
	}
	return -1
}

// StateIndex, ActionIndex and ObsIndex return the index of a name, or -1.
func (m *Model) StateIndex(name string) int { return Index(m.States, name) }

// ActionIndex returns the index of the named action, or -1.
func (m *Model) ActionIndex(name string) int { return Index(m.Actions, name) }

// ObsIndex returns the index of the named observation, or -1.
func (m *Model) ObsIndex(name string) int { return Index(m.Observations, name) }

// TransitionProb returns T(s, a, s').
func (m *Model) TransitionProb(s, a, s2 int) float64 {
	if sp, ok := m.T[a].(*Sparse); ok {
		return sp.At(s, s2)
	}
	p := 0.0
	m.T[a].Entries(s, func(j int, v float64) {
		if j == s2 {
			p = v
		}
	})
	return p
}

// ObsProb returns Z(s', a, o).
func (m *Model) ObsProb(s2, a, o int) float64 { return m.Z[a].At(s2, o) }
