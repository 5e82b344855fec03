package witness

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Grid is the probability resolution of a model class: every entry of a
// transition row T(s, a, ·) and of an observation row Z(s', a, ·) is a
// multiple of 1/Dyn, every entry of b0 a multiple of 1/Init. Dyn = 1 means
// deterministic transitions and observations; Grid{1, 2} is the paper's
// witness shape (deterministic dynamics, b0 on halves).
type Grid struct{ Dyn, Init int }

// String returns "g" when both resolutions are g, else "dyn:init".
func (g Grid) String() string {
	if g.Dyn == g.Init {
		return strconv.Itoa(g.Dyn)
	}
	return fmt.Sprintf("%d:%d", g.Dyn, g.Init)
}

// MarshalText writes the grid as String does.
func (g Grid) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText parses the grid as ParseGrid does.
func (g *Grid) UnmarshalText(b []byte) error {
	v, err := ParseGrid(string(b))
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// ParseGrid accepts "g" (both resolutions g) or "dyn:init", each between 1
// and 8.
func ParseGrid(s string) (Grid, error) {
	a, b, two := strings.Cut(strings.TrimSpace(s), ":")
	dyn, err := strconv.Atoi(a)
	init := dyn
	if err == nil && two {
		init, err = strconv.Atoi(b)
	}
	if err != nil || dyn < 1 || dyn > 8 || init < 1 || init > 8 {
		return Grid{}, fmt.Errorf("witness: grid %q: want g or dyn:init with integers 1 … 8 (1 = deterministic, 2 = halves, 4 = quarters)", s)
	}
	return Grid{dyn, init}, nil
}

// Class is a size class of models: |S| states, |O| observations, |A|
// actions, probabilities on Grid.
type Class struct {
	S    int  `json:"states"`
	O    int  `json:"observations"`
	A    int  `json:"actions"`
	Grid Grid `json:"grid"`
}

func (c Class) String() string {
	return fmt.Sprintf("|S|=%d |O|=%d |A|=%d grid %s", c.S, c.O, c.A, c.Grid)
}

// compositions returns every vector of n non-negative integers summing to
// g, ordered by number of non-zero entries, then lexicographically
// descending, so point masses come first (the search meets the most
// deterministic models of a class first).
func compositions(n, g int) [][]int {
	var out [][]int
	cur := make([]int, n)
	var rec func(i, left int)
	rec = func(i, left int) {
		if i == n-1 {
			cur[i] = left
			out = append(out, slices.Clone(cur))
			return
		}
		for v := left; v >= 0; v-- {
			cur[i] = v
			rec(i+1, left-v)
		}
	}
	rec(0, g)
	nz := func(v []int) int {
		k := 0
		for _, x := range v {
			if x != 0 {
				k++
			}
		}
		return k
	}
	slices.SortStableFunc(out, func(a, b []int) int { return nz(a) - nz(b) })
	return out
}

// space enumerates the models of a class. A model is a code: one digit
// per row, each the index of a composition. Digit 0 is b0, then the
// transition rows T[a][s] (a-major), then the observation rows Z[a][s'].
type space struct {
	c            Class
	distT, distZ [][]int // compositions of Grid.Dyn over |S| and over |O|
	distB        [][]int // compositions of Grid.Init over |S|
	radix        []int
	size         float64 // number of codes
	// Symmetry: state permutations σ and action permutations τ. permT[k][d]
	// and permB[k][d] are the indices of composition d with its entries
	// permuted by state permutation k.
	permS, permA [][]int
	invS, invA   [][]int
	permT, permB [][]int
}

func newSpace(c Class) *space {
	sp := &space{c: c, distT: compositions(c.S, c.Grid.Dyn), distZ: compositions(c.O, c.Grid.Dyn), distB: compositions(c.S, c.Grid.Init)}
	sp.radix = append(sp.radix, len(sp.distB))
	for range c.A * c.S {
		sp.radix = append(sp.radix, len(sp.distT))
	}
	for range c.A * c.S {
		sp.radix = append(sp.radix, len(sp.distZ))
	}
	sp.size = 1
	for _, r := range sp.radix {
		sp.size *= float64(r)
	}
	sp.permS = permutations(c.S)
	sp.permA = permutations(c.A)
	sp.invS = inverses(sp.permS)
	sp.invA = inverses(sp.permA)
	index := func(list [][]int) map[string]int {
		m := make(map[string]int, len(list))
		for i, v := range list {
			m[fmt.Sprint(v)] = i
		}
		return m
	}
	it, ib := index(sp.distT), index(sp.distB)
	permute := func(list [][]int, idx map[string]int, p []int) []int {
		out := make([]int, len(list))
		v := make([]int, c.S)
		for d, comp := range list {
			for s, x := range comp {
				v[p[s]] = x
			}
			out[d] = idx[fmt.Sprint(v)]
		}
		return out
	}
	for _, p := range sp.permS {
		sp.permT = append(sp.permT, permute(sp.distT, it, p))
		sp.permB = append(sp.permB, permute(sp.distB, ib, p))
	}
	return sp
}

func permutations(n int) [][]int {
	var out [][]int
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			out = append(out, slices.Clone(p))
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
	slices.SortFunc(out, slices.Compare)
	return out
}

func inverses(ps [][]int) [][]int {
	out := make([][]int, len(ps))
	for k, p := range ps {
		inv := make([]int, len(p))
		for i, v := range p {
			inv[v] = i
		}
		out[k] = inv
	}
	return out
}

// exact reports whether the codes can be indexed by a uint64.
func (sp *space) exact() bool { return sp.size < 1<<62 }

// decode writes the code of model number idx (mixed radix, last digit
// fastest) into dst.
func (sp *space) decode(dst []int, idx uint64) {
	for i := len(sp.radix) - 1; i >= 0; i-- {
		r := uint64(sp.radix[i])
		dst[i] = int(idx % r)
		idx /= r
	}
}

// encode returns the number of a code (the inverse of decode).
func (sp *space) encode(code []int) uint64 {
	var idx uint64
	for i, d := range code {
		idx = idx*uint64(sp.radix[i]) + uint64(d)
	}
	return idx
}

// canonical reports whether code is the lexicographically smallest code
// of its orbit under relabelling states and actions. Observations are not
// relabelled: the point-mass stand-in and the greedy linkage order depend
// on observation indices.
func (sp *space) canonical(code []int) bool {
	for k := range sp.permS {
		for j := range sp.permA {
			if k == 0 && j == 0 {
				continue // identity
			}
			if sp.less(code, k, j) {
				return false
			}
		}
	}
	return true
}

// less reports whether the code permuted by state permutation k and
// action permutation j is lexicographically smaller than code.
func (sp *space) less(code []int, k, j int) bool {
	nS, nA := sp.c.S, sp.c.A
	invS, invA := sp.invS[k], sp.invA[j]
	cmp := func(v, w int) int { return v - w }
	if c := cmp(sp.permB[k][code[0]], code[0]); c != 0 {
		return c < 0
	}
	for a := 0; a < nA; a++ {
		for s := 0; s < nS; s++ {
			pos := 1 + a*nS + s
			src := 1 + invA[a]*nS + invS[s]
			if c := cmp(sp.permT[k][code[src]], code[pos]); c != 0 {
				return c < 0
			}
		}
	}
	base := 1 + nA*nS
	for a := 0; a < nA; a++ {
		for s := 0; s < nS; s++ {
			pos := base + a*nS + s
			src := base + invA[a]*nS + invS[s]
			if c := cmp(code[src], code[pos]); c != 0 {
				return c < 0
			}
		}
	}
	return false
}

// model builds the model of a code. States are s0, s1, …, actions a0, a1,
// observations o0, o1, …; rewards are zero and there is no discount.
func (sp *space) model(code []int, name string) *pomdp.Model {
	c := sp.c
	names := func(p string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = p + strconv.Itoa(i)
		}
		return out
	}
	row := func(comp []int, g int) []float64 {
		out := make([]float64, len(comp))
		for i, x := range comp {
			out[i] = float64(x) / float64(g)
		}
		return out
	}
	d := pomdp.Dense{Name: name, States: names("s", c.S), Actions: names("a", c.A), Observations: names("o", c.O),
		T: make([][][]float64, c.A), Z: make([][][]float64, c.A), B0: row(sp.distB[code[0]], c.Grid.Init)}
	for a := 0; a < c.A; a++ {
		d.T[a] = make([][]float64, c.S)
		d.Z[a] = make([][]float64, c.S)
		for s := 0; s < c.S; s++ {
			d.T[a][s] = row(sp.distT[code[1+a*c.S+s]], c.Grid.Dyn)
			d.Z[a][s] = row(sp.distZ[code[1+c.A*c.S+a*c.S+s]], c.Grid.Dyn)
		}
	}
	m, err := pomdp.New(d)
	if err != nil {
		panic(fmt.Sprintf("witness: generated model invalid: %v", err)) // compositions sum to the grid
	}
	return m
}

// sizeString formats a class size.
func sizeString(x float64) string {
	if x < 1e15 && x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'e', 2, 64)
}
