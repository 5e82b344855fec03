package pomdp

import "fmt"

// Source describes how a reader read a model file: its format, the dialect
// of the format it recognised, and the names it restored from the file's
// rename comments. Pass Describe(&src) to a reader or modelfile.Load to have it
// filled.
type Source struct {
	// Format is "pomdp" (Cassandra's format), "pomdpx" or "json".
	Format string
	// Dialect names the variant of the format the file is written in. For
	// ".pomdp" files it is DialectPOMDPSolve or DialectPOMDPsJL (see
	// cassandra.Read); empty for other formats.
	Dialect string
	// DialectEntries counts the T:, O: and R: statements written with a
	// colon before their numbers (the POMDPs.jl dialect), and DialectLine
	// is the line of the first one (0 if none).
	DialectEntries, DialectLine int
	// Renames are the names restored from the file's rename comments (see
	// Rename), in file order.
	Renames []Rename
	// DroppedRewards counts the entries R(s, a, s', o) that the
	// ExpectedRewards option did not keep (0 without it).
	DroppedRewards int
}

// The dialects of the .pomdp format that cassandra.Read recognises.
const (
	// DialectPOMDPSolve is the grammar of pomdp-solve's parser.
	DialectPOMDPSolve = "pomdp-solve"
	// DialectPOMDPsJL is pomdp-solve's grammar with a colon before the
	// number(s) of T:, O: and R: statements, as POMDPFiles.jl's writer
	// (POMDPs.jl) writes them: "T: listen : tiger-left : tiger-left : 1.0".
	DialectPOMDPsJL = "POMDPs.jl"
)

// String returns a one-line description, e.g.
//
//	.pomdp, POMDPs.jl dialect (a colon before the numbers of 12 T:/O:/R: statements, the first on line 9)
func (s *Source) String() string {
	out := s.Format
	switch s.Format {
	case "pomdp":
		out = ".pomdp"
	case "json":
		out = "JSON"
	case "pomdpx":
		out = ".pomdpx"
	}
	switch s.Dialect {
	case "":
	case DialectPOMDPsJL:
		out += fmt.Sprintf(", POMDPs.jl dialect (a colon before the numbers of %d T:/O:/R: statements, the first on line %d)", s.DialectEntries, s.DialectLine)
	case DialectPOMDPSolve:
		out += ", pomdp-solve's grammar"
	default:
		out += ", " + s.Dialect
	}
	return out
}

// Describe makes a reader fill *s with how it read the file (see Source).
// A reader that fails leaves *s partly filled.
func Describe(s *Source) ReadOption {
	return func(c *ReadConfig) { c.Source = s }
}
