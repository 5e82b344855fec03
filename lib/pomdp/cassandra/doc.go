// Package cassandra reads and writes models in Tony Cassandra's ".pomdp"
// format.
//
// ".pomdp" is Tony Cassandra's format, read with pomdp-solve's grammar by
// Read (which documents it, and the POMDPs.jl dialect it also
// reads) and written by Write. Names the format cannot hold are
// written under other names listed in a comment at the top of the file,
// and restored on reading (pomdp.SafeNames, pomdp.Rename). Costs are negated into
// rewards.
package cassandra
