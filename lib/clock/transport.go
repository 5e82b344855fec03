package clock

import "fmt"

// Transport selects the distance between the suffix laws of two beliefs
// under one probe.
type Transport int

const (
	// TransportW1 is the exact W1 between the two suffix laws under the
	// additive sequence cost Σ_t d_O(o_t, o'_t) (def:equiv, docs/conventions.md#distances).
	TransportW1 Transport = iota
	// TransportNested is the recursive transport between belief pairs that
	// the paper's reference code used for δ_clk (docs/conventions.md#exact-clock-aware-quotients):
	//
	//	R(b, b', ε) = 0,
	//	R(b, b', a·s) = min_{γ ∈ Γ(P(·|b,a), P(·|b',a))} Σ_{o,o'} γ(o,o')·[d_O(o,o') + R(b_{ao}, b'_{ao'}, s)],
	//
	// i.e. the nested (bicausal) Wasserstein distance of the two laws. It
	// restricts W1's couplings to adapted ones, so R ≥ W1. On the rows of
	// tab:probe-family-comparison the two give equal matrices on Tiger and
	// on one-step suffixes; on GridWorld 3×3 T = 3 some depth-1 entries
	// differ (by up to 0.031), but the per-depth maxima and δ_clk agree.
	TransportNested
)

func (t Transport) String() string {
	switch t {
	case TransportW1:
		return "W1"
	case TransportNested:
		return "nested"
	}
	return fmt.Sprintf("Transport(%d)", int(t))
}
