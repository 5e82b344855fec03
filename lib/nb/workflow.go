package nb

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// The planning workflow's helpers (notebook 13): a configuration with the
// observation reward, the guarantee of each ε as text, files written and
// measured, and SARSOP found and read.

// ObservationConfig plans for m with the observation reward
// R(s, a) = E[v(O') | s, a], v(o) = o/(|O| − 1): a reward of the
// observations only, whose L_R is finite (value.WithObsReward). Π is the
// stationary controllers with at most M nodes, T the horizon, eps the
// tolerances, g the ground metric on observations (nil: discrete). It
// returns the error of value.WithObsReward.
func ObservationConfig(m *pomdp.Model, g ot.Ground, M, T int, eps []float64, planner planq.Planner) (planq.Config, error) {
	rm, err := value.WithObsReward(m)
	if err != nil {
		return planq.Config{}, err
	}
	v := value.ObsValues(m.NumObservations())
	return planq.Config{Model: rm, Ground: g, ObsValues: v,
		Reward: fmt.Sprintf("observation: R(s, a) = E[v(O') | s, a] with v(o) = o/(|O| − 1) = %v", v),
		Kind:   fsc.KindStationary, M: M, T: T, Eps: eps, Planner: planner}, nil
}

// PlanValue writes a value of a planning run with six decimals, as
// `pomdpq plan` prints it: "—" when the run gives none (NaN), and 0 below
// 5e-7 in magnitude (rounding noise of an exact 0).
func PlanValue(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	if math.Abs(x) < 5e-7 {
		x = 0
	}
	return strconv.FormatFloat(x, 'f', 6, 64)
}

// GuaranteeText says, for each ε of res, the measured regret, the verdict,
// and the guarantee that applies with every term (or why none does).
func GuaranteeText(res *planq.Result) string {
	var b strings.Builder
	for _, r := range res.Rows {
		fmt.Fprintf(&b, "ε = %g: measured regret %s → %s\n", r.Eps, PlanValue(r.Regret), r.Verdict)
		fmt.Fprintf(&b, "    %s\n", r.Bound)
	}
	return b.String()
}

// ShowGuarantee writes [GuaranteeText] to [Output].
func ShowGuarantee(res *planq.Result) {
	_, _ = io.WriteString(output(), GuaranteeText(res))
}

// WriteFile creates the file path, writes it with write and closes it; it
// returns the file's size. Errors name the file.
func WriteFile(path string, write func(io.Writer) error) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	if err := write(f); err != nil {
		f.Close()
		return 0, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("writing %s: %w", path, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}

// SARSOPPath is where `make tools` builds SARSOP's pomdpsol, relative to the
// repository's root.
const SARSOPPath = ".tools/sarsop/sarsop/src/pomdpsol"

// FindSARSOP looks for SARSOP's pomdpsol: the executable named by the
// environment variable POMDPSOL, else [SARSOPPath] below root (the
// repository's root, ".." from notebooks/), else pomdpsol on PATH. It
// returns where it was found ("" when it was not) and the command that
// runs it. A file found by path is given by its absolute path in POMDPSOL,
// which FindSARSOP sets and the command names ("$POMDPSOL", expanded by
// the shell), so that no machine path is printed.
func FindSARSOP(root string) (where, command string) {
	use := func(path, how string) (string, string) {
		abs, err := filepath.Abs(path)
		if info, err2 := os.Stat(abs); err != nil || err2 != nil || info.IsDir() || info.Mode()&0o111 == 0 {
			return "", ""
		}
		os.Setenv("POMDPSOL", abs)
		return how, `"$POMDPSOL"`
	}
	if p := os.Getenv("POMDPSOL"); p != "" {
		if how, cmd := use(p, "$POMDPSOL"); how != "" {
			return how, cmd
		}
	}
	if how, cmd := use(filepath.Join(root, SARSOPPath), SARSOPPath); how != "" {
		return how, cmd
	}
	if _, err := exec.LookPath("pomdpsol"); err == nil {
		return "pomdpsol on PATH", "pomdpsol"
	}
	return "", ""
}

// sarsopPolicy is the part of SARSOP's .policy XML that ReadSARSOPPolicy
// uses.
type sarsopPolicy struct {
	Alpha struct {
		Length int `xml:"vectorLength,attr"`
		Dense  []struct {
			Action int    `xml:"action,attr"`
			Values string `xml:",chardata"`
		} `xml:"Vector"`
		Sparse []struct {
			Action  int      `xml:"action,attr"`
			Entries []string `xml:"Entry"`
		} `xml:"SparseVector"`
	} `xml:"AlphaVector"`
}

// ReadSARSOPPolicy reads the alpha vectors of a SARSOP .policy file for
// model m (a flat model: one vector entry per state), dense (<Vector>) and
// sparse (<SparseVector> of "index value" entries); it is a
// planq.PolicyReader. The file declares ISO-8859-1; its content is ASCII.
// Errors name the file and the vector.
func ReadSARSOPPolicy(path string, m *pomdp.Model) (*planq.SolverPolicy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var p sarsopPolicy
	if err := d.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(path), err)
	}
	name, n, nA := filepath.Base(path), m.NumStates(), m.NumActions()
	if p.Alpha.Length != n {
		return nil, fmt.Errorf("%s: vectorLength %d, the model has %d states", name, p.Alpha.Length, n)
	}
	var out []policy.Alpha
	for k, v := range p.Alpha.Dense {
		a := policy.Alpha{Action: v.Action}
		for _, s := range strings.Fields(v.Values) {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: vector %d: %v", name, k, err)
			}
			a.V = append(a.V, x)
		}
		if len(a.V) != n || a.Action < 0 || a.Action >= nA {
			return nil, fmt.Errorf("%s: vector %d: %d values and action %d for %d states and %d actions", name, k, len(a.V), a.Action, n, nA)
		}
		out = append(out, a)
	}
	for k, v := range p.Alpha.Sparse {
		a := policy.Alpha{Action: v.Action, V: make([]float64, n)}
		for _, e := range v.Entries {
			var i int
			var x float64
			if _, err := fmt.Sscan(e, &i, &x); err != nil || i < 0 || i >= n {
				return nil, fmt.Errorf("%s: sparse vector %d: entry %q is not \"index value\" for %d states", name, k, e, n)
			}
			a.V[i] = x
		}
		if a.Action < 0 || a.Action >= nA {
			return nil, fmt.Errorf("%s: sparse vector %d: action %d of %d", name, k, a.Action, nA)
		}
		out = append(out, a)
	}
	return &planq.SolverPolicy{Alphas: out}, nil
}
