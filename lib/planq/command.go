package planq

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// SolverPolicy is what a user's solver wrote: a policy graph run on
// observations (Graph, started at its best node at b0, pomdp-solve's
// convention) or alpha vectors over the states of the model it solved.
type SolverPolicy struct {
	Graph  *fsc.FSC
	Alphas []policy.Alpha
}

// PolicyReader reads a solver's policy file for model m.
type PolicyReader func(path string, m *pomdp.Model) (*SolverPolicy, error)

// DefaultReaders returns a new map of the built-in readers by file
// extension: pomdp-solve's ".pg" and ".alpha", SARSOP's ".policy". A
// Command with no Readers uses them; to read another solver's format,
// add its reader to the map and set Command.Readers.
func DefaultReaders() map[string]PolicyReader {
	return map[string]PolicyReader{".pg": readPG, ".alpha": readAlpha, ".policy": readSARSOP}
}

// readPG reads a pomdp-solve policy graph.
func readPG(path string, m *pomdp.Model) (*SolverPolicy, error) {
	c, err := policy.LoadPG(path, m)
	if err != nil {
		return nil, err
	}
	return &SolverPolicy{Graph: c}, nil
}

// readAlpha reads pomdp-solve alpha vectors.
func readAlpha(path string, m *pomdp.Model) (*SolverPolicy, error) {
	a, err := policy.LoadAlpha(path, m)
	if err != nil {
		return nil, err
	}
	return &SolverPolicy{Alphas: a}, nil
}

// readSARSOP reads a SARSOP .policy file of a flat model (one value of the
// fully observed part: the quotient and the original are written flat) as
// alpha vectors.
func readSARSOP(path string, m *pomdp.Model) (*SolverPolicy, error) {
	vp, err := policy.LoadPolicy(path, m)
	if err != nil {
		return nil, err
	}
	if vp.NumObsValue > 1 {
		return nil, fmt.Errorf("%s: %d values of a fully observed part (numObsValue): the model given to the solver is flat, so its policy must have one", path, vp.NumObsValue)
	}
	a := make([]policy.Alpha, len(vp.Vectors))
	for i, v := range vp.Vectors {
		a[i] = v.Alpha
	}
	return &SolverPolicy{Alphas: a}, nil
}

// ErrNoBaseline marks a planner that cannot run on the original model;
// Run records it as the baseline's refusal.
var ErrNoBaseline = errors.New("no baseline")

// Command runs a user's solver. The template is a shell command with the
// placeholders {model} (the .pomdp file to solve: the quotient, or the
// original for the baseline, states, actions and observations renamed
// s0…, a0…, o0… in the original order), {policy} (the path prefix the
// solver writes to: pomdp-solve's -o writes {policy}.pg and
// {policy}.alpha; pomdpsol's -o writes {policy} itself), {horizon} (T)
// {dir} (the scratch directory) and {discount} (the discount written into
// the exported model, see Discount). The command runs in its own process
// group under Timeout; on timeout or cancellation the whole group is
// killed, and it is killed after a normal exit too, so nothing is left
// running. Should pomdpq itself be killed (SIGKILL, which it cannot
// catch), the shell gets the kernel's parent-death signal (Linux) and a
// watcher process, reading a pipe that closes when pomdpq dies, kills the
// group. What escapes all of these: a process that leaves the group
// (setsid or setpgid, as a daemonising solver does) and outlives its
// parent; run such a solver under a tool that contains it (a cgroup,
// systemd-run --scope, a container). The policy is read back by extension (Readers): the
// first of {policy}.pg, {policy}.alpha and the other readers' extensions
// that exists, else {policy} itself (a file starting with '<' goes to the
// ".policy" reader).
//
// Discount, when set (in (0, 1]), replaces the discount of the model
// written for the solver (the quotient, and the original for the
// baseline): solvers of discounted problems such as SARSOP refuse a
// discount of 1, which is what a model without one (the paper's Tiger) is
// written with. It changes only what the solver optimises: the lifted
// policy is still valued exactly over T stages with the model's own γ.
//
// Readers maps a policy file's extension (".pg") to its reader; nil means
// DefaultReaders.
type Command struct {
	Template string
	Timeout  time.Duration
	Discount float64
	Readers  map[string]PolicyReader
}

// NewCommand checks the template: it must name {model}.
func NewCommand(tmpl string, timeout time.Duration) (Command, error) {
	if !strings.Contains(tmpl, "{model}") {
		return Command{}, fmt.Errorf("planq: solver command %q has no {model} placeholder (placeholders: {model}, {policy}, {horizon}, {dir}, {discount})", tmpl)
	}
	if timeout <= 0 {
		timeout = time.Minute
	}
	return Command{Template: tmpl, Timeout: timeout}, nil
}

// WithDiscount returns c writing discount g into the models it exports
// (see Command.Discount); g must lie in (0, 1].
func (c Command) WithDiscount(g float64) (Command, error) {
	if !(g > 0 && g <= 1) {
		return Command{}, fmt.Errorf("planq: solver discount %g: want a discount in (0, 1]", g)
	}
	c.Discount = g
	return c, nil
}

// Settings describes what the solver is given besides the model: the
// discount written into the exported model and where it comes from.
func (c Command) Settings() string {
	if c.Discount > 0 {
		return fmt.Sprintf("solver discount %g (--solver-discount: written into the exported model, {discount}; values use the model's own γ)", c.Discount)
	}
	return "solver discount: the model's own (1 when it has none; --solver-discount G replaces it, {discount})"
}

// exportDiscount returns the discount written into the model given to the
// solver and whether it was set by Discount.
func (c Command) exportDiscount(m *pomdp.Model) float64 {
	switch {
	case c.Discount > 0:
		return c.Discount
	case m.HasDiscount:
		return m.Discount
	}
	return 1
}

// Name returns "cmd:" and the template.
func (c Command) Name() string { return "cmd:" + c.Template }

// Work is 0: an external solver has no estimate; Timeout bounds it.
func (c Command) Work(*Env) float64 { return 0 }

// Quotient exports q (under env.Ref), runs the solver on it and lifts
// its policy through the classes (alpha vectors) or unrolls its graph.
func (c Command) Quotient(ctx context.Context, env *Env, q *quotient.Quotient) (*Plan, error) {
	start := time.Now()
	qm, err := q.Export(env.Ref)
	if err != nil {
		return nil, err
	}
	sp, err := c.solve(ctx, qm, env.T)
	if err != nil {
		return nil, err
	}
	var l *Lifted
	switch {
	case sp.Graph != nil:
		if l, err = unrollGraph(ctx, qm, sp.Graph, env.T); err != nil {
			return nil, err
		}
	default:
		states, _ := QStates(q)
		if len(states) != qm.NumStates() {
			return nil, fmt.Errorf("planq: exported quotient has %d states, the class walk %d", qm.NumStates(), len(states))
		}
		b := make([]float64, len(states))
		l = LiftStates(q, func(k int) int {
			clear(b)
			b[k] = 1
			_, i := policy.Value(sp.Alphas, b)
			return sp.Alphas[i].Action
		})
	}
	elapsed := time.Since(start).Seconds()
	vq, err := LiftedValue(ctx, qm, l)
	if err != nil {
		return nil, err
	}
	return &Plan{Policy: fmt.Sprintf("solver policy lifted to %d nodes", len(l.Nodes)), Lifted: l, Value: vq, Seconds: elapsed}, nil
}

// Original runs the solver on env.Model; only policy graphs can be run
// there (alpha vectors would need belief tracking on the original).
func (c Command) Original(ctx context.Context, env *Env) (*Plan, error) {
	start := time.Now()
	sp, err := c.solve(ctx, env.Model, env.T)
	if err != nil {
		return nil, err
	}
	if sp.Graph == nil {
		return nil, fmt.Errorf("%w: the solver wrote alpha vectors for the original, which this command does not run with belief tracking", ErrNoBaseline)
	}
	l, err := unrollGraph(ctx, env.Model, sp.Graph, env.T)
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start).Seconds()
	v, err := LiftedValue(ctx, env.Model, l)
	if err != nil {
		return nil, err
	}
	return &Plan{Policy: fmt.Sprintf("solver policy graph (%d nodes)", sp.Graph.Nodes), Lifted: l, Value: v, Seconds: elapsed}, nil
}

// unrollGraph starts graph g at its best node at m's b0 over horizon T
// and unrolls it.
func unrollGraph(ctx context.Context, m *pomdp.Model, g *fsc.FSC, T int) (*Lifted, error) {
	ev, err := policy.EvaluateContext(ctx, m, g, T, policy.Options{})
	if err != nil {
		return nil, err
	}
	cg, err := policy.Complete(g, ev.StartNode)
	if err != nil {
		return nil, err
	}
	return Unroll(cg, 0, T)
}

// renamed returns a copy of m with names s0…, a0…, o0… (every solver's
// .pomdp reader accepts them).
func renamed(m *pomdp.Model) *pomdp.Model {
	cp := &pomdp.Model{Name: m.Name, Discount: m.Discount, HasDiscount: m.HasDiscount, T: m.T, Z: m.Z, R: m.R, B0: m.B0}
	name := func(p string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = p + strconv.Itoa(i)
		}
		return out
	}
	cp.States, cp.Actions, cp.Observations = name("s", m.NumStates()), name("a", m.NumActions()), name("o", m.NumObservations())
	return cp
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// solve writes m, runs the command and reads the policy back.
func (c Command) solve(ctx context.Context, m *pomdp.Model, T int) (*SolverPolicy, error) {
	dir, err := os.MkdirTemp("", "pomdpq-solver-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rm := renamed(m)
	gamma := c.exportDiscount(m)
	rm.Discount, rm.HasDiscount = gamma, true
	modelPath := filepath.Join(dir, "model.pomdp")
	f, err := os.Create(modelPath)
	if err != nil {
		return nil, err
	}
	if err := cassandra.Write(f, rm); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	prefix := filepath.Join(dir, "policy")
	line := strings.NewReplacer("{model}", shellQuote(modelPath), "{policy}", shellQuote(prefix),
		"{horizon}", strconv.Itoa(T), "{dir}", shellQuote(dir), "{discount}", strconv.FormatFloat(gamma, 'g', -1, 64)).Replace(c.Template)
	out, err := run(ctx, line, dir, c.Timeout)
	if err != nil {
		hint := ""
		if gamma == 1 {
			hint = "\n(the model given to the solver has discount 1; a solver of discounted problems, such as SARSOP, needs one below 1: --solver-discount G)"
		}
		return nil, fmt.Errorf("solver command %q %v; last lines it printed:\n%s%s", c.Template, err, tail(out), hint)
	}
	readers := c.readers()
	path, ext, err := findPolicy(prefix, readers)
	if err != nil {
		return nil, fmt.Errorf("solver command %q exited 0 but %v; last lines it printed:\n%s", c.Template, err, tail(out))
	}
	read, ok := readers[ext]
	if !ok {
		return nil, fmt.Errorf("solver command %q wrote %s, a %s file, which no reader handles (registered: %s)", c.Template, filepath.Base(path), ext, strings.Join(extensions(readers), ", "))
	}
	sp, err := read(path, rm)
	if err != nil {
		return nil, fmt.Errorf("solver command %q wrote a policy that cannot be read: %v; last lines it printed:\n%s", c.Template, err, tail(out))
	}
	if sp.Graph == nil && len(sp.Alphas) == 0 {
		return nil, fmt.Errorf("solver command %q wrote an empty policy %s", c.Template, filepath.Base(path))
	}
	return sp, nil
}

// Extensions returns the policy file extensions c reads, sorted
// (".alpha", ".pg", ".policy" and those of any reader added to Readers).
func (c Command) Extensions() []string { return extensions(c.readers()) }

// readers returns c.Readers, or DefaultReaders when it is nil.
func (c Command) readers() map[string]PolicyReader {
	if c.Readers == nil {
		return DefaultReaders()
	}
	return c.Readers
}

// extensions returns the extensions of readers, sorted.
func extensions(readers map[string]PolicyReader) []string {
	var out []string
	for e := range readers {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// findPolicy returns the policy file the solver wrote and its reader's
// extension.
func findPolicy(prefix string, readers map[string]PolicyReader) (string, string, error) {
	for _, ext := range append([]string{".pg", ".alpha"}, extensions(readers)...) {
		if _, err := os.Stat(prefix + ext); err == nil {
			return prefix + ext, ext, nil
		}
	}
	b, err := os.ReadFile(prefix)
	if err != nil {
		return "", "", fmt.Errorf("wrote no policy ({policy}.pg, {policy}.alpha or {policy})")
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '<' {
		return prefix, ".policy", nil
	}
	return prefix, ".pg", nil
}

// run runs line with sh in its own process group under timeout, returning
// its combined output. The group is killed on timeout, on cancellation
// and as soon as the command exits (a solver's leftover children
// included), and, should pomdpq itself be killed (SIGKILL included), by
// the kernel's parent-death signal (Linux) and by watchGroup's watcher.
// What escapes: a process that leaves the group (setsid or setpgid) and
// outlives its parent.
// The output goes to a file in dir, not a pipe, so that a leftover child
// holding it open does not keep run waiting.
func run(ctx context.Context, line, dir string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	logPath := filepath.Join(dir, "solver-output.log")
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", line)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = log, log
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	if err = cmd.Start(); err == nil {
		stop, werr := watchGroup(cmd.Process.Pid)
		err = cmd.Wait()
		_ = killGroup(cmd) // stray children of the solver
		if werr == nil {
			stop()
		}
	}
	out, _ := os.ReadFile(logPath)
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return out, fmt.Errorf("did not finish within %v and was killed with its process group", timeout)
	case ctx.Err() != nil:
		return out, fmt.Errorf("was cancelled (%v) and killed with its process group", ctx.Err())
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return out, fmt.Errorf("exited with status %d", ee.ExitCode())
		}
		return out, err
	}
	return out, nil
}

// tail returns the last 10 lines of out, indented.
func tail(out []byte) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return "  (nothing)"
	}
	return "  " + strings.Join(lines, "\n  ")
}
