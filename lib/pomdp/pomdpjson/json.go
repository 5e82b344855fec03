package pomdpjson

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/filebuild"
)

// jsonFields lists the keys of the JSON model format, in the order
// Write writes them.
var jsonFields = []string{"name", "states", "actions", "observations", "ground", "discount", "start", "transitions", "observation_model", "rewards"}

type jsonReader struct {
	file string
	cfg  pomdp.ReadConfig

	states, actions, obs map[string]int
	nS, nA, nO           int
}

func (jr *jsonReader) errf(field, format string, args ...any) *pomdp.ParseError {
	return &pomdp.ParseError{File: jr.file, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Read reads a model in the JSON format described in the package
// documentation. name is used in error messages and, without directory
// and extension, as the model's Name when the document has no "name".
//
// Rows of T and Z and the start distribution must sum to 1 within
// FileRowTol and are renormalised like cassandra.Read's. Errors are
// *ParseError values naming the JSON field and entry, for example
//
//	pomdp: tiger.json: transitions[3].to: unknown state "tiger-middle"
//
// with the line and column for syntax errors. Unknown fields, missing
// required fields, unknown names, duplicate entries, negative or
// non-numeric probabilities and matrices of the wrong shape are errors.
// MaxSize and MaxEntries bound the sizes as for cassandra.Read. It runs in
// time linear in the input plus |A|·|S|.
func Read(r io.Reader, name string, opts ...pomdp.ReadOption) (*pomdp.Model, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &pomdp.ParseError{File: name, Msg: "read failed: " + err.Error(), Err: err}
	}
	jr := &jsonReader{file: name, cfg: pomdp.NewReadConfig(opts)}
	if src := jr.cfg.Source; src != nil {
		*src = pomdp.Source{Format: "json"}
	}
	return jr.read(data)
}

// syntaxError converts a JSON decoding error of the whole document into a
// *ParseError with line and column.
func (jr *jsonReader) syntaxError(data []byte, err error) *pomdp.ParseError {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset)
		return &pomdp.ParseError{File: jr.file, Line: line, Col: col, Msg: "invalid JSON: " + se.Error(), Err: err}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		line, col := lineCol(data, te.Offset)
		return &pomdp.ParseError{File: jr.file, Line: line, Col: col, Msg: "the document must be a JSON object, got " + te.Value, Err: err}
	}
	return &pomdp.ParseError{File: jr.file, Msg: "invalid JSON: " + strings.TrimPrefix(err.Error(), "json: "), Err: err}
}

func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}

// decode decodes raw into v, rejecting unknown fields, and describes a
// failure in the terms of field.
func (jr *jsonReader) decode(raw json.RawMessage, field string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			f := field
			if te.Field != "" {
				f += "." + te.Field
			}
			return &pomdp.ParseError{File: jr.file, Field: f, Msg: fmt.Sprintf("expected %s, got %s", jsonType(te.Type.String()), te.Value), Err: err}
		}
		return &pomdp.ParseError{File: jr.file, Field: field, Msg: strings.TrimPrefix(err.Error(), "json: "), Err: err}
	}
	return nil
}

func jsonType(goType string) string {
	switch {
	case strings.Contains(goType, "[]"):
		return "an array"
	case strings.Contains(goType, "map"), strings.Contains(goType, "struct"), strings.HasPrefix(goType, "pomdp."):
		return "an object"
	case strings.Contains(goType, "float"), strings.Contains(goType, "int"):
		return "a number"
	case strings.Contains(goType, "string"):
		return "a string"
	}
	return goType
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

func firstByte(raw json.RawMessage) byte {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return 0
	}
	return t[0]
}

func (jr *jsonReader) names(doc map[string]json.RawMessage, field, noun string) ([]string, map[string]int, error) {
	raw, ok := doc[field]
	if !ok || isNull(raw) {
		return nil, nil, jr.errf(field, "missing (an array of %s names is required)", noun)
	}
	var names []string
	if err := jr.decode(raw, field, &names); err != nil {
		return nil, nil, err
	}
	if len(names) == 0 {
		return nil, nil, jr.errf(field, "need at least one %s", noun)
	}
	if len(names) > jr.cfg.MaxSize {
		e := jr.errf(field, "%d %s exceed the limit of %d (see MaxSize)", len(names), field, jr.cfg.MaxSize)
		e.Err = pomdp.ErrTooLarge
		return nil, nil, e
	}
	idx := make(map[string]int, len(names))
	for i, n := range names {
		if n == "" {
			return nil, nil, jr.errf(fmt.Sprintf("%s[%d]", field, i), "empty name")
		}
		if j, ok := idx[n]; ok {
			return nil, nil, jr.errf(fmt.Sprintf("%s[%d]", field, i), "name %q is also %s[%d]", n, field, j)
		}
		idx[n] = i
	}
	return names, idx, nil
}

func (jr *jsonReader) lookup(idx map[string]int, field, noun string, name *string) (int, error) {
	if name == nil {
		return 0, jr.errf(field, "missing (the %s name)", noun)
	}
	i, ok := idx[*name]
	if !ok {
		return 0, jr.errf(field, "unknown %s %q", noun, *name)
	}
	return i, nil
}

func (jr *jsonReader) checkProb(field string, p *float64) (float64, error) {
	if p == nil {
		return 0, jr.errf(field, "missing (the probability)")
	}
	if !(*p >= 0) || math.IsInf(*p, 0) {
		return 0, jr.errf(field, "probability %v is negative", *p)
	}
	if *p > 1+pomdp.FileRowTol {
		return 0, jr.errf(field, "probability %v is greater than 1", *p)
	}
	return *p, nil
}

type jsonTransition struct {
	Action *string  `json:"action"`
	From   *string  `json:"from"`
	To     *string  `json:"to"`
	P      *float64 `json:"p"`
}

type jsonObservation struct {
	Action *string  `json:"action"`
	To     *string  `json:"to"`
	Obs    *string  `json:"obs"`
	P      *float64 `json:"p"`
}

type jsonReward struct {
	Action *string  `json:"action"`
	State  *string  `json:"state"`
	Next   *string  `json:"next"`
	Obs    *string  `json:"obs"`
	R      *float64 `json:"r"`
}

// jsonDetail is an entry R(s, a, s', o) of "rewards", by index.
type jsonDetail struct {
	a, s, s2, o, n int
	r              float64
}

// actionMatrices decodes the dense form {"action": matrix} of field and
// calls fn for each action in file-independent (sorted) order.
func (jr *jsonReader) actionMatrices(raw json.RawMessage, field string, fn func(a int, key string, v json.RawMessage) error) error {
	var byAction map[string]json.RawMessage
	if err := jr.decode(raw, field, &byAction); err != nil {
		return err
	}
	keys := make([]string, 0, len(byAction))
	for k := range byAction {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		a, ok := jr.actions[k]
		if !ok {
			return jr.errf(field, "unknown action %q", k)
		}
		if err := fn(a, field+"."+k, byAction[k]); err != nil {
			return err
		}
	}
	return nil
}

// denseKernel reads the dense form of transitions or observation_model into pm.
func (jr *jsonReader) denseKernel(raw json.RawMessage, field string, pm *filebuild.PMatrix) error {
	return jr.actionMatrices(raw, field, func(a int, f string, v json.RawMessage) error {
		var rows [][]float64
		if err := jr.decode(v, f, &rows); err != nil {
			return err
		}
		if len(rows) != pm.NRows {
			return jr.errf(f, "has %d rows, want %d (one per state)", len(rows), pm.NRows)
		}
		for i, row := range rows {
			if len(row) != pm.NCols {
				return jr.errf(fmt.Sprintf("%s[%d]", f, i), "has %d entries, want %d", len(row), pm.NCols)
			}
			for j := range row {
				if _, err := jr.checkProb(fmt.Sprintf("%s[%d][%d]", f, i, j), &row[j]); err != nil {
					return err
				}
			}
			pm.SetRow(a, i, row, 1)
		}
		return nil
	})
}

// decodeEntries decodes a list of entry objects at once; when that fails
// it decodes the items one by one so that the error names the entry.
func decodeEntries[E any](jr *jsonReader, raw json.RawMessage, field string) ([]E, error) {
	var out []E
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	first := dec.Decode(&out)
	if first == nil {
		return out, nil
	}
	items, err := jr.list(raw, field)
	if err != nil {
		return nil, err
	}
	out = make([]E, len(items))
	for n, item := range items {
		if err := jr.decode(item, fmt.Sprintf("%s[%d]", field, n), &out[n]); err != nil {
			return nil, err
		}
	}
	return nil, &pomdp.ParseError{File: jr.file, Field: field, Msg: strings.TrimPrefix(first.Error(), "json: "), Err: first}
}

// list decodes an array field into its elements.
func (jr *jsonReader) list(raw json.RawMessage, field string) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if err := jr.decode(raw, field, &items); err != nil {
		return nil, err
	}
	return items, nil
}

func (jr *jsonReader) read(data []byte) (*pomdp.Model, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, jr.syntaxError(data, err)
	}
	if doc == nil {
		return nil, jr.errf("", "the document must be a JSON object, got null")
	}
	for k := range doc {
		if !slices.Contains(jsonFields, k) {
			return nil, jr.errf(k, "unknown field (known fields: %s)", strings.Join(jsonFields, ", "))
		}
	}
	m := &pomdp.Model{}
	var err error
	if raw, ok := doc["name"]; ok && !isNull(raw) {
		if err := jr.decode(raw, "name", &m.Name); err != nil {
			return nil, err
		}
	}
	if m.Name == "" {
		m.Name = filebuild.ModelName(jr.file)
	}
	if m.States, jr.states, err = jr.names(doc, "states", "state"); err != nil {
		return nil, err
	}
	if m.Actions, jr.actions, err = jr.names(doc, "actions", "action"); err != nil {
		return nil, err
	}
	if m.Observations, jr.obs, err = jr.names(doc, "observations", "observation"); err != nil {
		return nil, err
	}
	jr.nS, jr.nA, jr.nO = len(m.States), len(m.Actions), len(m.Observations)
	if raw, ok := doc["ground"]; ok && !isNull(raw) {
		g, err := pomdp.ReadGroundJSONField(jr.file, data, raw, m.Observations)
		if err != nil {
			return nil, err
		}
		m.Ground = g
	}
	if int64(jr.nS)*int64(jr.nA) > jr.cfg.MaxEntries {
		e := jr.errf("", "%d states × %d actions exceed the limit of %d entries (see MaxEntries)", jr.nS, jr.nA, jr.cfg.MaxEntries)
		e.Err = pomdp.ErrTooLarge
		return nil, e
	}
	if raw, ok := doc["discount"]; ok && !isNull(raw) {
		if err := jr.decode(raw, "discount", &m.Discount); err != nil {
			return nil, err
		}
		if !(m.Discount >= 0 && m.Discount <= 1) {
			return nil, jr.errf("discount", "%v is outside [0, 1]", m.Discount)
		}
		m.HasDiscount = true
	}
	if m.B0, err = jr.start(doc["start"]); err != nil {
		return nil, err
	}
	if m.T, err = jr.transitions(doc["transitions"], m); err != nil {
		return nil, err
	}
	if m.Z, err = jr.observations(doc["observation_model"], m); err != nil {
		return nil, err
	}
	if m.R, err = jr.rewards(doc["rewards"], m); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, &pomdp.ParseError{File: jr.file, Msg: strings.TrimPrefix(err.Error(), "pomdp: "), Err: err}
	}
	return m, nil
}

func (jr *jsonReader) start(raw json.RawMessage) ([]float64, error) {
	if isNull(raw) {
		return pomdp.Uniform(jr.nS), nil
	}
	var b []float64
	switch firstByte(raw) {
	case '[':
		if err := jr.decode(raw, "start", &b); err != nil {
			return nil, err
		}
		if len(b) != jr.nS {
			return nil, jr.errf("start", "has %d entries, want %d (one per state)", len(b), jr.nS)
		}
		for s := range b {
			if _, err := jr.checkProb(fmt.Sprintf("start[%d]", s), &b[s]); err != nil {
				return nil, err
			}
		}
	case '{':
		var byName map[string]float64
		if err := jr.decode(raw, "start", &byName); err != nil {
			return nil, err
		}
		b = make([]float64, jr.nS)
		for k, p := range byName {
			s, ok := jr.states[k]
			if !ok {
				return nil, jr.errf("start", "unknown state %q", k)
			}
			if _, err := jr.checkProb("start."+k, &p); err != nil {
				return nil, err
			}
			b[s] = p
		}
	default:
		return nil, jr.errf("start", "expected an array of %d probabilities or an object {state: probability}", jr.nS)
	}
	if sum, ok := filebuild.NormalizeRow(b); !ok {
		return nil, &pomdp.ParseError{File: jr.file, Field: "start", Msg: fmt.Sprintf("probabilities sum to %.9g, want 1 (within %g)", sum, pomdp.FileRowTol),
			Err: &pomdp.EntryError{Model: jr.file, Field: "b0", Action: -1, State: -1, Next: -1, Obs: -1, Msg: fmt.Sprintf("sums to %.9g", sum)}}
	}
	return b, nil
}

func (jr *jsonReader) transitions(raw json.RawMessage, m *pomdp.Model) ([]pomdp.Kernel, error) {
	const field = "transitions"
	pm := filebuild.NewPMatrix(jr.nA, jr.nS, jr.nS)
	switch {
	case isNull(raw):
		return nil, jr.errf(field, "missing (an array of {action, from, to, p} entries or an object {action: |S|×|S| matrix} is required)")
	case firstByte(raw) == '{':
		if err := jr.denseKernel(raw, field, pm); err != nil {
			return nil, err
		}
	default:
		items, err := decodeEntries[jsonTransition](jr, raw, field)
		if err != nil {
			return nil, err
		}
		seen := make(map[[3]int]int, len(items))
		for n, e := range items {
			f := fmt.Sprintf("%s[%d]", field, n)
			a, err := jr.lookup(jr.actions, f+".action", "action", e.Action)
			if err != nil {
				return nil, err
			}
			s, err := jr.lookup(jr.states, f+".from", "state", e.From)
			if err != nil {
				return nil, err
			}
			s2, err := jr.lookup(jr.states, f+".to", "state", e.To)
			if err != nil {
				return nil, err
			}
			p, err := jr.checkProb(f+".p", e.P)
			if err != nil {
				return nil, err
			}
			k := [3]int{a, s, s2}
			if prev, dup := seen[k]; dup {
				return nil, jr.errf(f, "duplicate entry for action %q, from %q, to %q (also %s[%d])", *e.Action, *e.From, *e.To, field, prev)
			}
			seen[k] = n
			pm.Set(a, s, s2, p, 1)
		}
	}
	ks := make([]pomdp.Kernel, jr.nA)
	for a := range ks {
		t, re := pm.Build(a)
		if re != nil {
			re.Line = 0
			return nil, re.ParseError(jr.file, field, m.States, m.Actions)
		}
		ks[a] = t
	}
	return ks, nil
}

func (jr *jsonReader) observations(raw json.RawMessage, m *pomdp.Model) ([]*pomdp.Sparse, error) {
	const field = "observation_model"
	pm := filebuild.NewPMatrix(jr.nA, jr.nS, jr.nO)
	switch {
	case isNull(raw):
		return nil, jr.errf(field, "missing (an array of {action, to, obs, p} entries or an object {action: |S|×|O| matrix} is required)")
	case firstByte(raw) == '{':
		if err := jr.denseKernel(raw, field, pm); err != nil {
			return nil, err
		}
	default:
		items, err := decodeEntries[jsonObservation](jr, raw, field)
		if err != nil {
			return nil, err
		}
		seen := make(map[[3]int]int, len(items))
		for n, e := range items {
			f := fmt.Sprintf("%s[%d]", field, n)
			a, err := jr.lookup(jr.actions, f+".action", "action", e.Action)
			if err != nil {
				return nil, err
			}
			s2, err := jr.lookup(jr.states, f+".to", "state", e.To)
			if err != nil {
				return nil, err
			}
			o, err := jr.lookup(jr.obs, f+".obs", "observation", e.Obs)
			if err != nil {
				return nil, err
			}
			p, err := jr.checkProb(f+".p", e.P)
			if err != nil {
				return nil, err
			}
			k := [3]int{a, s2, o}
			if prev, dup := seen[k]; dup {
				return nil, jr.errf(f, "duplicate entry for action %q, to %q, obs %q (also %s[%d])", *e.Action, *e.To, *e.Obs, field, prev)
			}
			seen[k] = n
			pm.Set(a, s2, o, p, 1)
		}
	}
	zs := make([]*pomdp.Sparse, jr.nA)
	for a := range zs {
		z, re := pm.Build(a)
		if re != nil {
			re.Line = 0
			return nil, re.ParseError(jr.file, field, m.States, m.Actions)
		}
		zs[a] = z
	}
	return zs, nil
}

// rewards reads "rewards" (after the kernels, which the entries of
// R(s, a, s', o) need) and sets m.Rewards.
func (jr *jsonReader) rewards(raw json.RawMessage, m *pomdp.Model) ([][]float64, error) {
	const field = "rewards"
	R := make([][]float64, jr.nS)
	for s := range R {
		R[s] = make([]float64, jr.nA)
	}
	m.R = R
	switch {
	case isNull(raw):
		return R, nil
	case firstByte(raw) == '{':
		err := jr.actionMatrices(raw, field, func(a int, f string, v json.RawMessage) error {
			var col []float64
			if err := jr.decode(v, f, &col); err != nil {
				return err
			}
			if len(col) != jr.nS {
				return jr.errf(f, "has %d entries, want %d (one per state)", len(col), jr.nS)
			}
			for s, r := range col {
				R[s][a] = r
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	default:
		items, err := decodeEntries[jsonReward](jr, raw, field)
		if err != nil {
			return nil, err
		}
		seen := make(map[[2]int]int, len(items))
		var details []jsonDetail
		for n, e := range items {
			f := fmt.Sprintf("%s[%d]", field, n)
			a, err := jr.lookup(jr.actions, f+".action", "action", e.Action)
			if err != nil {
				return nil, err
			}
			s, err := jr.lookup(jr.states, f+".state", "state", e.State)
			if err != nil {
				return nil, err
			}
			if e.R == nil {
				return nil, jr.errf(f+".r", "missing (the reward)")
			}
			if (e.Next == nil) != (e.Obs == nil) {
				return nil, jr.errf(f, `give both "next" and "obs" (an entry R(s, a, s', o)) or neither (an entry R(s, a))`)
			}
			k := [2]int{a, s}
			if prev, dup := seen[k]; dup && (e.Next == nil || items[prev].Next == nil) {
				return nil, jr.errf(f, "duplicate entry for action %q, state %q (also %s[%d]); a pair has one entry R(s, a) or entries R(s, a, s', o)", *e.Action, *e.State, field, prev)
			}
			seen[k] = n
			if e.Next == nil {
				R[s][a] = *e.R
				continue
			}
			s2, err := jr.lookup(jr.states, f+".next", "state", e.Next)
			if err != nil {
				return nil, err
			}
			o, err := jr.lookup(jr.obs, f+".obs", "observation", e.Obs)
			if err != nil {
				return nil, err
			}
			if m.TransitionProb(s, a, s2)*m.ObsProb(s2, a, o) == 0 {
				return nil, jr.errf(f, "state %q, action %q cannot lead to state %q and observation %q (T·Z = 0): the reward would never be paid", *e.State, *e.Action, *e.Next, *e.Obs)
			}
			details = append(details, jsonDetail{a: a, s: s, s2: s2, o: o, n: n, r: *e.R})
		}
		if err := jr.detailRewards(details, m); err != nil {
			return nil, err
		}
	}
	return R, nil
}

// detailRewards sets R(s, a) and m.Rewards from the entries R(s, a, s', o)
// (an entry not given is 0).
func (jr *jsonReader) detailRewards(details []jsonDetail, m *pomdp.Model) error {
	const field = "rewards"
	slices.SortStableFunc(details, func(x, y jsonDetail) int {
		return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.s, y.s), cmp.Compare(x.s2, y.s2), cmp.Compare(x.o, y.o))
	})
	for i := 1; i < len(details); i++ {
		x, y := details[i-1], details[i]
		if x.a == y.a && x.s == y.s && x.s2 == y.s2 && x.o == y.o {
			n0, n1 := min(x.n, y.n), max(x.n, y.n)
			return jr.errf(fmt.Sprintf("%s[%d]", field, n1), "duplicate entry for action %q, state %q, next %q, obs %q (also %s[%d])",
				m.Actions[x.a], m.States[x.s], m.States[x.s2], m.Observations[x.o], field, n0)
		}
	}
	rb := filebuild.NewRewardBuilder(m, !jr.cfg.Expected)
	for i := 0; i < len(details); {
		a, s := details[i].a, details[i].s
		j := i
		for j < len(details) && details[j].a == a && details[j].s == s {
			j++
		}
		row := details[i:j]
		rb.Row(s, a, func(s2, o int) float64 {
			for len(row) > 0 && (row[0].s2 < s2 || row[0].s2 == s2 && row[0].o < o) {
				row = row[1:]
			}
			if len(row) > 0 && row[0].s2 == s2 && row[0].o == o {
				return row[0].r
			}
			return 0
		})
		i = j
	}
	filebuild.RewardsDone(&jr.cfg, rb)
	return nil
}

// Write writes m in the JSON format described in the package
// documentation, with T, Z and R as sparse entry lists (one entry per
// line, non-zero entries only) and the start distribution as an array, so
// that Read returns the same model bit for bit (names, discount or its
// absence, T, Z, R, b0, the ground metric when there is one — "discrete"
// for the discrete metric named "discrete", else its name and matrix — and
// a non-empty Name; an empty Name is not written and Read then names
// the model after the file). Numbers use strconv's shortest
// round-tripping form; names must be valid UTF-8. Kron kernels are written
// through their Entries. It returns the first write error.
func Write(w io.Writer, m *pomdp.Model) error {
	bw := bufio.NewWriter(w)
	writeHeader(bw, m)
	writeEntries(bw, m)
	return bw.Flush()
}

// jsonQuote returns s as a JSON string.
func jsonQuote(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// jsonNum returns v in strconv's shortest round-tripping form.
func jsonNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// writeHeader writes the fields before the entry lists: name, the three
// spaces, ground, discount and start.
func writeHeader(bw *bufio.Writer, m *pomdp.Model) {
	q, f := jsonQuote, jsonNum
	list := func(names []string) string {
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = q(n)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	bw.WriteString("{\n")
	if m.Name != "" {
		fmt.Fprintf(bw, "  \"name\": %s,\n", q(m.Name))
	}
	fmt.Fprintf(bw, "  \"states\": %s,\n", list(m.States))
	fmt.Fprintf(bw, "  \"actions\": %s,\n", list(m.Actions))
	fmt.Fprintf(bw, "  \"observations\": %s,\n", list(m.Observations))
	if g := m.Ground; g != nil {
		if g.Name == "discrete" && g.D.IsDiscrete() {
			bw.WriteString("  \"ground\": \"discrete\",\n")
		} else {
			bw.WriteString("  \"ground\": {")
			if g.Name != "" {
				fmt.Fprintf(bw, "\"name\": %s, ", q(g.Name))
			}
			bw.WriteString("\"matrix\": ")
			pomdp.WriteGroundMatrix(bw, g.D, "  ")
			bw.WriteString("},\n")
		}
	}
	if m.HasDiscount {
		fmt.Fprintf(bw, "  \"discount\": %s,\n", f(m.Discount))
	}
	bw.WriteString("  \"start\": [")
	for s, p := range m.B0 {
		if s > 0 {
			bw.WriteString(", ")
		}
		bw.WriteString(f(p))
	}
	bw.WriteString("],\n")
}

// writeEntries writes the entry lists "transitions", "observation_model"
// and "rewards", one entry per line, and closes the document.
func writeEntries(bw *bufio.Writer, m *pomdp.Model) {
	q, f := jsonQuote, jsonNum
	quoted := func(names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = q(n)
		}
		return out
	}
	qs, qa, qo := quoted(m.States), quoted(m.Actions), quoted(m.Observations)
	sep := ""
	item := func(parts ...string) { // writes {"k1": v1, "k2": v2, ...}
		bw.WriteString(sep)
		bw.WriteString("\n    {")
		for i := 0; i < len(parts); i += 2 {
			if i > 0 {
				bw.WriteString(", ")
			}
			bw.WriteString(parts[i])
			bw.WriteString(parts[i+1])
		}
		bw.WriteString("}")
		sep = ","
	}
	end := func(last string) { // closes a list, "[]" when empty
		if sep != "" {
			bw.WriteString("\n  ")
		}
		bw.WriteString(last)
		sep = ""
	}
	bw.WriteString("  \"transitions\": [")
	for a, k := range m.T {
		for s := range m.States {
			k.Entries(s, func(j int, p float64) {
				item(`"action": `, qa[a], `"from": `, qs[s], `"to": `, qs[j], `"p": `, f(p))
			})
		}
	}
	end("],\n  \"observation_model\": [")
	for a, z := range m.Z {
		for s := range m.States {
			z.Entries(s, func(o int, p float64) {
				item(`"action": `, qa[a], `"to": `, qs[s], `"obs": `, qo[o], `"p": `, f(p))
			})
		}
	}
	end("],\n  \"rewards\": [")
	for a := range m.Actions {
		for s := range m.States {
			if t := m.Rewards; t != nil {
				if k := t.Pair(a*len(m.States) + s); k >= 0 {
					for i := t.Ptr[k]; i < t.Ptr[k+1]; i++ {
						if r := t.Val[i]; r != 0 {
							item(`"action": `, qa[a], `"state": `, qs[s], `"next": `, qs[t.Next[i]], `"obs": `, qo[t.Obs[i]], `"r": `, f(r))
						}
					}
					continue
				}
			}
			if r := m.R[s][a]; r != 0 {
				item(`"action": `, qa[a], `"state": `, qs[s], `"r": `, f(r))
			}
		}
	}
	end("]\n}\n")
}
