package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpx"
)

func infoSizes(t *testing.T, model string) (int, int, int) {
	t.Helper()
	out, err := runCLI(t, "info", model, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got infoJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	return got.States, got.Actions, got.Observations
}

// quotientCounts returns the class counts of `pomdpq quotient` (stationary
// m = 1, T = 4, ε = 0, 0.3, 0.5) on a model.
func quotientCounts(t *testing.T, model string) []int {
	t.Helper()
	out, err := runCLI(t, "quotient", "--model", model, "--family", "stationary", "--m", "1", "--T", "4", "--eps", "0,0.3,0.5", "--json", "--progress=off")
	if err != nil {
		t.Fatalf("quotient %s: %v", model, err)
	}
	var got quotientJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var counts []int
	for _, c := range got.Classes {
		counts = append(counts, c.Count)
	}
	if len(counts) != 3 {
		t.Fatalf("quotient %s: %d ε values, want 3", model, len(counts))
	}
	return counts
}

// TestPOMDPXSharedTiger: SARSOP's Tiger.pomdpx is 2/3/2 and has the
// quotient counts of pomdp-solve's Tiger.pomdp (m = 1, T = 4, ε = 0, 0.3,
// 0.5). Twin: TestPOMDPXTigerTwin.
func TestPOMDPXSharedTiger(t *testing.T) {
	tiger := shared.Path(t, "TestPOMDPXTigerTwin", "pomdpx", "Tiger.pomdpx")
	if s, a, o := infoSizes(t, tiger); s != 2 || a != 3 || o != 2 {
		t.Errorf("info Tiger.pomdpx: %d/%d/%d, want 2/3/2", s, a, o)
	}
	got, want := quotientCounts(t, tiger), quotientCounts(t, shared.Path(t, "TestPOMDPXTigerTwin", "pomdp", "Tiger.pomdp"))
	if !slices.Equal(got, want) {
		t.Errorf("classes of Tiger.pomdpx %v, of Tiger.pomdp %v", got, want)
	}
}

// TestPOMDPXSharedRockSample: SARSOP's factored RockSample_7_8.pomdpx is
// 12,800 states (robot 50 × 2^8 rocks), 13 actions and 100 observations
// (the fully observed robot's 50 values × obs_sensor's 2, see
// pomdpx.Read). Twin: TestPOMDPXFactoredInfo.
func TestPOMDPXSharedRockSample(t *testing.T) {
	file := shared.Path(t, "TestPOMDPXFactoredInfo", "pomdpx", "RockSample_7_8.pomdpx")
	if s, a, o := infoSizes(t, file); s != 12800 || a != 13 || o != 100 {
		t.Errorf("info RockSample_7_8.pomdpx: %d/%d/%d, want 12800/13/100", s, a, o)
	}
}

// TestPOMDPXFactoredInfo: info on our own factored, mixed-observability
// file (lib/pomdp/testdata/robot.pomdpx: a fully observed robot on 2
// cells, a hidden rock of 2 qualities, 2 actions, a sensor of 2 values)
// gives the sizes derived by hand: |S| = 2·2 = 4, |A| = 2, |O| = 2 robot
// cells × 2 sensor values = 4.
func TestPOMDPXFactoredInfo(t *testing.T) {
	file := filepath.Join("..", "..", "lib", "pomdp", "testdata", "robot.pomdpx")
	if s, a, o := infoSizes(t, file); s != 4 || a != 2 || o != 4 {
		t.Errorf("info robot.pomdpx: %d/%d/%d, want 4/2/4", s, a, o)
	}
}

// TestPOMDPXTigerTwin: the repository's own hand-written Tiger in POMDPX
// (lib/pomdp/testdata/tiger.pomdpx) has the quotient counts of the
// built-in tiger, which is the paper's model.
func TestPOMDPXTigerTwin(t *testing.T) {
	file := filepath.Join("..", "..", "lib", "pomdp", "testdata", "tiger.pomdpx")
	if s, a, o := infoSizes(t, file); s != 2 || a != 3 || o != 2 {
		t.Errorf("info tiger.pomdpx: %d/%d/%d, want 2/3/2", s, a, o)
	}
	got, want := quotientCounts(t, file), quotientCounts(t, "tiger")
	if !slices.Equal(got, want) {
		t.Errorf("classes of tiger.pomdpx %v, of the built-in tiger %v", got, want)
	}
}

// TestExportPOMDPX: export --format pomdpx (or an --out ending in .pomdpx)
// writes a file that reads back to the same model, the paper's Tiger
// (whose observation R the .pomdp format cannot hold) included.
func TestExportPOMDPX(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		model string
		args  []string
		file  string
	}{
		{"tiger", []string{"--format", "pomdpx"}, ""},
		{"rocksample:4:4", []string{"--format", "POMDPX"}, ""},
		{"tag", []string{"--out", filepath.Join(dir, "tag.pomdpx")}, filepath.Join(dir, "tag.pomdpx")},
	} {
		out, err := runCLI(t, append([]string{"export", tc.model}, tc.args...)...)
		if err != nil {
			t.Errorf("export %s %v: %v", tc.model, tc.args, err)
			continue
		}
		src := out
		if tc.file != "" {
			data, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			src = string(data)
		}
		if !strings.Contains(src, "<pomdpx") {
			t.Errorf("export %s %v: not a POMDPX document", tc.model, tc.args)
			continue
		}
		got, err := pomdpx.Read(strings.NewReader(src), tc.model)
		if err != nil {
			t.Errorf("export %s %v: reading back: %v", tc.model, tc.args, err)
			continue
		}
		want, _, err := loadModel(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		if msg := sameModel(got, want); msg != "" {
			t.Errorf("export %s %v: read back %s", tc.model, tc.args, msg)
		}
	}
	_, err := runCLI(t, "export", "tiger", "--format", "pomdpx", "--out", filepath.Join(dir, "t.json"))
	if err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("--format pomdpx with a .json --out: err = %v", err)
	}
}
