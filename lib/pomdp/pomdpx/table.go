package pomdpx

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// pxFunc is one <CondProb> or <Func>: a table indexed by the parents'
// values (the first parent most significant), with a distribution over the
// child's values per row (CondProb) or one value per row (Func).
type pxFunc struct {
	section string
	line    int
	child   pxRef
	parents []pxRef
	strides []int
	nRows   int
	prob    bool // CondProb (ProbTable); false: Func (ValueTable)
	factors int  // factors of the product this table enters

	acc  pxAccum   // CondProb entries in file order, until resolved
	vals []float64 // Func: the value of each row (0 when never given)

	// A Func with more rows than pxDenseFunc is sparse: the cells its
	// entries write, in file order, then (resolved) the rows given, in
	// increasing order, with the last value written.
	sparse bool
	cells  []pxFuncCell
	srows  []int
	svals  []float64

	// A resolved CondProb in compressed rows.
	ptr []int
	col []int32
	val []float64

	srcs []pxSrc // where each parent's value comes from (set by the flat build)
}

// pxDenseFunc is the number of rows up to which a <Func> table is
// allocated whole, also when it has more rows than |S|·|A| (the size of
// R, up to which it always is); a larger one (a reward of the action, the
// current and next state and the observation of a large flat model) keeps
// the rows its entries give.
const pxDenseFunc = 1 << 20

type pxFuncCell struct {
	row int
	val float64
}

// set writes the value of a row of a Func.
func (f *pxFunc) set(row int, v float64) {
	if f.sparse {
		f.cells = append(f.cells, pxFuncCell{row, v})
		return
	}
	f.vals[row] = v
}

// value returns the value of a row of a Func (0 when never given).
func (f *pxFunc) value(row int) float64 {
	if !f.sparse {
		return f.vals[row]
	}
	k := sort.SearchInts(f.srows, row)
	if k < len(f.srows) && f.srows[k] == row {
		return f.svals[k]
	}
	return 0
}

// resolveFunc sorts the cells of a sparse Func by row, the last written
// value of a row winning.
func (f *pxFunc) resolveFunc() {
	if !f.sparse {
		return
	}
	sort.SliceStable(f.cells, func(i, j int) bool { return f.cells[i].row < f.cells[j].row })
	for i, c := range f.cells {
		if i+1 < len(f.cells) && f.cells[i+1].row == c.row {
			continue // a later entry replaces it
		}
		f.srows = append(f.srows, c.row)
		f.svals = append(f.svals, c.val)
	}
	f.cells = nil
}

// field names the function in error messages, e.g.
// "StateTransitionFunction rock0_1".
func (f *pxFunc) field(elem string) string {
	s := f.section + " " + f.child.name
	if elem != "" {
		s += " " + elem
	}
	return s
}

// pxAccum holds the cells a CondProb's entries write, in file order. A
// cell with col < 0 resets its row (every value of the child set to 0): an
// entry that spans the child writes a reset and then its non-zero values.
// Cells are stored in chunks, so the store never holds more than one
// chunk beyond what it needs.
type pxAccum struct {
	chunks [][]pxCell
	n      int
	resets int
	marks  []pxMark // where each <Entry> starts, for the line of an error
	sorted bool     // rows non-decreasing so far
	last   int32
}

type pxCell struct {
	row, col int32
	val      float64
}

const pxChunk = 1 << 16

type pxMark struct {
	start, line int
}

func (a *pxAccum) add(row int, col int32, v float64) {
	r := int32(row)
	if r < a.last {
		a.sorted = false
	}
	a.last = r
	if a.n%pxChunk == 0 {
		a.chunks = append(a.chunks, make([]pxCell, 0, pxChunk))
	}
	c := &a.chunks[len(a.chunks)-1]
	*c = append(*c, pxCell{r, col, v})
	a.n++
	if col < 0 {
		a.resets++
	}
}

func (a *pxAccum) cell(k int) *pxCell { return &a.chunks[k/pxChunk][k%pxChunk] }

// parseFunctions reads one of the function sections.
func (p *pxParser) parseFunctions(section string, open int) error {
	want := "CondProb"
	if section == secReward {
		want = "Func"
	}
	return p.children(section, open, func(se pxElem, line int) error {
		if se.name != want {
			return p.errAt(line, section, "unexpected element <%s> in <%s> (want <%s>)", se.name, section, want)
		}
		return p.parseFunc(section, want, line)
	})
}

// parseFunc reads one <CondProb> or <Func> through its end tag.
func (p *pxParser) parseFunc(section, elem string, open int) error {
	var f *pxFunc
	var varName string
	var parents []string
	varLine, parentLine := 0, 0
	err := p.children(elem, open, func(se pxElem, line int) error {
		switch se.name {
		case "Var", "Parent":
			if f != nil {
				return p.errAt(line, section, "<%s> after <Parameter> in <%s>; write <Var> and <Parent> first", se.name, elem)
			}
			b, err := p.text(se.name, line, nil)
			if err != nil {
				return err
			}
			toks := strings.Fields(string(b))
			if se.name == "Var" {
				if varLine != 0 {
					return p.errAt(line, section, "two <Var> in <%s>", elem)
				}
				if len(toks) != 1 {
					return p.errAt(line, section+" Var", "expected one variable name, got %q", clip(strings.TrimSpace(string(b))))
				}
				varName, varLine = toks[0], line
				return nil
			}
			if parentLine != 0 {
				return p.errAt(line, section, "two <Parent> in <%s>", elem)
			}
			parents, parentLine = toks, line
			if len(parents) == 1 && parents[0] == "null" {
				parents = nil
			}
			return nil
		case "Parameter":
			if f != nil {
				return p.errAt(line, section, "two <Parameter> in <%s>", elem)
			}
			if varLine == 0 || parentLine == 0 {
				return p.errAt(line, section, "<Parameter> before <Var> and <Parent> in <%s>", elem)
			}
			var err error
			if f, err = p.newFunc(section, varName, varLine, parents, parentLine, open); err != nil {
				return err
			}
			switch typ, _ := attr(se, "type"); strings.TrimSpace(typ) {
			case "", "TBL":
			case "DD":
				return p.errAt(line, f.field("Parameter"), `type="DD" (decision diagrams) is not supported; write the table as type="TBL" (SARSOP does not implement DD either)`)
			default:
				return p.errAt(line, f.field("Parameter"), "type=%q: want \"TBL\"", typ)
			}
			return p.children("Parameter", line, func(se pxElem, l int) error {
				if se.name != "Entry" {
					return p.errAt(l, f.field("Parameter"), "unexpected element <%s> in <Parameter> (want <Entry>)", se.name)
				}
				return p.entry(f, l)
			})
		}
		return p.errAt(line, section, "unexpected element <%s> in <%s> (want Var, Parent, Parameter)", se.name, elem)
	})
	if err != nil {
		return err
	}
	if f == nil {
		what := "<Parameter>"
		if varLine == 0 {
			what = "<Var>"
		} else if parentLine == 0 {
			what = "<Parent>"
		}
		return p.errAt(open, section, "<%s> has no %s", elem, what)
	}
	if f.prob {
		if err := p.resolve(f); err != nil {
			return err
		}
	}
	f.resolveFunc()
	p.funcs = append(p.funcs, f)
	return nil
}

// attach makes f, a function of section read from the element opened at
// line open, the one its variable varName (named at line varLine) has,
// refusing a variable of the wrong kind or a second function.
func (p *pxParser) attach(f *pxFunc, varName string, varLine, open int) error {
	section, child := f.section, f.child
	v := child.v
	switch section {
	case secBelief:
		if v.kind != pxState {
			return p.errAt(varLine, section+" Var", "%q is not a state variable", varName)
		}
		if v.belief != nil {
			return p.errAt(open, f.field(""), "second initial distribution of %s (first at line %d)", varName, v.belief.line)
		}
		v.belief = f
		f.factors = len(p.states)
	case secTrans:
		if v.kind != pxState {
			return p.errAt(varLine, section+" Var", "%q is not a state variable", varName)
		}
		if !child.next {
			return p.errAt(varLine, section+" Var", "%q is a vnamePrev; a transition gives the next value, %s", varName, v.curr)
		}
		if v.fn != nil {
			return p.errAt(open, f.field(""), "second transition of %s (first at line %d)", varName, v.fn.line)
		}
		v.fn = f
		f.factors = len(p.states)
	case secObs:
		if v.kind != pxObs {
			return p.errAt(varLine, section+" Var", "%q is not an observation variable", varName)
		}
		if v.fn != nil {
			return p.errAt(open, f.field(""), "second observation function of %s (first at line %d)", varName, v.fn.line)
		}
		v.fn = f
		f.factors = max(1, len(p.obs))
	case secReward:
		if v.kind != pxReward {
			return p.errAt(varLine, section+" Var", "%q is not a reward variable", varName)
		}
		if v.fn != nil {
			return p.errAt(open, f.field(""), "second reward function of %s (first at line %d)", varName, v.fn.line)
		}
		v.fn = f
	}
	return nil
}

// newFunc checks the variable and parents of a function against the
// rules of its section and allocates its table.
func (p *pxParser) newFunc(section, varName string, varLine int, parents []string, parentLine, open int) (*pxFunc, error) {
	child, ok := p.ids[varName]
	if !ok {
		return nil, p.errAt(varLine, section+" Var", "%q is not a declared variable", varName)
	}
	f := &pxFunc{section: section, line: open, child: child, prob: section != secReward}
	if err := p.attach(f, varName, varLine, open); err != nil {
		return nil, err
	}
	// A parent may appear once; a state variable's previous and next
	// values (x_0 and x_1) are two parents, as in a reward of both.
	type parentKey struct {
		v    *pxVar
		next bool
	}
	seen := map[parentKey]string{}
	var parts []string
	rows := int64(1)
	limit := min(p.cfg.MaxEntries, math.MaxInt32-1)
	if !f.prob {
		limit = 1 << 62 // a large reward table is sparse
	}
	for _, name := range parents {
		r, ok := p.ids[name]
		if !ok {
			return nil, p.errAt(parentLine, f.field("Parent"), "%q is not a declared variable", name)
		}
		if err := p.checkParent(f, r, parentLine); err != nil {
			return nil, err
		}
		if _, dup := seen[parentKey{r.v, r.next}]; dup {
			return nil, p.errAt(parentLine, f.field("Parent"), "%s appears twice", name)
		}
		seen[parentKey{r.v, r.next}] = name
		f.parents = append(f.parents, r)
		parts = append(parts, fmt.Sprintf("%s (%d)", name, r.v.size()))
		if rows <= limit {
			rows *= int64(r.v.size())
		}
	}
	if rows > limit {
		e := p.errAt(parentLine, f.field("Parent"), "the parents %s have more than %d combinations (see MaxEntries)", strings.Join(parts, " × "), limit)
		e.Err = pomdp.ErrTooLarge
		return nil, e
	}
	dense := rows <= max(pxDenseFunc, int64(p.nS)*int64(p.nA))
	if !f.prob && dense { // a small reward table is allocated whole
		if err := p.spend(parentLine, f.field("Parent"), rows); err != nil {
			return nil, err
		}
	}
	f.nRows = int(rows)
	f.strides = make([]int, len(f.parents))
	st := 1
	for i := len(f.parents) - 1; i >= 0; i-- {
		f.strides[i] = st
		st *= f.parents[i].v.size()
	}
	switch {
	case f.prob:
		f.acc.sorted = true
	case !dense:
		f.sparse = true
	default:
		f.vals = make([]float64, f.nRows)
	}
	return f, nil
}

// checkParent applies the format's rules on parents.
func (p *pxParser) checkParent(f *pxFunc, r pxRef, line int) error {
	child := f.child.v
	bad := func(format string, args ...any) error {
		return p.errAt(line, f.field("Parent"), format, args...)
	}
	switch {
	case r.v == child:
		if f.section == secTrans && !r.next {
			return nil
		}
		return bad("%s cannot be its own parent here", r.name)
	case r.v.kind == pxReward:
		return bad("%s is a reward variable and cannot be a parent", r.name)
	}
	switch f.section {
	case secBelief:
		if r.v.kind != pxState || !r.v.fullyObs || child.fullyObs {
			return bad("an initial distribution may depend only on fully observed state variables, and only a partially observed variable's may; %s cannot be a parent of %s", r.name, f.child.name)
		}
	case secTrans:
		switch {
		case r.v.kind == pxObs:
			return bad("%s is an observation variable and cannot be a parent of a transition", r.name)
		case r.v.kind == pxState && r.next && (!r.v.fullyObs || child.fullyObs):
			return bad("a transition may depend on the next value %s only if %s is fully observed and %s is not", r.name, r.name, f.child.name)
		}
	case secObs:
		switch {
		case r.v.kind == pxObs:
			return bad("%s is an observation variable and cannot be a parent of an observation", r.name)
		case r.v.kind == pxState && !r.next:
			return bad("an observation depends on next values; %s is a vnamePrev (use %s)", r.name, r.v.curr)
		}
	}
	return nil
}

// Positions of an <Instance>.
const (
	posStar = -1
	posDash = -2
)

// entry reads one <Entry> and writes its cells.
func (p *pxParser) entry(f *pxFunc, open int) error {
	tableElem := "ProbTable"
	if !f.prob {
		tableElem = "ValueTable"
	}
	p.inst, p.table = p.inst[:0], p.table[:0]
	instLine, tableLine := 0, 0
	err := p.children("Entry", open, func(se pxElem, line int) error {
		var err error
		switch se.name {
		case "Instance":
			if instLine != 0 {
				return p.errAt(line, f.field("Entry"), "two <Instance> in <Entry>")
			}
			instLine = line
			p.inst, err = p.text("Instance", line, p.inst)
			return err
		case tableElem:
			if tableLine != 0 {
				return p.errAt(line, f.field("Entry"), "two <%s> in <Entry>", tableElem)
			}
			tableLine = line
			p.table, err = p.text(tableElem, line, p.table)
			return err
		}
		hint := ""
		if se.name == "ProbTable" || se.name == "ValueTable" {
			hint = fmt.Sprintf("; a <%s> holds <%s>", map[bool]string{true: "CondProb", false: "Func"}[f.prob], tableElem)
		}
		return p.errAt(line, f.field("Entry"), "unexpected element <%s> in <Entry> (want Instance and %s%s)", se.name, tableElem, hint)
	})
	if err != nil {
		return err
	}
	if instLine == 0 || tableLine == 0 {
		what := "<Instance>"
		if instLine != 0 {
			what = "<" + tableElem + ">"
		}
		return p.errAt(open, f.field("Entry"), "<Entry> has no %s", what)
	}
	if f.prob {
		f.acc.marks = append(f.acc.marks, pxMark{start: f.acc.n, line: open})
	}
	return p.apply(f, instLine, tableLine)
}

// apply decodes the Instance and table in p.inst and p.table and writes
// the cells of the entry.
func (p *pxParser) apply(f *pxFunc, instLine, tableLine int) error {
	toks := p.split(p.inst)
	np := len(f.parents)
	want := np
	if f.prob {
		want++
	}
	if len(toks) != want {
		var names []string
		for _, r := range f.parents {
			names = append(names, r.name)
		}
		if f.prob {
			names = append(names, f.child.name)
		}
		return p.errAt(instLine, f.field("Instance"), "has %d values, want %d (%s)", len(toks), want, strings.Join(names, ", "))
	}
	if cap(p.pos) < want {
		p.pos = make([]int, want)
	}
	for len(p.last) < want {
		p.last = append(p.last, pxLast{})
	}
	pos := p.pos[:want]
	for i, t := range toks {
		r := f.child
		if i < np {
			r = f.parents[i]
		}
		switch {
		case len(t) == 1 && t[0] == '*':
			pos[i] = posStar
		case len(t) == 1 && t[0] == '-':
			pos[i] = posDash
		default:
			c := &p.last[i]
			if c.v == r.v {
				// The same value as in the last entry, or the next one (the
				// rows of a flat table in order) spare a map look-up.
				if bytes.Equal(c.tok, t) {
					pos[i] = c.idx
					continue
				}
				if k := c.idx + 1; k < len(r.v.values) && r.v.values[k] == string(t) {
					pos[i] = k
					c.tok, c.idx = append(c.tok[:0], t...), k
					continue
				}
			}
			k, ok := r.v.index[string(t)]
			if !ok {
				return p.errAt(instLine, f.field("Instance"), "%q is not a value of %s (%s)", clip(string(t)), r.name, preview(r.v.values))
			}
			pos[i] = k
			c.v, c.tok, c.idx = r.v, append(c.tok[:0], t...), k
		}
	}
	if !f.prob {
		return p.applyFunc(f, pos, tableLine)
	}
	table := bytes.TrimFunc(p.table, func(r rune) bool { return r < 0x80 && isXMLSpace(byte(r)) })
	kw := ""
	switch {
	case len(table) == 8 && strings.EqualFold(string(table), "identity"):
		kw = "identity"
	case len(table) == 7 && strings.EqualFold(string(table), "uniform"):
		kw = "uniform"
	}
	if kw != "" {
		return p.applyKeyword(f, pos, kw, tableLine)
	}
	return p.applyNumbers(f, pos, tableLine)
}

// preview lists the first values of a variable.
func preview(values []string) string {
	if len(values) <= 6 {
		return fmt.Sprintf("%d values: %s", len(values), strings.Join(values, ", "))
	}
	return fmt.Sprintf("%d values: %s, …", len(values), strings.Join(values[:5], ", "))
}

// numbers parses the table into p.nums; probabilities must be finite and
// non-negative, rewards finite.
func (p *pxParser) numbers(f *pxFunc, line int) ([]float64, error) {
	elem := "ProbTable"
	if !f.prob {
		elem = "ValueTable"
	}
	toks := p.split(p.table)
	nums := p.nums[:0]
	for _, t := range toks {
		if len(t) == 1 && (t[0] == '0' || t[0] == '1') { // most entries of sparse models
			nums = append(nums, float64(t[0]-'0'))
			continue
		}
		if v, ok := simpleDecimal(t); ok && (!f.prob || v >= 0) {
			nums = append(nums, v)
			continue
		}
		v, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			what := "a number"
			if f.prob {
				what = "a probability"
				if kwLike(t) {
					return nil, p.errAt(p.lineOf(line, t), f.field(elem), "the keyword %q must be the whole <ProbTable>", string(t))
				}
			}
			return nil, p.errAt(p.lineOf(line, t), f.field(elem), "expected %s, got %q", what, clip(string(t)))
		}
		if f.prob && v < 0 {
			return nil, p.errAt(p.lineOf(line, t), f.field(elem), "probability %s is negative", string(t))
		}
		nums = append(nums, v)
	}
	p.nums = nums
	return nums, nil
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// simpleDecimal parses t of the form [-]digits[.digits] whose digits, as
// an integer, are below 2^53 and whose fraction has at most 22 digits:
// the value is then the integer divided by an exact power of ten, one
// correctly rounded operation, so it equals strconv.ParseFloat's. Other
// forms (exponents, long mantissas, "+", "inf") return ok false.
func simpleDecimal(t []byte) (v float64, ok bool) {
	i, neg := 0, false
	if len(t) > 0 && t[0] == '-' {
		neg, i = true, 1
	}
	var mant uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			if mant >= 1<<53 {
				return 0, false
			}
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || frac >= len(pow10) {
		return 0, false
	}
	v = float64(mant) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

func kwLike(t []byte) bool {
	return strings.EqualFold(string(t), "identity") || strings.EqualFold(string(t), "uniform")
}

// lineOf returns the line of token t, a sub-slice of p.table, whose
// element started at line.
func (p *pxParser) lineOf(line int, t []byte) int {
	// t lies inside p.table: its offset is the difference of capacities.
	o := cap(p.table) - cap(t)
	if o < 0 || o > len(p.table) {
		return line
	}
	return line + bytes.Count(p.table[:o], []byte{'\n'})
}

// dashes returns the number of table entries the "-" positions of pos
// call for (saturating) and their description.
func dashes(f *pxFunc, pos []int) (int64, string) {
	n := int64(1)
	var parts []string
	for i, x := range pos {
		if x != posDash {
			continue
		}
		r := f.child
		if i < len(f.parents) {
			r = f.parents[i]
		}
		if n <= math.MaxInt32 {
			n *= int64(r.v.size())
		}
		parts = append(parts, fmt.Sprintf("%s (%d values)", r.name, r.v.size()))
	}
	return n, strings.Join(parts, " × ")
}

// odometer enumerates the combinations of the free ("*" and "-") parent
// positions of pos, calling fn with the table row and the offset into the
// ProbTable contributed by the parents' "-" positions (tstride per parent
// "-" position, the last "-" least significant, scaled by inner).
type odometer struct {
	idx     []int // free parent positions
	size    []int
	stride  []int
	tstride []int
	digit   []int
}

func (p *pxParser) newOdometer(f *pxFunc, pos []int, inner int) (*odometer, int, int64) {
	o := &p.odo
	o.idx, o.size, o.stride, o.tstride = o.idx[:0], o.size[:0], o.stride[:0], o.tstride[:0]
	base := 0
	combos := int64(1)
	t := inner
	np := len(f.parents)
	// tstride: walk from the last parent backwards.
	if cap(p.ts) < np {
		p.ts = make([]int, np)
	}
	ts := p.ts[:np]
	for i := np - 1; i >= 0; i-- {
		ts[i] = 0
		if pos[i] == posDash {
			ts[i] = t
			t *= f.parents[i].v.size()
		}
	}
	for i := 0; i < np; i++ {
		switch pos[i] {
		case posStar, posDash:
			n := f.parents[i].v.size()
			o.idx = append(o.idx, i)
			o.size = append(o.size, n)
			o.stride = append(o.stride, f.strides[i])
			o.tstride = append(o.tstride, ts[i])
			if combos <= math.MaxInt32 {
				combos *= int64(n)
			}
		default:
			base += pos[i] * f.strides[i]
		}
	}
	if cap(o.digit) < len(o.idx) {
		o.digit = make([]int, len(o.idx))
	}
	o.digit = o.digit[:len(o.idx)]
	clear(o.digit)
	return o, base, combos
}

// run calls fn(row, toff) for every combination.
func (o *odometer) run(base int, fn func(row, toff int)) {
	row, toff := base, 0
	for {
		fn(row, toff)
		k := len(o.idx) - 1
		for ; k >= 0; k-- {
			o.digit[k]++
			row += o.stride[k]
			toff += o.tstride[k]
			if o.digit[k] < o.size[k] {
				break
			}
			row -= o.size[k] * o.stride[k]
			toff -= o.size[k] * o.tstride[k]
			o.digit[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// applyNumbers writes an entry whose table is a list of numbers.
func (p *pxParser) applyNumbers(f *pxFunc, pos []int, line int) error {
	nums, err := p.numbers(f, line)
	if err != nil {
		return err
	}
	np := len(f.parents)
	cpos := pos[np]
	nc := f.child.v.size()
	want, desc := dashes(f, pos)
	if int64(len(nums)) != want {
		why := `the <Instance> has no "-"`
		if desc != "" {
			why = `one per combination of the "-" positions: ` + desc
		}
		return p.errAt(line, f.field("ProbTable"), "has %d numbers, want %d (%s)", len(nums), want, why)
	}
	inner := 1
	if cpos == posDash {
		inner = nc
	}
	o, base, combos := p.newOdometer(f, pos, inner)
	cells := combos
	if cpos < 0 {
		cells *= int64(nc)
	}
	// The numbers of the file are paid for by its size; what "*" adds is
	// work.
	if err := p.spendIn(f, "ProbTable", line, max(0, cells-int64(len(nums)))); err != nil {
		return err
	}
	a := &f.acc
	switch cpos {
	case posDash:
		o.run(base, func(row, toff int) {
			a.add(row, -1, 0)
			for j, v := range nums[toff : toff+nc] {
				if v != 0 {
					a.add(row, int32(j), v)
				}
			}
		})
	case posStar:
		o.run(base, func(row, toff int) {
			v := nums[toff]
			a.add(row, -1, 0)
			if v != 0 {
				for j := 0; j < nc; j++ {
					a.add(row, int32(j), v)
				}
			}
		})
	default:
		o.run(base, func(row, toff int) { a.add(row, int32(cpos), nums[toff]) })
	}
	return nil
}

// applyKeyword writes an "identity" or "uniform" entry.
func (p *pxParser) applyKeyword(f *pxFunc, pos []int, kw string, line int) error {
	np := len(f.parents)
	nc := f.child.v.size()
	cpos := pos[np]
	field := f.field("ProbTable")
	a := &f.acc
	if kw == "uniform" {
		if cpos >= 0 {
			return p.errAt(line, field, `"uniform" needs "-" or "*" for %s, the last value of the <Instance>`, f.child.name)
		}
		o, base, combos := p.newOdometer(f, pos, 0)
		if err := p.spend(line, field, combos*int64(nc)); err != nil {
			return err
		}
		u := 1 / float64(nc)
		o.run(base, func(row, _ int) {
			a.add(row, -1, 0)
			for j := 0; j < nc; j++ {
				a.add(row, int32(j), u)
			}
		})
		return nil
	}
	// identity: the last position and exactly one parent are "-".
	d := -1
	for i := 0; i < np; i++ {
		if pos[i] == posDash {
			if d >= 0 {
				d = -2
				break
			}
			d = i
		}
	}
	if cpos != posDash || d < 0 {
		return p.errAt(line, field, `"identity" needs an <Instance> ending in "-" with exactly one other "-"`)
	}
	if n := f.parents[d].v.size(); n != nc {
		return p.errAt(line, field, `"identity" maps %s (%d values) to %s (%d values); they must have as many values`, f.parents[d].name, n, f.child.name, nc)
	}
	o, base, combos := p.newOdometer(f, pos, 0)
	k := -1
	for j, i := range o.idx {
		if i == d {
			k = j
		}
	}
	if err := p.spend(line, field, combos*2); err != nil {
		return err
	}
	o.run(base, func(row, _ int) {
		a.add(row, -1, 0)
		a.add(row, int32(o.digit[k]), 1)
	})
	return nil
}

// applyFunc writes a <ValueTable> entry of a reward.
func (p *pxParser) applyFunc(f *pxFunc, pos []int, line int) error {
	tb := bytes.TrimSpace(p.table)
	if kwLike(tb) {
		return p.errAt(line, f.field("ValueTable"), "the keyword %q is for probabilities, not rewards", string(tb))
	}
	nums, err := p.numbers(f, line)
	if err != nil {
		return err
	}
	want, desc := dashes(f, pos)
	if int64(len(nums)) != want {
		why := `the <Instance> has no "-"`
		if desc != "" {
			why = `one per combination of the "-" positions: ` + desc
		}
		return p.errAt(line, f.field("ValueTable"), "has %d numbers, want %d (%s)", len(nums), want, why)
	}
	o, base, combos := p.newOdometer(f, pos, 1)
	if err := p.spendIn(f, "ValueTable", line, max(0, combos-int64(len(nums)))); err != nil {
		return err
	}
	o.run(base, func(row, toff int) { f.set(row, nums[toff]) })
	return nil
}

// spendIn is spend for an element of a function; it names the function
// only when the budget is exhausted.
func (p *pxParser) spendIn(f *pxFunc, elem string, line int, n int64) error {
	if n >= 0 && n <= p.cfg.MaxEntries-p.work {
		p.work += n
		return nil
	}
	return p.spend(line, f.field(elem), n)
}

// rowOrder returns the cells' indexes sorted by row, stably (a counting
// sort), or nil when the cells came sorted.
func (a *pxAccum) rowOrder(nRows int) []int32 {
	if a.sorted {
		return nil
	}
	n := a.n
	start := make([]int, nRows+1)
	for _, ch := range a.chunks {
		for _, c := range ch {
			start[c.row+1]++
		}
	}
	for r := 0; r < nRows; r++ {
		start[r+1] += start[r]
	}
	order := make([]int32, n)
	for k := 0; k < n; k++ {
		r := a.cell(k).row
		order[start[r]] = int32(k)
		start[r]++
	}
	return order
}

// resolve turns the cells of a CondProb into its rows (later cells
// replace earlier ones), checks that every row is a distribution within
// FileRowTol and renormalises rows off by more than RowTol/factors.
func (p *pxParser) resolve(f *pxFunc) error {
	a := &f.acc
	n := a.n
	order := a.rowOrder(f.nRows)
	nc := f.child.v.size()
	gen := make([]uint32, nc)
	slot := make([]int32, nc)
	g := uint32(0)
	tol := pomdp.RowTol
	if f.factors > 1 {
		tol = pomdp.RowTol / float64(2*f.factors)
	}
	f.ptr = make([]int, 1, min(f.nRows, n)+1)
	f.col = make([]int32, 0, n-a.resets)
	f.val = make([]float64, 0, n-a.resets)
	var rc []int32
	var rv []float64
	k := 0
	for r := 0; r < f.nRows; r++ {
		rc, rv = rc[:0], rv[:0]
		g++
		if g == 0 { // wrapped: forget every stamp
			clear(gen)
			g = 1
		}
		last := -1
		for k < n {
			idx := k
			if order != nil {
				idx = int(order[k])
			}
			cl := a.cell(idx)
			if int(cl.row) != r {
				break
			}
			last = max(last, idx)
			c := cl.col
			switch {
			case c < 0:
				rc, rv = rc[:0], rv[:0]
				g++
				if g == 0 {
					clear(gen)
					g = 1
				}
			case gen[c] == g:
				rv[slot[c]] = cl.val
			default:
				gen[c] = g
				slot[c] = int32(len(rc))
				rc = append(rc, c)
				rv = append(rv, cl.val)
			}
			k++
			if order == nil && k%pxChunk == 0 {
				a.chunks[k/pxChunk-1] = nil // read: let it go
			}
		}
		if last < 0 {
			return p.errAt(f.line, f.field(""), "%s is never specified (no <Entry> covers it)", f.describeRow(r))
		}
		sortPairs(rc, rv)
		start := len(f.col)
		sum := 0.0
		for j, c := range rc {
			if v := rv[j]; v != 0 {
				f.col = append(f.col, c)
				f.val = append(f.val, v)
				sum += v
			}
		}
		if !(math.Abs(sum-1) <= pomdp.FileRowTol) {
			return p.errAt(a.lineOf(last), f.field(""), "%s sums to %.9g, want 1 (within %g)", f.describeRow(r), sum, pomdp.FileRowTol)
		}
		if !(math.Abs(sum-1) <= tol) {
			for j := start; j < len(f.val); j++ {
				f.val[j] /= sum
			}
		}
		f.ptr = append(f.ptr, len(f.col))
	}
	f.acc = pxAccum{}
	return nil
}

// lineOf returns the line of the <Entry> that wrote cell k.
func (a *pxAccum) lineOf(k int) int {
	i := sort.Search(len(a.marks), func(i int) bool { return a.marks[i].start > k }) - 1
	if i < 0 {
		return 0
	}
	return a.marks[i].line
}

// describeRow names the distribution of row r, e.g.
// "P(rock0_1 | action_robot=as, robot_0=s20, rock0_0=good)".
func (f *pxFunc) describeRow(r int) string {
	if len(f.parents) == 0 {
		return fmt.Sprintf("P(%s)", f.child.name)
	}
	parts := make([]string, len(f.parents))
	for i, pr := range f.parents {
		parts[i] = pr.name + "=" + pr.v.values[r/f.strides[i]%pr.v.size()]
	}
	return fmt.Sprintf("P(%s | %s)", f.child.name, strings.Join(parts, ", "))
}

// sortPairs sorts cols ascending, permuting vals alike (columns are
// distinct).
func sortPairs(cols []int32, vals []float64) {
	sorted := true
	for j := 1; j < len(cols); j++ {
		if cols[j] < cols[j-1] {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	sort.Sort(pairs{cols, vals})
}

type pairs struct {
	c []int32
	v []float64
}

func (x pairs) Len() int           { return len(x.c) }
func (x pairs) Less(i, j int) bool { return x.c[i] < x.c[j] }
func (x pairs) Swap(i, j int) {
	x.c[i], x.c[j] = x.c[j], x.c[i]
	x.v[i], x.v[j] = x.v[j], x.v[i]
}
