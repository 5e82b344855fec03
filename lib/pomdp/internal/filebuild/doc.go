// Package filebuild holds what the model file readers share while they
// build a model: the probability matrices under construction (PMatrix,
// which checks and renormalises rows as every reader must), the reward
// table builder (RewardBuilder, so that every format computes R(s, a) with
// the same sums in the same order) and the model name taken from a file
// name.
package filebuild
