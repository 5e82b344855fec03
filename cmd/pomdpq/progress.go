package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// reporter shows what a long command is doing on stderr: an in-place line
// per phase with a count and a bar when stderr is a terminal, otherwise
// one plain line when a phase ends (so logs stay readable). It also keeps
// the wall time of every phase for the JSON output.
type reporter struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	quiet    bool
	start    time.Time
	phase    string
	phaseAt  time.Time
	last     time.Time
	done     int
	total    int
	phases   []phaseJSON
	lastDraw int
}

type phaseJSON struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

// newReporter writes to w; mode is "auto" (a bar on a terminal, plain
// lines otherwise), "bar", "lines" or "off".
func newReporter(w io.Writer, mode string) *reporter {
	r := &reporter{w: w, start: time.Now()}
	switch mode {
	case "off", "none", "false":
		r.quiet = true
	case "bar", "true":
		r.tty = true
	case "lines":
	default:
		r.tty = isTerminal(w)
	}
	return r
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Phase ends the current phase and starts the named one ("" ends only).
func (r *reporter) Phase(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if r.phase != "" {
		secs := now.Sub(r.phaseAt).Seconds()
		r.phases = append(r.phases, phaseJSON{r.phase, secs})
		if !r.quiet {
			if r.tty {
				r.draw(true)
				fmt.Fprintln(r.w)
			} else {
				count := ""
				if r.total > 0 {
					count = fmt.Sprintf(" (%d/%d)", r.done, r.total)
				}
				fmt.Fprintf(r.w, "pomdpq: %s done in %.2fs%s\n", r.phase, secs, count)
			}
		}
	}
	r.phase, r.phaseAt, r.done, r.total, r.lastDraw = name, now, 0, 0, -1
	if name != "" && r.tty && !r.quiet {
		r.draw(false)
	}
}

// Progress records done of total units of the current phase.
func (r *reporter) Progress(done, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done, r.total = done, total
	if r.quiet {
		return
	}
	now := time.Now()
	if !r.tty {
		// Plain lines: a line every 10 s of a long phase, so that a log
		// shows the run is alive and how far it is.
		if now.Sub(r.phaseAt) >= 10*time.Second && now.Sub(r.last) >= 10*time.Second && done < total {
			r.last = now
			fmt.Fprintf(r.w, "pomdpq: %s %d/%d after %.0fs\n", r.phase, done, total, now.Sub(r.phaseAt).Seconds())
		}
		return
	}
	if done == total || now.Sub(r.last) >= 100*time.Millisecond {
		r.last = now
		r.draw(false)
	}
}

// draw rewrites the terminal line: phase, bar, count, elapsed time.
func (r *reporter) draw(final bool) {
	const width = 24
	elapsed := time.Since(r.phaseAt).Seconds()
	if r.total <= 0 {
		fmt.Fprintf(r.w, "\r\033[K%-12s %6.1fs", r.phase, elapsed)
		return
	}
	fill := r.done * width / r.total
	if fill == r.lastDraw && !final {
		return
	}
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = ' '
		if i < fill {
			bar[i] = '#'
		}
	}
	fmt.Fprintf(r.w, "\r\033[K%-12s [%s] %d/%d %6.1fs", r.phase, bar, r.done, r.total, elapsed)
}

// Seconds returns the wall time since the reporter was made.
func (r *reporter) Seconds() float64 { return time.Since(r.start).Seconds() }

// Phases returns the finished phases.
func (r *reporter) Phases() []phaseJSON {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]phaseJSON(nil), r.phases...)
}
