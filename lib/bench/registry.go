package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// Entry describes one pattern accepted by Lookup.
type Entry struct {
	// Pattern is the name with its parameters in upper case, e.g.
	// "gridworld:N"; optional parameters are in brackets.
	Pattern string
	// Example is a valid name for this pattern, e.g. "gridworld:3".
	Example string
	// Doc is a one-line description.
	Doc string
}

type builder struct {
	Entry
	key   string
	nArgs []int // accepted argument counts
	build func(name string, args []string) (Benchmark, error)
}

var registry = []builder{
	{Entry{"tiger[:ACC[:B0LEFT]]", "tiger", "Tiger with listen/open_left/open_right; accuracy 0.85, b0(tiger_left) 0.5 by default"},
		"tiger", []int{0, 1, 2}, func(name string, args []string) (Benchmark, error) {
			acc, b0 := DefaultTigerAccuracy, 0.5
			var err error
			if len(args) > 0 {
				if acc, err = parseFloat(name, "ACC", args[0]); err != nil {
					return Benchmark{}, err
				}
			}
			if len(args) > 1 {
				if b0, err = parseFloat(name, "B0LEFT", args[1]); err != nil {
					return Benchmark{}, err
				}
			}
			return Tiger(acc, b0)
		}},
	{Entry{"tiger-listen[:ACC]", "tiger-listen:0.7", "Tiger with the single action listen; accuracy 0.85 by default"},
		"tiger-listen", []int{0, 1}, func(name string, args []string) (Benchmark, error) {
			acc := DefaultTigerAccuracy
			var err error
			if len(args) > 0 {
				if acc, err = parseFloat(name, "ACC", args[0]); err != nil {
					return Benchmark{}, err
				}
			}
			return TigerListen(acc)
		}},
	{Entry{"gridworld:N", "gridworld:3", "N×N GridWorld with noisy quadrant observations, geometric metric"},
		"gridworld", []int{1}, intArgs(GridWorld, "N")},
	{Entry{"gridworld-goal:N", "gridworld-goal:3", "N×N GridWorld with reward 1 in the bottom-right cell"},
		"gridworld-goal", []int{1}, intArgs(GridWorldGoal, "N")},
	{Entry{"gridworld-coarse:N", "gridworld-coarse:3", "N×N GridWorld with observations merged to North/South (d = 0.5)"},
		"gridworld-coarse", []int{1}, intArgs(GridWorldCoarse, "N")},
	{Entry{"rocksample[:N:K]", "rocksample:7:8", "RockSample(N,K) of Smith & Simmons 2004 (n²·2^K + 1 states, 5 + K actions); 4:4 (the default) is the paper's RockSample(4,4)"},
		"rocksample", []int{0, 2}, func(name string, args []string) (Benchmark, error) {
			if len(args) == 0 {
				return RockSample44()
			}
			n, err := parseInt(name, "N", args[0])
			if err != nil {
				return Benchmark{}, err
			}
			k, err := parseInt(name, "K", args[1])
			if err != nil {
				return Benchmark{}, err
			}
			if n == rsSize && k == rsRocks {
				return RockSample44()
			}
			return RockSample(n, k, nil)
		}},
	{Entry{"tag", "tag", "Tag of Pineau, Gordon & Thrun 2003: 870 states, 5 actions, 30 observations"},
		"tag", []int{0}, func(string, []string) (Benchmark, error) { return Tag() }},
	{Entry{"netmon:N", "netmon:9", "network of N nodes (2^N states), factored transitions"},
		"netmon", []int{1}, intArgs(NetworkMonitoring, "N")},
	{Entry{"hallway:L", "hallway:10", "hallway of L cells with landmarks position mod 3"},
		"hallway", []int{1}, intArgs(Hallway, "L")},
	{Entry{"witness", "witness", "stationary witness of prop:stationary-counterexample (9 states)"},
		"witness", []int{0}, func(string, []string) (Benchmark, error) { return StationaryWitness() }},
	{Entry{"separating:NAME", "separating:clk-free", "smallest separating models of pomdpq search-witness: clk, clk-free, clk-free-det, m2, m2-free, tv-free"},
		"separating", []int{1}, func(_ string, args []string) (Benchmark, error) { return Separating(args[0]) }},
	{Entry{"inspection", "inspection", "inspection choice of the value-bound tightness experiment"},
		"inspection", []int{0}, func(string, []string) (Benchmark, error) { return InspectionChoice() }},
	{Entry{"channel:K:C:NOISE", "channel:4:2:0.1", "K messages sent through C noisy code symbols"},
		"channel", []int{3}, func(name string, args []string) (Benchmark, error) {
			k, err := parseInt(name, "K", args[0])
			if err != nil {
				return Benchmark{}, err
			}
			c, err := parseInt(name, "C", args[1])
			if err != nil {
				return Benchmark{}, err
			}
			noise, err := parseFloat(name, "NOISE", args[2])
			if err != nil {
				return Benchmark{}, err
			}
			return Channel(k, c, noise)
		}},
	{Entry{"random:S[:A:O]:SEED", "random:20:7", "random structured POMDP, 3 actions and 4 observations by default"},
		"random", []int{2, 4}, func(name string, args []string) (Benchmark, error) {
			sizes := []int{0, 3, 4}
			fields := []string{"S", "A", "O"}
			for i := 0; i < len(args)-1; i++ {
				v, err := parseInt(name, fields[i], args[i])
				if err != nil {
					return Benchmark{}, err
				}
				sizes[i] = v
			}
			seed, err := strconv.ParseUint(strings.TrimSpace(args[len(args)-1]), 10, 64)
			if err != nil {
				return Benchmark{}, fmt.Errorf("bench: %q: SEED: %q is not an unsigned integer", name, args[len(args)-1])
			}
			return RandomStructured(sizes[0], sizes[1], sizes[2], seed)
		}},
	{Entry{"sensor-grid[:ACC]", "sensor-grid", "5-position sensor grid of app:examples (our reconstruction), ordered metric"},
		"sensor-grid", []int{0, 1}, func(name string, args []string) (Benchmark, error) {
			acc := DefaultSensorAccuracy
			var err error
			if len(args) > 0 {
				if acc, err = parseFloat(name, "ACC", args[0]); err != nil {
					return Benchmark{}, err
				}
			}
			return SensorGrid(acc)
		}},
	{Entry{"tiger95", "tiger95", "Tiger of Kaelbling, Littman & Cassandra (1998), discount 0.95 (pomdp-solve's tiger.95)"},
		"tiger95", []int{0}, noArgs(Tiger95)},
	{Entry{"maze4x3", "maze4x3", "4×3 maze of Russell & Norvig, Parr & Russell's wall sensors, discount 0.95"},
		"maze4x3", []int{0}, noArgs(Maze4x3)},
	{Entry{"cheese", "cheese", "McCallum's cheese maze (1993), 11 states, discount 0.95"},
		"cheese", []int{0}, noArgs(Cheese)},
	{Entry{"1d", "1d", "4-state 1-D maze of Cassandra, Kaelbling & Littman (1994), discount 0.75"},
		"1d", []int{0}, noArgs(OneD)},
	{Entry{"paint", "paint", "part painting of Kushmerick, Hanks & Weld (1995), discount 0.95"},
		"paint", []int{0}, noArgs(Paint)},
}

func noArgs(f func() (Benchmark, error)) func(string, []string) (Benchmark, error) {
	return func(string, []string) (Benchmark, error) { return f() }
}

func intArgs(f func(int) (Benchmark, error), field string) func(string, []string) (Benchmark, error) {
	return func(name string, args []string) (Benchmark, error) {
		n, err := parseInt(name, field, args[0])
		if err != nil {
			return Benchmark{}, err
		}
		return f(n)
	}
}

func parseInt(name, field, s string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("bench: %q: %s: %q is not an integer", name, field, s)
	}
	return v, nil
}

func parseFloat(name, field, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("bench: %q: %s: %q is not a number", name, field, s)
	}
	return v, nil
}

// Names returns the patterns accepted by Lookup, in a fixed order, each
// with an example name and a one-line description.
func Names() []Entry {
	out := make([]Entry, len(registry))
	for i, b := range registry {
		out[i] = b.Entry
	}
	return out
}

// Lookup builds the benchmark named by spec: a key followed by
// colon-separated parameters, e.g. "tiger", "tiger-listen:0.7",
// "gridworld:3", "rocksample:4:4", "rocksample:7:8", "tag", "netmon:9",
// "channel:4:2:0.1", "random:20:7" or "random:20:3:4:7" (see Names). Keys
// are case-insensitive and surrounding spaces are ignored.
//
// It returns an error wrapping ErrUnknown (listing the valid patterns) for
// an unknown key, an error naming the parameter for a malformed or
// out-of-range value or a wrong number of parameters, and an error wrapping
// ErrTooLarge for sizes beyond MaxStates or MaxEntries.
func Lookup(spec string) (Benchmark, error) {
	name := strings.TrimSpace(spec)
	parts := strings.Split(name, ":")
	key := strings.ToLower(strings.TrimSpace(parts[0]))
	args := parts[1:]
	for _, b := range registry {
		if b.key != key {
			continue
		}
		ok := false
		for _, n := range b.nArgs {
			ok = ok || n == len(args)
		}
		if !ok {
			return Benchmark{}, fmt.Errorf("bench: %q: %d parameters, want the form %s", name, len(args), b.Pattern)
		}
		return b.build(name, args)
	}
	pats := make([]string, len(registry))
	for i, b := range registry {
		pats[i] = b.Pattern
	}
	return Benchmark{}, fmt.Errorf("%w %q; valid names: %s", ErrUnknown, name, strings.Join(pats, ", "))
}
