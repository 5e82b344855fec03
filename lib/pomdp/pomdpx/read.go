package pomdpx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/filebuild"
)

// Read reads a POMDP in the POMDPX format of SARSOP/APPL (the XML
// format of "PomdpX File Format", version 1.0, as SARSOP's own parser reads
// it), and returns it as a flat model. name is used in error messages and,
// without directory and extension, as the model's Name.
//
// # What is read
//
// A document is a <pomdpx> element holding <Description> (ignored),
// <Discount>, <Variable>, <InitialStateBelief>, <StateTransitionFunction>,
// <ObsFunction> and <RewardFunction>, each at most once and in any order,
// as SARSOP's parser accepts them (a section that comes before <Variable>
// is skipped and read once the variables are known; errors in it still
// name its own lines).
//
//   - <StateVar vnamePrev="x_0" vnameCurr="x_1" fullyObs="true|false">,
//     <ObsVar vname="o">, <ActionVar vname="a"> hold a <ValueEnum> (names
//     separated by white space) or a <NumValues>n</NumValues>, whose values
//     are named as SARSOP names them: s0, s1, … for a state variable, o0, …
//     for an observation variable and a0, … for an action variable.
//     <RewardVar vname="r"/> declares a reward. fullyObs is "false" when
//     absent.
//   - <InitialStateBelief>, <StateTransitionFunction> and <ObsFunction>
//     hold one <CondProb> per state (or observation) variable:
//     <Var>, <Parent> (identifiers separated by white space, or "null") and
//     <Parameter type="TBL"> with <Entry> elements of an <Instance> (a value
//     of each parent, then of the variable) and a <ProbTable>.
//     <RewardFunction> holds one <Func> per reward variable with
//     <ValueTable> in place of <ProbTable> and an <Instance> of the parents
//     only.
//   - In an <Instance>, "*" stands for every value of that position (the
//     table repeats for each) and "-" for every value in order, the
//     <ProbTable> listing one number per combination of the "-" positions,
//     the first "-" most significant. A <ProbTable> is such numbers or one
//     of the keywords (any letter case) "identity" (the Instance ends in
//     "- -" or has exactly one other "-", whose variable has as many values
//     as the child: the child takes the same value) and "uniform" (the
//     Instance ends in "-" or "*": every value of the child equally
//     likely). SARSOP accepts "uniform" only in an initial belief without
//     parents; this reader accepts it wherever it describes whole
//     distributions.
//   - Entries are applied in file order and a later entry replaces an
//     earlier one entry by entry (an entry that spans the child, through
//     "-", "*" or a keyword, replaces the whole distribution); entries never
//     given are 0, as in SARSOP's parser.
//   - <Parameter type="DD"> (decision diagrams), which SARSOP does not
//     implement, and <TerminalStateRewardVar> are refused with an error
//     saying so.
//
// Parents follow the rules of the format: a transition may depend on the
// action, on any variable's previous value and on the next value of a fully
// observed variable when its own variable is not fully observed; an
// observation on the action and next values; the initial value of a
// partially observed variable on initial values of fully observed ones; a
// reward on anything but a reward.
//
// # The flat model
//
// A factored file becomes one flat model whose kernels are the products of
// the per-variable tables, built sparse (the cost is the number of non-zero
// joint entries, never |S|²).
//
// States are the joint values of the state variables in SARSOP's order:
// fully observed variables first, then the others, each group in file
// order, the first variable most significant. So state index x·|Y| + y is
// fully observed part x and hidden part y, the order of SARSOP's .policy
// files. With one state variable a state's name is its value; otherwise it
// is "robot=s23,rock0=good,…", each variable named by the common prefix of
// vnamePrev and vnameCurr without trailing "_" (robot for robot_0 and
// robot_1), or by vnameCurr when that prefix is empty or not unique.
// Actions are the joint values of the action variables, named alike with
// their vname.
//
// Mixed observability: the agent sees the next value of every fully
// observed variable. A flat observation is the tuple (next values of the
// fully observed variables, values of the observation variables), the
// first most significant, named like states ("robot=s23,obs_sensor=ogood"),
// and Z(s', a, o) is 1 on the fully observed part of s' times the product
// of the observation tables. So RockSample_7_8.pomdpx, with the fully
// observed robot (50 values) and obs_sensor (2 values), has 50·2 = 100
// observations. A fully observed variable is therefore exactly a partially
// observed one with an observation variable that copies its next value (an
// identity table): both files give the same model. The initial value of a
// fully observed variable is not observed (the flat POMDP has no
// observation before the first action); RockSample and most files start it
// at one value. When every state variable is fully observed the model is
// an MDP and, as SARSOP does, observation variables are ignored. A model
// with no fully observed variable and no observation variable has one
// observation, "none".
//
// Rewards: the file's reward r(a, s, s', o) is the sum of its <Func>
// tables and may depend on the action, the current and next state
// variables and the observation variables. The model's R is the expected
// immediate reward
//
//	R(s, a) = Σ_{s'} T(s, a, s') Σ_o Z(s', a, o) r(a, s, s', o),
//
// the reduction SARSOP's parser applies (and cassandra.Read), which every
// value this module computes uses. A reward of the action and the current
// state only is copied exactly, and so is one that takes a single value on
// every (s', o) that can follow (s, a). Where r depends on the next state
// or the observation, the flat r(s, a, s', o) is kept, entry for entry, in
// Model.Rewards (see RewardTable), so that Write, cassandra.Write and
// pomdpjson.Write write it again; ExpectedRewards keeps the expectation only. A
// <Func> with more rows than |S|·|A| and 2^20 (a reward of the action,
// both states and the observation of a large model) is kept sparse: only
// the rows its entries give.
//
// The discount is <Discount> (required, in [0, 1]).
//
// # Errors and limits
//
// Errors are *ParseError values naming the file, the line and the element,
// for example
//
//	pomdp: rs.pomdpx:2741: StateTransitionFunction rock0_1 ProbTable: has 3 numbers, want 4 (one per combination of the "-" positions: rock0_0 (2 values) × rock0_1 (2 values))
//
// Every distribution (a row of a per-variable table) must sum to 1 within
// FileRowTol, as in cassandra.Read, or the error names the variable and the
// parent values:
//
//	… P(rock0_1 | action_robot=as, robot_0=s20, rock0_0=good) sums to 0.5, want 1 (within 1e-05)
//
// and rows off by more than RowTol (divided by the number of factors of the
// product) are divided by their sum. A joint state space larger than
// MaxSize, or |S|·|A| larger than MaxEntries, is refused when <Variable>
// ends, before any table is allocated, with an error wrapping ErrTooLarge
// that names the product (robot_0 (50) × rock0_0 (2) × …); so is a table
// whose parents have more than MaxEntries combinations. MaxEntries also
// bounds the work: |S|·|A|, the table entries that "*" and the keywords add
// beyond the numbers written in the file, the reward tables, the non-zero
// entries of the flat kernels and the visits of the reward reduction.
//
// Renamed names. Comments before the root element of the form
//
//	<!-- pomdpq-rename states two_words "two words" -->
//
// (see Rename), which Write writes for names the format cannot
// hold, rename the written name (a state, action or observation of the
// flat model) back to the original; Describe reports them.
//
// The encodings UTF-8, US-ASCII and ISO-8859-1 (Latin-1) are read.
// Reading takes time linear in the file plus the expanded table entries
// plus the non-zeros of the flat model.
func Read(r io.Reader, name string, opts ...pomdp.ReadOption) (*pomdp.Model, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &pomdp.ParseError{File: name, Msg: "read failed: " + err.Error(), Err: err}
	}
	return ReadBytes(data, name, opts...)
}

// ReadBytes is Read for a POMDPX document held in memory: it reads data
// without copying it (package modelfile reads a whole file first).
func ReadBytes(data []byte, name string, opts ...pomdp.ReadOption) (*pomdp.Model, error) {
	p := &pxParser{file: name, cfg: pomdp.NewReadConfig(opts), ids: map[string]pxRef{}}
	if src := p.cfg.Source; src != nil {
		*src = pomdp.Source{Format: "pomdpx"}
	}
	sc, err := newXMLScanner(data)
	if err != nil {
		return nil, p.xmlError(err)
	}
	p.sc = sc
	renames, lines, err := prologRenames(sc.data, name)
	if err != nil {
		return nil, err
	}
	m, err := p.parse()
	if err != nil {
		return nil, err
	}
	if err := pomdp.RestoreNames(m, renames); err != nil {
		var re *pomdp.RenameError
		line := 0
		if errors.As(err, &re) {
			line = lines[re.Index]
		}
		return nil, &pomdp.ParseError{File: name, Line: line, Field: "rename comment", Msg: err.Error(), Err: err}
	}
	if src := p.cfg.Source; src != nil {
		src.Renames = renames
	}
	m.Name = filebuild.ModelName(name)
	return m, nil
}

// prologRenames reads the rename comments (see Rename) among the comments
// before the root element, which Write writes for names the format
// cannot hold. It returns them with their lines, or a *ParseError naming
// the line of a rename comment it cannot read. Anything it does not
// understand ends the prolog; the scanner checks the document.
func prologRenames(data []byte, file string) ([]pomdp.Rename, []int, error) {
	var rs []pomdp.Rename
	var lines []int
	line, i := 1, 0
	for i < len(data) {
		switch c := data[i]; {
		case isXMLSpace(c):
			if c == '\n' {
				line++
			}
			i++
			continue
		case bytes.HasPrefix(data[i:], []byte("<?")):
			end := bytes.Index(data[i:], []byte("?>"))
			if end < 0 {
				return rs, lines, nil
			}
			line += bytes.Count(data[i:i+end], []byte{'\n'})
			i += end + 2
			continue
		case bytes.HasPrefix(data[i:], []byte("<!--")):
			end := bytes.Index(data[i+4:], []byte("-->"))
			if end < 0 {
				return rs, lines, nil
			}
			text := data[i+4 : i+4+end]
			r, ok, err := pomdp.ParseRename(string(text))
			if err != nil {
				return nil, nil, &pomdp.ParseError{File: file, Line: line, Field: "rename comment", Msg: err.Error()}
			}
			if ok {
				rs = append(rs, r)
				lines = append(lines, line)
			}
			line += bytes.Count(data[i:i+4+end], []byte{'\n'})
			i += 4 + end + 3
			continue
		}
		break
	}
	return rs, lines, nil
}

type pxKind uint8

const (
	pxState pxKind = iota
	pxObs
	pxAction
	pxReward
)

// pxVar is a declared variable.
type pxVar struct {
	kind       pxKind
	vname      string // ObsVar, ActionVar, RewardVar
	prev, curr string // StateVar
	label      string // its name in flat names
	fullyObs   bool
	values     []string
	index      map[string]int
	line       int
	pos        int     // index among the state variables (flat order), observation or action variables
	fn         *pxFunc // its transition, observation or reward function
	belief     *pxFunc // a state variable's initial distribution
}

func (v *pxVar) size() int { return len(v.values) }

// pxRef is an identifier of the file: a variable, at the next time step
// for vnameCurr.
type pxRef struct {
	v    *pxVar
	next bool
	name string
}

// Sections of a POMDPX document, in the order SARSOP's documentation
// writes them.
const (
	secBelief = "InitialStateBelief"
	secTrans  = "StateTransitionFunction"
	secObs    = "ObsFunction"
	secReward = "RewardFunction"
)

// pxDeferred is a function section that came before <Variable>: the
// reader skips it and comes back to it when the variables are known.
type pxDeferred struct {
	name string
	line int
	at   xmlMark // the scanner just after the section's start tag
}

type pxParser struct {
	sc   *xmlScanner
	file string
	cfg  pomdp.ReadConfig
	work int64
	line int // line where the last token read started

	ids                           map[string]pxRef
	states, obs, actions, rewards []*pxVar
	nS, nA, nO, nY, nOv           int // joint sizes: states, actions, observations, hidden part, observation variables
	discount                      float64
	discountLine                  int
	seen                          map[string]int // line of each top-level element read
	later                         []pxDeferred   // function sections read before <Variable>
	funcs                         []*pxFunc

	// scratch buffers reused across entries
	inst, table []byte
	fields      [][]byte
	nums        []float64
	pos, ts     []int
	odo         odometer
	last        []pxLast // per <Instance> position: the last value looked up
}

// pxLast remembers the value an <Instance> position named last: entries
// in file order mostly repeat the action and the parent state.
type pxLast struct {
	v   *pxVar
	tok []byte
	idx int
}

func (p *pxParser) errAt(line int, field, format string, args ...any) *pomdp.ParseError {
	return &pomdp.ParseError{File: p.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// spend adds n units of work and fails past MaxEntries.
func (p *pxParser) spend(line int, field string, n int64) error {
	if n < 0 || n > p.cfg.MaxEntries-p.work {
		p.work = p.cfg.MaxEntries
		e := p.errAt(line, field, "the model expands to more than %d entries (see MaxEntries)", p.cfg.MaxEntries)
		e.Err = pomdp.ErrTooLarge
		return e
	}
	p.work += n
	return nil
}

// pxElem is a start tag: its local name (after any namespace prefix) and
// attributes.
type pxElem struct {
	name  string
	attrs []xmlAttr
}

// internName returns the element name b as a string, without allocating
// for the names of the format (the elements of a large file are millions
// of <Entry>, <Instance> and <ProbTable>).
func internName(b []byte) string {
	switch string(b) {
	case "Entry":
		return "Entry"
	case "Instance":
		return "Instance"
	case "ProbTable":
		return "ProbTable"
	case "ValueTable":
		return "ValueTable"
	case "CondProb":
		return "CondProb"
	case "Func":
		return "Func"
	case "Var":
		return "Var"
	case "Parent":
		return "Parent"
	case "Parameter":
		return "Parameter"
	}
	return string(b)
}

func localName(b []byte) []byte {
	if i := bytes.IndexByte(b, ':'); i >= 0 {
		return b[i+1:]
	}
	return b
}

// token reads the next token, recording the line where it starts. An end
// of file is returned as xmlEOF; the caller decides whether it is an
// error.
func (p *pxParser) token() (xmlKind, error) {
	if err := p.sc.next(); err != nil {
		return xmlEOF, p.xmlError(err)
	}
	p.line = p.sc.tokLine
	return p.sc.kind, nil
}

func (p *pxParser) xmlError(err error) error {
	if xe, ok := err.(*xmlError); ok {
		return &pomdp.ParseError{File: p.file, Line: xe.line, Msg: "XML: " + xe.msg, Err: err}
	}
	return err
}

// eof is the error for a document that ends inside elem.
func (p *pxParser) eof(elem string, open int) error {
	return p.errAt(p.line, elem, "unexpected end of file inside <%s> (opened at line %d)", elem, open)
}

// xmlSpace marks the white space of XML.
var xmlSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func isXMLSpace(c byte) bool { return xmlSpace[c] }

func isBlank(b []byte) bool {
	for _, c := range b {
		if !isXMLSpace(c) {
			return false
		}
	}
	return true
}

// children reads the content of element parent (opened at line open) up
// to its end tag, calling fn for each child element after its start tag;
// fn must consume the child through its end tag. Text other than white
// space is an error.
func (p *pxParser) children(parent string, open int, fn func(se pxElem, line int) error) error {
	for {
		k, err := p.token()
		if err != nil {
			return err
		}
		switch k {
		case xmlEOF:
			return p.eof(parent, open)
		case xmlStart:
			se := pxElem{name: internName(localName(p.sc.name))}
			if len(p.sc.attrs) > 0 {
				se.attrs = append([]xmlAttr(nil), p.sc.attrs...)
			}
			if err := fn(se, p.line); err != nil {
				return err
			}
		case xmlEnd:
			if n := localName(p.sc.name); string(n) != parent {
				return p.errAt(p.line, parent, "</%s> closes <%s> (opened at line %d)", n, parent, open)
			}
			return nil
		case xmlText:
			if !isBlank(p.sc.text) {
				return p.errAt(p.line, parent, "unexpected text %q in <%s>", clip(strings.TrimSpace(string(p.sc.text))), parent)
			}
		}
	}
}

// text reads the character content of element name up to its end tag,
// appending it to buf. A child element is an error.
func (p *pxParser) text(name string, open int, buf []byte) ([]byte, error) {
	for {
		k, err := p.token()
		if err != nil {
			return buf, err
		}
		switch k {
		case xmlEOF:
			return buf, p.eof(name, open)
		case xmlText:
			buf = append(buf, p.sc.text...)
		case xmlStart:
			return buf, p.errAt(p.line, name, "unexpected element <%s> in <%s>", localName(p.sc.name), name)
		case xmlEnd:
			if n := localName(p.sc.name); string(n) != name {
				return buf, p.errAt(p.line, name, "</%s> closes <%s> (opened at line %d)", n, name, open)
			}
			return buf, nil
		}
	}
}

// skip reads element name (any content) through its end tag.
func (p *pxParser) skip(name string, open int) error {
	var stack []string
	for {
		k, err := p.token()
		if err != nil {
			return err
		}
		switch k {
		case xmlEOF:
			return p.eof(name, open)
		case xmlStart:
			stack = append(stack, string(localName(p.sc.name)))
		case xmlEnd:
			n := string(localName(p.sc.name))
			if len(stack) == 0 {
				if n != name {
					return p.errAt(p.line, name, "</%s> closes <%s> (opened at line %d)", n, name, open)
				}
				return nil
			}
			if top := stack[len(stack)-1]; n != top {
				return p.errAt(p.line, name, "</%s> closes <%s>", n, top)
			}
			stack = stack[:len(stack)-1]
		}
	}
}

func attr(se pxElem, name string) (string, bool) {
	for _, a := range se.attrs {
		if string(localName(a.name)) == name && !bytes.HasPrefix(a.name, []byte("xmlns")) {
			return string(a.value), true
		}
	}
	return "", false
}

// clip shortens s for an error message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:37]) + "…"
	}
	return s
}

// fields splits b at XML white space into p.fields (reused).
func (p *pxParser) split(b []byte) [][]byte {
	f := p.fields[:0]
	i := 0
	for i < len(b) {
		for i < len(b) && isXMLSpace(b[i]) {
			i++
		}
		j := i
		for j < len(b) && !isXMLSpace(b[j]) {
			j++
		}
		if j > i {
			f = append(f, b[i:j])
		}
		i = j
	}
	p.fields = f
	return f
}

func (p *pxParser) parse() (*pomdp.Model, error) {
	p.seen = map[string]int{}
	// The root element.
	for {
		k, err := p.token()
		if err != nil {
			return nil, err
		}
		if k == xmlEOF {
			return nil, p.errAt(p.line, "", "no <pomdpx> element (empty document)")
		}
		if k == xmlText {
			if isBlank(p.sc.text) {
				continue
			}
			return nil, p.errAt(p.line, "", "expected the <pomdpx> element, got text %q (is this a POMDPX file?)", clip(strings.TrimSpace(string(p.sc.text))))
		}
		if k != xmlStart {
			return nil, p.errAt(p.line, "", "expected the <pomdpx> element, got </%s>", p.sc.name)
		}
		if n := localName(p.sc.name); string(n) != "pomdpx" {
			return nil, p.errAt(p.line, "", "the root element is <%s>, want <pomdpx>", n)
		}
		break
	}
	rootLine := p.line
	err := p.children("pomdpx", rootLine, func(se pxElem, line int) error {
		name := se.name
		if first, ok := p.seen[name]; ok {
			return p.errAt(line, name, "<%s> appears twice (first at line %d)", name, first)
		}
		p.seen[name] = line
		switch name {
		case "Description":
			return p.skip(name, line)
		case "Discount":
			return p.parseDiscount(line)
		case "Variable":
			return p.parseVariables(line)
		case secBelief, secTrans, secObs, secReward:
			if _, ok := p.seen["Variable"]; !ok {
				// Read it once the variables are known.
				p.later = append(p.later, pxDeferred{name: name, line: line, at: p.sc.mark()})
				return p.skip(name, line)
			}
			return p.parseFunctions(name, line)
		case "TerminalStateRewardFunction":
			return p.errAt(line, name, "terminal rewards are not supported")
		}
		return p.errAt(line, name, "unknown element <%s> in <pomdpx> (want Description, Discount, Variable, %s, %s, %s or %s)", name, secBelief, secTrans, secObs, secReward)
	})
	if err != nil {
		return nil, err
	}
	// Nothing but white space, comments and processing instructions may
	// follow the root.
	for {
		k, err := p.token()
		if err != nil {
			return nil, err
		}
		if k == xmlEOF {
			break
		}
		if k == xmlText && isBlank(p.sc.text) {
			continue
		}
		return nil, p.errAt(p.line, "", "content after </pomdpx>")
	}
	// Sections that came before <Variable>, in file order.
	if _, ok := p.seen["Variable"]; ok {
		for _, d := range p.later {
			p.sc.reset(d.at)
			if err := p.parseFunctions(d.name, d.line); err != nil {
				return nil, err
			}
		}
	}
	p.sc = nil // the document is no longer needed
	return p.finish()
}

func (p *pxParser) parseDiscount(line int) error {
	b, err := p.text("Discount", line, nil)
	if err != nil {
		return err
	}
	s := strings.TrimSpace(string(b))
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) {
		return p.errAt(line, "Discount", "expected a number, got %q", clip(s))
	}
	if v < 0 || v > 1 {
		return p.errAt(line, "Discount", "discount %v outside [0, 1]", v)
	}
	p.discount, p.discountLine = v, line
	return nil
}

// parseVariables reads <Variable> and, at its end, checks the joint sizes
// against the limits before anything else is allocated.
func (p *pxParser) parseVariables(open int) error {
	err := p.children("Variable", open, func(se pxElem, line int) error {
		switch se.name {
		case "StateVar":
			return p.stateVar(se, line)
		case "ObsVar", "ActionVar":
			kind, prefix := pxObs, "o"
			if se.name == "ActionVar" {
				kind, prefix = pxAction, "a"
			}
			vname, ok := attr(se, "vname")
			if !ok || vname == "" {
				return p.errAt(line, se.name, "missing attribute vname")
			}
			v := &pxVar{kind: kind, vname: vname, label: vname, line: line}
			if err := p.declare(v, vname, false, se.name, line); err != nil {
				return err
			}
			if err := p.values(v, se.name, prefix, line); err != nil {
				return err
			}
			if kind == pxObs {
				v.pos = len(p.obs)
				p.obs = append(p.obs, v)
			} else {
				v.pos = len(p.actions)
				p.actions = append(p.actions, v)
			}
			return nil
		case "RewardVar":
			vname, ok := attr(se, "vname")
			if !ok || vname == "" {
				return p.errAt(line, "RewardVar", "missing attribute vname")
			}
			v := &pxVar{kind: pxReward, vname: vname, label: vname, line: line, values: []string{"value"}}
			if err := p.declare(v, vname, false, "RewardVar", line); err != nil {
				return err
			}
			v.pos = len(p.rewards)
			p.rewards = append(p.rewards, v)
			return p.children("RewardVar", line, func(se pxElem, l int) error {
				return p.errAt(l, "RewardVar", "unexpected element <%s> in <RewardVar>", se.name)
			})
		case "TerminalStateRewardVar":
			return p.errAt(line, se.name, "terminal rewards are not supported")
		}
		return p.errAt(line, se.name, "unknown element <%s> in <Variable> (want StateVar, ObsVar, ActionVar or RewardVar)", se.name)
	})
	if err != nil {
		return err
	}
	return p.sizes(open)
}

func (p *pxParser) stateVar(se pxElem, line int) error {
	prev, ok1 := attr(se, "vnamePrev")
	curr, ok2 := attr(se, "vnameCurr")
	if !ok1 || !ok2 || prev == "" || curr == "" {
		return p.errAt(line, "StateVar", "missing attribute vnamePrev or vnameCurr")
	}
	v := &pxVar{kind: pxState, prev: prev, curr: curr, line: line}
	if fo, ok := attr(se, "fullyObs"); ok {
		switch strings.TrimSpace(fo) {
		case "true":
			v.fullyObs = true
		case "false":
		default:
			return p.errAt(line, "StateVar", "fullyObs=%q: want \"true\" or \"false\"", fo)
		}
	}
	if prev == curr {
		return p.errAt(line, "StateVar", "vnamePrev and vnameCurr are both %q", prev)
	}
	if err := p.declare(v, prev, false, "StateVar", line); err != nil {
		return err
	}
	if err := p.declare(v, curr, true, "StateVar", line); err != nil {
		return err
	}
	if err := p.values(v, "StateVar", "s", line); err != nil {
		return err
	}
	p.states = append(p.states, v)
	return nil
}

// declare records identifier name for v.
func (p *pxParser) declare(v *pxVar, name string, next bool, elem string, line int) error {
	if r, ok := p.ids[name]; ok {
		return p.errAt(line, elem, "variable name %q is declared twice (first at line %d)", name, r.v.line)
	}
	if name == "null" || name == "*" || name == "-" {
		return p.errAt(line, elem, "%q cannot be a variable name", name)
	}
	p.ids[name] = pxRef{v: v, next: next, name: name}
	return nil
}

// values reads the <ValueEnum> or <NumValues> of a variable through the
// variable's end tag.
func (p *pxParser) values(v *pxVar, elem, prefix string, open int) error {
	err := p.children(elem, open, func(se pxElem, line int) error {
		if v.values != nil {
			return p.errAt(line, elem, "more than one <ValueEnum>/<NumValues> in <%s>", elem)
		}
		switch se.name {
		case "ValueEnum":
			b, err := p.text("ValueEnum", line, nil)
			if err != nil {
				return err
			}
			f := p.split(b)
			if len(f) == 0 {
				return p.errAt(line, "ValueEnum", "no values")
			}
			if len(f) > p.cfg.MaxSize {
				e := p.errAt(line, "ValueEnum", "%d values, more than the limit of %d (see MaxSize)", len(f), p.cfg.MaxSize)
				e.Err = pomdp.ErrTooLarge
				return e
			}
			v.values = make([]string, len(f))
			v.index = make(map[string]int, len(f))
			for i, x := range f {
				s := string(x)
				if s == "*" || s == "-" {
					return p.errAt(line, "ValueEnum", "%q cannot be a value (it is a wildcard of <Instance>)", s)
				}
				if j, dup := v.index[s]; dup {
					return p.errAt(line, "ValueEnum", "value %q appears twice (positions %d and %d)", s, j, i)
				}
				v.values[i] = s
				v.index[s] = i
			}
			return nil
		case "NumValues":
			b, err := p.text("NumValues", line, nil)
			if err != nil {
				return err
			}
			s := strings.TrimSpace(string(b))
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				return p.errAt(line, "NumValues", "expected a positive integer, got %q", clip(s))
			}
			if n > p.cfg.MaxSize {
				e := p.errAt(line, "NumValues", "%d values, more than the limit of %d (see MaxSize)", n, p.cfg.MaxSize)
				e.Err = pomdp.ErrTooLarge
				return e
			}
			v.values = make([]string, n)
			v.index = make(map[string]int, n)
			for i := range v.values {
				v.values[i] = prefix + strconv.Itoa(i)
				v.index[v.values[i]] = i
			}
			return nil
		}
		return p.errAt(line, se.name, "unexpected element <%s> in <%s> (want ValueEnum or NumValues)", se.name, elem)
	})
	if err != nil {
		return err
	}
	if v.values == nil {
		return p.errAt(open, elem, "no <ValueEnum> or <NumValues>")
	}
	return nil
}

// product returns the product of the sizes of vs (saturating at limit+1)
// and its description "a (2) × b (3)".
func product(vs []*pxVar, name func(*pxVar) string, limit int64) (int64, string) {
	n := int64(1)
	var parts []string
	for _, v := range vs {
		if n <= limit {
			n *= int64(v.size())
		}
		if n > limit {
			n = limit + 1
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", name(v), v.size()))
	}
	return n, strings.Join(parts, " × ")
}

// sizes orders the state variables as SARSOP does, names them, and checks
// the joint sizes against the limits.
func (p *pxParser) sizes(line int) error {
	if len(p.states) == 0 {
		return p.errAt(line, "Variable", "no <StateVar>")
	}
	if len(p.actions) == 0 {
		return p.errAt(line, "Variable", "no <ActionVar>")
	}
	var obsd, hidden []*pxVar
	for _, v := range p.states {
		if v.fullyObs {
			obsd = append(obsd, v)
		} else {
			hidden = append(hidden, v)
		}
	}
	p.states = append(obsd, hidden...)
	for i, v := range p.states {
		v.pos = i
	}
	p.labelStates()
	limit := int64(p.cfg.MaxSize)
	tooLarge := func(what, desc string, n int64) error {
		e := p.errAt(line, "Variable", "the %s %s = %s exceeds the limit of %d (see MaxSize)", what, desc, count(n, limit), limit)
		e.Err = pomdp.ErrTooLarge
		return e
	}
	prevName := func(v *pxVar) string { return v.prev }
	vname := func(v *pxVar) string { return v.vname }
	nS, desc := product(p.states, prevName, limit)
	if nS > limit {
		return tooLarge("joint state space", desc, nS)
	}
	nA, adesc := product(p.actions, vname, limit)
	if nA > limit {
		return tooLarge("joint action space", adesc, nA)
	}
	nY, _ := product(hidden, prevName, limit)
	nOv := int64(1)
	odesc := ""
	if len(hidden) > 0 { // in an MDP observation variables are ignored
		nOv, odesc = product(p.obs, vname, limit)
	}
	nX, xdesc := product(obsd, func(v *pxVar) string { return v.curr }, limit)
	nO := nX * nOv
	if nX > limit || nOv > limit || nO > limit {
		d := strings.Trim(xdesc+" × "+odesc, " ×")
		return tooLarge("joint observation space", d, min(nO, limit+1))
	}
	p.nS, p.nA, p.nO, p.nY, p.nOv = int(nS), int(nA), int(nO), int(nY), int(nOv)
	// Every model needs |S|·|A| rows.
	if nS*nA > p.cfg.MaxEntries-p.work {
		e := p.errAt(line, "Variable", "the joint state space %s = %d times %d actions is %d rows, more than the limit of %d (see MaxEntries)", desc, nS, nA, nS*nA, p.cfg.MaxEntries)
		e.Err = pomdp.ErrTooLarge
		return e
	}
	p.work += nS * nA
	return nil
}

// count prints n, or "more than limit" when n saturated.
func count(n, limit int64) string {
	if n > limit {
		return fmt.Sprintf("more than %d", limit)
	}
	return strconv.FormatInt(n, 10)
}

// labelStates names each state variable in flat names: the common prefix
// of vnamePrev and vnameCurr without trailing "_", or vnameCurr when that
// is empty or shared with another variable. If the names are still not
// unique, every state variable is named by its vnameCurr (identifiers are
// unique).
func (p *pxParser) labelStates() {
	used := map[string]int{}
	for _, v := range p.obs {
		used[v.vname]++
	}
	for _, v := range p.states {
		n := 0
		for n < len(v.prev) && n < len(v.curr) && v.prev[n] == v.curr[n] {
			n++
		}
		v.label = strings.TrimRight(v.prev[:n], "_")
		used[v.label]++
	}
	for _, v := range p.states {
		if v.label == "" || used[v.label] > 1 {
			v.label = v.curr
		}
	}
	final := map[string]bool{}
	for _, v := range p.obs {
		final[v.vname] = true
	}
	for _, v := range p.states {
		if final[v.label] {
			for _, w := range p.states {
				w.label = w.curr
			}
			return
		}
		final[v.label] = true
	}
}
