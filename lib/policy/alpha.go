package policy

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Alpha is one alpha vector: the action of its node and a value per state.
type Alpha struct {
	Action int
	V      []float64
}

// Dot returns α·b = Σ_s V[s] b[s]. It panics if len(b) != len(V).
func (a Alpha) Dot(b []float64) float64 {
	if len(b) != len(a.V) {
		panic(fmt.Sprintf("policy: belief has %d entries, alpha vector %d", len(b), len(a.V)))
	}
	v := 0.0
	for s, p := range b {
		v += p * a.V[s]
	}
	return v
}

// Value returns max_α α·b over the vectors and the index of the first
// maximiser. It panics if vs is empty or a vector's length differs from b's.
func Value(vs []Alpha, b []float64) (float64, int) {
	if len(vs) == 0 {
		panic("policy: no alpha vectors")
	}
	best, arg := math.Inf(-1), -1
	for i, a := range vs {
		if v := a.Dot(b); v > best || arg < 0 {
			best, arg = v, i
		}
	}
	return best, arg
}

// ReadAlpha reads pomdp-solve alpha vectors for model m from r; name (the
// file name) is used in errors. Per vector the file has a line with the
// action index and a line with |S| values; blank lines (pomdp-solve writes
// one after each vector) and lines starting with '#' are skipped.
//
// With m nil the state count is taken from the first vector and actions
// are only checked to be non-negative.
//
// Errors are *ParseError values naming the line and entry: an action that
// is not an index of the model's actions, a values line with the wrong
// number of values for the model's states, a value that is not a finite
// number, a file that ends after an action line, an empty file, or more
// than MaxNodes vectors.
func ReadAlpha(r io.Reader, name string, m *pomdp.Model) ([]Alpha, error) {
	perr := func(line int, field, format string, args ...any) *ParseError {
		return &ParseError{File: name, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	nS, nA := -1, -1
	if m != nil {
		nS, nA = m.NumStates(), m.NumActions()
	}
	var out []Alpha
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line, actLine := 0, 0
	var cur Alpha
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Fields(text)
		if actLine == 0 {
			if len(out) >= MaxNodes {
				return nil, perr(line, "", "more than %d vectors (policy.MaxNodes)", MaxNodes)
			}
			field := fmt.Sprintf("vector %d, action", len(out))
			if len(f) != 1 {
				return nil, perr(line, field, "expected a line holding one action index, got %d entries", len(f))
			}
			a, err := strconv.Atoi(f[0])
			if err != nil || a < 0 {
				return nil, perr(line, field, "expected an action index (0, 1, …), got %q", f[0])
			}
			if nA >= 0 && a >= nA {
				return nil, perr(line, field, "action %d out of range: the model has %d actions (0 … %d)", a, nA, nA-1)
			}
			cur = Alpha{Action: a}
			actLine = line
			continue
		}
		field := fmt.Sprintf("vector %d, values", len(out))
		if nS < 0 {
			nS = len(f)
		}
		if len(f) != nS {
			return nil, perr(line, field, "%d values, want one per state of the model (%d)", len(f), nS)
		}
		cur.V = make([]float64, nS)
		for s, x := range f {
			v, err := strconv.ParseFloat(x, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				st := strconv.Itoa(s)
				if m != nil {
					st = m.States[s]
				}
				return nil, perr(line, fmt.Sprintf("%s, state %s", field, st), "expected a finite number, got %q", x)
			}
			cur.V[s] = v
		}
		out = append(out, cur)
		actLine = 0
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{File: name, Line: line + 1, Msg: "read error: " + err.Error(), Err: err}
	}
	if actLine > 0 {
		return nil, perr(actLine, fmt.Sprintf("vector %d", len(out)), "the file ends after the action line; a line of values must follow")
	}
	if len(out) == 0 {
		return nil, perr(0, "", "no alpha vectors")
	}
	return out, nil
}

// LoadAlpha reads the alpha-vector file at path for model m (see ReadAlpha).
func LoadAlpha(path string, m *pomdp.Model) ([]Alpha, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAlpha(bufio.NewReader(f), filepath.Base(path), m)
}

// AlphaDigits is the number of decimals WriteAlpha prints, pomdp-solve's.
const AlphaDigits = 25

// WriteAlpha writes alpha vectors in pomdp-solve's layout: per vector the
// action index on a line, the values each printed with AlphaDigits
// decimals and followed by a space on the next line, then a blank line.
// Values of magnitude at least 1 (and zeros) read back bit for bit: 25
// decimals resolve far below their spacing. Smaller ones read back within
// 5e-26, the last printed decimal (a value below 5e-26 prints as zero, as
// pomdp-solve's does). It returns an error for a vector with a negative action or
// a non-finite value, or vectors of different lengths.
func WriteAlpha(w io.Writer, vs []Alpha) error {
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 64)
	for i, a := range vs {
		if a.Action < 0 {
			return fmt.Errorf("policy: alpha vector %d has action %d", i, a.Action)
		}
		if len(a.V) != len(vs[0].V) {
			return fmt.Errorf("policy: alpha vector %d has %d values, vector 0 has %d", i, len(a.V), len(vs[0].V))
		}
		buf = strconv.AppendInt(buf[:0], int64(a.Action), 10)
		buf = append(buf, '\n')
		for s, v := range a.V {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("policy: alpha vector %d value %d is %v", i, s, v)
			}
			buf = strconv.AppendFloat(buf, v, 'f', AlphaDigits, 64)
			buf = append(buf, ' ')
		}
		buf = append(buf, '\n', '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// SaveAlpha writes vs to the file at path (see WriteAlpha).
func SaveAlpha(path string, vs []Alpha) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteAlpha(f, vs); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
