// Package nb shows pomdpq results in a Jupyter notebook run by the GoNB kernel
// (see kernel/README.md), and as plain text everywhere else.
//
// It is the only package of the module that imports GoNB's gonbui and gota:
// the core packages return plain structs and slices, package render draws
// them (tables, layered graphs, gonum/plot figures, number formats, the
// planning section) without displaying anything, and nb sends what render
// draws to the notebook. The analysis report is built on render too, so it
// links neither nb nor the paper's reproduction (package repro), which nb
// imports for [ShowRepro] and [RuntimePlot].
//
// Every display function checks [IsNotebook]. Inside a notebook it sends a
// rich MIME bundle (HTML, Markdown, PNG) together with a text/plain form;
// outside one (tests, the command line) it writes the plain-text form to
// [Output], which is os.Stdout unless changed. The same cell body therefore
// runs unchanged as an Example, a test or a CLI step. Inside a notebook each
// display waits until GoNB has published it; text printed with fmt just
// before a display may still appear after it, since GoNB reads the program's
// standard output through a separate pipe.
//
// The generic helpers:
//
//   - [HTML], [Markdown], [LaTeX]: raw rich output.
//   - [Table], [TableHTML], [TableText]: a gota DataFrame as an HTML table,
//     numbers formatted by [FormatNumber].
//   - [Plot]: a gonum/plot figure inline as SVG, with a PNG fallback.
//   - [ShowAgreement] and [Row]: a table comparing our numbers with the paper's,
//     with ✓/✗ marks and a summary count; [AgreeDigits] compares a number with
//     a printed one to the printed precision.
//   - [Progress]: a progress bar updated in place, usable as a
//     func(done, total int) callback.
//   - [ShowGraph]: a [LayeredGraph] (a graph whose nodes sit in layers) as SVG.
//   - [Check]: prints "CHECK name=value" lines, the key numbers that the
//     notebook checker (scripts/nbcheck.py) compares with notebooks/checks/NAME.json.
//   - [Cached]: a result computed once per notebook run and shared by its
//     cells (GoNB keeps declarations between cells, not values).
//
// [LayeredGraph], [Edge], [Curve], [Series], [FormatNumber], [LinePlot],
// [CurvePlot], [LatticeGraph] and [ControllerGraph] are package render's,
// under the names the notebooks use.
//
// [EpsExplorer] (explorer.go) is an interactive display: a slider over ε and a
// selector of the probe family (GoNB's gonbui/widgets) that redraw the
// class-count curve's marker, the quotient diagram and the partition in place
// while the cell runs; without a live front end (nbconvert) it leaves the view
// at ε = 0, and outside a notebook it prints text. Its cell runs until Done is
// pressed or the slider has been idle for ten minutes, and a kernel runs one
// cell at a time: make it a notebook's last code cell, so that Run All is not
// held up by it.
//
// Displays of pomdpq's own types (partitions, quotients, policy families) belong
// in this package too, one file per concept named after it (partition.go,
// quotient.go, ...), built on the generic helpers above; only those files import
// other pomdpq packages. Among them, planrun.go: [Plan] runs planning
// through the quotient (package planq) under a progress bar and [ShowPlan]
// shows it with render.PlanHTML, the renderer of the planning section of
// `pomdpq analyze` too: one SVG (measured regret and certified bound, and
// classes, against ε), the table of what the result depends on and the per-ε
// table; payoff.go's [ShowPayoff] shows whether the quotient paid
// (render.PayoffHTML, as `pomdpq analyze`'s "Does the quotient pay?") and
// [CheckPayoff] checks its clock-free facts against the model and writes
// them as key numbers. workflow.go holds what the planning notebook calls around them:
// [ObservationConfig], [GuaranteeText], [PlanValue], [WriteFile],
// [FindSARSOP] and [ReadSARSOPPolicy]; witness.go shows certificates of
// package witness ([WitnessRow], [ShowWitnessQuotients]) and [ShowModel] a
// small model.
//
// The studies the notebooks run (each returning its errors; a cell stops on
// one with [Must] or [MustGet]) live in files named after them, so that a
// notebook cell shows the call and no function of its own longer than ten
// lines (TestNotebookFuncsShort checks it):
//
//   - notebook 01: pseudometric.go, lipschitzsides.go, variants.go
//     ([Variant], [TigerVariants], [TigerLipschitz], [ThetaSweep],
//     [LipschitzFrame]) and keeprows.go ([KeepRows]); with notebook 11,
//     valuegap.go ([ValueGaps], [ValueBoundSweep], [FamilyDistances],
//     [Excess]);
//   - notebook 02 (the checks of the Myhill–Nerode notebook): equivprops.go,
//     repindependence.go, canonical.go, morphism.go, search.go, merges.go and
//     probes.go ([ProbeFamily], [HistoryName], [ProbeName], [ClassLabel],
//     [SplitTiger]; [GreedyAgreement] and [Probes] for notebook 10);
//   - notebook 03: openloop.go, objectivegap.go, sufficiency.go
//     ([Sufficiency], [LatentStory], [RevealedCoin], [OpenLoop]),
//     witnesstheorem.go ([WitnessTheoremCase], [ExcessOf], [StageMixed]),
//     stationarywitness.go ([AfterLR], [SuffixLawText]), coarsening.go
//     ([ProbeCoarsening], [CompareM2]), transfer.go ([TransferStudy],
//     [SubsetTransfer], [ClassDiameter]) and possible.go
//     ([PossibleHistories]);
//   - notebook 04: pullback.go, flipsearch.go, channels.go ([ChannelTable],
//     [GridMerge], [FlipChannel], [LineGround]) and epsequiv.go ([EpsEquiv]);
//   - notebook 05: refine.go, hankel.go and certstudy.go ([ComputeStudy],
//     [SubmodularStudy], [DiminishingReturns], [AnchorStudy],
//     [SpectrumPlots], [LawLipschitz], [RankStudy]);
//   - notebook 07: valuebound.go ([SweepBounds], [ProbeGaps], [Diameter],
//     [MinGround]); notebook 08: subset.go and leastcpu.go.
//
// kernel.go holds the one-step kernel helpers they share ([ObsKernel],
// [ActionProb], [MaxAbsDiff]), buildrepro.go [BuildRepro] (regenerate and
// compare a paper table), texttable.go [ShowText] (a table of text cells as
// written) and cellhelpers.go the tiny ones many notebooks had each defined
// ([Must], [MustGet], [Mark], [ShowRows], [ShowPlot] with [Look],
// [Positive]).
package nb
