package pomdpx

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/filebuild"
)

// The variable names Write uses: those of SARSOP's pomdpconvert.
const (
	pxStatePrev = "state_0"
	pxStateCurr = "state_1"
	pxObsVar    = "obs_sensor"
	pxActionVar = "action_agent"
	pxRewardVar = "reward_agent"
	// pxRewardDetail is the second reward variable, written for a model
	// with a reward table (Model.Rewards): its Func gives R(s, a, s', o)
	// on the table's pairs, reward_agent's gives R(s, a) on the others.
	pxRewardDetail = "reward_detail"
)

// Write writes m in the POMDPX format as a flat model, one state
// variable (as SARSOP's pomdpconvert writes .pomdp files), so that
// Read returns the same model: the same names, T, Z, R, b0 and
// discount, bit for bit (numbers are written in strconv's shortest
// round-tripping form). A model without a discount is written with
// <Discount>1</Discount> (the format requires one), the only difference
// after a round trip, as for cassandra.Write.
//
// The variables are state_0/state_1, obs_sensor, action_agent and
// reward_agent. A space whose names are SARSOP's implicit names (s0, s1, …
// for states, o0, … for observations, a0, … for actions) is written as
// <NumValues>, otherwise as <ValueEnum>, XML-escaped. A name the format
// cannot hold as a value (empty, "*" or "-", the wildcards of <Instance>,
// or with white space or a character XML cannot hold) is written under
// another name chosen by SafeNames, as cassandra.Write does ("two words"
// becomes "two_words"), and the renames are listed in comments before the
// root element,
//
//	<!-- pomdpq-rename states two_words "two words" -->
//
// which Read reads to restore the original names; other readers see
// an ordinary file with the written names. Renames returns the
// renames without writing. The model's name is the id of <pomdpx> and its
// <Description>.
//
// Each action's kernel is written in the smallest of the forms the format
// offers: "identity"; one distribution for every row ("a * -"); the whole
// matrix ("a - -"); or row by row, each row as single entries
// ("a s s'") or as a list ("a s -"). Rewards R(s, a) are written per
// action as "a *" when constant, else as a list over states or single
// entries, zeros omitted. A model with a reward table (Model.Rewards) has a
// second reward variable, reward_detail, whose Func of action_agent,
// state_0, state_1 and obs_sensor holds the table's non-zero entries, one
// <Entry> each, while reward_agent is 0 on the table's pairs: the sum, the
// file's reward, is R(s, a, s', o), and Read gives back the same
// table and the same R. The file size is O(nnz(T) + nnz(Z) + |S|·|A|) and
// never O(|S|²) unless a kernel is dense.
//
// It returns the first write error. It does not validate m.
func Write(w io.Writer, m *pomdp.Model) error {
	sp, renames, err := pomdpxNames(m)
	if err != nil {
		return err
	}
	states, actions, obs := sp[0], sp[1], sp[2]
	pw := &pxWriter{w: bufio.NewWriterSize(w, 1<<16)}
	pw.header(m, renames)
	pw.variables(m, states, actions, obs)
	pw.belief(m, states)
	pw.s("<StateTransitionFunction>\n<CondProb>\n<Var>" + pxStateCurr + "</Var>\n<Parent>" + pxActionVar + " " + pxStatePrev + "</Parent>\n<Parameter type=\"TBL\">\n")
	for a := range m.Actions {
		pw.kernel(actions.tokens[a], pomdp.SparseKernel(m.T[a]), states.tokens, states.tokens)
	}
	pw.s("</Parameter>\n</CondProb>\n</StateTransitionFunction>\n")
	pw.s("<ObsFunction>\n<CondProb>\n<Var>" + pxObsVar + "</Var>\n<Parent>" + pxActionVar + " " + pxStateCurr + "</Parent>\n<Parameter type=\"TBL\">\n")
	for a := range m.Actions {
		pw.kernel(actions.tokens[a], m.Z[a], states.tokens, obs.tokens)
	}
	pw.s("</Parameter>\n</CondProb>\n</ObsFunction>\n")
	pw.rewards(m, states, actions, obs)
	pw.s("</pomdpx>\n")
	return pw.w.Flush()
}

// Renames returns the renames Write makes for m: the names the
// POMDPX format cannot hold (see SafeNames and Write).
func Renames(m *pomdp.Model) []pomdp.Rename {
	_, rs, _ := pomdpxNames(m)
	return rs
}

// pomdpxNames returns the spaces Write writes for the states,
// actions and observations, and the renames.
func pomdpxNames(m *pomdp.Model) ([3]pxSpace, []pomdp.Rename, error) {
	var out [3]pxSpace
	var renames []pomdp.Rename
	for k, sp := range [3]struct {
		space, noun, prefix string
		names               []string
	}{{"states", "state", "s", m.States}, {"actions", "action", "a", m.Actions}, {"observations", "observation", "o", m.Observations}} {
		// Every sanitized name, and it followed by "_", is a valid value,
		// so this does not fail.
		names, rs, err := pomdp.SafeNames(sp.space, sp.names, isPOMDPXName)
		if err != nil {
			return out, nil, err
		}
		renames = append(renames, rs...)
		if out[k], err = pxNames(sp.noun, names, sp.prefix); err != nil {
			return out, nil, err
		}
	}
	return out, renames, nil
}

// isPOMDPXName reports whether the POMDPX format can hold name as a value.
func isPOMDPXName(name string) bool {
	_, err := pomdpxName("", name)
	return err == nil
}

// pomdpxName returns the form in which a name of the model (a state,
// action or observation; field says which) is written as a value of a
// POMDPX variable, XML-escaped, or an error when the format cannot hold
// it: a value is a token of a white-space separated list, so it must be
// non-empty text of XML characters without white space, and it cannot be
// "*" or "-" (the wildcards of <Instance>). Write renames the names
// it refuses (SafeNames) and writes every name through this function.
func pomdpxName(field, name string) (string, error) {
	bad := ""
	switch {
	case name == "":
		bad = "it is empty"
	case name == "*" || name == "-":
		bad = "it is a wildcard of <Instance>"
	case !utf8.ValidString(name):
		bad = "it is not valid UTF-8"
	default:
		for _, r := range name {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
				bad = "it contains white space"
				break
			}
			if !isXMLChar(r) {
				bad = fmt.Sprintf("XML cannot hold the character %U", r)
				break
			}
		}
	}
	if bad != "" {
		return "", fmt.Errorf("pomdp: WritePOMDPX: %s name %q cannot be written in the POMDPX format: %s", field, name, bad)
	}
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(name))
	return b.String(), nil
}

// isXMLChar reports whether r is a character XML 1.0 allows.
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// pxSpace is a space of names as written.
type pxSpace struct {
	tokens   []string
	implicit bool // the names are SARSOP's implicit names prefix0, prefix1, …
}

func pxNames(field string, names []string, prefix string) (pxSpace, error) {
	sp := pxSpace{tokens: make([]string, len(names)), implicit: true}
	for i, n := range names {
		t, err := pomdpxName(field, n)
		if err != nil {
			return pxSpace{}, err
		}
		sp.tokens[i] = t
		if n != prefix+strconv.Itoa(i) {
			sp.implicit = false
		}
	}
	return sp, nil
}

type pxWriter struct {
	w   *bufio.Writer
	num []byte
}

func (pw *pxWriter) s(x string) { pw.w.WriteString(x) }

func (pw *pxWriter) f(v float64) {
	pw.num = strconv.AppendFloat(pw.num[:0], v, 'g', -1, 64)
	pw.w.Write(pw.num)
}

// numLen estimates the length of a written number (1 for 0 and 1).
func numLen(v float64) float64 {
	if v == 0 || v == 1 {
		return 1
	}
	return 18
}

func (pw *pxWriter) header(m *pomdp.Model, renames []pomdp.Rename) {
	var name bytes.Buffer
	xml.EscapeText(&name, []byte(m.Name))
	pw.s("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	pw.s("<!-- written by pomdpq WritePOMDPX: a flat model, one state variable -->\n")
	if len(renames) > 0 {
		pw.s("<!-- names the POMDPX format cannot hold are written under other names; -->\n")
		pw.s("<!-- pomdpq reads these comments and restores them (space, name in this file, original name): -->\n")
		for _, r := range renames {
			pw.s("<!-- " + r.String() + " -->\n")
		}
	}
	pw.s("<pomdpx version=\"1.0\" id=\"" + name.String() + "\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"pomdpx.xsd\">\n")
	pw.s("<Description>" + name.String() + "</Description>\n")
	if m.HasDiscount {
		pw.s("<Discount>")
		pw.f(m.Discount)
		pw.s("</Discount>\n")
	} else {
		pw.s("<!-- the model has no discount; the format requires one -->\n<Discount>1</Discount>\n")
	}
}

func (pw *pxWriter) values(sp pxSpace) {
	if sp.implicit {
		pw.s("<NumValues>" + strconv.Itoa(len(sp.tokens)) + "</NumValues>\n")
		return
	}
	pw.s("<ValueEnum>")
	for i, t := range sp.tokens {
		if i > 0 {
			if i%16 == 0 {
				pw.s("\n")
			} else {
				pw.s(" ")
			}
		}
		pw.s(t)
	}
	pw.s("</ValueEnum>\n")
}

func (pw *pxWriter) variables(m *pomdp.Model, states, actions, obs pxSpace) {
	pw.s("<Variable>\n<StateVar vnamePrev=\"" + pxStatePrev + "\" vnameCurr=\"" + pxStateCurr + "\" fullyObs=\"false\">\n")
	pw.values(states)
	pw.s("</StateVar>\n<ObsVar vname=\"" + pxObsVar + "\">\n")
	pw.values(obs)
	pw.s("</ObsVar>\n<ActionVar vname=\"" + pxActionVar + "\">\n")
	pw.values(actions)
	pw.s("</ActionVar>\n<RewardVar vname=\"" + pxRewardVar + "\"/>\n")
	if m.Rewards != nil {
		pw.s("<RewardVar vname=\"" + pxRewardDetail + "\"/>\n")
	}
	pw.s("</Variable>\n")
}

// entry writes <Entry><Instance>inst…</Instance><ProbTable or ValueTable>.
func (pw *pxWriter) entry(table string, inst ...string) {
	pw.s("<Entry><Instance>")
	for i, x := range inst {
		if i > 0 {
			pw.s(" ")
		}
		pw.s(x)
	}
	pw.s("</Instance><" + table + ">")
}

func (pw *pxWriter) end(table string) { pw.s("</" + table + "></Entry>\n") }

// list writes the dense vector of n values with the given non-zeros.
func (pw *pxWriter) list(n int, cols []int, vals []float64) {
	k := 0
	for j := 0; j < n; j++ {
		if j > 0 {
			pw.s(" ")
		}
		if k < len(cols) && cols[k] == j {
			pw.f(vals[k])
			k++
		} else {
			pw.s("0")
		}
	}
}

func (pw *pxWriter) belief(m *pomdp.Model, states pxSpace) {
	pw.s("<InitialStateBelief>\n<CondProb>\n<Var>" + pxStatePrev + "</Var>\n<Parent>null</Parent>\n<Parameter type=\"TBL\">\n")
	n := len(m.B0)
	uniform := true
	var cols []int
	var vals []float64
	for s, p := range m.B0 {
		if p != 1/float64(n) {
			uniform = false
		}
		if p != 0 {
			cols = append(cols, s)
			vals = append(vals, p)
		}
	}
	dense, single := 20+2*float64(n), 0.0
	for k, s := range cols {
		dense += numLen(vals[k]) - 1
		single += 60 + float64(len(states.tokens[s])) + numLen(vals[k])
	}
	switch {
	case uniform:
		pw.entry("ProbTable", "-")
		pw.s("uniform")
		pw.end("ProbTable")
	case single < dense:
		for k, s := range cols {
			pw.entry("ProbTable", states.tokens[s])
			pw.f(vals[k])
			pw.end("ProbTable")
		}
	default:
		pw.entry("ProbTable", "-")
		pw.list(n, cols, vals)
		pw.end("ProbTable")
	}
	pw.s("</Parameter>\n</CondProb>\n</InitialStateBelief>\n")
}

// kernel writes the entries of one action's matrix k (rows: the parent
// state, columns: the child's values) in the smallest form.
func (pw *pxWriter) kernel(action string, k *pomdp.Sparse, rows, cols []string) {
	if k.Rows == k.Cols && filebuild.IsIdentity(k, k.Rows) {
		pw.entry("ProbTable", action, "-", "-")
		pw.s("identity")
		pw.end("ProbTable")
		return
	}
	la := float64(len(action))
	nc := float64(k.Cols)
	// Per-row costs: single entries or a list.
	rowCost := func(i int) (single, list float64) {
		c, v := k.Row(i)
		list = 64 + la + float64(len(rows[i])) + 2*nc
		for j, x := range v {
			single += 62 + la + float64(len(rows[i])+len(cols[c[j]])) + numLen(x)
			list += numLen(x) - 1
		}
		return single, list
	}
	same := true
	c0, v0 := k.Row(0)
	for i := 1; i < k.Rows && same; i++ {
		c, v := k.Row(i)
		same = slices.Equal(c, c0) && slices.Equal(v, v0)
	}
	if same {
		single, list := 0.0, 64+la+2*nc
		for j, x := range v0 {
			single += 62 + la + float64(len(cols[c0[j]])) + numLen(x)
			list += numLen(x) - 1
		}
		if single < list {
			for j, c := range c0 {
				pw.entry("ProbTable", action, "*", cols[c])
				pw.f(v0[j])
				pw.end("ProbTable")
			}
			return
		}
		pw.entry("ProbTable", action, "*", "-")
		pw.list(k.Cols, c0, v0)
		pw.end("ProbTable")
		return
	}
	whole := 64 + la + 2*float64(k.Rows)*nc
	byRow := 0.0
	for i := 0; i < k.Rows; i++ {
		single, list := rowCost(i)
		byRow += min(single, list)
		_, v := k.Row(i)
		for _, x := range v {
			whole += numLen(x) - 1
		}
	}
	if whole <= byRow {
		pw.entry("ProbTable", action, "-", "-")
		pw.s("\n")
		for i := 0; i < k.Rows; i++ {
			c, v := k.Row(i)
			pw.list(k.Cols, c, v)
			pw.s("\n")
		}
		pw.end("ProbTable")
		return
	}
	for i := 0; i < k.Rows; i++ {
		c, v := k.Row(i)
		single, list := rowCost(i)
		if single <= list {
			for j, col := range c {
				pw.entry("ProbTable", action, rows[i], cols[col])
				pw.f(v[j])
				pw.end("ProbTable")
			}
			continue
		}
		pw.entry("ProbTable", action, rows[i], "-")
		pw.list(k.Cols, c, v)
		pw.end("ProbTable")
	}
}

// rewards writes R(s, a) as one Func of the action and the current state
// and, for a model with a reward table, the table's entries R(s, a, s', o)
// as a second Func of the action, both states and the observation (the
// file's reward is the sum of its Funcs; the first is 0 on the table's
// pairs, the second on the other pairs).
func (pw *pxWriter) rewards(m *pomdp.Model, states, actions, obs pxSpace) {
	pw.s("<RewardFunction>\n<Func>\n<Var>" + pxRewardVar + "</Var>\n<Parent>" + pxActionVar + " " + pxStatePrev + "</Parent>\n<Parameter type=\"TBL\">\n")
	nS := len(m.States)
	t := m.Rewards
	reward := func(s, a int) float64 {
		if t != nil && t.Pair(a*nS+s) >= 0 {
			return 0
		}
		return m.R[s][a]
	}
	var cols []int
	var vals []float64
	for a := range m.Actions {
		cols, vals = cols[:0], vals[:0]
		constant := true
		r0 := reward(0, a)
		for s := 0; s < nS; s++ {
			r := reward(s, a)
			if r != r0 {
				constant = false
			}
			if r != 0 {
				cols = append(cols, s)
				vals = append(vals, r)
			}
		}
		if len(cols) == 0 {
			continue
		}
		if constant {
			pw.entry("ValueTable", actions.tokens[a], "*")
			pw.f(r0)
			pw.end("ValueTable")
			continue
		}
		list, single := 40+2*float64(nS), 0.0
		for k, s := range cols {
			list += numLen(vals[k]) - 1
			single += 60 + float64(len(actions.tokens[a])+len(states.tokens[s])) + numLen(vals[k])
		}
		if single < list {
			for k, s := range cols {
				pw.entry("ValueTable", actions.tokens[a], states.tokens[s])
				pw.f(vals[k])
				pw.end("ValueTable")
			}
			continue
		}
		pw.entry("ValueTable", actions.tokens[a], "-")
		pw.list(nS, cols, vals)
		pw.end("ValueTable")
	}
	pw.s("</Parameter>\n</Func>\n")
	if t != nil {
		pw.s("<Func>\n<Var>" + pxRewardDetail + "</Var>\n<Parent>" + pxActionVar + " " + pxStatePrev + " " + pxStateCurr + " " + pxObsVar + "</Parent>\n<Parameter type=\"TBL\">\n")
		for k, key := range t.Pairs {
			a, s := key/nS, key%nS
			for i := t.Ptr[k]; i < t.Ptr[k+1]; i++ {
				if r := t.Val[i]; r != 0 {
					pw.entry("ValueTable", actions.tokens[a], states.tokens[s], states.tokens[t.Next[i]], obs.tokens[t.Obs[i]])
					pw.f(r)
					pw.end("ValueTable")
				}
			}
		}
		pw.s("</Parameter>\n</Func>\n")
	}
	pw.s("</RewardFunction>\n")
}
