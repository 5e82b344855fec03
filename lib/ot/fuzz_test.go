package ot

import (
	"math"
	"testing"
)

// byteFloats decodes fuzz bytes into values: most bytes give small
// multiples of 1/8; bytes ≥ 0xF0 give special values (NaN, ±Inf,
// negatives, huge and tiny numbers, zeros).
type byteFloats struct {
	data []byte
	pos  int
}

var specials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 1e300, 1e-300, 0, math.Copysign(0, -1),
	math.MaxFloat64, 5e-324, -1e-18, 1e-17, 3, 1e9, 0.5, 1}

func (b *byteFloats) next() float64 {
	if len(b.data) == 0 {
		return 0
	}
	x := b.data[b.pos%len(b.data)]
	b.pos++
	if x >= 0xF0 {
		return specials[x-0xF0]
	}
	return float64(x%32) / 8
}

func (b *byteFloats) law(n int, normal bool) []float64 {
	w := make([]float64, n)
	s := 0.0
	for i := range w {
		w[i] = b.next()
		s += w[i]
	}
	if normal && s > 0 {
		for i := range w {
			w[i] /= s
		}
	}
	return w
}

// FuzzW1 feeds arbitrary masses and costs to the solver: it must never
// panic or hang, reject invalid input with an error, and otherwise return
// a feasible plan whose cost is the reported value.
func FuzzW1(f *testing.F) {
	f.Add([]byte{3, 3, 1, 8, 8, 8, 8, 8, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{5, 2, 0, 1, 0, 1, 0, 1, 1, 9, 3, 2, 1, 0, 0, 4, 2})
	f.Add([]byte{1, 1, 1, 0xF0, 8, 8})
	f.Add([]byte{4, 4, 0, 0xF4, 0xF5, 7, 7, 1, 1, 1, 1, 0xF9, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		n, k := 1+int(data[0]%7), 1+int(data[1]%7)
		normal := data[2]%2 == 1
		b := &byteFloats{data: data[3:]}
		p, q := b.law(n, normal), b.law(k, normal)
		cost := make([]float64, n*k)
		for e := range cost {
			cost[e] = b.next()
		}
		var s Solver
		r, err := s.W1(p, q, cost)
		if err != nil {
			return
		}
		if r.Status != Optimal || !(r.Value >= 0) || math.IsInf(r.Value, 0) {
			t.Fatalf("W1 = %v without error", r)
		}
		tp := 0.0
		for _, v := range p {
			tp += v
		}
		plan := s.Plan(nil)
		primal, cmax := 0.0, 0.0
		for e, x := range plan {
			if !(x >= 0) {
				t.Fatalf("plan entry %d = %v", e, x)
			}
			primal += x * cost[e]
			cmax = max(cmax, cost[e])
		}
		for i := range n {
			row := 0.0
			for j := range k {
				row += plan[i*k+j]
			}
			if !(math.Abs(row-p[i]) <= 1e-9*tp) {
				t.Fatalf("row %d sums to %v, want %v", i, row, p[i])
			}
		}
		if !(math.Abs(primal-r.Value) <= 1e-9*cmax*tp) {
			t.Fatalf("plan cost %v, value %v", primal, r.Value)
		}
	})
}

// FuzzSeqW1 feeds arbitrary laws and grounds over O^k: no panic, errors
// for invalid input, and otherwise LowerBound ≤ W1 ≤ UpperBound.
func FuzzSeqW1(f *testing.F) {
	f.Add([]byte{0, 2, 1, 1, 8, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{1, 1, 1, 1, 1, 0, 0, 0, 7, 7, 3, 3})
	f.Add([]byte{2, 3, 0, 1, 0xF0, 2, 3, 4, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		o, k := 2+int(data[0]%2), int(data[1]%4)
		normal := data[2]%2 == 1
		b := &byteFloats{data: data[4:]}
		var g Ground
		switch data[3] % 3 {
		case 0:
			g = Discrete(o)
		case 1:
			g = Ordered(o)
		default:
			g = make(Ground, o)
			for i := range g {
				g[i] = make([]float64, o)
				for j := range g[i] {
					g[i][j] = b.next()
				}
			}
		}
		n := SeqLen(o, k)
		p, q := b.law(n, normal), b.law(n, normal)
		var s Solver
		r, err := s.SeqW1(g, k, p, q)
		if err != nil {
			return
		}
		if r.Status != Optimal || !(r.Value >= 0) || math.IsInf(r.Value, 0) {
			t.Fatalf("SeqW1 = %v without error", r)
		}
		if _, err := NewGround(g); err != nil {
			return // the bounds assume a metric
		}
		// Totals may differ by TotalTol relative, which moves W1 by up to
		// that much mass times the diameter.
		tp, tq := 0.0, 0.0
		for x := range p {
			tp += p[x]
			tq += q[x]
		}
		tol := 1e-9*max(1, r.Value) + 2*TotalTol*(0.5*tp+0.5*tq)*float64(k)*g.Max()
		if lb := s.LowerBound(g, k, p, q); !(lb <= r.Value+tol) {
			t.Fatalf("lower bound %v > W1 %v", lb, r.Value)
		}
		if ub := UpperBound(g, k, p, q); !(r.Value <= ub+tol) {
			t.Fatalf("W1 %v > upper bound %v", r.Value, ub)
		}
	})
}
