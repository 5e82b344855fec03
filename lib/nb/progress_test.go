package nb

import (
	"strings"
	"testing"
)

func TestProgressText(t *testing.T) {
	buf := captureText(t)
	p := NewProgress("distances")
	f := p.Func()
	for i := 0; i <= 200; i++ {
		f(i, 200)
	}
	p.Finish()
	p.Update(5, 10) // ignored after Finish
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	// One line per tenth (0%, 10%, ..., 100%) and the final line.
	if len(lines) != 12 {
		t.Fatalf("got %d lines:\n%s", len(lines), buf.String())
	}
	for i, want := range []string{"distances: 0/200 (0%)", "distances: 20/200 (10%)", "distances: 200/200 (100%)"} {
		idx := []int{0, 1, 10}[i]
		if lines[idx] != want {
			t.Errorf("line %d = %q, want %q", idx, lines[idx], want)
		}
	}
	if !strings.HasPrefix(lines[11], "distances: 200/200 (100%), finished in ") {
		t.Errorf("last line %q", lines[11])
	}
}

func TestProgressUnknownTotal(t *testing.T) {
	buf := captureText(t)
	p := NewProgress("runs")
	for i := 1; i <= 100; i++ {
		p.Update(i, 0)
	}
	// Shown at 1, 2, 4, 8, 16, 32, 64.
	if got := strings.Count(buf.String(), "\n"); got != 7 {
		t.Errorf("got %d lines:\n%s", got, buf.String())
	}
	if !strings.Contains(buf.String(), "runs: 64 done\n") {
		t.Errorf("output:\n%s", buf.String())
	}
}

func TestProgressNotebook(t *testing.T) {
	sent, out := fakeNotebook(t)
	p := NewProgress("a<b")
	for i := 0; i <= 1000; i++ {
		p.Update(i, 1000)
	}
	p.Finish()
	if out.Len() != 0 {
		t.Errorf("wrote %q to Output", out.String())
	}
	// One display per whole percentage, plus the final one.
	if len(*sent) != 102 {
		t.Errorf("sent %d updates, want 102", len(*sent))
	}
	for _, d := range *sent {
		if d.DisplayID != "pomdpq-progress-a" {
			t.Fatalf("display id %q, want the same id for every update", d.DisplayID)
		}
	}
	last := (*sent)[len(*sent)-1].Data
	h, _ := last["text/html"].(string)
	if !strings.Contains(h, "a&lt;b") || !strings.Contains(h, "width:100%") || !strings.Contains(h, "1000/1000 (100%), finished in") {
		t.Errorf("final HTML %q", h)
	}
	cells(t, h) // well-formed
	q := NewProgress("second")
	q.Update(1, 2)
	if id := (*sent)[len(*sent)-1].DisplayID; id != "pomdpq-progress-b" {
		t.Errorf("second progress id %q", id)
	}
}

func TestProgressPhases(t *testing.T) {
	buf := captureText(t)
	p := NewProgress("tiger")
	p.Phase("classes")
	p.Update(3, 3)
	p.Phase("distances")
	p.Update(0, 50)
	p.Update(50, 50)
	p.Finish()
	out := buf.String()
	for _, want := range []string{"tiger · classes: 3/3 (100%)", "tiger · distances: 0/50 (0%)", "tiger · distances: 50/50 (100%)", "tiger · distances: 50/50 (100%), finished in "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
