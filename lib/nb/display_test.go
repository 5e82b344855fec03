package nb

import (
	"math"
	"strings"
	"testing"

	"github.com/janpfeifer/gonb/gonbui/protocol"
)

func TestTextFallback(t *testing.T) {
	tests := []struct {
		name string
		show func()
		want string
	}{
		{"html", func() { HTML("<p>a &lt; b</p>\n\n<p><b>c</b></p>") }, "a < b\nc\n"},
		{"markdown", func() { Markdown("# Title\n*x*") }, "# Title\n*x*\n"},
		{"latex", func() { LaTeX("  \\varepsilon \\le 1 ") }, "\\varepsilon \\le 1\n"},
		{"empty html", func() { HTML("<br/>") }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf := captureText(t)
			tt.show()
			if got := buf.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNotebookBundles(t *testing.T) {
	sent, out := fakeNotebook(t)
	HTML("<b>x</b>")
	Markdown("*y*")
	LaTeX("z^2")
	if out.Len() != 0 {
		t.Errorf("notebook displays wrote %q to Output", out.String())
	}
	want := []map[protocol.MIMEType]any{
		{protocol.MIMETextHTML: "<b>x</b>", protocol.MIMETextPlain: "x"},
		{protocol.MIMETextMarkdown: "*y*", protocol.MIMETextPlain: "*y*"},
		{protocol.MIMETextMarkdown: "$$\nz^2\n$$", protocol.MIMETextPlain: "z^2"},
	}
	if len(*sent) != len(want) {
		t.Fatalf("sent %d displays, want %d", len(*sent), len(want))
	}
	for i, d := range *sent {
		if d.DisplayID != "" {
			t.Errorf("display %d: unexpected id %q", i, d.DisplayID)
		}
		if len(d.Data) != len(want[i]) {
			t.Errorf("display %d: %v, want %v", i, d.Data, want[i])
		}
		for k, v := range want[i] {
			if d.Data[k] != v {
				t.Errorf("display %d: %s = %q, want %q", i, k, d.Data[k], v)
			}
		}
	}
}

// tenth is a variable so that tenth+0.2 is computed in float64.
var tenth = 0.1

func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"tiger.states", 2, "CHECK tiger.states=2\n"},
		{"v", tenth + 0.2, "CHECK v=0.30000000000000004\n"}, // a run-time sum, not the exact constant 0.3
		{"f32", float32(0.1), "CHECK f32=0.1\n"},
		{"nan", math.NaN(), "CHECK nan=NaN\n"},
		{"s", "two\nlines", "CHECK s=two lines\n"},
	}
	for _, tt := range tests {
		buf := captureText(t)
		Check(tt.name, tt.value)
		if got := buf.String(); got != tt.want {
			t.Errorf("Check(%q, %v) wrote %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
	// Check lines go to Output inside a notebook too.
	_, out := fakeNotebook(t)
	Check("x", 1)
	if out.String() != "CHECK x=1\n" {
		t.Errorf("in a notebook, Check wrote %q", out.String())
	}
}

func TestCheckBadName(t *testing.T) {
	for _, name := range []string{"", "a b", "a=b", "a\tb"} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "nb: ") {
					t.Errorf("Check(%q): recovered %v, want an nb: panic", name, r)
				}
			}()
			Check(name, 1)
		}()
	}
}
