package cassandra

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/filebuild"
)

// Write writes m in Cassandra's .pomdp format so that
// Read returns the same model: the same names, T, Z, R, b0 and
// discount, bit for bit (numbers are written with strconv's shortest
// round-tripping form).
//
// A space whose names are "0", "1", ... is written as a count. A name the
// format cannot hold (it must match [A-Za-z][A-Za-z0-9_-]* and not be a
// keyword: the paper's Tiger observes "R") is written under another name
// chosen by SafeNames ("R_"), and the renames are listed in comments at the
// top of the file,
//
//	# pomdpq-rename observations R_ "R"
//
// which Read reads to restore the original names; other readers
// (pomdp-solve, SARSOP) see an ordinary file with the written names.
// Renames returns the renames without writing. Rewards are written as "R: a : s : * : * v" for each
// non-zero R(s, a) with "values: reward", except the pairs (s, a) of the
// reward table Model.Rewards, written entry by entry, "R: a : s : s' : o v"
// for each non-zero R(s, a, s', o), so that reading the file back gives the
// same table and the same expectation R(s, a). A model without a discount is
// written with "discount: 1" (the format requires one; this is the only
// difference after a round trip: HasDiscount becomes true). The model's
// Name appears only in a comment, and so does its ground metric
// (Model.Ground): the format has no place for one, so a model with a
// ground metric other than the discrete one reads back with Ground nil,
// and the comment says so and lists the matrix.
//
// Rows of T and Z are written as single entries "T: a : s : s' p" when
// they have few non-zeros and as dense rows otherwise; identity matrices as
// "T: a identity"; so the file size is O(nnz(T) + nnz(Z) + |S|·|A|). Kron
// kernels are written through their Entries.
//
// It returns the first write error. It does not validate m.
func Write(w io.Writer, m *pomdp.Model) error {
	names, renames, err := cassandraNames(m)
	if err != nil {
		return err
	}
	states, actions, observations := names[0], names[1], names[2]
	bw := bufio.NewWriter(w)
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

	if m.Name != "" {
		fmt.Fprintf(bw, "# %s\n", strconv.Quote(m.Name))
	}
	bw.WriteString("# written by pomdpq WriteCassandra\n")
	if len(renames) > 0 {
		bw.WriteString("# names the .pomdp format cannot hold are written under other names;\n")
		bw.WriteString("# pomdpq reads these comments and restores them (space, name in this file, original name):\n")
		for _, r := range renames {
			bw.WriteString("# " + r.String() + "\n")
		}
	}
	writeGroundComment(bw, m)
	bw.WriteString("\n")
	if m.HasDiscount {
		fmt.Fprintf(bw, "discount: %s\n", f(m.Discount))
	} else {
		bw.WriteString("# the model has no discount; the format requires one\ndiscount: 1\n")
	}
	bw.WriteString("values: reward\n")
	writeSpace(bw, "states", states)
	writeSpace(bw, "actions", actions)
	writeSpace(bw, "observations", observations)
	bw.WriteString("\n")

	writeStart(bw, m, states, f)
	writeKernels(bw, m, names, f)
	writeRewards(bw, m, names, f)
	return bw.Flush()
}

// writeStart writes the start statement: "uniform", "include" of a
// single state, or the row.
func writeStart(bw *bufio.Writer, m *pomdp.Model, states []string, f func(float64) string) {
	nS := len(m.States)
	uniform, point, nnz := true, -1, 0
	for s, p := range m.B0 {
		if p != 1/float64(nS) {
			uniform = false
		}
		if p != 0 {
			nnz++
		}
		if p == 1 {
			point = s
		}
	}
	switch {
	case uniform:
		bw.WriteString("start: uniform\n")
	case point >= 0 && nnz == 1:
		fmt.Fprintf(bw, "start include: %s\n", states[point])
	default:
		bw.WriteString("start:\n")
		writeRow(bw, m.B0, f)
	}
}

// writeKernels writes T and Z, action by action, under the written names
// (states, actions, observations).
func writeKernels(bw *bufio.Writer, m *pomdp.Model, names [3][]string, f func(float64) string) {
	states, actions, observations := names[0], names[1], names[2]
	nS, nA := len(m.States), len(m.Actions)
	row := make([]float64, max(nS, len(m.Observations)))
	var cols []int
	var vals []float64
	for a := 0; a < nA; a++ {
		an := actions[a]
		bw.WriteString("\n")
		k := m.T[a]
		if filebuild.IsIdentity(k, nS) {
			fmt.Fprintf(bw, "T: %s identity\n", an)
		} else {
			for s := 0; s < nS; s++ {
				cols, vals = cols[:0], vals[:0]
				k.Entries(s, func(j int, p float64) {
					cols = append(cols, j)
					vals = append(vals, p)
				})
				writeKernelRow(bw, "T", an, states[s], cols, vals, states, row[:nS], f)
			}
		}
		bw.WriteString("\n")
		z := m.Z[a]
		for s := 0; s < nS; s++ {
			cols, vals := z.Row(s)
			writeKernelRow(bw, "O", an, states[s], cols, vals, observations, row[:len(observations)], f)
		}
	}
}

// writeRewards writes R: one statement per non-zero R(s, a), or per
// non-zero entry R(s, a, s', o) of a pair the reward table holds.
func writeRewards(bw *bufio.Writer, m *pomdp.Model, names [3][]string, f func(float64) string) {
	states, actions, observations := names[0], names[1], names[2]
	nS, nA := len(m.States), len(m.Actions)
	bw.WriteString("\n")
	for s := 0; s < nS; s++ {
		for a := 0; a < nA; a++ {
			if t := m.Rewards; t != nil {
				if k := t.Pair(a*nS + s); k >= 0 {
					for i := t.Ptr[k]; i < t.Ptr[k+1]; i++ {
						if r := t.Val[i]; r != 0 {
							fmt.Fprintf(bw, "R: %s : %s : %s : %s %s\n", actions[a], states[s], states[t.Next[i]], observations[t.Obs[i]], f(r))
						}
					}
					continue
				}
			}
			if r := m.R[s][a]; r != 0 {
				fmt.Fprintf(bw, "R: %s : %s : * : * %s\n", actions[a], states[s], f(r))
			}
		}
	}
}

// writeKernelRow writes one row of T or Z: single entries when the row has
// few non-zeros, a dense row otherwise.
func writeKernelRow(bw *bufio.Writer, field, action, from string, cols []int, vals []float64, colNames []string, row []float64, f func(float64) string) {
	n := len(colNames)
	if len(cols) == 1 || 3*len(cols) < n {
		for k, j := range cols {
			for _, part := range [...]string{field, ": ", action, " : ", from, " : ", colNames[j], " ", f(vals[k]), "\n"} {
				bw.WriteString(part)
			}
		}
		return
	}
	clear(row)
	for k, j := range cols {
		row[j] = vals[k]
	}
	fmt.Fprintf(bw, "%s: %s : %s\n", field, action, from)
	writeRow(bw, row, f)
}

func writeRow(bw *bufio.Writer, row []float64, f func(float64) string) {
	for j, v := range row {
		if j > 0 {
			bw.WriteByte(' ')
		}
		bw.WriteString(f(v))
	}
	bw.WriteByte('\n')
}

func writeSpace(bw *bufio.Writer, field string, names []string) {
	if isCount(names) {
		fmt.Fprintf(bw, "%s: %d\n", field, len(names))
		return
	}
	fmt.Fprintf(bw, "%s: %s\n", field, strings.Join(names, " "))
}

// isCount reports whether names are "0", "1", ..., as the reader gives to
// spaces declared by a count.
func isCount(names []string) bool {
	for i, n := range names {
		if n != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

func isCassandraName(n string) bool {
	if n == "" || !isLetter(n[0]) || cassKeywords[n] {
		return false
	}
	for i := 1; i < len(n); i++ {
		c := n[i]
		if !(isLetter(c) || isDigit(c) || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// writeGroundComment writes m.Ground, unless it is nil or the discrete
// metric, as comment lines: readers of the file (pomdpq's included) use
// the discrete metric, so the comment says how to give this one.
func writeGroundComment(bw *bufio.Writer, m *pomdp.Model) {
	g := m.Ground
	if g == nil || g.D.IsDiscrete() {
		return
	}
	name := g.Name
	if name == "" {
		name = "(unnamed)"
	}
	name = strings.NewReplacer("\r", " ", "\n", " ").Replace(name)
	fmt.Fprintf(bw, "# ground metric %s [sha256 %s] on the observations: the .pomdp format has no place\n", name, g.D.Fingerprint())
	bw.WriteString("# for it, so this file reads with the discrete metric. Give this one with\n")
	bw.WriteString("# pomdpq ... --ground FILE (a .csv or .json matrix; pomdpq export --ground-out writes it),\n")
	bw.WriteString("# or use the JSON model format, which carries it. Rows and columns in the order of the observations:\n")
	for i, row := range g.D {
		o := "?"
		if i < len(m.Observations) {
			o = m.Observations[i]
		}
		fmt.Fprintf(bw, "#   %s:", o)
		for _, v := range row {
			bw.WriteString(" " + strconv.FormatFloat(v, 'g', -1, 64))
		}
		bw.WriteString("\n")
	}
}
