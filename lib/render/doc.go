// Package render draws pomdpq's results as HTML, SVG and plain text, with
// no side effect: it returns strings and gonum/plot figures, and displays
// nothing. Both the analysis report (package report, also compiled to
// WebAssembly for the web page) and the notebook package (package nb, which
// sends what render draws to a GoNB notebook) are built on it, so it
// imports neither of them, nor GoNB, gota or the paper's reproduction.
//
// The generic pieces:
//
//   - [FormatNumber]: a number as a short decimal, as every table shows it.
//   - [Table], [TextTable], [TableHTML], [AlignColumns]: tables of formatted
//     cells as HTML or aligned text.
//   - [LayeredGraph]: a graph whose nodes sit in layers (depths), drawn as SVG
//     or text.
//   - [LinePlot], [CurvePlot], [LineChart], [IntervalPlot], [PlotSVG],
//     [PlotPNG], [StackSVG], [PowerTicks]: gonum/plot figures and their SVG
//     or PNG rendering.
//
// Drawings of pomdpq's own types, one file per concept: [QuotientGraph]
// (quotient.go), [ControllerGraph] (controller.go), [TimeExpandedGraph]
// (model.go), [LatticeGraph] (curve.go), [LipschitzPlot] (lipschitz.go,
// a check of package certify) and the planning run of package planq
// (plan.go: [PlanHTML], [PlanText], [PlanSVG] and the tables they are made
// of) with its payoff (payoff.go: [PayoffHTML], [PayoffText], [PayoffRows],
// [PayoffDepthRows]).
package render
