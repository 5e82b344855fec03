package cassandra

import (
	"path/filepath"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
)

// TestReadCassandraTwinFiles reads our own classic-style files: the checks
// TestReadCassandraSharedFiles makes on the third-party ones (sizes, a
// discount, Validate, an exact round trip), and every entry against the
// model derived by hand from the file.
func TestReadCassandraTwinFiles(t *testing.T) {
	for _, tc := range pomdptest.TwinFiles {
		t.Run(tc.File, func(t *testing.T) {
			m, err := loadFile(filepath.Join("..", "testdata", "twins", tc.File))
			if err != nil {
				t.Fatal(err)
			}
			checkClassicFile(t, m, len(tc.Want.States), len(tc.Want.Actions), len(tc.Want.Obs))
			pomdptest.CheckDense(t, m, tc.Want, tc.Tol)
			if want := tc.File[:len(tc.File)-len(".POMDP")]; m.Name != want {
				t.Errorf("Name = %q, want %q (the file's base name)", m.Name, want)
			}
		})
	}
}

// TestReadCassandraInvalidTwin: our own file with "values: rewards" on line
// 3 and no discount, as ejs4 and ejs5 have (twin of
// TestReadCassandraInvalidShared).
func TestReadCassandraInvalidTwin(t *testing.T) {
	checkValuesRewards(t, filepath.Join("..", "testdata", "twins", "values-rewards.POMDP"), 2, 1, 2)
}

// TestReadJSONTigerTwin: testdata/tiger.json describes the same model as
// our own Tiger file typed from the published definition (twin of
// TestReadJSONTigerClassicFile).
func TestReadJSONTigerTwin(t *testing.T) {
	j, err := loadFile(filepath.Join("..", "testdata", "tiger.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadFile(filepath.Join("..", "testdata", "twins", "tiger.POMDP"))
	if err != nil {
		t.Fatal(err)
	}
	if err := pomdptest.SameModel(j, c); err != nil {
		t.Errorf("tiger.json vs twins/tiger.POMDP: %v", err)
	}
}

// TestReadJSONTigerClassicFile: the sample describes the same model as the
// classic file (third-party, beside the repository). Twin:
// TestReadJSONTigerTwin.
func TestReadJSONTigerClassicFile(t *testing.T) {
	m, err := loadFile(filepath.Join("..", "testdata", "tiger.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadFile(shared.Path(t, "TestReadJSONTigerTwin", "pomdp", "tiger.95.POMDP"))
	if err != nil {
		t.Fatal(err)
	}
	if err := pomdptest.SameModel(m, c); err != nil {
		t.Errorf("tiger.json vs tiger.95.POMDP: %v", err)
	}
}
