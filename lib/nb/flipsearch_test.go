package nb

import (
	"context"
	"testing"
)

func TestFlipSearch(t *testing.T) {
	tests := []struct {
		pairs, T int
	}{
		{0, 2},
		{6, 2},
		{3, 3},
	}
	for _, tt := range tests {
		v, ratio, err := FlipSearch(context.Background(), tt.pairs, tt.T, 1e-9)
		if err != nil {
			t.Fatal(err)
		}
		// The flip channel contracts D by L_C = 1 − 2p (the wrapper bound).
		if v != 0 || ratio > 1+1e-9 || ratio < 0 {
			t.Errorf("%+v: %d violations, largest ratio %g", tt, v, ratio)
		}
		if (tt.pairs > 0) != (ratio > 0) {
			t.Errorf("%+v: largest ratio %g", tt, ratio)
		}
	}
}
