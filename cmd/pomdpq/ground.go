package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// groundUsage is the help text of --ground.
const groundUsage = "ground metric on the observations: discrete, or a .json or .csv matrix file " +
	"(default: the model's own — a built-in's, a JSON model's \"ground\" — else discrete)"

// groundJSON is the "ground" object of the JSON outputs: the ground metric
// d_O a result was computed with.
type groundJSON struct {
	// Label is what the text output prints: "discrete 0/1", or the name
	// and the fingerprint, e.g. "quadrant-manhattan [sha256 0123456789ab]".
	Label string `json:"label"`
	Name  string `json:"name"`
	// Source says where it came from ("built-in gridworld:3", "file
	// g.csv", "model file m.json", or a default and why).
	Source string `json:"source"`
	// SHA256 is ot.Ground.Fingerprint: 12 hexadecimal digits.
	SHA256   string `json:"sha256"`
	Discrete bool   `json:"discrete"`
	// Used is false when the result does not depend on the ground metric
	// (--metric tv; exact quotients); Unused then says why.
	Used   bool   `json:"used"`
	Unused string `json:"unused,omitempty"`
}

func newGroundJSON(d ot.Described, unused string) groundJSON {
	return groundJSON{Label: d.Label(), Name: d.Name, Source: d.Source, SHA256: d.Ground.Fingerprint(),
		Discrete: d.Ground.IsDiscrete(), Used: unused == "", Unused: unused}
}

// groundLine is the text line naming the ground metric.
func groundLine(d ot.Described, unused string) string {
	if unused != "" {
		return fmt.Sprintf("ground metric %s: not used (%s)", d, unused)
	}
	return fmt.Sprintf("ground metric %s", d)
}

// groundFlag registers --ground on fs.
func groundFlag(fs *flag.FlagSet) *string {
	return fs.String("ground", "", groundUsage)
}

// loadModel resolves a built-in name or a model file, and the ground
// metric that comes with it, saying where it came from: a built-in's own,
// a JSON model's "ground", and otherwise the discrete metric, marked as
// the default (the .pomdp format cannot carry a ground metric).
func loadModel(spec string, opts ...pomdp.ReadOption) (*pomdp.Model, ot.Described, error) {
	if spec == "" {
		return nil, ot.Described{}, usageError{msg: "missing --model (a built-in name or a .pomdp/.pomdpx/.json file)"}
	}
	ext := strings.ToLower(filepath.Ext(spec))
	if isModelFile(spec) {
		m, err := modelfile.Load(spec, opts...)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ot.Described{}, missingFile(spec, err)
		}
		if err != nil {
			return nil, ot.Described{}, err
		}
		if m.Ground != nil {
			return m, ot.Described{Ground: m.Ground.D, Name: m.Ground.Name, Source: "model file " + spec}, nil
		}
		why := fmt.Sprintf("%s%s gives no \"ground\"; --ground FILE gives one", defaultSource, spec)
		if ext == ".pomdp" {
			why = defaultSource + "a .pomdp file carries no ground metric; --ground FILE gives one"
			if side := sidecar(spec); side != "" {
				why = fmt.Sprintf("%sa .pomdp file carries no ground metric; %s beside it holds one: --ground %s", defaultSource, filepath.Base(side), side)
			}
		}
		return m, ot.DescribeDiscrete(m.NumObservations(), why), nil
	}
	b, err := bench.Lookup(spec)
	if err != nil {
		return nil, ot.Described{}, err
	}
	return b.Model, b.Described(), nil
}

// sidecar returns the ground-metric file written beside a .pomdp model
// (pomdpq export --out M.pomdp writes M.ground.csv), or "".
func sidecar(model string) string {
	p := strings.TrimSuffix(model, filepath.Ext(model)) + ".ground.csv"
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return p
	}
	return ""
}

// withGround applies --ground to the model's own ground metric own:
// "" keeps it, "discrete" gives the discrete metric, anything else is a
// ground-metric file (pomdp.LoadGround) for the model's observations.
func withGround(md *pomdp.Model, own ot.Described, spec string) (ot.Described, error) {
	if spec == "" {
		return own, nil
	}
	replacing := ""
	if !own.Ground.IsDiscrete() {
		replacing = fmt.Sprintf(", replacing %s from %s", own.Label(), own.Source)
	}
	if spec == "discrete" {
		return ot.DescribeDiscrete(md.NumObservations(), "--ground discrete"+replacing), nil
	}
	g, err := pomdp.LoadGround(spec, md.Observations)
	if errors.Is(err, fs.ErrNotExist) {
		return ot.Described{}, fmt.Errorf("--ground %s: no such file (want discrete, or a .json or .csv matrix over the observations of %s)", spec, md.Name)
	}
	if err != nil {
		return ot.Described{}, err
	}
	return ot.Described{Ground: g.D, Name: g.Name, Source: "file " + spec + replacing}, nil
}

// loadModelGround is loadModel followed by withGround.
func loadModelGround(spec, ground string, opts ...pomdp.ReadOption) (*pomdp.Model, ot.Described, error) {
	md, own, err := loadModel(spec, opts...)
	if err != nil {
		return nil, ot.Described{}, err
	}
	g, err := withGround(md, own, ground)
	return md, g, err
}

// expectedRewardsUsage is the help of --expected-rewards.
const expectedRewardsUsage = "keep only the expected reward R(s,a) of a model file whose rewards depend on the next state or the observation (values are the same; without it R(s,a,s',o) is kept and written)"

// readOptions returns the reader options of --expected-rewards.
func readOptions(expected bool) []pomdp.ReadOption {
	if expected {
		return []pomdp.ReadOption{pomdp.ExpectedRewards()}
	}
	return nil
}
