package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pomdpq/pomdpq/lib/distance"
)

// The slack of the limits InChild enforces on a child (see the package
// comment for the bounds they give).
const (
	// TimeSlack is the time past Job.Seconds after which the child's
	// process group is killed (the child stops itself at Job.Seconds; the
	// slack covers its start-up, loading the model, and writing its
	// result).
	TimeSlack = 2 * time.Second
	// MemSlack is the resident memory above Job.Mem at which the child is
	// killed (its phases refuse or stop at Job.Mem by their own
	// estimates; the slack covers what those estimates leave out).
	MemSlack = 128 << 20
	// PollInterval is the period of the resident-set watchdog.
	PollInterval = 10 * time.Millisecond
)

// Limits bound a process run by Exec. A zero field means no limit.
type Limits struct {
	Wall time.Duration // kill the process group after this wall time
	RSS  int64         // kill it once the child's resident set exceeds this, bytes
}

// Process is the outcome of Exec.
type Process struct {
	Stdout, Stderr []byte
	Wall           time.Duration
	// MaxRSS is the child's peak resident set (getrusage ru_maxrss),
	// PolledRSS the largest resident set the watchdog read.
	MaxRSS, PolledRSS int64
	// Killed is "" when the process ended by itself, else ReasonKilledTime
	// or ReasonKilledMemory.
	Killed string
	// Err is the exit error of the process (nil when it exited with 0).
	Err error
}

// Exec runs argv[0] with the arguments argv[1:] and the extra environment
// env in a process group of its own, and kills the whole group with
// SIGKILL at the first of: ctx done, lim.Wall elapsed, or the child's
// resident set (VmRSS of /proc/PID/status, read every PollInterval) above
// lim.RSS. It returns an error only when the process cannot be started
// or ctx ends; everything else is in the Process.
func Exec(ctx context.Context, lim Limits, env []string, argv ...string) (*Process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	pid := cmd.Process.Pid
	var mu sync.Mutex
	killed, polled := "", int64(0)
	kill := func(why string) {
		mu.Lock()
		if killed == "" {
			killed = why
		}
		mu.Unlock()
		_ = syscall.Kill(-pid, syscall.SIGKILL) // the whole group
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var deadline <-chan time.Time
		if lim.Wall > 0 {
			t := time.NewTimer(lim.Wall)
			defer t.Stop()
			deadline = t.C
		}
		tk := time.NewTicker(PollInterval)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				kill("cancelled")
				return
			case <-deadline:
				kill(ReasonKilledTime)
				return
			case <-tk.C:
				rss := readRSS(pid)
				mu.Lock()
				polled = max(polled, rss)
				mu.Unlock()
				if lim.RSS > 0 && rss > lim.RSS {
					kill(ReasonKilledMemory)
					return
				}
			}
		}
	})
	err := cmd.Wait()
	close(done)
	wg.Wait()
	p := &Process{Stdout: so.Bytes(), Stderr: se.Bytes(), Wall: time.Since(start), Err: err, PolledRSS: polled, Killed: killed}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		p.MaxRSS = ru.Maxrss * 1024 // Linux reports KiB
	}
	if killed == "cancelled" {
		return p, ctx.Err()
	}
	return p, nil
}

// readRSS returns the resident set of process pid (VmRSS of
// /proc/PID/status) in bytes, 0 when it cannot be read (the process has
// ended, or there is no /proc).
func readRSS(pid int) int64 {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			fields := strings.Fields(rest)
			if len(fields) >= 1 {
				if kb, err := strconv.ParseInt(fields[0], 10, 64); err == nil {
					return kb * 1024
				}
			}
			return 0
		}
	}
	return 0
}

// InChild runs job in a child process, argv followed by the job as JSON
// (the child calls Serve; `pomdpq classic-row` does), with env added to
// its environment. The child is killed at job.Seconds + TimeSlack and at
// a resident set above job.Mem + MemSlack; the Result then has Over and
// Reason set (ReasonKilledTime, ReasonKilledMemory), as when the child
// fails (ReasonFailed, with its error). PeakBytes is always the child's
// peak resident set (getrusage) and Wall its wall time. The error is
// for a child that cannot be started or whose output is not a result.
func InChild(ctx context.Context, argv []string, env []string, job Job) (*Result, error) {
	b, err := json.Marshal(job)
	if err != nil {
		return nil, err
	}
	var lim Limits
	if job.Seconds > 0 {
		lim.Wall = time.Duration(job.Seconds*float64(time.Second)) + TimeSlack
	}
	if job.Mem > 0 {
		lim.RSS = job.Mem + MemSlack
	}
	p, err := Exec(ctx, lim, env, append(append([]string(nil), argv...), string(b))...)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(job.Path)
	switch p.Killed {
	case ReasonKilledTime:
		return &Result{Reason: ReasonKilledTime, PeakBytes: p.MaxRSS, PeakHow: "rss", Wall: p.Wall.Seconds(),
			Over: fmt.Sprintf("T = %d: killed at the %g s time limit (+ %g s slack) after %.1f s", job.T, job.Seconds, TimeSlack.Seconds(), p.Wall.Seconds())}, nil
	case ReasonKilledMemory:
		return &Result{Reason: ReasonKilledMemory, PeakBytes: p.MaxRSS, PeakHow: "rss", Wall: p.Wall.Seconds(),
			Over: fmt.Sprintf("T = %d: killed at resident memory %s > %s (the %s budget + %s slack)", job.T,
				distance.FormatBytes(p.PolledRSS), distance.FormatBytes(lim.RSS), distance.FormatBytes(job.Mem), distance.FormatBytes(MemSlack))}, nil
	}
	if p.Err != nil {
		msg := strings.TrimSpace(string(p.Stderr))
		if i := strings.LastIndex(msg, "\n"); i >= 0 {
			msg = msg[i+1:] // the child's error line
		}
		msg = strings.TrimPrefix(msg, "pomdpq: ")
		var ee *exec.ExitError
		if errors.As(p.Err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				msg = fmt.Sprintf("the child process was killed by %v (out of memory?)", ws.Signal())
			}
		}
		if msg == "" {
			msg = p.Err.Error()
		}
		return &Result{Reason: ReasonFailed, PeakBytes: p.MaxRSS, PeakHow: "rss", Wall: p.Wall.Seconds(),
			Over: fmt.Sprintf("T = %d: failed: %s", job.T, msg)}, nil
	}
	var r Result
	if err := json.Unmarshal(p.Stdout, &r); err != nil {
		return nil, fmt.Errorf("%s T = %d: the child's output is not a result: %w", name, job.T, err)
	}
	r.PeakBytes, r.PeakHow, r.Wall = p.MaxRSS, "rss", p.Wall.Seconds()
	return &r, nil
}
