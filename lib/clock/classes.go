package clock

import "encoding/binary"

// classes decides belief equivalence by backward recursion on beliefs:
//
//	b ~_T b' always;
//	b ~_t b'  ⇔  ∀a: P(·|b,a) = P(·|b',a) and ∀o: next(b,a,o) ~_{t+1} next(b',a,o)   (clk)
//	b ~_{t,a} b'  ⇔  P(·|b,a) = P(·|b',a) and ∀o: next(b,a,o) ~_{t+1,a} next(b',a,o) (op, action a)
//
// with probabilities compared after rounding to 12 decimals. By induction
// on T − t, b ~_t b' exactly when every action string of length T − t
// gives b and b' the same observation law (and ~_{t,a} when the constant
// string a^{T−t} does). Class IDs are memoised per depth (and action).
type classes struct {
	bs *beliefs
	T  int
	g  *guard

	clk    [][]int32          // clk[t][b], −1 = unknown
	clkIdx []map[string]int32 // signature → class, per depth
	op     [][][]int32        // op[a][t][b]
	opIdx  [][]map[string]int32
	keys   [][]byte // scratch per depth
}

func newClasses(bs *beliefs, T int) *classes {
	c := &classes{bs: bs, T: T, g: bs.g, clk: make([][]int32, T+1), clkIdx: make([]map[string]int32, T+1),
		op: make([][][]int32, bs.nA), opIdx: make([][]map[string]int32, bs.nA), keys: make([][]byte, T+1)}
	for t := range c.clkIdx {
		c.clkIdx[t] = make(map[string]int32)
	}
	for a := range c.op {
		c.op[a] = make([][]int32, T+1)
		c.opIdx[a] = make([]map[string]int32, T+1)
		for t := range c.opIdx[a] {
			c.opIdx[a][t] = make(map[string]int32)
		}
	}
	return c
}

// memo returns the memo slot of belief b in tab, growing tab as needed.
func memo(tab *[]int32, b int32) *int32 {
	for int(b) >= len(*tab) {
		*tab = append(*tab, -1)
	}
	return &(*tab)[b]
}

// slot is memo for the class tables, metering their growth (4 bytes a
// slot, twice for append's spare capacity).
func (c *classes) slot(tab *[]int32, b int32) *int32 {
	if n := int(b) + 1 - len(*tab); n > 0 {
		c.g.add(termClasses, float64(8*n))
	}
	return memo(tab, b)
}

// clkClass returns the class of belief b at depth t under all remaining
// action strings.
func (c *classes) clkClass(t int, b int32) int32 {
	if t == c.T {
		return 0
	}
	if v := *c.slot(&c.clk[t], b); v >= 0 {
		return v
	}
	bs := c.bs
	key := c.keys[t][:0]
	for a := 0; a < bs.nA; a++ {
		r := bs.step(b, a)
		obs, succ := bs.obsRow(r), bs.succRow(r)
		for o := 0; o < bs.nO; o++ {
			key = binary.LittleEndian.AppendUint64(key, roundProb(obs[o]))
			child := c.clkClass(t+1, succ[o])
			key = binary.LittleEndian.AppendUint32(key, uint32(child))
		}
	}
	c.keys[t] = key
	id, ok := c.clkIdx[t][string(key)]
	if !ok {
		c.g.add(termClasses, mapEntry(16+len(key), 4))
		id = int32(len(c.clkIdx[t]))
		c.clkIdx[t][string(key)] = id
	}
	*c.slot(&c.clk[t], b) = id
	return id
}

// opClass returns the class of belief b at depth t under the constant
// remaining string a^{T−t}.
func (c *classes) opClass(t, a int, b int32) int32 {
	if t == c.T {
		return 0
	}
	if v := *c.slot(&c.op[a][t], b); v >= 0 {
		return v
	}
	bs := c.bs
	r := bs.step(b, a)
	obs, succ := bs.obsRow(r), bs.succRow(r)
	key := c.keys[t][:0]
	for o := 0; o < bs.nO; o++ {
		key = binary.LittleEndian.AppendUint64(key, roundProb(obs[o]))
		child := c.opClass(t+1, a, succ[o])
		key = binary.LittleEndian.AppendUint32(key, uint32(child))
	}
	c.keys[t] = key
	id, ok := c.opIdx[a][t][string(key)]
	if !ok {
		c.g.add(termClasses, mapEntry(16+len(key), 4))
		id = int32(len(c.opIdx[a][t]))
		c.opIdx[a][t][string(key)] = id
	}
	*c.slot(&c.op[a][t], b) = id
	return id
}
