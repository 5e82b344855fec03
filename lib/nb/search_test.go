package nb

import (
	"fmt"
	"testing"
)

func TestSetPartitions(t *testing.T) {
	bell := []int{0, 1, 2, 5, 15, 52} // Bell numbers; none for n = 0
	for n, want := range bell {
		got := SetPartitions(n)
		if len(got) != want {
			t.Errorf("SetPartitions(%d): %d partitions, want Bell(%d) = %d", n, len(got), n, want)
		}
		seen := map[string]bool{}
		for _, a := range got {
			hi := -1
			for _, c := range a { // restricted growth: each label at most one above the largest so far
				if c > hi+1 {
					t.Errorf("SetPartitions(%d): %v is not restricted-growth", n, a)
				}
				hi = max(hi, c)
			}
			if key := fmt.Sprint(a); seen[key] || len(a) != n {
				t.Errorf("SetPartitions(%d): %v repeated or of the wrong length", n, a)
			} else {
				seen[key] = true
			}
		}
	}
}

func TestSoundnessSearch(t *testing.T) {
	const T = 2
	b, fam, r := tigerDistances(t, T)
	exact := r.Partition(0)
	tests := []struct {
		name  string
		sound bool
	}{
		{"exact", true},
		{"one class per depth", false},
	}
	for _, tt := range tests {
		p := exact
		if !tt.sound {
			p = uniform(r, true)
		}
		gap, worst, err := Soundness(b.Model, T, fam, p)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if (gap <= 1e-12) != tt.sound || worst < 0 || worst >= fam.Len() {
			t.Errorf("%s: gap %g at probe %d", tt.name, gap, worst)
		}
	}
	// Tiger at T = 2: depths of 1 and 2 histories, Bell(1)·Bell(2) = 2
	// candidates; only the exact one (L and R apart) is sound.
	s, err := SearchPartitions(b.Model, r.Tree, T, fam, exact)
	if err != nil {
		t.Fatal(err)
	}
	want := PartitionSearch{Candidates: 2, Sound: 1, SoundRefining: 1, MinClasses: exact.Total(), Minimizers: 1, MinIsExact: true}
	if s != want {
		t.Errorf("SearchPartitions = %+v, want %+v", s, want)
	}
}
