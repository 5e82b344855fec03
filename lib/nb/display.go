package nb

import (
	"fmt"
	"html"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// Output receives the plain-text form of every display when the program does
// not run inside a GoNB notebook, and the lines written by [Check] always.
// If it is nil, as it is unless the program sets it, text goes to os.Stdout
// (whatever os.Stdout is at the time of writing). It must not be changed while
// displays run concurrently.
var Output io.Writer

// output returns the writer for plain text.
func output() io.Writer {
	if Output == nil {
		return os.Stdout
	}
	return Output
}

// The hooks below connect the package to GoNB. Tests replace them to capture
// the MIME bundles that a notebook would receive.
var (
	inNotebook = func() bool { return gonbui.IsNotebook }
	sendData   = gonbui.SendData
	syncFront  = gonbui.Sync
	uniqueID   = gonbui.UniqueId
)

// IsNotebook reports whether the program runs inside a GoNB notebook cell, in
// which case displays are sent to the notebook instead of [Output].
func IsNotebook() bool { return inNotebook() }

// bundle is one display: rich forms for the notebook and the plain-text form.
type bundle struct {
	html     string
	markdown string
	png      []byte
	text     string
}

// show sends b to the notebook (replacing the display with the same id when
// id is not empty) or writes its text form to Output.
func show(id string, b bundle) {
	if !inNotebook() {
		writeText(b.text)
		return
	}
	data := map[protocol.MIMEType]any{protocol.MIMETextPlain: b.text}
	if b.html != "" {
		data[protocol.MIMETextHTML] = b.html
	}
	if b.markdown != "" {
		data[protocol.MIMETextMarkdown] = b.markdown
	}
	if b.png != nil {
		data[protocol.MIMEImagePNG] = b.png
	}
	sendData(&protocol.DisplayData{Data: data, DisplayID: id})
	// Wait until GoNB has published the display, so that it keeps its place
	// relative to what the cell prints afterwards.
	syncFront()
}

// writeText writes s to Output, ending it with a newline.
func writeText(s string) {
	if s == "" {
		return
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	_, _ = io.WriteString(output(), s)
}

// HTML displays an HTML fragment. Outside a notebook it writes the fragment's
// text, with tags removed and entities decoded, to [Output].
func HTML(fragment string) {
	show("", bundle{html: fragment, text: stripTags(fragment)})
}

// Markdown displays Markdown text (with $…$ and $$…$$ for mathematics).
// Outside a notebook it writes the Markdown source to [Output].
func Markdown(md string) {
	show("", bundle{markdown: md, text: md})
}

// LaTeX displays a displayed formula, given without the surrounding $$, such
// as `\mathrm{W}_1(\mu,\nu) \le \varepsilon`. Outside a notebook it writes the
// formula's source to [Output].
func LaTeX(formula string) {
	formula = strings.TrimSpace(formula)
	show("", bundle{markdown: "$$\n" + formula + "\n$$", text: formula})
}

// Check writes the line "CHECK name=value" to [Output], inside a notebook and
// out of it. These lines are a notebook's key numbers: the checker
// scripts/nbcheck.py compares them with notebooks/checks/NAME.json (see
// notebooks/README.md). A float64 or float32 is written in the shortest form
// that reads back to the same value; any other value with fmt.Sprint.
//
// Check panics if name is empty or contains white space or '='.
func Check(name string, value any) {
	if name == "" || strings.ContainsAny(name, "= \t\r\n") {
		panic(fmt.Sprintf("nb: bad check name %q", name))
	}
	var v string
	switch x := value.(type) {
	case float64:
		v = strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		v = strconv.FormatFloat(float64(x), 'g', -1, 32)
	default:
		v = fmt.Sprint(value)
	}
	v = strings.ReplaceAll(v, "\n", " ")
	_, _ = fmt.Fprintf(output(), "CHECK %s=%s\n", name, v)
}

// stripTags returns the text of an HTML fragment: tags removed, entities
// decoded, blank lines collapsed. It is a display fallback, not a sanitizer.
func stripTags(fragment string) string {
	var sb strings.Builder
	depth := 0
	for _, r := range fragment {
		switch {
		case r == '<':
			depth++
		case r == '>' && depth > 0:
			depth--
		case depth == 0:
			sb.WriteRune(r)
		}
	}
	lines := strings.Split(html.UnescapeString(sb.String()), "\n")
	kept := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			kept = append(kept, strings.TrimRight(l, " \t"))
		}
	}
	return strings.Join(kept, "\n")
}
