package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// cmdExport writes a model (a built-in or a file) in Cassandra's .pomdp
// format or as JSON, to stdout or to --out. Without --format the format
// follows the extension of --out, and is .pomdp otherwise. The model is
// written completely before anything reaches the destination, so an error
// leaves no partial file. Names the .pomdp format cannot hold are written
// renamed (pomdp.SafeNames) and restored when pomdpq reads the file.
// --discount replaces the model's discount (or gives one to a model
// without): SARSOP needs a discount below 1.
func cmdExport(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "", "pomdp or json (default: from --out's extension, else pomdp)")
	out := fs.String("out", "", "output file (default: standard output)")
	discount := fs.Float64("discount", -1, "write this discount in [0, 1) instead of the model's (SARSOP needs one below 1; the paper's models have none)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{msg: "usage: pomdpq export MODEL [--format pomdp|json] [--out FILE] [--discount G]"}
	}
	f := strings.ToLower(*format)
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(*out), "."))
	switch {
	case f == "" && (ext == "pomdp" || ext == "json"):
		f = ext
	case f == "":
		f = "pomdp"
	case f != "pomdp" && f != "json":
		return usageError{msg: fmt.Sprintf("export: --format %q: want pomdp or json", *format)}
	case (ext == "pomdp" || ext == "json") && ext != f:
		return usageError{msg: fmt.Sprintf("export: --format %s does not match the extension of --out %s", f, *out)}
	}
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "discount" })
	if set && !(*discount >= 0 && *discount < 1) {
		return usageError{msg: fmt.Sprintf("export: --discount %g: want a discount in [0, 1)", *discount)}
	}
	m, _, err := loadModel(pos[0])
	if err != nil {
		return err
	}
	if set {
		// A new model sharing the kernels (not modified).
		m = &pomdp.Model{Name: m.Name, States: m.States, Actions: m.Actions, Observations: m.Observations,
			Discount: *discount, HasDiscount: true, T: m.T, Z: m.Z, R: m.R, B0: m.B0}
	}
	var buf bytes.Buffer
	if f == "json" {
		err = pomdp.WriteJSON(&buf, m)
	} else {
		err = pomdp.WriteCassandra(&buf, m)
	}
	if err != nil && f == "pomdp" {
		return fmt.Errorf("export %s: %w (pomdpq export: --format json)", pos[0], err)
	}
	if err != nil {
		return fmt.Errorf("export %s: %w", pos[0], err)
	}
	if *out == "" {
		_, err = stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}
