// Package pomdpx reads and writes models in the POMDPX format, with its own
// XML scanner.
//
// ".pomdpx" is the XML format of SARSOP/APPL, read by Read (which
// documents it) and written, as one state variable, by Write.
// Factored files become flat models whose states and observations are
// named by their variables' values ("robot=s23,rock0=good,…"); a fully
// observed variable's next value is part of every observation (the
// mixed-observability construction of Read). Write renames
// names the format cannot hold as cassandra.Write does, in XML comments.
// modelfile.Load also reads as POMDPX a file whose content is XML, whatever its
// extension.
package pomdpx
