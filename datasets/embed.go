// Package datasets embeds the project's data files so that the library,
// the command and the notebooks read the same bytes wherever they run:
// the paper's printed tables transcribed as CSV (paper/*.csv, see
// paper/README.md).
//
// The folder also holds model files, models/*.pomdp and models/*.json,
// exported from the built-in models of package bench (see
// models/README.md). They are not embedded: they are there to be read as
// files (modelfile.Load, pomdpq info FILE). The test TestModelFiles
// regenerates them in memory and checks that the committed bytes are
// current; `go test ./datasets -run TestModelFiles -regen` rewrites them.
// Likewise policies/ holds policy graphs and alpha vectors in pomdp-solve's
// formats and SARSOP's .policy format for those models, written by package
// policy (see
// policies/README.md; TestPolicyFiles checks and -regen rewrites them).
package datasets

import (
	"embed"
	"encoding/csv"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed paper/*.csv paper/README.md
var files embed.FS

// Paper returns the header and rows of the paper table stored as
// paper/NAME.csv (NAME is the table's LaTeX label without "tab:").
func Paper(name string) (header []string, rows [][]string, err error) {
	f, err := files.Open("paper/" + name + ".csv")
	if err != nil {
		return nil, nil, fmt.Errorf("datasets: no transcribed paper table %q (see datasets/paper/README.md)", name)
	}
	defer f.Close()
	r := csv.NewReader(f)
	all, err := r.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("datasets: paper/%s.csv: %w", name, err)
	}
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("datasets: paper/%s.csv is empty", name)
	}
	return all[0], all[1:], nil
}

// PaperTables lists the names of the transcribed tables.
func PaperTables() []string {
	var out []string
	entries, _ := fs.ReadDir(files, "paper")
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".csv"); ok {
			out = append(out, n)
		}
	}
	return out
}

// Claim is one number stated in the paper's prose (paper/inline-claims.csv).
type Claim struct {
	ID, Label, Quantity, Value, Context string
}

// Claims returns the inline claims by ID.
func Claims() (map[string]Claim, error) {
	_, rows, err := Paper("inline-claims")
	if err != nil {
		return nil, err
	}
	out := make(map[string]Claim, len(rows))
	for _, r := range rows {
		if len(r) < 5 {
			continue
		}
		out[r[0]] = Claim{ID: r[0], Label: r[1], Quantity: r[2], Value: r[3], Context: r[4]}
	}
	return out, nil
}
