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
// format, as POMDPX or as JSON, to stdout or to --out. Without --format the
// format follows the extension of --out, and is .pomdp otherwise. The model is
// written completely before anything reaches the destination, so an error
// (a name the .pomdp format cannot hold, say) leaves no partial file.
func cmdExport(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "", "pomdp, pomdpx or json (default: from --out's extension, else pomdp)")
	out := fs.String("out", "", "output file (default: standard output)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{msg: "usage: pomdpq export MODEL [--format pomdp|pomdpx|json] [--out FILE]"}
	}
	f := strings.ToLower(*format)
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(*out), "."))
	known := func(x string) bool { return x == "pomdp" || x == "pomdpx" || x == "json" }
	switch {
	case f == "" && known(ext):
		f = ext
	case f == "":
		f = "pomdp"
	case !known(f):
		return usageError{msg: fmt.Sprintf("export: --format %q: want pomdp, pomdpx or json", *format)}
	case known(ext) && ext != f:
		return usageError{msg: fmt.Sprintf("export: --format %s does not match the extension of --out %s", f, *out)}
	}
	m, _, err := loadModel(pos[0])
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	switch f {
	case "json":
		err = pomdp.WriteJSON(&buf, m)
	case "pomdpx":
		err = pomdp.WritePOMDPX(&buf, m)
	default:
		err = pomdp.WriteCassandra(&buf, m)
	}
	if err != nil && f != "json" {
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
