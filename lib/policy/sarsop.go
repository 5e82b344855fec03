package policy

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// VectorPolicy is an alpha-vector policy in SARSOP's .policy format (the
// XML that SARSOP's pomdpsol writes):
//
//	<?xml version="1.0" encoding="ISO-8859-1"?>
//	<Policy version="0.1" type="value" model="Tiger.pomdpx" …>
//	<AlphaVector vectorLength="2" numObsValue="1" numVectors="5">
//	<Vector action="2" obsValue="0">28.4028 -81.5972 </Vector>
//	<SparseVector action="0" obsValue="0"><Entry>0 19.3713</Entry><Entry>1 19.3713</Entry></SparseVector>
//	…
//	</AlphaVector> </Policy>
//
// Each vector is a hyperplane over the states that are not fully observed:
// action is a 0-based index of the model's actions and obsValue the value
// of the fully observed part of the state (0 … numObsValue−1; always 0 for
// a flat model, where numObsValue is 1 and vectorLength is |S|). A
// <SparseVector> lists its non-zero entries as "index value".
//
// On a flat model a state s of a model with mixed observability is the
// pair (x, y) of its fully observed part x and the rest y, numbered
// s = x·vectorLength + y, the order in which SARSOP numbers them and in
// which pomdpx.Read builds the flat model of a POMDPX file; so |S| =
// numObsValue·vectorLength. The vectors applicable at a belief whose
// fully observed part is x are those with obsValue x.
type VectorPolicy struct {
	// Model is the model attribute of <Policy> (SARSOP writes the model
	// file's name there); informative only.
	Model string
	// VectorLength is the number of entries of each vector: the states
	// that are not fully observed (|S| for a flat model).
	VectorLength int
	// NumObsValue is the number of values of the fully observed part (1
	// for a flat model).
	NumObsValue int
	// Vectors are the alpha vectors in file order.
	Vectors []ObsVector
}

// ObsVector is one vector of a VectorPolicy.
type ObsVector struct {
	Alpha        // Action and the VectorLength values V
	ObsValue int // the value of the fully observed part it applies to
	// Sparse records that the file wrote it as a <SparseVector>;
	// WritePolicy writes it the same way.
	Sparse bool
}

// MaxPolicyEntries bounds numVectors × vectorLength, the values ReadPolicy
// holds in memory (8 bytes each: 1 GiB).
const MaxPolicyEntries = 1 << 27

// ReadPolicy reads a SARSOP .policy file for model m from r; name (the file
// name) is used in errors. It reads what SARSOP's own reader reads
// (src/Bounds/AlphaVectorPolicy.cpp): a <Policy> root (type "value" if
// given) holding one <AlphaVector> with the attribute vectorLength and, as
// SARSOP writes them, numObsValue (default 1) and numVectors (checked
// against the vectors read when given), holding <Vector> and
// <SparseVector> elements, each with the attributes action and obsValue.
// The encodings UTF-8, US-ASCII and ISO-8859-1 are read.
//
// With m nil only the file's own consistency is checked. With a model,
// vectorLength·numObsValue must be |S| and every action one of its
// actions.
//
// Errors are *ParseError values naming the line, the vector (numbered
// from 0 in file order) and the field: a file that is not XML or is
// truncated, a missing or unknown element or attribute, an action or
// obsValue out of range, a <Vector> with more or fewer than vectorLength
// numbers, an <Entry> that is not "index value" or repeats an index, a
// number that is not finite, numVectors that does not match, no vector at
// all, more than MaxNodes vectors or more than MaxPolicyEntries values.
func ReadPolicy(r io.Reader, name string, m *pomdp.Model) (*VectorPolicy, error) {
	pr := &policyReader{d: xml.NewDecoder(r), file: name, m: m}
	pr.d.CharsetReader = charsetReader
	return pr.read()
}

// LoadPolicy reads the .policy file at path for model m (see ReadPolicy).
func LoadPolicy(path string, m *pomdp.Model) (*VectorPolicy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadPolicy(bufio.NewReader(f), filepath.Base(path), m)
}

// charsetReader converts ISO-8859-1 (SARSOP's declared encoding) and
// US-ASCII to UTF-8.
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1":
		return &latin1Reader{r: bufio.NewReader(in)}, nil
	case "us-ascii", "ascii", "utf-8", "utf8":
		return in, nil
	}
	return nil, fmt.Errorf("unsupported encoding %q (want UTF-8, US-ASCII or ISO-8859-1)", label)
}

type latin1Reader struct {
	r   *bufio.Reader
	buf []byte
}

func (l *latin1Reader) Read(p []byte) (int, error) {
	for len(l.buf) == 0 {
		c, err := l.r.ReadByte()
		if err != nil {
			return 0, err
		}
		l.buf = utf8.AppendRune(l.buf[:0], rune(c))
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

type policyReader struct {
	d    *xml.Decoder
	file string
	m    *pomdp.Model
	p    VectorPolicy
	line int // line of the last token read
}

func (pr *policyReader) errf(line int, field, format string, args ...any) *ParseError {
	return &ParseError{File: pr.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// next returns the next token that is not a comment, processing
// instruction, directive or white space; io.EOF at the end.
func (pr *policyReader) next(inside string) (xml.Token, error) {
	for {
		tok, err := pr.d.Token()
		if err == io.EOF {
			if inside != "" {
				return nil, pr.errf(pr.line, "", "the file ends inside <%s> (truncated?)", inside)
			}
			return nil, io.EOF
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				if strings.Contains(se.Msg, "unexpected EOF") {
					return nil, pr.errf(se.Line, "", "the file ends inside an element (truncated?): %s", se.Msg)
				}
				return nil, pr.errf(se.Line, "", "not well-formed XML: %s", se.Msg)
			}
			return nil, &ParseError{File: pr.file, Line: pr.line, Msg: "read error: " + err.Error(), Err: err}
		}
		pr.line, _ = pr.d.InputPos()
		switch t := tok.(type) {
		case xml.Comment, xml.ProcInst, xml.Directive:
			continue
		case xml.CharData:
			if len(bytes.TrimSpace(t)) == 0 {
				continue
			}
			return t.Copy(), nil
		}
		return tok, nil
	}
}

func attrs(se xml.StartElement) map[string]string {
	a := make(map[string]string, len(se.Attr))
	for _, x := range se.Attr {
		if x.Name.Space == "" || x.Name.Space == se.Name.Space {
			a[x.Name.Local] = x.Value
		}
	}
	return a
}

// intAttr reads a non-negative integer attribute; ok is false when absent.
func (pr *policyReader) intAttr(a map[string]string, key, field string, line int) (v int, ok bool, err error) {
	s, ok := a[key]
	if !ok {
		return 0, false, nil
	}
	v, e := strconv.Atoi(strings.TrimSpace(s))
	if e != nil || v < 0 {
		return 0, true, pr.errf(line, field, "expected a non-negative integer, got %q", s)
	}
	return v, true, nil
}

func (pr *policyReader) read() (*VectorPolicy, error) {
	// <Policy>
	tok, err := pr.next("")
	if err == io.EOF {
		return nil, pr.errf(0, "", "empty file: expected a <Policy> element")
	}
	if err != nil {
		return nil, err
	}
	root, ok := tok.(xml.StartElement)
	if !ok || root.Name.Local != "Policy" {
		return nil, pr.errf(pr.line, "", "expected the root element <Policy>, got %s", tokDesc(tok))
	}
	ra := attrs(root)
	if t, ok := ra["type"]; ok && t != "value" {
		return nil, pr.errf(pr.line, "Policy, type", "%q: only policies of type \"value\" (alpha vectors) exist", t)
	}
	pr.p.Model = ra["model"]
	// <AlphaVector>
	tok, err = pr.next("Policy")
	if err != nil {
		return nil, err
	}
	av, ok := tok.(xml.StartElement)
	if !ok || av.Name.Local != "AlphaVector" {
		return nil, pr.errf(pr.line, "Policy", "expected <AlphaVector>, got %s", tokDesc(tok))
	}
	if err := pr.header(av); err != nil {
		return nil, err
	}
	declared, hasDeclared, err := pr.intAttr(attrs(av), "numVectors", "AlphaVector, numVectors", pr.line)
	if err != nil {
		return nil, err
	}
	avLine := pr.line
	for {
		tok, err := pr.next("AlphaVector")
		if err != nil {
			return nil, err
		}
		if end, ok := tok.(xml.EndElement); ok && end.Name.Local == "AlphaVector" {
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Vector" && se.Name.Local != "SparseVector" {
			return nil, pr.errf(pr.line, fmt.Sprintf("vector %d", len(pr.p.Vectors)), "expected <Vector>, <SparseVector> or </AlphaVector>, got %s", tokDesc(tok))
		}
		if err := pr.vector(se); err != nil {
			return nil, err
		}
	}
	if len(pr.p.Vectors) == 0 {
		return nil, pr.errf(avLine, "AlphaVector", "no vectors")
	}
	if hasDeclared && declared != len(pr.p.Vectors) {
		return nil, pr.errf(avLine, "AlphaVector, numVectors", "says %d vectors, the element holds %d", declared, len(pr.p.Vectors))
	}
	// </Policy>, then nothing but comments.
	tok, err = pr.next("Policy")
	if err != nil {
		return nil, err
	}
	if end, ok := tok.(xml.EndElement); !ok || end.Name.Local != "Policy" {
		return nil, pr.errf(pr.line, "Policy", "expected </Policy> after </AlphaVector> (SARSOP writes one <AlphaVector>), got %s", tokDesc(tok))
	}
	if tok, err := pr.next(""); err != io.EOF {
		if err != nil {
			return nil, err
		}
		return nil, pr.errf(pr.line, "", "unexpected %s after </Policy>", tokDesc(tok))
	}
	return &pr.p, nil
}

// header reads the attributes of <AlphaVector> and checks them against the
// model.
func (pr *policyReader) header(av xml.StartElement) error {
	a := attrs(av)
	line := pr.line
	n, ok, err := pr.intAttr(a, "vectorLength", "AlphaVector, vectorLength", line)
	if err != nil {
		return err
	}
	if !ok {
		return pr.errf(line, "AlphaVector", "missing the attribute vectorLength")
	}
	if n == 0 {
		return pr.errf(line, "AlphaVector, vectorLength", "must be at least 1")
	}
	x, ok, err := pr.intAttr(a, "numObsValue", "AlphaVector, numObsValue", line)
	if err != nil {
		return err
	}
	if !ok {
		x = 1
	}
	if x == 0 {
		return pr.errf(line, "AlphaVector, numObsValue", "must be at least 1")
	}
	if n > MaxPolicyEntries || x > MaxPolicyEntries/n {
		return pr.errf(line, "AlphaVector", "vectorLength %d × numObsValue %d states exceed the limit of %d", n, x, MaxPolicyEntries)
	}
	if pr.m != nil && n*x != pr.m.NumStates() {
		if x == 1 {
			return pr.errf(line, "AlphaVector, vectorLength", "%d, but the model has %d states", n, pr.m.NumStates())
		}
		return pr.errf(line, "AlphaVector", "vectorLength %d × numObsValue %d = %d states, but the model has %d (a model with fully observed variables must be read from its POMDPX file, whose flat states are numbered x·vectorLength + y)", n, x, n*x, pr.m.NumStates())
	}
	pr.p.VectorLength, pr.p.NumObsValue = n, x
	return nil
}

// vector reads one <Vector> or <SparseVector> whose start tag is se.
func (pr *policyReader) vector(se xml.StartElement) error {
	k := len(pr.p.Vectors)
	field := fmt.Sprintf("vector %d", k)
	line := pr.line
	if k >= MaxNodes {
		return pr.errf(line, field, "more than %d vectors (policy.MaxNodes)", MaxNodes)
	}
	if (k+1)*pr.p.VectorLength > MaxPolicyEntries {
		return pr.errf(line, field, "%d vectors × vectorLength %d exceed the limit of %d values (policy.MaxPolicyEntries)", k+1, pr.p.VectorLength, MaxPolicyEntries)
	}
	a := attrs(se)
	act, ok, err := pr.intAttr(a, "action", field+", action", line)
	if err != nil {
		return err
	}
	if !ok {
		return pr.errf(line, field, "missing the attribute action")
	}
	if pr.m != nil && act >= pr.m.NumActions() {
		return pr.errf(line, field+", action", "%d is not an action of the model (%d actions, 0 … %d)", act, pr.m.NumActions(), pr.m.NumActions()-1)
	}
	x, ok, err := pr.intAttr(a, "obsValue", field+", obsValue", line)
	if err != nil {
		return err
	}
	if !ok {
		return pr.errf(line, field, "missing the attribute obsValue")
	}
	if x >= pr.p.NumObsValue {
		return pr.errf(line, field+", obsValue", "%d is out of range (numObsValue is %d: 0 … %d)", x, pr.p.NumObsValue, pr.p.NumObsValue-1)
	}
	v := ObsVector{Alpha: Alpha{Action: act, V: make([]float64, pr.p.VectorLength)}, ObsValue: x, Sparse: se.Name.Local == "SparseVector"}
	if v.Sparse {
		err = pr.sparse(v.V, field)
	} else {
		err = pr.dense(v.V, field)
	}
	if err != nil {
		return err
	}
	pr.p.Vectors = append(pr.p.Vectors, v)
	return nil
}

// dense reads the numbers of a <Vector> and its end tag.
func (pr *policyReader) dense(v []float64, field string) error {
	start := pr.line
	tok, err := pr.next("Vector")
	if err != nil {
		return err
	}
	var text []byte
	if cd, ok := tok.(xml.CharData); ok {
		text = cd
		if tok, err = pr.next("Vector"); err != nil {
			return err
		}
	}
	if end, ok := tok.(xml.EndElement); !ok || end.Name.Local != "Vector" {
		return pr.errf(pr.line, field, "expected numbers and </Vector>, got %s", tokDesc(tok))
	}
	f := bytes.Fields(text)
	if len(f) != len(v) {
		return pr.errf(start, field, "%d numbers, want vectorLength = %d", len(f), len(v))
	}
	for i, b := range f {
		x, err := finite(b)
		if err != nil {
			return pr.errf(start, fmt.Sprintf("%s, entry %d", field, i), "%v", err)
		}
		v[i] = x
	}
	return nil
}

// sparse reads the <Entry> elements of a <SparseVector> and its end tag.
func (pr *policyReader) sparse(v []float64, field string) error {
	seen := make(map[int]bool)
	for {
		tok, err := pr.next("SparseVector")
		if err != nil {
			return err
		}
		if end, ok := tok.(xml.EndElement); ok && end.Name.Local == "SparseVector" {
			return nil
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Entry" {
			return pr.errf(pr.line, field, "expected <Entry> or </SparseVector>, got %s", tokDesc(tok))
		}
		line := pr.line
		tok, err = pr.next("Entry")
		if err != nil {
			return err
		}
		var text []byte
		if cd, ok := tok.(xml.CharData); ok {
			text = cd
			if tok, err = pr.next("Entry"); err != nil {
				return err
			}
		}
		if end, ok := tok.(xml.EndElement); !ok || end.Name.Local != "Entry" {
			return pr.errf(pr.line, field+", Entry", "expected \"index value\" and </Entry>, got %s", tokDesc(tok))
		}
		f := bytes.Fields(text)
		if len(f) != 2 {
			return pr.errf(line, field+", Entry", "expected \"index value\", got %q", clip(string(text)))
		}
		i, err := strconv.Atoi(string(f[0]))
		if err != nil || i < 0 || i >= len(v) {
			return pr.errf(line, field+", Entry", "index %q is not a state 0 … %d (vectorLength %d)", clip(string(f[0])), len(v)-1, len(v))
		}
		if seen[i] {
			return pr.errf(line, fmt.Sprintf("%s, Entry %d", field, i), "index given twice")
		}
		seen[i] = true
		x, err := finite(f[1])
		if err != nil {
			return pr.errf(line, fmt.Sprintf("%s, Entry %d", field, i), "%v", err)
		}
		v[i] = x
	}
}

func finite(b []byte) (float64, error) {
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("expected a finite number, got %q", clip(string(b)))
	}
	return x, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func tokDesc(tok xml.Token) string {
	switch t := tok.(type) {
	case xml.StartElement:
		return "<" + t.Name.Local + ">"
	case xml.EndElement:
		return "</" + t.Name.Local + ">"
	case xml.CharData:
		return fmt.Sprintf("the text %q", clip(strings.TrimSpace(string(t))))
	}
	return fmt.Sprintf("%T", tok)
}

// WritePolicy writes p in SARSOP's layout (AlphaPlanePoolSet::writeToFile):
// the XML declaration, <Policy version="0.1" type="value" model=…>, the
// <AlphaVector> start tag with vectorLength, numObsValue and numVectors,
// one line per vector (numbers each followed by a space; a <SparseVector>
// for a vector marked Sparse, listing its non-zero entries), and
// "</AlphaVector> </Policy>". Numbers are written in strconv's shortest
// form that reads back to the same float64, so ReadPolicy returns p bit
// for bit (SARSOP itself writes 6 significant digits). It returns an error
// for a vector whose length is not VectorLength, whose action is negative,
// whose ObsValue is out of range or which holds a non-finite number.
func WritePolicy(w io.Writer, p *VectorPolicy) error {
	if p.VectorLength < 1 || p.NumObsValue < 1 {
		return fmt.Errorf("policy: WritePolicy: vectorLength %d and numObsValue %d must be at least 1", p.VectorLength, p.NumObsValue)
	}
	if len(p.Vectors) == 0 {
		return fmt.Errorf("policy: WritePolicy: no vectors")
	}
	bw := bufio.NewWriter(w)
	var model bytes.Buffer
	xml.EscapeText(&model, []byte(p.Model))
	enc := "ISO-8859-1" // SARSOP's; a non-ASCII model name is written in UTF-8
	if !isASCII(p.Model) {
		enc = "UTF-8"
	}
	fmt.Fprintf(bw, "<?xml version=\"1.0\" encoding=\"%s\"?>\n", enc)
	fmt.Fprintf(bw, "<Policy version=\"0.1\" type=\"value\" model=\"%s\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"policyx.xsd\">\n", model.String())
	fmt.Fprintf(bw, "<AlphaVector vectorLength=\"%d\" numObsValue=\"%d\" numVectors=\"%d\">\n", p.VectorLength, p.NumObsValue, len(p.Vectors))
	buf := make([]byte, 0, 64)
	for k, v := range p.Vectors {
		if len(v.V) != p.VectorLength || v.Action < 0 || v.ObsValue < 0 || v.ObsValue >= p.NumObsValue {
			return fmt.Errorf("policy: WritePolicy: vector %d: %d values (want %d), action %d, obsValue %d (want 0 … %d)", k, len(v.V), p.VectorLength, v.Action, v.ObsValue, p.NumObsValue-1)
		}
		tag := "Vector"
		if v.Sparse {
			tag = "SparseVector"
		}
		fmt.Fprintf(bw, "<%s action=\"%d\" obsValue=\"%d\">", tag, v.Action, v.ObsValue)
		for i, x := range v.V {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("policy: WritePolicy: vector %d, entry %d is %v", k, i, x)
			}
			switch {
			case !v.Sparse:
				buf = strconv.AppendFloat(buf[:0], x, 'g', -1, 64)
				buf = append(buf, ' ')
			case x != 0:
				buf = append(buf[:0], "<Entry>"...)
				buf = strconv.AppendInt(buf, int64(i), 10)
				buf = append(buf, ' ')
				buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
				buf = append(buf, "</Entry>"...)
			default:
				continue
			}
			bw.Write(buf)
		}
		fmt.Fprintf(bw, "</%s>\n", tag)
	}
	bw.WriteString("</AlphaVector> </Policy>\n")
	return bw.Flush()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// SavePolicy writes p to the file at path (see WritePolicy).
func SavePolicy(path string, p *VectorPolicy) error {
	var buf bytes.Buffer
	if err := WritePolicy(&buf, p); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
