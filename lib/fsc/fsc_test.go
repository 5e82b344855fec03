package fsc

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

func TestFamilySizes(t *testing.T) {
	// Expected counts: docs/conventions.md#probe-families.
	tests := []struct {
		name      string
		kind      Kind
		nA, nO, m int
		T         int
		want      int
	}{
		{"Tiger m=1", KindStationary, 3, 2, 1, 0, 3},
		{"Tiger m<=2", KindStationary, 3, 2, 2, 0, 147},
		{"GridWorld m=1", KindStationary, 5, 4, 1, 0, 5},
		{"GridWorld m<=2", KindStationary, 5, 4, 2, 0, 6405},
		{"RockSample m=1", KindStationary, 9, 3, 1, 0, 9},
		{"RockSample m<=2", KindStationary, 9, 3, 2, 0, 5193},
		{"Network(4) m<=2", KindStationary, 5, 3, 2, 0, 1605},
		{"Network(9) m<=2", KindStationary, 10, 3, 2, 0, 6410},
		{"Tiger clock m=2 T=2", KindClock, 3, 2, 2, 2, 1296},
		{"Tiger open loop T=10", KindClock, 3, 2, 1, 10, 59049},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := New(tc.kind, tc.nA, tc.nO, tc.m, tc.T, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if f.Len() != tc.want {
				t.Fatalf("Len = %d, want %d", f.Len(), tc.want)
			}
			size, err := Size(tc.kind, tc.nA, tc.nO, tc.m, tc.T)
			if err != nil || size.Int64() != int64(tc.want) {
				t.Fatalf("Size = %v, %v; want %d", size, err, tc.want)
			}
		})
	}
}

func TestEnumerationDistinctAndValid(t *testing.T) {
	for _, f := range []Family{
		must(NewStationary(3, 2, 2, Options{})),
		must(NewClock(3, 2, 2, 2, Options{})),
		must(NewClock(2, 3, 1, 3, Options{})),
	} {
		seen := map[string]int{}
		for i := 0; i < f.Len(); i++ {
			c := f.At(i)
			if err := c.Validate(); err != nil {
				t.Fatalf("%v: controller %d: %v", f, i, err)
			}
			key := fmt.Sprint(c.Nodes, c.Act, c.Next)
			if j, ok := seen[key]; ok {
				t.Fatalf("%v: controllers %d and %d are identical: %s", f, j, i, key)
			}
			seen[key] = i
		}
	}
}

func TestStationaryOrder(t *testing.T) {
	// itertools.product order: one-node controllers first, action-major.
	f := must(NewStationary(3, 2, 2, Options{}))
	for a := 0; a < 3; a++ {
		c := f.At(a)
		if c.Nodes != 1 || c.Action(0, 0) != a {
			t.Fatalf("At(%d) = %v, want constant action %d", a, c, a)
		}
	}
	c := f.At(3) // first two-node controller: actions (0,0), all next 0
	if c.Nodes != 2 || !reflect.DeepEqual(c.Act[0], []int{0, 0}) || !reflect.DeepEqual(c.Next[0], [][]int{{0, 0}, {0, 0}}) {
		t.Fatalf("At(3) = %v", c)
	}
	c = f.At(4) // last next entry varies fastest
	if !reflect.DeepEqual(c.Next[0], [][]int{{0, 0}, {0, 1}}) {
		t.Fatalf("At(4) = %v", c)
	}
}

func TestTooLarge(t *testing.T) {
	_, err := NewStationary(9, 3, 3, Options{Limit: 1000})
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("err = %v, want *TooLargeError", err)
	}
	if _, err := NewStationary(9, 3, 2, Options{Limit: 5193}); err != nil {
		t.Fatalf("limit equal to size refused: %v", err)
	}
	if _, err := NewClock(3, 2, 1, 0, Options{}); err == nil {
		t.Fatal("clock family with T=0 accepted")
	}
}

// TestSampledIndexed: sample i of an indexed family depends on the seed and
// i only (any range is built alone), is valid, and differs across seeds.
func TestSampledIndexed(t *testing.T) {
	a := must(NewSampled(2, 5, 2, 3, Options{Samples: 50, Seed: 7, Indexed: true}))
	b := must(NewSampled(2, 5, 2, 0, Options{Samples: 1000, Seed: 7, Indexed: true}))
	c := must(NewSampled(2, 5, 2, 3, Options{Samples: 1000, Seed: 8, Indexed: true}))
	big := must(NewSampled(2, 5, 2, 3, Options{Samples: 1000, Seed: 7, Indexed: true}))
	if a.Len() != 50 || b.Kind() != KindStochasticStationary || a.Kind() != KindStochasticClock {
		t.Fatalf("Len %d, kinds %s %s", a.Len(), a.Kind(), b.Kind())
	}
	for i := 0; i < 50; i++ {
		if err := a.At(i).Validate(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.At(i), big.At(i)) || !reflect.DeepEqual(a.At(i), a.At(i)) {
			t.Fatalf("sample %d depends on more than the seed and its index", i)
		}
		if reflect.DeepEqual(a.At(i), c.At(i)) || (i > 0 && reflect.DeepEqual(a.At(i), a.At(i-1))) {
			t.Fatalf("sample %d repeats another", i)
		}
	}
	if err := b.At(999).Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestSampledReproducible(t *testing.T) {
	a := must(NewSampled(2, 5, 2, 3, Options{Samples: 5, Seed: 7}))
	b := must(NewSampled(2, 5, 2, 3, Options{Samples: 5, Seed: 7}))
	c := must(NewSampled(2, 5, 2, 3, Options{Samples: 5, Seed: 8}))
	for i := 0; i < 5; i++ {
		if err := a.At(i).Validate(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.At(i), b.At(i)) {
			t.Fatal("same seed gave different controllers")
		}
	}
	if reflect.DeepEqual(a.At(0), c.At(0)) {
		t.Fatal("different seeds gave the same controller")
	}
}

func TestValidateRejects(t *testing.T) {
	bad := Mixed(2, []float64{0.5, 0.6})
	if err := bad.Validate(); err == nil {
		t.Fatal("non-normalised action distribution accepted")
	}
	c := Constant(3, 2, 1)
	c.Next[0][0][1] = 4
	if err := c.Validate(); err == nil {
		t.Fatal("next node out of range accepted")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func ExampleNewStationary() {
	// Tiger has |A| = 3 and |O| = 2.
	f, err := NewStationary(3, 2, 2, Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(f)
	fmt.Println(f.At(1))
	// Output:
	// stationary m≤2 (147 FSCs)
	// stationary m=1 α=[1] β=[[0 0]]
}

// TestClockOrder: controller i of a clock-aware family encodes i back
// (actions most significant, then the node tables, each in base |A| or m,
// stage-major): the order every sharded run slices.
func TestClockOrder(t *testing.T) {
	for _, f := range []*Clock{must(NewClock(2, 2, 2, 3, Options{})), must(NewClock(3, 2, 2, 2, Options{})), must(NewClock(2, 3, 1, 3, Options{}))} {
		for i := 0; i < f.Len(); i++ {
			c := f.At(i)
			if len(c.Act) != f.t || len(c.Next) != f.t-1 {
				t.Fatalf("%v: controller %d has %d action stages and %d node stages", f, i, len(c.Act), len(c.Next))
			}
			a, n := 0, 0
			for _, row := range c.Act {
				for _, x := range row {
					a = a*f.nA + x
				}
			}
			for _, tab := range c.Next {
				for _, row := range tab {
					for _, x := range row {
						n = n*f.m + x
					}
				}
			}
			if got := a*ipow(f.m, f.m*f.nO*(f.t-1)) + n; got != i {
				t.Fatalf("%v: controller %d encodes %d", f, i, got)
			}
		}
	}
}
