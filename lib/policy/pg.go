package policy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// None marks an entry of a policy graph's next-node table with no
// successor ("-" in a .pg file). fsc.FSC.Validate rejects it: Complete
// replaces it before a graph goes to packages that need complete tables.
const None = -1

// obsName returns observation o's name in m, or its index.
func obsName(m *pomdp.Model, o int) string {
	if m != nil && o < len(m.Observations) {
		return m.Observations[o]
	}
	return strconv.Itoa(o)
}

// ReadPG reads a pomdp-solve policy graph for model m from r; name (the
// file name) is used in errors. The result is a deterministic stationary
// controller with one node per line, node i being the line with id i, and
// None where the file has "-". Blank lines and lines starting with '#' are
// skipped.
//
// With m nil the observation count is taken from the first line and the
// action count is one more than the largest action index.
//
// Errors are *ParseError values naming the line and entry: a missing,
// duplicate or out-of-range node id, an action outside the model's
// actions, a next-node entry that is not a node of the graph (dangling), a
// line with the wrong number of next nodes for the model's observations,
// an entry that is not an integer, an empty file, or more than MaxNodes
// nodes.
func ReadPG(r io.Reader, name string, m *pomdp.Model) (*fsc.FSC, error) {
	perr := func(line int, field, format string, args ...any) *ParseError {
		return &ParseError{File: name, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	nO, nA := -1, -1
	if m != nil {
		nO, nA = m.NumObservations(), m.NumActions()
	}
	type row struct {
		line, id, act int
		next          []int
	}
	var rows []row
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		if len(rows) >= MaxNodes {
			return nil, perr(line, "", "more than %d nodes (policy.MaxNodes)", MaxNodes)
		}
		f := strings.Fields(text)
		id, err := strconv.Atoi(f[0])
		if err != nil || id < 0 {
			return nil, perr(line, "node id", "expected a node number (0, 1, …), got %q", f[0])
		}
		node := fmt.Sprintf("node %d", id)
		if len(f) < 2 {
			return nil, perr(line, node, "expected an action index after the node id, got the end of the line")
		}
		act, err := strconv.Atoi(f[1])
		if err != nil || act < 0 {
			return nil, perr(line, node+", action", "expected an action index (0, 1, …), got %q", f[1])
		}
		if nA >= 0 && act >= nA {
			return nil, perr(line, node+", action", "action %d out of range: the model has %d actions (0 … %d)", act, nA, nA-1)
		}
		next := f[2:]
		if nO < 0 {
			nO = len(next)
			if nO == 0 {
				return nil, perr(line, node, "no next nodes (one per observation expected)")
			}
		}
		if len(next) != nO {
			return nil, perr(line, node, "%d next nodes, want one per observation of the model (%d)", len(next), nO)
		}
		nextNodes, err := pgNext(next, m, name, line, node)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{line: line, id: id, act: act, next: nextNodes})
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{File: name, Line: line + 1, Msg: "read error: " + err.Error(), Err: err}
	}
	if len(rows) == 0 {
		return nil, perr(0, "", "no nodes (an empty policy graph)")
	}
	N := len(rows)
	act := make([]int, N)
	nextTab := make([][]int, N)
	lineOf := make([]int, N)
	for _, rw := range rows {
		if rw.id >= N {
			return nil, perr(rw.line, "node id", "node id %d out of range: the file has %d nodes, so ids run 0 … %d", rw.id, N, N-1)
		}
		if lineOf[rw.id] > 0 {
			return nil, perr(rw.line, "node id", "duplicate node id %d (first on line %d)", rw.id, lineOf[rw.id])
		}
		lineOf[rw.id] = rw.line
		act[rw.id] = rw.act
		nextTab[rw.id] = rw.next
	}
	maxA := 0
	for _, rw := range rows {
		maxA = max(maxA, rw.act)
		for o, n := range rw.next {
			if n >= N {
				return nil, perr(rw.line, fmt.Sprintf("node %d, next node for observation %s", rw.id, obsName(m, o)),
					"dangling node %d: the graph has nodes 0 … %d", n, N-1)
			}
		}
	}
	if nA < 0 {
		nA = maxA + 1
	}
	return &fsc.FSC{Nodes: N, NumActions: nA, NumObs: nO, Act: [][]int{act}, Next: [][][]int{nextTab}}, nil
}

// pgNext reads the next nodes of the line of node (line line of file)
// of a .pg file, one per observation of m ("-" is None).
func pgNext(fields []string, m *pomdp.Model, file string, line int, node string) ([]int, error) {
	next := make([]int, len(fields))
	for o, s := range fields {
		if s == "-" {
			next[o] = None
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, &ParseError{File: file, Line: line, Field: fmt.Sprintf("%s, next node for observation %s", node, obsName(m, o)),
				Msg: fmt.Sprintf("expected a node number or -, got %q", s)}
		}
		next[o] = n
	}
	return next, nil
}

// LoadPG reads the policy graph file at path for model m (see ReadPG).
func LoadPG(path string, m *pomdp.Model) (*fsc.FSC, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadPG(bufio.NewReader(f), filepath.Base(path), m)
}

// checkGraph returns an error unless c is a deterministic stationary
// controller whose tables fit its sizes, None allowed in Next.
func checkGraph(c *fsc.FSC) error {
	if c == nil {
		return errors.New("policy: nil controller")
	}
	if !c.Deterministic() {
		return errors.New("policy: a policy graph is deterministic; this controller is stochastic")
	}
	if c.Clock() {
		return fmt.Errorf("policy: a policy graph is stationary; this controller is clock-aware (%d stages)", c.Stages)
	}
	if c.Nodes < 1 || len(c.Act) != 1 || len(c.Act[0]) != c.Nodes || len(c.Next) != 1 || len(c.Next[0]) != c.Nodes {
		return fmt.Errorf("policy: controller tables do not match its %d nodes", c.Nodes)
	}
	for n := 0; n < c.Nodes; n++ {
		if a := c.Act[0][n]; a < 0 || a >= c.NumActions {
			return fmt.Errorf("policy: node %d action %d out of range (%d actions)", n, a, c.NumActions)
		}
		if len(c.Next[0][n]) != c.NumObs {
			return fmt.Errorf("policy: node %d has %d next nodes, want %d", n, len(c.Next[0][n]), c.NumObs)
		}
		for o, n2 := range c.Next[0][n] {
			if n2 != None && (n2 < 0 || n2 >= c.Nodes) {
				return fmt.Errorf("policy: node %d observation %d next node %d out of range", n, o, n2)
			}
		}
	}
	return nil
}

// WritePG writes a deterministic stationary controller as a pomdp-solve
// policy graph: per node "id action  next next … " (two spaces after the
// action, a space after every next node, "-" for None) and a newline, the
// layout pomdp-solve writes. It returns an error for a stochastic or
// clock-aware controller or tables that do not fit the controller's sizes.
func WritePG(w io.Writer, c *fsc.FSC) error {
	if err := checkGraph(c); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 64)
	for n := 0; n < c.Nodes; n++ {
		buf = strconv.AppendInt(buf[:0], int64(n), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(c.Act[0][n]), 10)
		buf = append(buf, ' ', ' ')
		for _, n2 := range c.Next[0][n] {
			if n2 == None {
				buf = append(buf, '-')
			} else {
				buf = strconv.AppendInt(buf, int64(n2), 10)
			}
			buf = append(buf, ' ')
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// SavePG writes c to the file at path (see WritePG).
func SavePG(path string, c *fsc.FSC) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WritePG(f, c); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Complete returns a copy of graph c that starts in node start (renumbered
// so that start becomes node 0, the others keeping their order) and has
// every None entry replaced by a self-loop. The copy is an ordinary
// controller (fsc.FSC.Validate accepts it); its behaviour is c's from start
// wherever c's successors are defined, which is everywhere a "-" is not
// reached with positive probability (see Evaluate). It panics if start is
// not a node of c; it returns c's checkGraph error for a controller that is
// not a policy graph.
func Complete(c *fsc.FSC, start int) (*fsc.FSC, error) {
	if err := checkGraph(c); err != nil {
		return nil, err
	}
	if start < 0 || start >= c.Nodes {
		panic(fmt.Sprintf("policy: start node %d out of range (%d nodes)", start, c.Nodes))
	}
	perm := make([]int, c.Nodes) // old → new
	perm[start] = 0
	k := 1
	for n := 0; n < c.Nodes; n++ {
		if n != start {
			perm[n] = k
			k++
		}
	}
	act := make([]int, c.Nodes)
	next := make([][]int, c.Nodes)
	for n := 0; n < c.Nodes; n++ {
		p := perm[n]
		act[p] = c.Act[0][n]
		next[p] = make([]int, c.NumObs)
		for o, n2 := range c.Next[0][n] {
			if n2 == None {
				next[p][o] = p
			} else {
				next[p][o] = perm[n2]
			}
		}
	}
	return &fsc.FSC{Nodes: c.Nodes, NumActions: c.NumActions, NumObs: c.NumObs, Act: [][]int{act}, Next: [][][]int{next}}, nil
}
