package nb

import (
	"errors"
	"slices"
	"testing"
)

func TestMust(t *testing.T) {
	tests := []struct {
		err       error
		wantPanic bool
	}{
		{nil, false},
		{errors.New("boom"), true},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				if got := recover() != nil; got != tt.wantPanic {
					t.Errorf("Must(%v): panicked %v, want %v", tt.err, got, tt.wantPanic)
				}
			}()
			if got := MustGet(7, tt.err); got != 7 {
				t.Errorf("MustGet(7, %v) = %d", tt.err, got)
			}
		}()
	}
}

func TestMark(t *testing.T) {
	if Mark(true) == Mark(false) || Mark(true) != "✓" || Mark(false) != "✗" {
		t.Errorf("Mark: %q, %q", Mark(true), Mark(false))
	}
}

func TestPositive(t *testing.T) {
	tests := []struct {
		x, y, wantX, wantY []float64
	}{
		{[]float64{1, 2, 3}, []float64{0, 5, 1e-13}, []float64{2}, []float64{5}},
		{[]float64{1, 2}, []float64{1, -1}, []float64{1}, []float64{1}},
		{nil, nil, nil, nil},
	}
	for _, tt := range tests {
		got := Positive(Series{Label: "s", X: tt.x, Y: tt.y})
		if got.Label != "s" || !slices.Equal(got.X, tt.wantX) || !slices.Equal(got.Y, tt.wantY) {
			t.Errorf("Positive(%v, %v) = %+v", tt.x, tt.y, got)
		}
	}
}
