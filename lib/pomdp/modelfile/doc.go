// Package modelfile loads and saves model files in the format their
// extension and content choose, over the format packages cassandra
// (".pomdp"), pomdpx (".pomdpx", ".xml") and pomdpjson (".json").
//
// Load opens a file, Read reads content already at hand under a file name
// (a file dropped on a web page, an embedded file), and Save writes a file.
// The reader options, errors and file descriptions are package pomdp's
// (pomdp.MaxSize, pomdp.Lenient, pomdp.ParseError, pomdp.Source, …).
package modelfile
