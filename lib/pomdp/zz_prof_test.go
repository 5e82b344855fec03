package pomdp

import (
	"os"
	"testing"
)

func TestZZProfLoad(t *testing.T) {
	path := os.Getenv("PROF_FILE")
	if path == "" {
		t.Skip("no PROF_FILE")
	}
	m, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(m)
}
