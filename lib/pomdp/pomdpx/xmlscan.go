package pomdpx

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// xmlScanner splits an XML document held in memory into the tokens the
// POMDPX reader needs: start tags (with attributes), end tags and text.
// Comments, processing instructions and the document type declaration are
// skipped; CDATA sections are text; the five predefined entities and
// character references are decoded. It is strict: anything that is not
// well-formed at the level of tokens (an unterminated tag, comment or
// attribute, "<" or an unknown entity in text, a control character,
// invalid UTF-8) is an error naming the line. Matching start and end tags
// is the caller's job. The reader uses it instead of encoding/xml, whose
// tokenizer costs several times more on the tens of millions of tokens of
// a large flat model; FuzzXMLScanner checks that both give the same
// tokens on every document encoding/xml accepts.
type xmlScanner struct {
	data []byte
	pos  int
	line int // line of data[pos]

	// The current token. name, text and attribute slices are valid until
	// the next call to next.
	kind    xmlKind
	name    []byte
	attrs   []xmlAttr
	text    []byte
	tokLine int  // line where the token starts
	empty   bool // a start tag closed by "/>": next returns its end tag

	scratch []byte
}

type xmlKind uint8

const (
	xmlEOF xmlKind = iota
	xmlStart
	xmlEnd
	xmlText
)

type xmlAttr struct {
	name, value []byte
}

// xmlError is a syntax error of the document.
type xmlError struct {
	line int
	msg  string
}

func (e *xmlError) Error() string { return fmt.Sprintf("line %d: XML: %s", e.line, e.msg) }

// newXMLScanner checks the characters of data (converting ISO-8859-1 to
// UTF-8 when the XML declaration says so) and returns a scanner.
func newXMLScanner(data []byte) (*xmlScanner, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	enc, err := declaredEncoding(data)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(enc) {
	case "", "utf-8", "utf8", "us-ascii", "ascii":
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1":
		data = latin1ToUTF8(data)
	default:
		return nil, &xmlError{line: 1, msg: fmt.Sprintf("unsupported encoding %q (want UTF-8, US-ASCII or ISO-8859-1)", enc)}
	}
	if err := checkChars(data); err != nil {
		return nil, err
	}
	return &xmlScanner{data: data, line: 1}, nil
}

// declaredEncoding returns the encoding of the XML declaration, if any.
func declaredEncoding(data []byte) (string, error) {
	if !bytes.HasPrefix(data, []byte("<?xml")) || len(data) < 6 || !isXMLSpace(data[5]) {
		return "", nil
	}
	end := bytes.Index(data, []byte("?>"))
	if end < 0 {
		return "", &xmlError{line: 1, msg: "unterminated XML declaration"}
	}
	decl := string(data[5:end])
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return "", nil
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if !strings.HasPrefix(rest, "=") {
		return "", &xmlError{line: 1, msg: "malformed encoding in the XML declaration"}
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if rest == "" || rest[0] != '"' && rest[0] != '\'' {
		return "", &xmlError{line: 1, msg: "malformed encoding in the XML declaration"}
	}
	j := strings.IndexByte(rest[1:], rest[0])
	if j < 0 {
		return "", &xmlError{line: 1, msg: "malformed encoding in the XML declaration"}
	}
	return rest[1 : 1+j], nil
}

func latin1ToUTF8(data []byte) []byte {
	high := 0
	for _, c := range data {
		if c >= 0x80 {
			high++
		}
	}
	if high == 0 {
		return data
	}
	out := make([]byte, 0, len(data)+high)
	for _, c := range data {
		if c < 0x80 {
			out = append(out, c)
		} else {
			out = append(out, 0xC0|c>>6, 0x80|c&0x3F)
		}
	}
	return out
}

// checkChars rejects control characters and invalid UTF-8.
func checkChars(data []byte) error {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for i := 0; i < len(data); i++ {
		// Eight bytes at a time while they are ASCII and none is below
		// 0x20 (a word holding a line break takes the byte loop).
		for i+8 <= len(data) {
			x := binary.LittleEndian.Uint64(data[i:])
			if (x|(x-0x20*lo))&hi != 0 {
				break
			}
			i += 8
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		if c >= 0x20 && c < 0x80 || c == '\n' || c == '\t' || c == '\r' {
			continue
		}
		line := 1 + bytes.Count(data[:i], []byte{'\n'})
		if c < 0x20 {
			return &xmlError{line: line, msg: fmt.Sprintf("illegal character code %U", rune(c))}
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return &xmlError{line: line, msg: "invalid UTF-8"}
		}
		if !isXMLChar(r) {
			return &xmlError{line: line, msg: fmt.Sprintf("illegal character code %U", r)}
		}
		i += n - 1
	}
	return nil
}

func (s *xmlScanner) errf(format string, args ...any) error {
	return &xmlError{line: s.line, msg: fmt.Sprintf(format, args...)}
}

// advance moves pos to end, counting lines.
func (s *xmlScanner) advance(end int) {
	s.line += bytes.Count(s.data[s.pos:end], []byte{'\n'})
	s.pos = end
}

// xmlMark is a position of the scanner between tokens (see mark).
type xmlMark struct {
	pos, line int
	empty     bool
}

// mark returns the scanner's position after the current token.
func (s *xmlScanner) mark() xmlMark { return xmlMark{s.pos, s.line, s.empty} }

// reset moves the scanner back (or forward) to a position mark returned.
func (s *xmlScanner) reset(m xmlMark) { s.pos, s.line, s.empty = m.pos, m.line, m.empty }

// next reads the next token into s.kind and its fields.
func (s *xmlScanner) next() error {
	if s.empty {
		s.empty = false
		s.kind = xmlEnd
		return nil
	}
	for {
		s.tokLine = s.line
		if s.pos >= len(s.data) {
			s.kind = xmlEOF
			return nil
		}
		if s.data[s.pos] != '<' {
			return s.scanText()
		}
		rest := s.data[s.pos:]
		// The common tokens first: an end tag, a start tag.
		if len(rest) > 1 && rest[1] == '/' {
			return s.scanEnd()
		}
		if len(rest) > 1 && rest[1] != '!' && rest[1] != '?' {
			return s.scanStart()
		}
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			end := bytes.Index(rest[4:], []byte("-->"))
			if end < 0 {
				return s.errf("unterminated comment")
			}
			s.advance(s.pos + 4 + end + 3)
		case bytes.HasPrefix(rest, []byte("<?")):
			end := bytes.Index(rest[2:], []byte("?>"))
			if end < 0 {
				return s.errf("unterminated processing instruction")
			}
			s.advance(s.pos + 2 + end + 2)
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			end := bytes.Index(rest[9:], []byte("]]>"))
			if end < 0 {
				return s.errf("unterminated CDATA section")
			}
			s.kind = xmlText
			s.text = rest[9 : 9+end]
			s.advance(s.pos + 9 + end + 3)
			return nil
		case bytes.HasPrefix(rest, []byte("<!")):
			if err := s.skipDirective(); err != nil {
				return err
			}
		case bytes.HasPrefix(rest, []byte("</")):
			return s.scanEnd()
		default:
			return s.scanStart()
		}
	}
}

// scanText reads character data up to the next "<".
func (s *xmlScanner) scanText() error {
	end := bytes.IndexByte(s.data[s.pos:], '<')
	if end < 0 {
		end = len(s.data) - s.pos
	}
	raw := s.data[s.pos : s.pos+end]
	s.kind = xmlText
	if bytes.IndexByte(raw, '&') < 0 {
		s.text = raw
		s.advance(s.pos + end)
		return nil
	}
	t, err := s.decode(raw, false)
	if err != nil {
		return err
	}
	s.text = t
	s.advance(s.pos + end)
	return nil
}

// decode replaces entity and character references in raw.
func (s *xmlScanner) decode(raw []byte, attr bool) ([]byte, error) {
	out := s.scratch[:0]
	if attr {
		out = nil // attribute values must survive the next decode
	}
	line := s.line
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\n' {
			line++
		}
		if c != '&' {
			out = append(out, c)
			continue
		}
		semi := bytes.IndexByte(raw[i:], ';')
		if semi < 0 {
			return nil, &xmlError{line: line, msg: "invalid character entity (no semicolon)"}
		}
		ent := string(raw[i+1 : i+semi])
		switch ent {
		case "lt":
			out = append(out, '<')
		case "gt":
			out = append(out, '>')
		case "amp":
			out = append(out, '&')
		case "apos":
			out = append(out, '\'')
		case "quot":
			out = append(out, '"')
		default:
			r, ok := charRef(ent)
			if !ok {
				return nil, &xmlError{line: line, msg: fmt.Sprintf("invalid character entity &%s;", clip(ent))}
			}
			out = utf8.AppendRune(out, r)
		}
		i += semi
	}
	if !attr {
		s.scratch = out
	}
	return out, nil
}

// charRef decodes "#N" or "#xH".
func charRef(ent string) (rune, bool) {
	if len(ent) < 2 || ent[0] != '#' {
		return 0, false
	}
	var n uint64
	var err error
	if ent[1] == 'x' {
		if len(ent) < 3 {
			return 0, false
		}
		n, err = strconv.ParseUint(ent[2:], 16, 32)
	} else {
		n, err = strconv.ParseUint(ent[1:], 10, 32)
	}
	if err != nil || !isXMLChar(rune(n)) {
		return 0, false
	}
	return rune(n), true
}

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
}

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '-' || c == '.'
}

// scanName reads a name at s.pos.
func (s *xmlScanner) scanName() ([]byte, error) {
	start := s.pos
	if s.pos >= len(s.data) || !isNameStart(s.data[s.pos]) {
		if s.pos >= len(s.data) {
			return nil, s.errf("unexpected end of file in a tag")
		}
		return nil, s.errf("invalid XML name starting with %q", s.data[s.pos])
	}
	for s.pos < len(s.data) && isNameByte(s.data[s.pos]) {
		s.pos++
	}
	return s.data[start:s.pos], nil
}

func (s *xmlScanner) skipSpace() {
	for s.pos < len(s.data) && isXMLSpace(s.data[s.pos]) {
		if s.data[s.pos] == '\n' {
			s.line++
		}
		s.pos++
	}
}

func (s *xmlScanner) scanEnd() error {
	s.pos += 2
	name, err := s.scanName()
	if err != nil {
		return err
	}
	s.skipSpace()
	if s.pos >= len(s.data) || s.data[s.pos] != '>' {
		return s.errf("invalid characters between </%s and >", name)
	}
	s.pos++
	s.kind, s.name = xmlEnd, name
	return nil
}

func (s *xmlScanner) scanStart() error {
	s.pos++
	name, err := s.scanName()
	if err != nil {
		return err
	}
	s.kind, s.name, s.attrs = xmlStart, name, s.attrs[:0]
	for {
		s.skipSpace()
		if s.pos >= len(s.data) {
			return s.errf("unexpected end of file in <%s>", name)
		}
		switch s.data[s.pos] {
		case '>':
			s.pos++
			return nil
		case '/':
			if s.pos+1 >= len(s.data) || s.data[s.pos+1] != '>' {
				return s.errf("expected /> in element <%s>", name)
			}
			s.pos += 2
			s.empty = true
			return nil
		}
		an, err := s.scanName()
		if err != nil {
			return err
		}
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != '=' {
			return s.errf("attribute %s of <%s> has no value", an, name)
		}
		s.pos++
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' && s.data[s.pos] != '\'' {
			return s.errf("unquoted or missing value of attribute %s", an)
		}
		q := s.data[s.pos]
		end := bytes.IndexByte(s.data[s.pos+1:], q)
		if end < 0 {
			return s.errf("unterminated value of attribute %s", an)
		}
		raw := s.data[s.pos+1 : s.pos+1+end]
		if bytes.IndexByte(raw, '<') >= 0 {
			return s.errf("unescaped < in the value of attribute %s", an)
		}
		for _, a := range s.attrs {
			if bytes.Equal(a.name, an) {
				return s.errf("attribute %s appears twice in <%s>", an, name)
			}
		}
		val := raw
		if bytes.IndexByte(raw, '&') >= 0 {
			if val, err = s.decode(raw, true); err != nil {
				return err
			}
		}
		s.attrs = append(s.attrs, xmlAttr{name: an, value: val})
		s.advance(s.pos + 1 + end + 1)
	}
}

// skipDirective skips "<!DOCTYPE …>" and other "<!" declarations as
// encoding/xml does: up to the ">" that balances the "<"s inside, outside
// quotes and comments.
func (s *xmlScanner) skipDirective() error {
	depth := 0
	var quote byte
	// Like encoding/xml, the character after "<!" is taken as it is.
	for i := s.pos + 3; i < len(s.data); i++ {
		c := s.data[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '<':
			if bytes.HasPrefix(s.data[i+1:], []byte("!--")) {
				end := bytes.Index(s.data[i+4:], []byte("-->"))
				if end < 0 {
					return s.errf("unterminated comment")
				}
				i += 4 + end + 2
				continue
			}
			depth++
		case c == '>':
			if depth == 0 {
				s.advance(i + 1)
				return nil
			}
			depth--
		}
	}
	return s.errf("unterminated <! declaration")
}
