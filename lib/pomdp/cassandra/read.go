package cassandra

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/filebuild"
)

// Cassandra's .pomdp format, as accepted by pomdp-solve's parser (see
// Read for the grammar).

type tokKind uint8

const (
	tEOF tokKind = iota
	tColon
	tStar
	tPlus
	tMinus
	tInt
	tFloat
	tWord
	tBad
)

type token struct {
	kind      tokKind
	text      string
	line, col int
}

// cassKeywords are the reserved words of the format; they cannot be names.
var cassKeywords = map[string]bool{
	"discount": true, "values": true, "states": true, "actions": true,
	"observations": true, "T": true, "O": true, "R": true, "uniform": true,
	"identity": true, "reward": true, "cost": true, "start": true,
	"include": true, "exclude": true, "reset": true,
}

func desc(t token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tBad:
		return fmt.Sprintf("unexpected character %q", t.text)
	}
	return strconv.Quote(t.text)
}

// lexer splits the input into the tokens of pomdp-solve's scanner: ":",
// "*", "+", "-", unsigned integers and floats, and words
// [A-Za-z][A-Za-z0-9_-]*. "#" starts a comment to the end of the line;
// any whitespace separates tokens.
type lexer struct {
	src       string // the whole input; token texts are substrings of it
	pos       int
	line, col int
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

func (l *lexer) adv(n int) {
	l.pos += n
	l.col += n
}

func (l *lexer) next() token {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.pos++
			l.line++
			l.col = 1
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.adv(1)
			continue
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.adv(1)
			}
			continue
		}
		break
	}
	t := token{line: l.line, col: l.col}
	if l.pos >= len(l.src) {
		t.kind = tEOF
		return t
	}
	start := l.pos
	c := l.src[l.pos]
	switch {
	case c == ':':
		t.kind = tColon
		l.adv(1)
	case c == '*':
		t.kind = tStar
		l.adv(1)
	case c == '+':
		t.kind = tPlus
		l.adv(1)
	case c == '-':
		t.kind = tMinus
		l.adv(1)
	case isLetter(c):
		t.kind = tWord
		l.adv(1)
		for l.pos < len(l.src) {
			d := l.src[l.pos]
			if !(isLetter(d) || isDigit(d) || d == '_' || d == '-') {
				break
			}
			l.adv(1)
		}
	case isDigit(c) || c == '.' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1]):
		t.kind = tInt
		for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
			l.adv(1)
		}
		if l.pos < len(l.src) && l.src[l.pos] == '.' {
			t.kind = tFloat
			l.adv(1)
			for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
				l.adv(1)
			}
		}
		if l.pos < len(l.src) && (l.src[l.pos] == 'e' || l.src[l.pos] == 'E') {
			k := l.pos + 1
			if k < len(l.src) && (l.src[k] == '+' || l.src[k] == '-') {
				k++
			}
			if k < len(l.src) && isDigit(l.src[k]) {
				t.kind = tFloat
				l.adv(k - l.pos)
				for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
					l.adv(1)
				}
			}
		}
	default:
		t.kind = tBad
		r, n := utf8.DecodeRuneInString(l.src[l.pos:])
		if r == utf8.RuneError {
			n = 1
		}
		l.adv(n)
	}
	t.text = l.src[start:l.pos]
	return t
}

// rewardStmt is one R: statement; a, s, s2, o are -1 for "*".
type rewardStmt struct {
	a, s, s2, o int
	kind        int // rSingle, rRow (values over o), rMatrix (values over (s', o))
	v           float64
	vals        []float64
}

const (
	rSingle = iota
	rRow
	rMatrix
)

type space struct {
	field    string // "states", "actions", "observations"
	noun     string // "state", "action", "observation"
	names    []string
	index    map[string]int
	declared int // line of the declaration, 0 if none
}

type cassParser struct {
	lx   lexer
	tok  token
	file string
	cfg  pomdp.ReadConfig
	work int64 // entries written or visited, bounded by cfg.maxEntries

	discount     float64
	discountLine int
	valuesLine   int
	cost         bool

	states, actions, obs space

	b0      []float64
	t, z    *filebuild.PMatrix
	rewards []rewardStmt

	// T:, O: and R: statements with a colon before their numbers (the
	// POMDPs.jl dialect), and the line of the first.
	dialectEntries, dialectLine int
}

// Read reads a POMDP in Tony Cassandra's .pomdp format, the
// format of pomdp-solve and of the classic example files. name is used in
// error messages (usually the file name) and, without directory and
// extension, as the model's Name.
//
// The grammar is pomdp-solve's (which differs from its 1999 documentation
// in two places, noted below). A file is a preamble, an optional start
// declaration, then any number of T:, O: and R: statements:
//
//	discount: 0.95              required; a number in [0, 1]
//	values: reward              required; "reward" or "cost" (costs are negated into rewards)
//	states: 3                   a count (names "0", "1", ...) or a list of names
//	actions: listen open-left   likewise
//	observations: 2             likewise
//
//	start: 0.5 0.5              |S| probabilities; or "start: uniform";
//	                            or "start: name" (a point mass on a named state);
//	start include: s1 s2        uniform over the listed states (names or numbers, or *);
//	start exclude: s3           uniform over the other states.
//	                            Without start, the initial belief is uniform.
//	                            (A bare number, "start: 5", is a one-entry probability
//	                            vector, not a state: write "start include: 5".)
//
//	T: a : s : s' p             one entry
//	T: a : s   p_1 ... p_|S|    a row; or "uniform"; or "reset" (the row becomes b0)
//	T: a       |S|×|S| numbers  the whole matrix; or "uniform" or "identity"
//	O: a : s' : o p             one entry of Z(s', a, o)
//	O: a : s'  p_1 ... p_|O|    a row (no colon before the row); or "uniform"
//	O: a       |S|×|O| numbers  the whole matrix; or "uniform"
//	R: a : s : s' : o v         one reward
//	R: a : s : s'  v_1 ... v_|O|
//	R: a : s   |S|×|O| numbers  rows s', columns o
//
// Actions, states and observations are written by name, by number (counted
// from 0, also when the space has names) or as "*", meaning all of them.
// Tokens are separated by any whitespace, so a row or matrix may span
// lines; "#" starts a comment; keywords are case-sensitive and reserved;
// names match [A-Za-z][A-Za-z0-9_-]*. Probabilities are unsigned numbers;
// rewards and the discount may carry a sign. Later statements override
// earlier ones entry by entry, and entries never given are 0.
//
// The POMDPs.jl dialect. POMDPFiles.jl's writer (POMDPs.jl) puts a colon
// before the number of an entry, "T: listen : tiger-left : tiger-left : 1.0",
// "O: a : s' : o : p", "R: a : s : s' : o : v", which pomdp-solve's grammar
// does not have. Read reads that colon in every form: before the
// number of a single entry, and before the numbers (or the keyword) of a
// row or matrix ("T: a : s : 0.5 0.5", "T: a : identity", "R: a : s :
// s' : 1.0 2.0"). Where the grammar is ambiguous pomdp-solve's reading
// wins: after "T: a : s :" an integer is a state number, so a row in the
// dialect must start with a number written with a decimal point or a sign
// (POMDPs.jl writes "1.0"). Describe reports which dialect a file used and
// how many statements had the colon.
//
// Renamed names. Comments at the top of the file (before the first line
// that is not blank or a comment) of the form
//
//	# pomdpq-rename observations R_ "R"
//
// (see Rename), which Write writes for names the format cannot
// hold, rename the written name back to the original.
//
// Every row of T and Z and the initial belief must sum to 1 within
// FileRowTol (1e-5, as in pomdp-solve); rows off by more than RowTol are
// then divided by their sum so that the model passes Validate. A row that
// is never specified is an error.
//
// Rewards. The file gives R(a, s, s', o). The model's R is the expected
// immediate reward
//
//	R(s, a) = Σ_{s'} T(s, a, s') Σ_o Z(s', a, o) R(a, s, s', o),
//
// the reward pomdp-solve uses and every value of this module needs. When
// R(a, s, s', o) takes a single value v on all (s', o) with
// T(s, a, s')·Z(s', a, o) > 0 (the usual "R: a : s : * : * v"), R(s, a) is
// v exactly; otherwise the values are kept in Model.Rewards (see
// RewardTable), unless the ExpectedRewards option asks for the expectation
// only. With "values: cost" every value is negated, so the model always
// holds rewards.
//
// Errors are *ParseError values naming the file, line and column and what
// was expected, for example
//
//	pomdp: tiger.pomdp:12:4: T: expected a probability, got "abc"
//
// A row that does not sum to 1 gives a *ParseError naming the last line
// that set the row and wrapping an *EntryError for the row (action, state).
// Files larger than the limits set by MaxSize and MaxEntries give a
// *ParseError wrapping ErrTooLarge. The Lenient option accepts the
// deviations found in some published files (see Lenient).
//
// Reading takes time linear in the file size plus the number of matrix
// entries the statements expand to, plus the work of the reward reduction
// (at most the (s', o) support of each (s, a) times the number of matching
// R: statements).
func Read(r io.Reader, name string, opts ...pomdp.ReadOption) (*pomdp.Model, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, &pomdp.ParseError{File: name, Msg: "read failed: " + err.Error(), Err: err}
	}
	p := &cassParser{
		lx:      lexer{src: string(src), line: 1, col: 1},
		file:    name,
		cfg:     pomdp.NewReadConfig(opts),
		states:  space{field: "states", noun: "state"},
		actions: space{field: "actions", noun: "action"},
		obs:     space{field: "observations", noun: "observation"},
	}
	if src := p.cfg.Source; src != nil {
		*src = pomdp.Source{Format: "pomdp"}
	}
	m, err := p.parse()
	if err != nil {
		return nil, err
	}
	renames, lines, err := headerRenames(p.lx.src, name)
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
	m.Name = filebuild.ModelName(name)
	if src := p.cfg.Source; src != nil {
		src.Dialect = pomdp.DialectPOMDPSolve
		if p.dialectEntries > 0 {
			src.Dialect = pomdp.DialectPOMDPsJL
		}
		src.DialectEntries, src.DialectLine = p.dialectEntries, p.dialectLine
		src.Renames = renames
	}
	return m, nil
}

func (p *cassParser) advance() { p.tok = p.lx.next() }

func (p *cassParser) errAt(t token, field, format string, args ...any) *pomdp.ParseError {
	return &pomdp.ParseError{File: p.file, Line: t.line, Col: t.col, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (p *cassParser) isKeyword(t token) bool { return t.kind == tWord && cassKeywords[t.text] }

func (p *cassParser) isName(t token) bool { return t.kind == tWord && !cassKeywords[t.text] }

func (p *cassParser) isKW(t token, kw string) bool { return t.kind == tWord && t.text == kw }

func (p *cassParser) note(t token, format string, args ...any) {
	if p.cfg.Note != nil {
		p.cfg.Note(p.errAt(t, "", format, args...).Error())
	}
}

func (p *cassParser) expectColon(field string) error {
	if p.tok.kind != tColon {
		return p.errAt(p.tok, field, "expected \":\", got %s", desc(p.tok))
	}
	p.advance()
	return nil
}

// spend adds n units of work to the budget and fails when it is exhausted.
func (p *cassParser) spend(t token, field string, n int64) *pomdp.ParseError {
	if n < 0 || n > p.cfg.MaxEntries-p.work {
		p.work = p.cfg.MaxEntries
		e := p.errAt(t, field, "the file expands to more than %d matrix entries (see MaxEntries)", p.cfg.MaxEntries)
		e.Err = pomdp.ErrTooLarge
		return e
	}
	p.work += n
	return nil
}

func (p *cassParser) parse() (*pomdp.Model, error) {
	p.advance()
	// Preamble.
preamble:
	for p.tok.kind == tWord {
		var err error
		switch p.tok.text {
		case "discount":
			err = p.parseDiscount()
		case "values":
			err = p.parseValues()
		case "states":
			err = p.parseSpace(&p.states)
		case "actions":
			err = p.parseSpace(&p.actions)
		case "observations":
			err = p.parseSpace(&p.obs)
		default:
			break preamble
		}
		if err != nil {
			return nil, err
		}
	}
	if err := p.checkPreamble(); err != nil {
		return nil, err
	}
	nS, nA, nO := len(p.states.names), len(p.actions.names), len(p.obs.names)
	p.t = filebuild.NewPMatrix(nA, nS, nS)
	p.z = filebuild.NewPMatrix(nA, nS, nO)
	// Start.
	if p.isKW(p.tok, "start") {
		if err := p.parseStart(); err != nil {
			return nil, err
		}
	} else {
		p.b0 = pomdp.Uniform(nS)
	}
	// Parameters.
	for p.tok.kind != tEOF {
		t := p.tok
		var err error
		switch {
		case p.isKW(t, "T"):
			err = p.parseT()
		case p.isKW(t, "O"):
			err = p.parseO()
		case p.isKW(t, "R"):
			err = p.parseR()
		case p.isKW(t, "start"):
			err = p.errAt(t, "start", "must come after the preamble and before the first T:, O: or R: statement, and only once")
		case p.isKW(t, "discount") || p.isKW(t, "values") || p.isKW(t, "states") || p.isKW(t, "actions") || p.isKW(t, "observations"):
			err = p.errAt(t, t.text, "must come before start: and the T:, O: and R: statements")
		default:
			err = p.errAt(t, "", "expected T:, O: or R:, got %s", desc(t))
		}
		if err != nil {
			return nil, err
		}
	}
	return p.build()
}

func (p *cassParser) parseDiscount() error {
	kw := p.tok
	if p.discountLine != 0 {
		return p.errAt(kw, "discount", "declared twice (first on line %d)", p.discountLine)
	}
	p.advance()
	if err := p.expectColon("discount"); err != nil {
		return err
	}
	t := p.tok
	v, err := p.number("discount")
	if err != nil {
		return err
	}
	if !(v >= 0 && v <= 1) {
		return p.errAt(t, "discount", "%v is outside [0, 1]", v)
	}
	p.discount, p.discountLine = v, kw.line
	return nil
}

func (p *cassParser) parseValues() error {
	kw := p.tok
	if p.valuesLine != 0 {
		return p.errAt(kw, "values", "declared twice (first on line %d)", p.valuesLine)
	}
	p.advance()
	if err := p.expectColon("values"); err != nil {
		return err
	}
	t := p.tok
	switch {
	case p.isKW(t, "reward"):
	case p.isKW(t, "cost"):
		p.cost = true
	case p.cfg.Lenient && t.kind == tWord && (t.text == "rewards" || t.text == "costs"):
		p.cost = t.text == "costs"
		p.note(t, "values: read %q as %q (lenient)", t.text, t.text[:len(t.text)-1])
	case t.kind == tWord && (t.text == "rewards" || t.text == "costs"):
		return p.errAt(t, "values", "expected reward or cost, got %s (pomdp-solve has no keyword %q; the Lenient option reads it as %q)", desc(t), t.text, t.text[:len(t.text)-1])
	default:
		return p.errAt(t, "values", "expected reward or cost, got %s", desc(t))
	}
	p.advance()
	p.valuesLine = kw.line
	return nil
}

func (p *cassParser) parseSpace(sp *space) error {
	kw := p.tok
	if sp.declared != 0 {
		return p.errAt(kw, sp.field, "declared twice (first on line %d)", sp.declared)
	}
	p.advance()
	if err := p.expectColon(sp.field); err != nil {
		return err
	}
	t := p.tok
	switch {
	case t.kind == tInt:
		n, err := strconv.Atoi(t.text)
		if err != nil || n > p.cfg.MaxSize {
			e := p.errAt(t, sp.field, "%s %s exceed the limit of %d (see MaxSize)", t.text, sp.field, p.cfg.MaxSize)
			e.Err = pomdp.ErrTooLarge
			return e
		}
		if n == 0 {
			return p.errAt(t, sp.field, "need at least one %s", sp.noun)
		}
		sp.names = make([]string, n)
		for i := range sp.names {
			sp.names[i] = strconv.Itoa(i)
		}
		p.advance()
	case p.isName(t):
		sp.index = make(map[string]int)
		for p.isName(p.tok) {
			if j, ok := sp.index[p.tok.text]; ok {
				return p.errAt(p.tok, sp.field, "name %q used twice (%s %d and %d)", p.tok.text, sp.noun, j, len(sp.names))
			}
			if len(sp.names) >= p.cfg.MaxSize {
				e := p.errAt(p.tok, sp.field, "more than %d %s (see MaxSize)", p.cfg.MaxSize, sp.field)
				e.Err = pomdp.ErrTooLarge
				return e
			}
			sp.index[p.tok.text] = len(sp.names)
			sp.names = append(sp.names, p.tok.text)
			p.advance()
		}
		if p.tok.kind == tInt || p.tok.kind == tFloat || p.tok.kind == tMinus || p.tok.kind == tPlus {
			return p.errAt(p.tok, sp.field, "expected a name (names start with a letter), got %s", desc(p.tok))
		}
	case p.isKeyword(t):
		return p.errAt(t, sp.field, "expected a count or a list of names, got the keyword %s (keywords cannot be names)", desc(t))
	default:
		return p.errAt(t, sp.field, "expected a count or a list of names, got %s", desc(t))
	}
	sp.declared = kw.line
	return nil
}

func (p *cassParser) checkPreamble() error {
	t := p.tok
	if !(t.kind == tEOF || p.isKW(t, "start") || p.isKW(t, "T") || p.isKW(t, "O") || p.isKW(t, "R")) {
		return p.errAt(t, "", "expected a preamble line (discount:, values:, states:, actions:, observations:), start:, or a T:, O: or R: statement, got %s", desc(t))
	}
	for _, sp := range []*space{&p.states, &p.actions, &p.obs} {
		if sp.declared == 0 {
			return p.errAt(t, sp.field, "missing declaration (\"%s:\" must come before start: and the T:, O: and R: statements)", sp.field)
		}
	}
	if p.discountLine == 0 {
		if !p.cfg.Lenient {
			return p.errAt(t, "discount", "missing declaration (pomdp-solve requires a \"discount:\" line; the Lenient option reads the model without a discount)")
		}
		p.note(t, "no discount: line; the model has no discount (lenient)")
	}
	if p.valuesLine == 0 {
		if !p.cfg.Lenient {
			return p.errAt(t, "values", "missing declaration (pomdp-solve requires \"values: reward\" or \"values: cost\"; the Lenient option assumes reward)")
		}
		p.note(t, "no values: line; read as \"values: reward\" (lenient)")
	}
	nS, nA := int64(len(p.states.names)), int64(len(p.actions.names))
	if nS*nA > p.cfg.MaxEntries {
		e := p.errAt(t, "", "%d states × %d actions exceed the limit of %d entries (see MaxEntries)", nS, nA, p.cfg.MaxEntries)
		e.Err = pomdp.ErrTooLarge
		return e
	}
	return nil
}

// index reads a state, action or observation reference: a name, a number,
// or "*" (returned as -1) when wild is true.
func (p *cassParser) index(sp *space, field string, wild bool) (int, error) {
	t := p.tok
	switch {
	case t.kind == tStar && wild:
		p.advance()
		return -1, nil
	case t.kind == tInt:
		i, err := strconv.Atoi(t.text)
		if err != nil || i >= len(sp.names) {
			return 0, p.errAt(t, field, "%s %s out of range (%d %s, numbered from 0)", sp.noun, t.text, len(sp.names), sp.field)
		}
		p.advance()
		return i, nil
	case p.isName(t):
		i, ok := sp.index[t.text]
		if !ok {
			return 0, p.errAt(t, field, "unknown %s %q", sp.noun, t.text)
		}
		p.advance()
		return i, nil
	}
	star := ", a number or *"
	if !wild {
		star = " or a number"
	}
	return 0, p.errAt(t, field, "expected %s %s (a name%s), got %s", article(sp.noun), sp.noun, star, desc(t))
}

func article(noun string) string {
	switch noun[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an"
	}
	return "a"
}

// prob reads an unsigned probability.
func (p *cassParser) prob(field string) (float64, error) {
	t := p.tok
	switch t.kind {
	case tInt, tFloat:
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil || math.IsInf(v, 0) {
			return 0, p.errAt(t, field, "number %s is out of range", t.text)
		}
		if v > 1+pomdp.FileRowTol {
			return 0, p.errAt(t, field, "probability %s is greater than 1", t.text)
		}
		p.advance()
		return v, nil
	case tMinus:
		return 0, p.errAt(t, field, "expected a probability, got a negative number")
	}
	return 0, p.errAt(t, field, "expected a probability, got %s", desc(t))
}

// number reads a number with an optional sign.
func (p *cassParser) number(field string) (float64, error) {
	t := p.tok
	neg := false
	if t.kind == tPlus || t.kind == tMinus {
		neg = t.kind == tMinus
		p.advance()
		if p.tok.kind != tInt && p.tok.kind != tFloat {
			return 0, p.errAt(p.tok, field, "expected a number after %q, got %s", t.text, desc(p.tok))
		}
	}
	u := p.tok
	if u.kind != tInt && u.kind != tFloat {
		return 0, p.errAt(u, field, "expected a number, got %s", desc(u))
	}
	v, err := strconv.ParseFloat(u.text, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, p.errAt(u, field, "number %s is out of range", u.text)
	}
	p.advance()
	if neg {
		v = -v
	}
	return v, nil
}

func isNumStart(k tokKind) bool { return k == tInt || k == tFloat || k == tPlus || k == tMinus }

// values reads exactly want numbers (probabilities when probs is true).
// what describes the shape for messages, e.g. "a row of 2".
func (p *cassParser) values(field string, want int, probs bool, what string) ([]float64, error) {
	start := p.tok
	vals := make([]float64, 0, min(want, 1<<16))
	for isNumStart(p.tok.kind) {
		if len(vals) == want {
			return nil, p.errAt(p.tok, field, "expected %d numbers (%s), got more: %s", want, what, desc(p.tok))
		}
		var v float64
		var err error
		if probs {
			v, err = p.prob(field)
		} else {
			v, err = p.number(field)
		}
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	if len(vals) < want {
		if t := p.tok; !(t.kind == tEOF || p.isKW(t, "T") || p.isKW(t, "O") || p.isKW(t, "R")) && (len(vals) > 0 || t.kind != tWord || !cassKeywords[t.text]) {
			kind := "a number"
			if probs {
				kind = "a probability"
			}
			return nil, p.errAt(t, field, "expected %s (entry %d of %d: %s), got %s", kind, len(vals)+1, want, what, desc(t))
		}
		if len(vals) == 0 {
			kind := "numbers"
			if probs {
				kind = "probabilities"
			}
			return nil, p.errAt(start, field, "expected %d %s (%s), got %s", want, kind, what, desc(start))
		}
		return nil, p.errAt(p.tok, field, "expected %d numbers (%s), got only %d before %s", want, what, len(vals), desc(p.tok))
	}
	return vals, nil
}

func (p *cassParser) parseStart() error {
	kw := p.tok
	nS := len(p.states.names)
	p.advance()
	mode := ""
	if p.isKW(p.tok, "include") || p.isKW(p.tok, "exclude") {
		mode = p.tok.text
		p.advance()
	} else if p.tok.kind != tColon {
		return p.errAt(p.tok, "start", "expected \":\", \"include:\" or \"exclude:\", got %s", desc(p.tok))
	}
	field := "start"
	if mode != "" {
		field = "start " + mode
	}
	if err := p.expectColon(field); err != nil {
		return err
	}
	if err := p.spend(kw, field, int64(nS)); err != nil {
		return err
	}
	t := p.tok
	if mode != "" {
		in := make([]bool, nS)
		count := 0
		for p.tok.kind == tInt || p.tok.kind == tStar || p.isName(p.tok) {
			s, err := p.index(&p.states, field, true)
			if err != nil {
				return err
			}
			lo, hi := expand(s, nS)
			for i := lo; i < hi; i++ {
				if !in[i] {
					in[i] = true
					count++
				}
			}
		}
		if t == p.tok {
			return p.errAt(t, field, "expected a list of states (names, numbers or *), got %s", desc(t))
		}
		if mode == "exclude" {
			for i := range in {
				in[i] = !in[i]
			}
			count = nS - count
			if count == 0 {
				return p.errAt(t, field, "excludes every state")
			}
		}
		p.b0 = make([]float64, nS)
		for i := range in {
			if in[i] {
				p.b0[i] = 1 / float64(count)
			}
		}
		return nil
	}
	switch {
	case p.isKW(t, "uniform"):
		p.advance()
		p.b0 = pomdp.Uniform(nS)
		return nil
	case p.isKW(t, "reset"):
		return p.errAt(t, field, "reset is only valid in a transition row (T: a : s reset)")
	case p.isName(t):
		s, err := p.index(&p.states, field, false)
		if err != nil {
			return err
		}
		p.b0 = make([]float64, nS)
		p.b0[s] = 1
		return nil
	}
	what := fmt.Sprintf("one per state; a single state is written \"start include: %s\"", t.text)
	if t.kind != tInt {
		what = "one per state"
	}
	b, err := p.values(field, nS, true, what)
	if err != nil {
		return err
	}
	if sum, ok := filebuild.NormalizeRow(b); !ok {
		return &pomdp.ParseError{File: p.file, Line: t.line, Col: t.col, Field: field,
			Msg: fmt.Sprintf("probabilities sum to %.9g, want 1 (within %g)", sum, pomdp.FileRowTol),
			Err: &pomdp.EntryError{Model: p.file, Field: "b0", Action: -1, State: -1, Next: -1, Obs: -1, Msg: fmt.Sprintf("sums to %.9g", sum)}}
	}
	p.b0 = b
	return nil
}

// expand returns the list of indices for i (all of n when i is -1).
func expand(i, n int) (lo, hi int) {
	if i < 0 {
		return 0, n
	}
	return i, i + 1
}

func span(i, n int) int64 {
	if i < 0 {
		return int64(n)
	}
	return 1
}

// dialectColon is called on a ":" where pomdp-solve's grammar expects a
// name, a number or "*" (of a state or observation) and reports whether
// the statement is in the POMDPs.jl dialect instead: the ":" is followed by
// a token that cannot be such a reference, a number with a decimal point
// or exponent or a sign, or one of the keywords kws ("uniform", …), and
// thus starts the numbers of a row or matrix. It then consumes the ":" and
// counts the statement kw. An integer after the ":" is a reference, as
// pomdp-solve reads it.
func (p *cassParser) dialectColon(kw token, kws ...string) bool {
	save := p.lx
	next := p.lx.next()
	dialect := next.kind == tFloat || next.kind == tMinus || next.kind == tPlus
	for _, k := range kws {
		dialect = dialect || p.isKW(next, k)
	}
	p.lx = save
	if !dialect {
		return false
	}
	p.advance()
	p.markDialect(kw)
	return true
}

// entryColon consumes the ":" that the POMDPs.jl dialect writes before the
// number of a single entry ("T: a : s : s' : p"), if there is one.
func (p *cassParser) entryColon(kw token) {
	if p.tok.kind == tColon {
		p.advance()
		p.markDialect(kw)
	}
}

// markDialect counts statement kw as written in the POMDPs.jl dialect.
func (p *cassParser) markDialect(kw token) {
	if p.dialectEntries == 0 {
		p.dialectLine = kw.line
	}
	p.dialectEntries++
}

func (p *cassParser) parseT() error {
	kw := p.tok
	nS, nA := len(p.states.names), len(p.actions.names)
	p.advance()
	if err := p.expectColon("T"); err != nil {
		return err
	}
	a, err := p.index(&p.actions, "T", true)
	if err != nil {
		return err
	}
	a0, a1 := expand(a, nA)
	line := kw.line
	if p.tok.kind != tColon || p.dialectColon(kw, "identity", "uniform", "reset") {
		// Whole matrix.
		return p.parseTMatrix(kw, a, a0, a1)
	}
	p.advance()
	s, err := p.index(&p.states, "T", true)
	if err != nil {
		return err
	}
	s0, s1 := expand(s, nS)
	if p.tok.kind != tColon || p.dialectColon(kw, "uniform", "reset", "identity") {
		// One row.
		t := p.tok
		if err := p.spend(kw, "T", span(a, nA)*span(s, nS)*int64(nS)); err != nil {
			return err
		}
		var row []float64
		switch {
		case p.isKW(t, "uniform"):
			p.advance()
			row = pomdp.Uniform(nS)
		case p.isKW(t, "reset"):
			p.advance()
			row = p.b0
		case p.isKW(t, "identity"):
			return p.errAt(t, "T", "identity is only valid for a whole matrix (T: a identity)")
		default:
			row, err = p.values("T", nS, true, fmt.Sprintf("a row of %d, \"uniform\" or \"reset\"", nS))
			if err != nil {
				return err
			}
		}
		for a := a0; a < a1; a++ {
			for s := s0; s < s1; s++ {
				p.t.SetRow(a, s, row, line)
			}
		}
		return nil
	}
	p.advance()
	s2, err := p.index(&p.states, "T", true)
	if err != nil {
		return err
	}
	p.entryColon(kw)
	v, err := p.prob("T")
	if err != nil {
		return err
	}
	if err := p.spend(kw, "T", span(a, nA)*span(s, nS)*span(s2, nS)); err != nil {
		return err
	}
	j0, j1 := expand(s2, nS)
	for a := a0; a < a1; a++ {
		for s := s0; s < s1; s++ {
			for j := j0; j < j1; j++ {
				p.t.Set(a, s, j, v, line)
			}
		}
	}
	return nil
}

// parseTMatrix reads the rest of a "T: a" statement, whose matrix follows
// ("identity", "uniform" or |S|×|S| numbers), for the actions a0 ≤ a < a1
// (a is the action index or the wildcard).
func (p *cassParser) parseTMatrix(kw token, a, a0, a1 int) error {
	nS, nA := len(p.states.names), len(p.actions.names)
	line := kw.line
	t := p.tok
	if err := p.spend(kw, "T", span(a, nA)*int64(nS)*int64(nS)); err != nil {
		return err
	}
	switch {
	case p.isKW(t, "identity"):
		p.advance()
		for a := a0; a < a1; a++ {
			for s := 0; s < nS; s++ {
				p.t.SetUnit(a, s, s, line)
			}
		}
		return nil
	case p.isKW(t, "uniform"):
		p.advance()
		u := pomdp.Uniform(nS)
		for a := a0; a < a1; a++ {
			for s := 0; s < nS; s++ {
				p.t.SetRow(a, s, u, line)
			}
		}
		return nil
	case p.isKW(t, "reset"):
		return p.errAt(t, "T", "reset is only valid in a row (T: a : s reset)")
	}
	vals, err := p.values("T", nS*nS, true, fmt.Sprintf("a %d×%d matrix, \"uniform\" or \"identity\"", nS, nS))
	if err != nil {
		return err
	}
	for a := a0; a < a1; a++ {
		for s := 0; s < nS; s++ {
			p.t.SetRow(a, s, vals[s*nS:(s+1)*nS], line)
		}
	}
	return nil
}

func (p *cassParser) parseO() error {
	kw := p.tok
	nS, nA, nO := len(p.states.names), len(p.actions.names), len(p.obs.names)
	p.advance()
	if err := p.expectColon("O"); err != nil {
		return err
	}
	a, err := p.index(&p.actions, "O", true)
	if err != nil {
		return err
	}
	a0, a1 := expand(a, nA)
	line := kw.line
	if p.tok.kind != tColon || p.dialectColon(kw, "uniform", "reset", "identity") {
		t := p.tok
		if err := p.spend(kw, "O", span(a, nA)*int64(nS)*int64(nO)); err != nil {
			return err
		}
		switch {
		case p.isKW(t, "uniform"):
			p.advance()
			u := pomdp.Uniform(nO)
			for a := a0; a < a1; a++ {
				for s := 0; s < nS; s++ {
					p.z.SetRow(a, s, u, line)
				}
			}
			return nil
		case p.isKW(t, "reset"), p.isKW(t, "identity"):
			return p.errAt(t, "O", "%s is not valid for observations (only for transitions)", t.text)
		}
		vals, err := p.values("O", nS*nO, true, fmt.Sprintf("a %d×%d matrix or \"uniform\"", nS, nO))
		if err != nil {
			return err
		}
		for a := a0; a < a1; a++ {
			for s := 0; s < nS; s++ {
				p.z.SetRow(a, s, vals[s*nO:(s+1)*nO], line)
			}
		}
		return nil
	}
	p.advance()
	s, err := p.index(&p.states, "O", true)
	if err != nil {
		return err
	}
	s0, s1 := expand(s, nS)
	if p.tok.kind != tColon || p.dialectColon(kw, "uniform", "reset", "identity") {
		t := p.tok
		if err := p.spend(kw, "O", span(a, nA)*span(s, nS)*int64(nO)); err != nil {
			return err
		}
		var row []float64
		switch {
		case p.isKW(t, "uniform"):
			p.advance()
			row = pomdp.Uniform(nO)
		case p.isKW(t, "reset"), p.isKW(t, "identity"):
			return p.errAt(t, "O", "%s is not valid for observations (only for transitions)", t.text)
		default:
			row, err = p.values("O", nO, true, fmt.Sprintf("a row of %d or \"uniform\"", nO))
			if err != nil {
				return err
			}
		}
		for a := a0; a < a1; a++ {
			for s := s0; s < s1; s++ {
				p.z.SetRow(a, s, row, line)
			}
		}
		return nil
	}
	p.advance()
	o, err := p.index(&p.obs, "O", true)
	if err != nil {
		return err
	}
	p.entryColon(kw)
	v, err := p.prob("O")
	if err != nil {
		return err
	}
	if err := p.spend(kw, "O", span(a, nA)*span(s, nS)*span(o, nO)); err != nil {
		return err
	}
	o0, o1 := expand(o, nO)
	for a := a0; a < a1; a++ {
		for s := s0; s < s1; s++ {
			for j := o0; j < o1; j++ {
				p.z.Set(a, s, j, v, line)
			}
		}
	}
	return nil
}

func (p *cassParser) parseR() error {
	kw := p.tok
	nS, nO := len(p.states.names), len(p.obs.names)
	p.advance()
	if err := p.expectColon("R"); err != nil {
		return err
	}
	st := rewardStmt{s2: -1, o: -1}
	var err error
	if st.a, err = p.index(&p.actions, "R", true); err != nil {
		return err
	}
	if err := p.expectColon("R"); err != nil {
		return err
	}
	if st.s, err = p.index(&p.states, "R", true); err != nil {
		return err
	}
	if p.tok.kind != tColon || p.dialectColon(kw) {
		st.kind = rMatrix
		if err := p.spend(kw, "R", int64(nS)*int64(nO)); err != nil {
			return err
		}
		st.vals, err = p.values("R", nS*nO, false, fmt.Sprintf("a %d×%d matrix over end states and observations", nS, nO))
	} else {
		p.advance()
		if st.s2, err = p.index(&p.states, "R", true); err != nil {
			return err
		}
		if p.tok.kind != tColon || p.dialectColon(kw) {
			st.kind = rRow
			if err := p.spend(kw, "R", int64(nO)); err != nil {
				return err
			}
			st.vals, err = p.values("R", nO, false, fmt.Sprintf("a row of %d over observations", nO))
		} else {
			p.advance()
			if st.o, err = p.index(&p.obs, "R", true); err != nil {
				return err
			}
			st.kind = rSingle
			p.entryColon(kw)
			st.v, err = p.number("R")
		}
	}
	if err != nil {
		return err
	}
	if p.cost { // 0 - v, not -v, so that a cost of 0 is the reward +0
		st.v = 0 - st.v
		for k := range st.vals {
			st.vals[k] = 0 - st.vals[k]
		}
	}
	p.rewards = append(p.rewards, st)
	return nil
}

func (p *cassParser) build() (*pomdp.Model, error) {
	nS, nA := len(p.states.names), len(p.actions.names)
	m := &pomdp.Model{
		States: p.states.names, Actions: p.actions.names, Observations: p.obs.names,
		Discount: p.discount, HasDiscount: p.discountLine != 0,
		B0: p.b0,
	}
	for a := 0; a < nA; a++ {
		t, re := p.t.Build(a)
		if re != nil {
			return nil, re.ParseError(p.file, "T", p.states.names, p.actions.names)
		}
		z, re := p.z.Build(a)
		if re != nil {
			return nil, re.ParseError(p.file, "O", p.states.names, p.actions.names)
		}
		m.T = append(m.T, t)
		m.Z = append(m.Z, z)
	}
	m.R = make([][]float64, nS)
	for s := range m.R {
		m.R[s] = make([]float64, nA)
	}
	if err := p.reduceRewards(m); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, &pomdp.ParseError{File: p.file, Msg: strings.TrimPrefix(err.Error(), "pomdp: "), Err: err}
	}
	return m, nil
}

// reduceRewards sets m.R[s][a] = Σ_{s'} T(s,a,s') Σ_o Z(s',a,o) R(a,s,s',o)
// where R(a,s,s',o) is given by the last R: statement matching it (0 if
// none), and keeps R(a,s,s',o) in m.Rewards where it is not one value.
func (p *cassParser) reduceRewards(m *pomdp.Model) error {
	if len(p.rewards) == 0 {
		return nil
	}
	nS, nA, nO := len(m.States), len(m.Actions), len(m.Observations)
	// Bucket the statements by their (action, state) pattern; each bucket
	// lists statement numbers in increasing order.
	type key struct{ a, s int }
	buckets := make(map[key][]int)
	for i, st := range p.rewards {
		k := key{st.a, st.s}
		buckets[k] = append(buckets[k], i)
	}
	var cands []int
	var noLine token
	rb := filebuild.NewRewardBuilder(m, !p.cfg.Expected)
	for a := 0; a < nA; a++ {
		for s := 0; s < nS; s++ {
			// Merge the four matching buckets, latest statement first.
			lists := [4][]int{buckets[key{a, s}], buckets[key{a, -1}], buckets[key{-1, s}], buckets[key{-1, -1}]}
			cands = cands[:0]
			for {
				best, bi := -1, -1
				for k, l := range lists {
					if len(l) > 0 && l[len(l)-1] > best {
						best, bi = l[len(l)-1], k
					}
				}
				if bi < 0 {
					break
				}
				lists[bi] = lists[bi][:len(lists[bi])-1]
				cands = append(cands, best)
			}
			if len(cands) == 0 {
				continue
			}
			if err := p.spend(noLine, "R", int64(len(cands))); err != nil {
				err.Msg = fmt.Sprintf("reducing the rewards visits more than %d entries (see MaxEntries)", p.cfg.MaxEntries)
				return err
			}
			if top := &p.rewards[cands[0]]; top.kind == rSingle && top.s2 < 0 && top.o < 0 {
				m.R[s][a] = top.v // constant over every (s', o)
				continue
			}
			var err *pomdp.ParseError
			rb.Row(s, a, func(s2, o int) float64 {
				if err != nil {
					return 0 // over budget: the row is refused below
				}
				r, visited := p.resolve(cands, s2, o, nO)
				err = p.spend(noLine, "R", int64(visited))
				return r
			})
			if err != nil {
				err.Msg = fmt.Sprintf("reducing the rewards visits more than %d entries (see MaxEntries)", p.cfg.MaxEntries)
				return err
			}
		}
	}
	filebuild.RewardsDone(&p.cfg, rb)
	return nil
}

// resolve returns R(a, s, s2, o) from the latest matching statement among
// cands (already restricted to a and s), and how many statements it looked at.
func (p *cassParser) resolve(cands []int, s2, o, nO int) (float64, int) {
	for n, ci := range cands {
		st := &p.rewards[ci]
		if st.s2 >= 0 && st.s2 != s2 {
			continue
		}
		switch st.kind {
		case rSingle:
			if st.o >= 0 && st.o != o {
				continue
			}
			return st.v, n + 1
		case rRow:
			return st.vals[o], n + 1
		default:
			return st.vals[s2*nO+o], n + 1
		}
	}
	return 0, len(cands)
}
