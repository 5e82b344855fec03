package modelfile

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpx"
)

// detailEntries is the table of the model above by hand: for each pair
// (s, a) whose reward varies, R(s, a, s', o) over the (s', o) that can
// follow, in order. (stay, left) pays -1 whatever follows and is R(s, a).
var detailEntries = []struct {
	s, a, s2, o string
	r           float64
}{
	{"right", "stay", "right", "beep", -1}, {"right", "stay", "right", "quiet", 2},
	{"left", "go", "left", "beep", -1}, {"left", "go", "left", "quiet", -1}, {"left", "go", "right", "beep", 7}, {"left", "go", "right", "quiet", 5},
	{"right", "go", "left", "beep", -1}, {"right", "go", "left", "quiet", -1}, {"right", "go", "right", "beep", 5}, {"right", "go", "right", "quiet", 5},
}

// detailR is R(s, a) by hand: Σ_{s'} T Σ_o Z R.
var detailR = map[[2]string]float64{
	{"left", "stay"}:  -1,
	{"right", "stay"}: 0.4*-1 + 0.6*2,                 // 0.8
	{"left", "go"}:    0.25*(-1) + 0.75*(0.4*7+0.6*5), // 4.1
	{"right", "go"}:   0.5*(-1) + 0.5*5,               // 2
}

func readDetail(t *testing.T, format string, opts ...pomdp.ReadOption) *pomdp.Model {
	t.Helper()
	var m *pomdp.Model
	var err error
	if format == "pomdp" {
		m, err = cassandra.Read(strings.NewReader(pomdptest.DetailPOMDP), "detail.pomdp", opts...)
	} else {
		m, err = pomdpx.Read(strings.NewReader(pomdptest.DetailPOMDPX), "detail.pomdpx", opts...)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRewardTable: a reward of the next state and the observation, read
// from .pomdp and from .pomdpx, is kept entry for entry, R(s, a) is its
// expectation computed by hand, and both files give the same model.
func TestRewardTable(t *testing.T) {
	models := map[string]*pomdp.Model{}
	for _, format := range []string{"pomdp", "pomdpx"} {
		m := readDetail(t, format)
		models[format] = m
		if m.Rewards == nil {
			t.Fatalf("%s: no reward table", format)
		}
		if n := m.Rewards.NumEntries(); n != len(detailEntries) {
			t.Errorf("%s: %d entries, want %d", format, n, len(detailEntries))
		}
		for _, e := range detailEntries {
			s, a, s2, o := m.StateIndex(e.s), m.ActionIndex(e.a), m.StateIndex(e.s2), m.ObsIndex(e.o)
			if got := m.Reward(s, a, s2, o); got != e.r {
				t.Errorf("%s: R(%s, %s, %s, %s) = %v, want %v", format, e.s, e.a, e.s2, e.o, got, e.r)
			}
		}
		if got := m.Reward(0, 0, 0, 1); got != -1 {
			t.Errorf("%s: R(left, stay, left, quiet) = %v, want -1 (R(s, a), not in the table)", format, got)
		}
		for k, want := range detailR {
			s, a := m.StateIndex(k[0]), m.ActionIndex(k[1])
			if got := m.R[s][a]; math.Abs(got-want) > 1e-12 {
				t.Errorf("%s: R(%s, %s) = %v, want %v", format, k[0], k[1], got, want)
			}
		}
		if got := m.RewardSummary(); !strings.Contains(got, "R(s,a,s',o) kept (10 entries)") {
			t.Errorf("%s: summary %q", format, got)
		}
	}
	if err := pomdptest.SameModel(models["pomdpx"], models["pomdp"]); err != nil {
		t.Errorf(".pomdpx and .pomdp differ: %v", err)
	}
}

// TestRewardTableRoundTrip: cassandra.Write, pomdpx.Write and pomdpjson.Write write
// the table so that reading back gives it entry for entry, and the same R.
func TestRewardTableRoundTrip(t *testing.T) {
	m := readDetail(t, "pomdp")
	writers := map[string]struct {
		write func(*bytes.Buffer, *pomdp.Model) error
		read  func(*bytes.Buffer) (*pomdp.Model, error)
	}{
		"pomdp": {func(b *bytes.Buffer, m *pomdp.Model) error { return cassandra.Write(b, m) },
			func(b *bytes.Buffer) (*pomdp.Model, error) { return cassandra.Read(b, "back.pomdp") }},
		"pomdpx": {func(b *bytes.Buffer, m *pomdp.Model) error { return pomdpx.Write(b, m) },
			func(b *bytes.Buffer) (*pomdp.Model, error) { return pomdpx.Read(b, "back.pomdpx") }},
		"json": {func(b *bytes.Buffer, m *pomdp.Model) error { return pomdpjson.Write(b, m) },
			func(b *bytes.Buffer) (*pomdp.Model, error) { return pomdpjson.Read(b, "back.json") }},
	}
	for name, rw := range writers {
		var buf bytes.Buffer
		if err := rw.write(&buf, m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := buf.String()
		back, err := rw.read(&buf)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		if err := pomdptest.SameModel(back, m); err != nil {
			t.Errorf("%s round trip: %v\n%s", name, err, text)
		}
	}
}

// TestRewardTableLarge: a reward table on a model too large for a dense
// <Func> of the action, both states and the observation (2·300·300·6 rows)
// goes through pomdpx.Write and back (the reader keeps that Func sparse).
func TestRewardTableLarge(t *testing.T) {
	var buf bytes.Buffer
	if err := cassandra.Write(&buf, pomdptest.SyntheticModel(300, 2, 6)); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("R: a1 : * : s7 : * 3\nR: a0 : s2 : * : o1 -2\n")
	m, err := cassandra.Read(&buf, "big.pomdp")
	if err != nil {
		t.Fatal(err)
	}
	if m.Rewards == nil {
		t.Fatal("no reward table")
	}
	buf.Reset()
	if err := pomdpx.Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	back, err := pomdpx.Read(&buf, "big.pomdpx")
	if err != nil {
		t.Fatal(err)
	}
	back.Name = m.Name
	if err := pomdptest.SameModel(back, m); err != nil {
		t.Error(err)
	}
}

// TestExpectedRewards: the option keeps the same R and drops the table,
// and Describe says how many entries.
func TestExpectedRewards(t *testing.T) {
	for _, format := range []string{"pomdp", "pomdpx"} {
		full := readDetail(t, format)
		var src pomdp.Source
		m := readDetail(t, format, pomdp.ExpectedRewards(), pomdp.Describe(&src))
		if m.Rewards != nil {
			t.Errorf("%s: the table is kept", format)
		}
		if !slices.EqualFunc(m.R, full.R, slices.Equal) {
			t.Errorf("%s: R = %v, want %v", format, m.R, full.R)
		}
		if src.DroppedRewards != len(detailEntries) {
			t.Errorf("%s: DroppedRewards = %d, want %d", format, src.DroppedRewards, len(detailEntries))
		}
		if got := m.RewardSummary(); got != "R(s,a)" {
			t.Errorf("%s: summary %q", format, got)
		}
	}
}

// TestRewardTableValidate: Validate refuses a table whose entries are not
// the (s', o) that can follow, whose values are all equal, or whose
// expectation is not R(s, a).
func TestRewardTableValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(m *pomdp.Model)
		want   string
	}{
		{"wrong expectation", func(m *pomdp.Model) { m.R[1][0] += 0.5 }, "R(right, stay): R(s, a) = 1.29"},
		{"missing entry", func(m *pomdp.Model) {
			tb := m.Rewards
			tb.Next, tb.Obs, tb.Val = tb.Next[1:], tb.Obs[1:], tb.Val[1:]
			for k := 1; k < len(tb.Ptr); k++ {
				tb.Ptr[k]--
			}
		}, "R(right, stay): R(s, a, s', o): the entries must be the (s', o) with T·Z > 0 in order; (right, beep)"},
		{"all equal", func(m *pomdp.Model) { m.Rewards.Val[1] = -1; m.R[1][0] = -1 }, "R(right, stay): R(s, a, s', o) is the same for every (s', o)"},
		{"not finite", func(m *pomdp.Model) { m.Rewards.Val[0] = math.Inf(1) }, "R(s, a, right, beep) = +Inf is not finite"},
		{"pairs out of order", func(m *pomdp.Model) { m.Rewards.Pairs[1] = 1 }, "pair 1 (1) is out of range or out of order"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := readDetail(t, "pomdp")
			tc.change(m)
			err := m.Validate()
			var ee *pomdp.EntryError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want an *EntryError containing %q", err, tc.want)
			}
		})
	}
}

// TestReadJSONRewardEntries: the JSON form of R(s, a, s', o) and its
// errors, each naming the entry.
func TestReadJSONRewardEntries(t *testing.T) {
	m := readDetail(t, "pomdp")
	var buf bytes.Buffer
	if err := pomdpjson.Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	if !strings.Contains(good, `{"action": "go", "state": "left", "next": "right", "obs": "beep", "r": 7}`) {
		t.Fatalf("no entry with next and obs in\n%s", good)
	}
	for _, tc := range []struct{ name, old, new, want string }{
		{"next without obs", `"next": "right", "obs": "beep", "r": 7`, `"next": "right", "r": 7`, `rewards[`},
		{"impossible", `{"action": "stay", "state": "right", "next": "right", "obs": "quiet", "r": 2}`, `{"action": "stay", "state": "right", "next": "left", "obs": "quiet", "r": 2}`, `state "right", action "stay" cannot lead to state "left" and observation "quiet"`},
		{"mixed with R(s, a)", `{"action": "stay", "state": "right", "next": "right", "obs": "quiet", "r": 2}`, `{"action": "stay", "state": "right", "next": "right", "obs": "quiet", "r": 2}, {"action": "stay", "state": "right", "r": 2}`, `duplicate entry for action "stay", state "right"`},
		{"duplicate", `{"action": "stay", "state": "right", "next": "right", "obs": "quiet", "r": 2}`, `{"action": "stay", "state": "right", "next": "right", "obs": "quiet", "r": 2}, {"action": "stay", "state": "right", "next": "right", "obs": "quiet", "r": 3}`, `duplicate entry for action "stay", state "right", next "right", obs "quiet"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(good, tc.old) {
				t.Fatalf("no %q in the file", tc.old)
			}
			_, err := pomdpjson.Read(strings.NewReader(strings.Replace(good, tc.old, tc.new, 1)), "d.json")
			var pe *pomdp.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "d.json") {
				t.Errorf("err = %v, want a *ParseError naming d.json and containing %q", err, tc.want)
			}
		})
	}
}
