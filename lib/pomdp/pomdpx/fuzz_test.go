package pomdpx

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
)

// pxSeeds are the documents the fuzz tests start from.
func pxSeeds(f *testing.F) {
	for _, name := range []string{"tiger.pomdpx", "robot.pomdpx"} {
		src, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* - -|identity", "a s0 -|0.5 0.5"))))
	f.Add([]byte(pxDoc(pxFactVars, pomdptest.PXCondProb("x_0", "null", "x0|1")+pomdptest.PXCondProb("y_0", "x_0", "x0 -|0.4 0.6", "x1 -|uniform"),
		pomdptest.PXCondProb("x_1", "act x_0", "go - -|0.7 0.3 0.2 0.8")+pomdptest.PXCondProb("y_1", "act x_1 y_0", "go x0 * -|0.9 0.1", "go x1 - -|identity"),
		pomdptest.PXCondProb("o", "act y_1", "go - -|0.8 0.2 0.25 0.75"), pomdptest.PXFunc("r1", "act y_0", "go y1|5")+pomdptest.PXFunc("r2", "act x_1 o", "go x1 o1|2"))))
	f.Add([]byte(pomdptest.DetailPOMDPX)) // a reward of s' and o: a reward table
	twoRewards := strings.NewReplacer("<Variable>", `<Variable><RewardVar vname="r2"/>`,
		"</RewardFunction>", pomdptest.PXFunc("r2", "s_0 s_1 o", "- left -|1 2 3 4", "right right quiet|3")+"</RewardFunction>").Replace(pomdptest.DetailPOMDPX)
	f.Add([]byte(twoRewards))
	f.Add([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><!DOCTYPE pomdpx [<!ENTITY x "y">]><pomdpx a='&lt;&#65;'><![CDATA[<x>]]></pomdpx>`))
}

// FuzzReadPOMDPX: no input makes the reader panic; every error is a
// *ParseError; every model it returns is valid and survives a round trip
// through Write unchanged.
func FuzzReadPOMDPX(f *testing.F) {
	pxSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data), "fuzz.pomdpx", pomdp.MaxSize(64), pomdp.MaxEntries(100000))
		if err != nil {
			var pe *pomdp.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, want *ParseError", err, err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Read returned an invalid model: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, m); err != nil {
			t.Fatalf("Write: %v", err)
		}
		back, err := Read(&buf, "fuzz.pomdpx")
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, buf.String())
		}
		back.Name = m.Name
		if err := pomdptest.SameModel(back, m); err != nil {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// scanTokens lists the tokens of our scanner as text, adjacent text merged.
func scanTokens(data []byte) ([]string, error) {
	s, err := newXMLScanner(data)
	if err != nil {
		return nil, err
	}
	var out []string
	text := ""
	flush := func() {
		if text != "" {
			out = append(out, "T"+text)
			text = ""
		}
	}
	for {
		if err := s.next(); err != nil {
			return nil, err
		}
		switch s.kind {
		case xmlEOF:
			flush()
			return out, nil
		case xmlText:
			text += normNL(string(s.text))
		case xmlStart:
			flush()
			tok := "S" + string(s.name)
			for _, a := range s.attrs {
				tok += fmt.Sprintf(" %s=%q", a.name, normNL(string(a.value)))
			}
			out = append(out, tok)
		case xmlEnd:
			flush()
			out = append(out, "E"+string(s.name))
		}
	}
}

// errDuplicateAttr is what stdTokens returns for a start tag that holds an
// attribute twice: encoding/xml accepts it, but XML 1.0's well-formedness
// constraint "Unique Att Spec" forbids it.
var errDuplicateAttr = errors.New("not well-formed: an attribute appears twice in one start tag (XML 1.0, Unique Att Spec)")

// stdTokens lists encoding/xml's raw tokens in the same form. A start tag
// with a duplicated attribute name (as written, prefix included) stops it
// with errDuplicateAttr.
func stdTokens(data []byte) ([]string, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	full := func(n xml.Name) string {
		if n.Space != "" {
			return n.Space + ":" + n.Local
		}
		return n.Local
	}
	var out []string
	text := ""
	flush := func() {
		if text != "" {
			out = append(out, "T"+text)
			text = ""
		}
	}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			flush()
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.CharData:
			text += normNL(string(tok))
		case xml.StartElement:
			flush()
			s := "S" + full(tok.Name)
			seen := map[string]bool{}
			for _, a := range tok.Attr {
				if seen[full(a.Name)] {
					return nil, fmt.Errorf("<%s>, attribute %s: %w", full(tok.Name), full(a.Name), errDuplicateAttr)
				}
				seen[full(a.Name)] = true
				s += fmt.Sprintf(" %s=%q", full(a.Name), normNL(a.Value))
			}
			out = append(out, s)
		case xml.EndElement:
			flush()
			out = append(out, "E"+full(tok.Name))
		}
	}
}

// charRefPattern matches XML character references.
var charRefPattern = regexp.MustCompile(`&#(x[0-9A-Fa-f]+|[0-9]+);`)

// illegalCharRef returns the first character reference of data to a code
// point outside XML 1.0's Char production (§2.2: #x9 | #xA | #xD |
// [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]), or "".
func illegalCharRef(data []byte) string {
	for _, m := range charRefPattern.FindAllSubmatch(data, -1) {
		digits, base := string(m[1]), 10
		if digits[0] == 'x' {
			digits, base = digits[1:], 16
		}
		n, err := strconv.ParseUint(digits, base, 64)
		legal := err == nil && (n == 0x9 || n == 0xA || n == 0xD ||
			0x20 <= n && n <= 0xD7FF || 0xE000 <= n && n <= 0xFFFD || 0x10000 <= n && n <= 0x10FFFF)
		if !legal {
			return string(m[0])
		}
	}
	return ""
}

func normNL(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// FuzzXMLScanner: on every document encoding/xml tokenizes without error
// (in UTF-8, without control characters or a byte order mark), our
// scanner gives the same start tags, attributes, end tags and text.
//
// One exemption: encoding/xml accepts a start tag that holds the same
// attribute twice, which XML 1.0's well-formedness constraint "Unique Att
// Spec" forbids. Such a document (detected from encoding/xml's own tokens)
// is not compared; our scanner must refuse it instead, saying so.
//
// A second: encoding/xml turns a character reference to a code point that
// is not an XML Char (a surrogate such as &#55700;, U+FFFE, …) into U+FFFD,
// where XML 1.0's constraint "Legal Character" makes the document
// ill-formed. Our scanner's refusal of such a document, naming the
// entity, is accepted; were it to read it, the tokens are compared.
func FuzzXMLScanner(f *testing.F) {
	pxSeeds(f)
	f.Add([]byte(`<a x="1"y='2'>t&amp;<!-- c -->u<b/></a>`))
	f.Add([]byte("<a>\r\n<b c=\"\r\n\">x</b></a>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		mine, err := scanTokens(data)
		if !utf8.Valid(data) || bytes.Contains(data, []byte("encoding")) || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
			return
		}
		for _, c := range data {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return
			}
		}
		std, stdErr := stdTokens(data)
		if illegalCharRef(data) != "" && err != nil && strings.Contains(err.Error(), "invalid character entity") {
			// Refused as XML 1.0 requires. (A reference inside a comment
			// or CDATA is no reference: then both must agree below.)
			return
		}
		if errors.Is(stdErr, errDuplicateAttr) {
			if err == nil || !strings.Contains(err.Error(), "appears twice") {
				t.Fatalf("encoding/xml: %v; our scanner: %v, want it to refuse the document\n%q", stdErr, err, data)
			}
			return
		}
		if stdErr != nil {
			return
		}
		if err != nil {
			t.Fatalf("encoding/xml reads the document, our scanner fails: %v\n%q", err, data)
		}
		if strings.Join(mine, "\x00") != strings.Join(std, "\x00") {
			t.Fatalf("tokens differ\nours: %q\nstd:  %q\ndoc: %q", mine, std, data)
		}
	})
}

// TestIllegalCharRef: the fuzz target's exemption covers exactly the
// references outside XML 1.0's Char production.
func TestIllegalCharRef(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"<a>&#55700;</a>", "&#55700;"},
		{"<a>&#xD800;</a>", "&#xD800;"},
		{"<a>&#xFFFE;</a>", "&#xFFFE;"},
		{"<a>&#1;</a>", "&#1;"},
		{"<a>&#x110000;</a>", "&#x110000;"},
		{"<a>&#65;&#x10FFFF;&#9;&#xE000;</a>", ""},
		{"<a>&amp;#55700;</a>", ""},
	} {
		if got := illegalCharRef([]byte(c.doc)); got != c.want {
			t.Errorf("illegalCharRef(%q) = %q, want %q", c.doc, got, c.want)
		}
	}
}
