package main

import (
	"fmt"
	"io"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

type familyJSON struct {
	Kind string `json:"kind"`
	M    int    `json:"m"`
	T    int    `json:"T"`
	Size int64  `json:"size"`
}

func cmdFamily(args []string, stdout io.Writer) error {
	c := newCommand("family", stdout, io.Discard)
	fs := c.fs
	model := fs.String("model", "", "built-in model name or model file")
	kind := fs.String("kind", "stationary", "stationary or clock")
	m := fs.Int("m", 1, "memory bound (nodes)")
	T := fs.Int("T", 0, "horizon (clock-aware families)")
	c.jsonFlag()
	asJSON := c.asJSON
	if _, err := c.parseArgs(args); err != nil {
		return err
	}
	md, _, err := loadModel(*model)
	if err != nil {
		return err
	}
	k, err := fsc.ParseKind(*kind)
	if err != nil {
		return usageError{msg: err.Error()}
	}
	if k != fsc.KindStationary && k != fsc.KindClock {
		return usageError{msg: "family: --kind must be stationary or clock (sampled families have the size you ask for)"}
	}
	size, err := fsc.Size(k, md.NumActions(), md.NumObservations(), *m, *T)
	if err != nil {
		return usageError{msg: err.Error()}
	}
	if *asJSON {
		if !size.IsInt64() {
			return fmt.Errorf("family size %s does not fit in JSON's integer range", size)
		}
		return writeJSON(stdout, familyJSON{Kind: string(k), M: *m, T: *T, Size: size.Int64()})
	}
	switch k {
	case fsc.KindStationary:
		fmt.Fprintf(stdout, "%s: deterministic stationary FSCs with ≤ %d nodes: %s\n", md.Name, *m, size)
	default:
		fmt.Fprintf(stdout, "%s: deterministic clock-aware FSCs with %d nodes, T = %d: %s\n", md.Name, *m, *T, size)
	}
	return nil
}
