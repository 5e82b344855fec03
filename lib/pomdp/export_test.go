package pomdp

// SameModel reports the first difference between two models, comparing
// every number exactly; it lets the external tests (package pomdp_test)
// use sameModel.
var SameModel = sameModel
