package nb

import (
	"fmt"
	"html"
	"sync"
	"time"
)

// Progress shows how far a long computation has come. Inside a notebook it is
// one bar, updated in place whenever the whole percentage changes; outside a
// notebook it writes a line to [Output] at every tenth of the way. Its methods
// may be called from several goroutines.
//
//	p := nb.NewProgress("distances")
//	run(settings, p.Func()) // run calls the func(done, total int) it is given
//	p.Finish()
type Progress struct {
	label string
	base  string // label without the phase

	mu       sync.Mutex
	id       string // GoNB display id, set on the first notebook update
	start    time.Time
	lastStep int // last percentage (notebook) or tenth (text) shown; -1 before any
	lastDone int // last count shown when the total is unknown
	done     int
	total    int
	finished bool
}

// NewProgress returns a progress display labelled label; nothing is shown
// before the first update.
func NewProgress(label string) *Progress {
	return &Progress{label: label, base: label, lastStep: -1}
}

// Phase starts a new phase of the computation: the label becomes
// "label · name" and the count starts again (the bar is the same display,
// updated in place). It fits the Phase callbacks of distance.Options.
func (p *Progress) Phase(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.label = p.base
	if name != "" {
		p.label += " · " + name
	}
	p.done, p.total, p.lastStep, p.lastDone = 0, 0, -1, 0
}

// Func returns p.Update as a callback, for code that reports progress through
// a func(done, total int).
func (p *Progress) Func() func(done, total int) { return p.Update }

// Update records that done of total units of work are complete and refreshes
// the display if the shown percentage changes. A total of zero or less means
// unknown: the count alone is shown, each time it has doubled. Updates after
// [Progress.Finish] are ignored.
func (p *Progress) Update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	if p.start.IsZero() {
		p.start = time.Now()
	}
	p.done, p.total = done, total
	notebook := inNotebook()
	var step int
	switch {
	case total <= 0:
		if p.lastStep >= 0 && done < 2*max(p.lastDone, 1) {
			return
		}
		p.lastDone = done
		step = 0
	case notebook:
		step = percent(done, total)
	default:
		step = percent(done, total) / 10
	}
	if total > 0 && step == p.lastStep {
		return
	}
	p.lastStep = step
	p.showLocked(notebook)
}

// Finish shows the final state (the last update, marked done, with the time
// taken) and stops further updates.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	if p.start.IsZero() {
		p.start = time.Now()
	}
	p.finished = true
	p.showLocked(inNotebook())
}

func percent(done, total int) int {
	switch {
	case done <= 0:
		return 0
	case done >= total:
		return 100
	}
	return int(int64(done) * 100 / int64(total))
}

// showLocked displays the current state; p.mu must be held.
func (p *Progress) showLocked(notebook bool) {
	elapsed := time.Since(p.start).Round(100 * time.Millisecond)
	var count string
	if p.total > 0 {
		count = fmt.Sprintf("%d/%d (%d%%)", p.done, p.total, percent(p.done, p.total))
	} else {
		count = fmt.Sprintf("%d done", p.done)
	}
	if p.finished {
		count += fmt.Sprintf(", finished in %v", elapsed)
	}
	text := p.label + ": " + count
	if !notebook {
		writeText(text)
		return
	}
	if p.id == "" {
		p.id = "pomdpq-progress-" + uniqueID()
	}
	width := 0
	if p.total > 0 {
		width = percent(p.done, p.total)
	} else if p.finished {
		width = 100
	}
	running := ""
	if !p.finished {
		running = fmt.Sprintf(` <span style="color:#888">%v</span>`, elapsed)
	}
	h := fmt.Sprintf(`<div class="pomdpq-progress" style="font-family:monospace">%s `+
		`<span style="display:inline-block;width:200px;height:0.8em;border:1px solid #888;vertical-align:middle">`+
		`<span style="display:block;height:100%%;width:%d%%;background:#4c8eda"></span></span> %s%s</div>`,
		html.EscapeString(p.label), width, html.EscapeString(count), running)
	show(p.id, bundle{html: h, text: text})
}
