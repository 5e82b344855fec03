package modelfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpx"
)

// Load reads a model from a file, choosing the format by extension:
// ".pomdp" (any letter case, e.g. ".POMDP") is Cassandra's format
// (cassandra.Read), ".pomdpx" and ".xml" are POMDPX (pomdpx.Read) and ".json"
// is the JSON format (pomdpjson.Read). A ".pomdp" or ".json" file whose content
// is XML (its first non-blank character is "<") is read as POMDPX, as is
// a file of another extension that starts like a POMDPX document. The
// model's Name is the file's base name without the extension. Errors are
// *pomdp.ParseError values naming path and line, or os errors.
func Load(path string, opts ...pomdp.ReadOption) (*pomdp.Model, error) {
	f, err := os.Open(path)
	if err != nil {
		if !knownExt(path) {
			return nil, unknownExt(path)
		}
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opts...)
}

// Read is Load's counterpart for content already at hand (a file
// dropped on a web page, an embedded file): it reads a model from r,
// choosing the format by the extension of path and by the content as
// Load does, and names path in its errors and the model. Nothing is
// opened: path is only a name.
func Read(r io.Reader, path string, opts ...pomdp.ReadOption) (*pomdp.Model, error) {
	ext := filepath.Ext(path)
	if strings.EqualFold(ext, ".pomdpx") || strings.EqualFold(ext, ".xml") {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		return pomdpx.ReadBytes(data, path, opts...)
	}
	br := bufio.NewReaderSize(r, 1<<16)
	switch {
	case sniffXML(br):
		return pomdpx.Read(br, path, opts...)
	case strings.EqualFold(ext, ".pomdp"):
		return cassandra.Read(br, path, opts...)
	case strings.EqualFold(ext, ".json"):
		return pomdpjson.Read(br, path, opts...)
	}
	return nil, unknownExt(path)
}

// knownExt reports whether path has an extension Load reads.
func knownExt(path string) bool {
	ext := filepath.Ext(path)
	for _, e := range []string{".pomdp", ".pomdpx", ".xml", ".json"} {
		if strings.EqualFold(ext, e) {
			return true
		}
	}
	return false
}

func unknownExt(path string) error {
	return fmt.Errorf("pomdp: %s: unknown model file extension %q (want .pomdp, .pomdpx or .json)", path, filepath.Ext(path))
}

// sniffXML reports whether the buffered content starts, after white space
// and a byte order mark, with "<" (no .pomdp or JSON document does).
func sniffXML(br *bufio.Reader) bool {
	for n := 1; n <= 4096; n++ {
		b, err := br.Peek(n)
		if len(b) < n || err != nil {
			return false
		}
		c := b[n-1]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case n <= 3 && (c == 0xEF || c == 0xBB || c == 0xBF):
			continue // UTF-8 byte order mark
		}
		return c == '<'
	}
	return false
}

// Save writes m to path in the format chosen by the extension, as
// Load reads it (cassandra.Write for ".pomdp", pomdpx.Write for
// ".pomdpx", pomdpjson.Write for ".json").
func Save(path string, m *pomdp.Model) error {
	ext := filepath.Ext(path)
	var write func(*bufio.Writer) error
	switch {
	case strings.EqualFold(ext, ".pomdp"):
		write = func(w *bufio.Writer) error { return cassandra.Write(w, m) }
	case strings.EqualFold(ext, ".pomdpx"):
		write = func(w *bufio.Writer) error { return pomdpx.Write(w, m) }
	case strings.EqualFold(ext, ".json"):
		write = func(w *bufio.Writer) error { return pomdpjson.Write(w, m) }
	default:
		return fmt.Errorf("pomdp: %s: unknown model file extension %q (want .pomdp, .pomdpx or .json)", path, ext)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
