package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpx"
)

// cmdExport writes a model (a built-in or a file) in Cassandra's .pomdp
// format, as POMDPX or as JSON, to stdout or to --out. Without --format the
// format follows the extension of --out, and is .pomdp otherwise. The model is
// written completely before anything reaches the destination, so an error
// (a name the .pomdp format cannot hold, say) leaves no partial file.
//
// The ground metric goes with the model: a built-in's own, a JSON model's
// "ground", or --ground's. JSON carries it ("ground"). The .pomdp format
// has no place for one, so a .pomdp export of a model whose ground metric
// is not the discrete one lists it in a comment at the top, says on stderr
// that the file reads with the discrete metric, and writes the metric as a
// CSV file beside --out (M.pomdp → M.ground.csv, which pomdpq quotient
// --model M.pomdp then points to) or to --ground-out. --ground-out FILE
// (.csv or .json) writes the ground metric in every case. Names the .pomdp
// or POMDPX format cannot hold are written renamed (pomdp.SafeNames), the
// renames listed in comments at the top of the file, and restored when
// pomdpq reads the file. --discount replaces the model's discount (or
// gives one to a model without): SARSOP needs a discount below 1. A model
// file whose rewards depend on the next state or the observation is written
// with them (pomdp.RewardTable); --expected-rewards writes the expectation
// R(s, a) only.
func cmdExport(args []string, stdout, stderr io.Writer) error {
	c := newCommand("export", stdout, stderr)
	fs := c.fs
	format := fs.String("format", "", "pomdp, pomdpx or json (default: from --out's extension, else pomdp)")
	out := fs.String("out", "", "output file (default: standard output)")
	ground := groundFlag(fs)
	groundOut := fs.String("ground-out", "", "also write the ground metric to this .csv or .json file (a .pomdp export with --out writes OUT.ground.csv when the metric is not the discrete one)")
	discount := fs.Float64("discount", -1, "write this discount in [0, 1) instead of the model's (SARSOP needs one below 1; the paper's models have none)")
	expected := fs.Bool("expected-rewards", false, expectedRewardsUsage)
	pos, err := c.parseArgs(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{msg: "usage: pomdpq export MODEL [--format pomdp|pomdpx|json] [--out FILE] [--ground discrete|FILE] [--ground-out FILE] [--discount G] [--expected-rewards]"}
	}
	f, err := exportFormat(*format, *out)
	if err != nil {
		return err
	}
	if g := strings.ToLower(filepath.Ext(*groundOut)); *groundOut != "" && g != ".csv" && g != ".json" {
		return usageError{msg: fmt.Sprintf("export: --ground-out %s: want a .csv or .json file", *groundOut)}
	}
	m, gd, err := loadModelGround(pos[0], *ground, readOptions(*expected)...)
	if err != nil {
		return err
	}
	set := c.given("discount")
	if set && !(*discount >= 0 && *discount < 1) {
		return usageError{msg: fmt.Sprintf("export: --discount %g: want a discount in [0, 1)", *discount)}
	}
	if set {
		// A new model sharing the kernels (not modified).
		m = &pomdp.Model{Name: m.Name, States: m.States, Actions: m.Actions, Observations: m.Observations,
			Discount: *discount, HasDiscount: true, T: m.T, Z: m.Z, R: m.R, Rewards: m.Rewards, B0: m.B0}
	}
	if !isDefault(gd) {
		m.Ground = &pomdp.Ground{Name: gd.Name, D: gd.Ground}
	} else {
		m.Ground = nil
	}
	buf, err := encodeModel(m, f)
	if err != nil {
		return fmt.Errorf("export %s: %w", pos[0], err)
	}
	side := *groundOut
	lost := f == "pomdp" && !gd.Ground.IsDiscrete()
	if lost && side == "" && *out != "" {
		side = strings.TrimSuffix(*out, filepath.Ext(*out)) + ".ground.csv"
	}
	if err := writeExport(stdout, pos[0], *out, buf, side, gd, m.Observations); err != nil {
		return err
	}
	if lost {
		dest := "the .pomdp file"
		if *out != "" {
			dest = *out
		}
		how := "write it with --ground-out FILE.csv and pass --ground FILE.csv"
		if side != "" {
			how = fmt.Sprintf("it is written to %s: pass --ground %s", side, side)
		}
		fmt.Fprintf(stderr, "pomdpq: export: the .pomdp format has no ground metric, so %s reads with the discrete one, not the ground metric %s; %s (or export --format json, which carries it)\n",
			dest, gd, how)
	}
	return nil
}

// exportFormat returns the format of export: --format, else the
// extension of --out, else pomdp; a --format the extension contradicts
// is refused.
func exportFormat(format, out string) (string, error) {
	f := strings.ToLower(format)
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(out), "."))
	known := func(x string) bool { return x == "pomdp" || x == "pomdpx" || x == "json" }
	switch {
	case f == "" && known(ext):
		f = ext
	case f == "":
		f = "pomdp"
	case !known(f):
		return "", usageError{msg: fmt.Sprintf("export: --format %q: want pomdp, pomdpx or json", format)}
	case known(ext) && ext != f:
		return "", usageError{msg: fmt.Sprintf("export: --format %s does not match the extension of --out %s", f, out)}
	}
	return f, nil
}

// encodeModel writes m in format f (pomdp, pomdpx or json) to memory, so
// that an error leaves no partial file; an error of the .pomdp or POMDPX
// writer points to the JSON format, which holds every model.
func encodeModel(m *pomdp.Model, f string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch f {
	case "json":
		err = pomdpjson.Write(&buf, m)
	case "pomdpx":
		err = pomdpx.Write(&buf, m)
	default:
		err = cassandra.Write(&buf, m)
	}
	if err != nil && f != "json" {
		return nil, fmt.Errorf("%w (pomdpq export: --format json)", err)
	}
	return buf.Bytes(), err
}

// writeExport writes the bytes of model name to out (stdout when empty)
// and, when side is set, the ground metric to side (.json or .csv); the
// ground metric is encoded before anything is written.
func writeExport(stdout io.Writer, name, out string, model []byte, side string, gd ot.Described, obs []string) error {
	var sideBuf bytes.Buffer
	if side != "" {
		g := &pomdp.Ground{Name: gd.Name, D: gd.Ground}
		var err error
		if strings.EqualFold(filepath.Ext(side), ".json") {
			err = pomdp.WriteGroundJSON(&sideBuf, g, obs)
		} else {
			err = pomdp.WriteGroundCSV(&sideBuf, g, obs)
		}
		if err != nil {
			return fmt.Errorf("export %s: the ground metric: %w", name, err)
		}
	}
	if out == "" {
		if _, err := stdout.Write(model); err != nil {
			return err
		}
	} else if err := os.WriteFile(out, model, 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if side != "" {
		if err := os.WriteFile(side, sideBuf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	return nil
}

// defaultSource begins the Source of a ground metric pomdpq chose because
// the model gave none.
const defaultSource = "default: "

// isDefault reports whether d is the discrete metric chosen because the
// model file gave no ground metric (not one the model or --ground gave).
func isDefault(d ot.Described) bool {
	return strings.HasPrefix(d.Source, defaultSource)
}
