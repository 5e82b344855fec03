package pomdpjson

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpx"
)

// loadFile reads a model file choosing the reader by extension, as
// modelfile.Load does; this package's tests cannot import modelfile, which
// imports this package.
func loadFile(path string, opts ...pomdp.ReadOption) (*pomdp.Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return Read(bytes.NewReader(data), path, opts...)
	case ".pomdpx", ".xml":
		return pomdpx.Read(bytes.NewReader(data), path, opts...)
	}
	return cassandra.Read(bytes.NewReader(data), path, opts...)
}
