// Package shard stores the parts of a sharded probe-family run and merges
// them exactly.
//
// d^Π is a maximum over probes, so a family split into slices can be run
// on many machines (a Slurm job array, a Kubernetes Indexed Job) and the
// per-slice maxima merged. The merge must give the single-process result
// bit for bit, which takes two rounds (distance.ShardRange):
//
//   - round 1, per shard: the exact classes of the slice and its probe
//     list, saved as a classes part (KindClasses);
//   - MergeClasses: the meet of the slices' partitions, which is the
//     family's exact partition, saved as a plan (KindPlan);
//   - round 2, per shard: the maximum over the slice's probes of the
//     distance between every pair of the plan's class representatives,
//     saved as a distances part (KindDistances);
//   - MergeDistances: the element-wise maximum, a distance.Result whose
//     partitions and numbers are Compute's.
//
// Enumerated families (stationary, clock) split into index ranges of their
// own order; sampled families split into seed ranges when drawn with
// fsc.Options.Indexed (sample i from the stream PCG(seed, i)), so that a
// shard builds its samples without the others. Either way the merge is the
// single-process result over the same family.
//
// Every file starts with a versioned header (model hash, family, m, T,
// metric, convention, decision threshold, shard index and count, and for
// distances parts the plan's checksum) and ends with a SHA-256 checksum of
// everything before it. Decode accepts only what Encode writes (each field
// in its one canonical encoding, with a value the writer produces) and names
// the field it refuses. Files are written atomically (a temporary file in
// the same directory, renamed into place), so a shard killed midway leaves
// no file that looks complete. The merges refuse a missing, duplicated,
// corrupt or mismatched part with an error naming the file; Missing lists
// the shards to rerun.
package shard
