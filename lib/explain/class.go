package explain

import (
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/partition"
)

// StateProb is one state of a belief.
type StateProb struct {
	State string  `json:"state"`
	Prob  float64 `json:"prob"`
}

// ClassCount is a class of a neighbouring depth and how many histories
// link it to the explained class.
type ClassCount struct {
	Class     string `json:"class"`
	Histories int    `json:"histories"`
}

// ActionReward is the expected immediate reward of one action under the
// class belief.
type ActionReward struct {
	Action string  `json:"action"`
	Reward float64 `json:"reward"`
}

// Class describes one class of a partition of the history tree.
type Class struct {
	// ID is "t:c", the depth and the class label at that depth.
	ID    string `json:"id"`
	Depth int    `json:"depth"`
	// Members counts the histories of the class; First are the first few
	// (in history order), in words.
	Members int      `json:"members"`
	First   []string `json:"first_members"`
	// Probe is the probe the belief is computed under, and ProbeNote says
	// plainly what depends on it; Possible counts the members of positive
	// probability under it.
	Probe     ProbeDistance `json:"probe"`
	ProbeNote string        `json:"probe_note"`
	Possible  int           `json:"possible_members"`
	// Belief holds the states of largest probability of the class belief
	// (the uniform average of the possible members' beliefs, the
	// quotient's canonical aggregation; uniform when none is possible),
	// Shown their total and Entropy the entropy of the whole belief in bits.
	Belief  []StateProb `json:"belief"`
	Shown   float64     `json:"belief_shown"`
	Entropy float64     `json:"entropy_bits"`
	// From are the classes of depth t−1 holding the members' parents; To
	// the classes of depth t+1 holding their one-observation extensions.
	From []ClassCount `json:"from"`
	To   []ClassCount `json:"to"`
	// Rewards is the expected immediate reward of each action under the
	// class belief, when the model has rewards.
	Rewards []ActionReward `json:"rewards,omitempty"`
}

// ParseClass reads a class id "t:c" and checks it against the partition;
// an error lists the valid ones.
func ParseClass(part *partition.Partition, id string) (t, c int, err error) {
	if _, err := fmt.Sscanf(id, "%d:%d", &t, &c); err != nil || fmt.Sprintf("%d:%d", t, c) != id {
		return 0, 0, fmt.Errorf("class %q: want depth:class, e.g. 2:0", id)
	}
	if t < 0 || t >= part.Depths() {
		return 0, 0, fmt.Errorf("class %q: depth %d out of range; valid depths 0 … %d", id, t, part.Depths()-1)
	}
	if n := part.Classes(t); c < 0 || c >= n {
		return 0, 0, fmt.Errorf("class %q: depth %d has classes %d:0 … %d:%d", id, t, t, t, n-1)
	}
	return t, c, nil
}

// ExplainClass describes class c of depth t of part, with the belief
// taken under family member probe; a negative probe picks the first probe
// under which most of the class's first AutoMembers members are possible.
func ExplainClass(s *Setup, part *partition.Partition, t, c, probe int) (*Class, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if err := s.needFamily("a class card (its belief is taken under a probe chosen among the family's members)"); err != nil {
		return nil, err
	}
	if _, _, err := ParseClass(part, fmt.Sprintf("%d:%d", t, c)); err != nil {
		return nil, err
	}
	if probe < 0 {
		probe = s.likelyProbe(part.Members(t, c), t)
	}
	if probe < 0 || probe >= s.Family.Len() {
		return nil, fmt.Errorf("explain: probe %d out of range; the family %s has probes 0 … %d", probe, s.Family, s.Family.Len()-1)
	}
	m, nO := s.Model, s.Model.NumObservations()
	members := part.Members(t, c)
	out := &Class{ID: fmt.Sprintf("%d:%d", t, c), Depth: t, Members: len(members), Probe: ProbeDistance{Index: probe}}
	s.name(&out.Probe)
	for _, i := range members[:min(len(members), s.top())] {
		out.First = append(out.First, HistoryWords(m, digits(i, nO, t)))
	}
	ctl := s.Family.At(probe)
	lw := newLawer(m, s.T, s.Convention)
	b := make([]float64, m.NumStates())
	for _, i := range members {
		if bi := lw.belief(ctl, digits(i, nO, t)); bi != nil {
			out.Possible++
			for k, v := range bi {
				b[k] += v
			}
		}
	}
	for k := range b {
		if out.Possible > 0 {
			b[k] /= float64(out.Possible)
		} else {
			b[k] = 1 / float64(len(b))
		}
	}
	out.ProbeNote = fmt.Sprintf("a belief depends on the actions taken along the history: this one is the agent's that plays “%s” (%d of %d members possible under it); the members, the classes around and the distances do not depend on it",
		out.Probe.Probe, out.Possible, out.Members)
	out.Belief, out.Shown, out.Entropy = s.topStates(b)
	if t > 0 {
		out.From = neighbours(part, t-1, members, func(i int, add func(int)) { add(i / nO) })
	}
	if t < part.Depths()-1 {
		out.To = neighbours(part, t+1, members, func(i int, add func(int)) {
			for o := range nO {
				add(i*nO + o)
			}
		})
		out.To = out.To[:min(len(out.To), s.top())]
	}
	if hasRewards(m.R) {
		for a := range m.NumActions() {
			r := 0.0
			for st, p := range b {
				r += p * m.R[st][a]
			}
			out.Rewards = append(out.Rewards, ActionReward{Action: name(m.Actions, a), Reward: r})
		}
	}
	return out, nil
}

// AutoMembers is how many members choose the probe of a class card when
// none is named.
const AutoMembers = 64

// likelyProbe returns the first probe under which most of the first
// AutoMembers members are possible.
func (s *Setup) likelyProbe(members []int, t int) int {
	lw := newLawer(s.Model, s.T, s.Convention)
	best, bestN := 0, -1
	members = members[:min(len(members), AutoMembers)]
	for k := range s.Family.Len() {
		c, n := s.Family.At(k), 0
		for _, i := range members {
			if lw.belief(c, digits(i, s.Model.NumObservations(), t)) != nil {
				n++
			}
		}
		if n > bestN {
			best, bestN = k, n
		}
		if n == len(members) {
			break
		}
	}
	return best
}

func hasRewards(r [][]float64) bool {
	for _, row := range r {
		for _, v := range row {
			if v != 0 {
				return true
			}
		}
	}
	return false
}

// topStates returns the states of largest probability, their total and
// the entropy of b in bits.
func (s *Setup) topStates(b []float64) ([]StateProb, float64, float64) {
	idx := make([]int, 0, len(b))
	h := 0.0
	for k, v := range b {
		if v > 0 {
			idx = append(idx, k)
			h -= v * math.Log2(v)
		}
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		if b[x] != b[y] {
			if b[x] > b[y] {
				return -1
			}
			return 1
		}
		return x - y
	})
	idx = idx[:min(len(idx), s.top())]
	out := make([]StateProb, len(idx))
	shown := 0.0
	for i, k := range idx {
		out[i] = StateProb{State: name(s.Model.States, k), Prob: b[k]}
		shown += b[k]
	}
	return out, shown, h
}

// neighbours counts the classes of depth d reached from members by link,
// largest first (ties by label).
func neighbours(part *partition.Partition, d int, members []int, link func(i int, add func(int))) []ClassCount {
	count := map[int]int{}
	for _, i := range members {
		link(i, func(j int) { count[part.Labels[d][j]]++ })
	}
	labels := make([]int, 0, len(count))
	for l := range count {
		labels = append(labels, l)
	}
	slices.SortFunc(labels, func(x, y int) int {
		if count[x] != count[y] {
			return count[y] - count[x]
		}
		return x - y
	})
	out := make([]ClassCount, len(labels))
	for k, l := range labels {
		out[k] = ClassCount{Class: fmt.Sprintf("%d:%d", d, l), Histories: count[l]}
	}
	return out
}
