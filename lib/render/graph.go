package render

import (
	"fmt"
	"hash/fnv"
	"html"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// LayeredGraph is a directed graph whose nodes sit in numbered layers, such as
// the histories of a quotient grouped by depth. A node is named by its layer
// and its index in that layer: [2]int{layer, index}.
type LayeredGraph struct {
	// Title, if not empty, is drawn above the graph.
	Title string
	// Layers holds the node labels, layer by layer.
	Layers [][]string
	// LayerTitles, if not nil, holds one title per layer (such as "t = 0"),
	// drawn beside the layer.
	LayerTitles []string
	// Edges are drawn as arrows with their labels at their middles.
	Edges []Edge
	// LeftToRight draws layers as columns from left to right; by default
	// layers are rows from top to bottom.
	LeftToRight bool
	// Links, if not nil, holds per node (like Layers) the target of a link
	// drawn around it (such as "#class-2-3"); "" for none.
	Links [][]string
}

// Edge is an arrow of a [LayeredGraph] between two nodes, each given as
// {layer, index in layer}.
type Edge struct {
	From, To [2]int
	Label    string
}

// Geometry of the drawing, in SVG user units (pixels).
const (
	graphFont     = 12.0 // font size of labels
	graphCharW    = 7.0  // estimated width of one character at graphFont
	graphNodeH    = 26.0 // node height
	graphNodePad  = 10.0 // horizontal padding inside a node
	graphNodeMinW = 30.0 // minimal node width
	graphNodeGap  = 30.0 // gap between nodes of one layer
	graphLayerGap = 80.0 // least gap between layers
	graphMargin   = 16.0
	graphTitleH   = 24.0
)

type box struct{ x, y, w, h float64 } // centre and size

// validate checks that every edge joins existing nodes and that LayerTitles
// has one title per layer.
func (g *LayeredGraph) validate() error {
	if g.LayerTitles != nil && len(g.LayerTitles) != len(g.Layers) {
		return fmt.Errorf("render: layered graph has %d layer titles for %d layers", len(g.LayerTitles), len(g.Layers))
	}
	in := func(n [2]int) bool {
		return n[0] >= 0 && n[0] < len(g.Layers) && n[1] >= 0 && n[1] < len(g.Layers[n[0]])
	}
	for i, e := range g.Edges {
		if !in(e.From) || !in(e.To) {
			return fmt.Errorf("render: layered graph edge %d from %v to %v: no such node", i, e.From, e.To)
		}
	}
	return nil
}

func textWidth(s string) float64 { return float64(utf8.RuneCountInString(s)) * graphCharW }

// titleWidth estimates the width of the bold, larger title.
func titleWidth(s string) float64 { return 1.3 * textWidth(s) }

// loopRoom returns, for every node, the room its self-loops need beside it
// (right of it in rows, below it in columns).
func (g *LayeredGraph) loopRoom() [][]float64 {
	room := make([][]float64, len(g.Layers))
	count := make([][]int, len(g.Layers))
	labelW := make([][]float64, len(g.Layers))
	for i, layer := range g.Layers {
		room[i] = make([]float64, len(layer))
		count[i] = make([]int, len(layer))
		labelW[i] = make([]float64, len(layer))
	}
	for _, e := range g.Edges {
		if e.From == e.To {
			i, j := e.From[0], e.From[1]
			count[i][j]++
			labelW[i][j] = math.Max(labelW[i][j], textWidth(e.Label))
		}
	}
	for i := range room {
		for j, n := range count[i] {
			if n == 0 {
				continue
			}
			r := loopRadius(n - 1)
			if g.LeftToRight {
				room[i][j] = 2*r + graphFont + 6
			} else {
				room[i][j] = 2*r + labelW[i][j] + 10
			}
		}
	}
	return room
}

// loopRadius is the size of the k-th self-loop of a node.
func loopRadius(k int) float64 { return 12 + 8*float64(k) }

// layout returns the box of every node, the positions of the layer titles and
// the size of the drawing.
func (g *LayeredGraph) layout() (boxes [][]box, titles []box, width, height float64) {
	top := graphMargin
	if g.Title != "" {
		top += graphTitleH
	}
	titleW := 0.0
	for _, t := range g.LayerTitles {
		titleW = math.Max(titleW, textWidth(t))
	}
	layerGap := graphLayerGap
	if g.LeftToRight {
		// Edge labels sit above or below horizontal-ish edges: leave room.
		for _, e := range g.Edges {
			layerGap = math.Max(layerGap, textWidth(e.Label)+50)
		}
		return g.layoutColumns(top, titleW, layerGap)
	}
	return g.layoutRows(top, titleW, layerGap)
}

// nodeWidth is the width of a node labelled label.
func nodeWidth(label string) float64 {
	return math.Max(graphNodeMinW, textWidth(label)+2*graphNodePad)
}

// layoutRows lays the layers out as rows from top to bottom, each centred
// horizontally, below top, with the layer titles (titleW wide) on the left.
func (g *LayeredGraph) layoutRows(top, titleW, layerGap float64) (boxes [][]box, titles []box, width, height float64) {
	room := g.loopRoom()
	boxes = make([][]box, len(g.Layers))
	left := graphMargin
	if titleW > 0 {
		left += titleW + graphNodeGap
	}
	span := make([]float64, len(g.Layers))
	maxSpan := 0.0
	for i, layer := range g.Layers {
		for j, l := range layer {
			if j > 0 {
				span[i] += graphNodeGap
			}
			span[i] += nodeWidth(l) + room[i][j]
		}
		maxSpan = math.Max(maxSpan, span[i])
	}
	for i, layer := range g.Layers {
		y := top + float64(i)*(graphNodeH+layerGap) + graphNodeH/2
		x := left + (maxSpan-span[i])/2
		for j, l := range layer {
			w := nodeWidth(l)
			boxes[i] = append(boxes[i], box{x + w/2, y, w, graphNodeH})
			x += w + room[i][j] + graphNodeGap
		}
		if g.LayerTitles != nil {
			titles = append(titles, box{graphMargin, y, titleW, graphNodeH})
		}
	}
	width = math.Max(left+maxSpan+graphMargin, 2*graphMargin+titleWidth(g.Title))
	height = top + graphMargin
	if n := len(g.Layers); n > 0 {
		height += float64(n)*(graphNodeH+layerGap) - layerGap
	}
	// Arrows between nodes of one layer curve below it: leave room
	// under the last layer for them and their labels.
	for _, e := range g.Edges {
		if e.From[0] == e.To[0] && e.From[0] == len(g.Layers)-1 {
			height += layerGap / 2
			break
		}
	}
	return boxes, titles, width, height
}

// layoutColumns lays the layers out as columns from left to right, each
// centred vertically and as wide as its widest node or title, below top.
func (g *LayeredGraph) layoutColumns(top, titleW, layerGap float64) (boxes [][]box, titles []box, width, height float64) {
	room := g.loopRoom()
	boxes = make([][]box, len(g.Layers))
	if titleW > 0 {
		top += graphNodeH
	}
	colH := make([]float64, len(g.Layers))
	maxH := 0.0
	for i, layer := range g.Layers {
		for j := range layer {
			if j > 0 {
				colH[i] += graphNodeGap
			}
			colH[i] += graphNodeH + room[i][j]
		}
		maxH = math.Max(maxH, colH[i])
	}
	x := graphMargin
	for i, layer := range g.Layers {
		colW := 0.0
		for _, l := range layer {
			colW = math.Max(colW, nodeWidth(l))
		}
		if i < len(g.LayerTitles) {
			colW = math.Max(colW, textWidth(g.LayerTitles[i]))
		}
		y := top + (maxH-colH[i])/2 + graphNodeH/2
		for j := range layer {
			boxes[i] = append(boxes[i], box{x + colW/2, y, colW, graphNodeH})
			y += graphNodeH + room[i][j] + graphNodeGap
		}
		if g.LayerTitles != nil {
			titles = append(titles, box{x + colW/2, top - graphNodeH/2, colW, graphNodeH})
		}
		x += colW + layerGap
	}
	width = 2*graphMargin + titleWidth(g.Title)
	if len(g.Layers) > 0 {
		width = math.Max(width, x-layerGap+graphMargin)
	}
	height = top + maxH + graphMargin
	return boxes, titles, width, height
}

// clip returns the point where the segment from b's centre towards (tx, ty)
// leaves b.
func clip(b box, tx, ty float64) (float64, float64) {
	dx, dy := tx-b.x, ty-b.y
	if dx == 0 && dy == 0 {
		return b.x, b.y
	}
	s := math.Inf(1)
	if dx != 0 {
		s = math.Min(s, (b.w/2)/math.Abs(dx))
	}
	if dy != 0 {
		s = math.Min(s, (b.h/2)/math.Abs(dy))
	}
	return b.x + s*dx, b.y + s*dy
}

// WriteSVG writes g as a standalone SVG document. It returns an error if an
// edge names a node that does not exist or LayerTitles does not match Layers,
// and any error of w.
func (g *LayeredGraph) WriteSVG(w io.Writer) error {
	s, err := g.SVG()
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, s)
	return err
}

// SVG returns g drawn as an SVG document (see [LayeredGraph.WriteSVG]).
func (g *LayeredGraph) SVG() (string, error) {
	if err := g.validate(); err != nil {
		return "", err
	}
	boxes, titles, width, height := g.layout()
	id := g.markerID()
	esc := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="%g">`+"\n",
		width, height, width, height, graphFont)
	fmt.Fprintf(&b, `<defs><marker id="%s" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>`+"\n", id)
	if g.Title != "" {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-weight="bold" font-size="%g">%s</text>`+"\n",
			graphMargin, graphMargin+graphFont, graphFont+2, esc(g.Title))
	}
	for i, t := range titles {
		anchor := "start"
		x := t.x
		if g.LeftToRight {
			anchor = "middle"
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="%s" dominant-baseline="middle" fill="#666">%s</text>`+"\n",
			x, t.y, anchor, esc(g.LayerTitles[i]))
	}
	// Edges first, so that nodes cover their ends; their labels last, over
	// both.
	labels := g.writeEdges(&b, boxes, id)
	b.WriteString(`<g class="nodes">` + "\n")
	for i, layer := range g.Layers {
		for j, l := range layer {
			bx := boxes[i][j]
			link := g.link(i, j)
			if link != "" {
				fmt.Fprintf(&b, `<a href="%s">`, esc(link))
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="6" fill="#eef3fb" stroke="#4c6e9a"/>`+"\n",
				bx.x-bx.w/2, bx.y-bx.h/2, bx.w, bx.h)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" dominant-baseline="middle">%s</text>`+"\n",
				bx.x, bx.y, esc(l))
			if link != "" {
				b.WriteString("</a>\n")
			}
		}
	}
	b.WriteString("</g>\n")
	b.WriteString(`<g class="labels">` + "\n" + labels + "</g>\n")
	b.WriteString("</svg>\n")
	return b.String(), nil
}

// edgePair is an unordered pair of nodes, the lesser first.
type edgePair struct{ a, b [2]int }

// pairOf returns the unordered pair of e's ends.
func pairOf(e Edge) edgePair {
	if e.From[0] > e.To[0] || (e.From[0] == e.To[0] && e.From[1] > e.To[1]) {
		return edgePair{e.To, e.From}
	}
	return edgePair{e.From, e.To}
}

// writeEdges writes the edges' paths, with arrow marker id, and returns
// their labels' text elements. Parallel edges between the same two nodes
// bend apart; edges within a layer or going back bend too.
func (g *LayeredGraph) writeEdges(b *strings.Builder, boxes [][]box, id string) string {
	count := map[edgePair]int{}
	for _, e := range g.Edges {
		count[pairOf(e)]++
	}
	seen := map[edgePair]int{}
	b.WriteString(`<g class="edges" fill="none" stroke="#444" stroke-width="1.2">` + "\n")
	var labels strings.Builder
	for _, e := range g.Edges {
		k := pairOf(e)
		idx := seen[k]
		seen[k]++
		from := boxes[e.From[0]][e.From[1]]
		var c edgeCurve
		if e.From == e.To {
			c = g.loop(from, idx)
		} else {
			c = g.arc(e, from, boxes[e.To[0]][e.To[1]], idx, count[k])
		}
		fmt.Fprintf(b, `<path d="%s" marker-end="url(#%s)"/>`+"\n", c.path, id)
		if e.Label != "" {
			fmt.Fprintf(&labels, `<text x="%.1f" y="%.1f" text-anchor="%s" dominant-baseline="middle" stroke="white" stroke-width="3" paint-order="stroke" fill="#222">%s</text>`+"\n",
				c.lx, c.ly, c.anchor, html.EscapeString(e.Label))
		}
	}
	b.WriteString("</g>\n")
	return labels.String()
}

// edgeCurve is an edge's SVG path and where its label goes.
type edgeCurve struct {
	path   string
	lx, ly float64
	anchor string // text-anchor of the label
}

// loop is the idx-th self-loop of the node in box from, on the node's
// outer side.
func (g *LayeredGraph) loop(from box, idx int) edgeCurve {
	r := loopRadius(idx)
	x0, y0 := from.x+from.w/2, from.y-from.h/4
	x1, y1 := from.x+from.w/2, from.y+from.h/4
	if g.LeftToRight {
		x0, y0 = from.x-from.w/4, from.y+from.h/2
		x1, y1 = from.x+from.w/4, from.y+from.h/2
		return edgeCurve{fmt.Sprintf("M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f", x0, y0, x0-r, y0+2*r, x1+r, y1+2*r, x1, y1),
			from.x, y0 + 1.5*r + 4, "middle"}
	}
	return edgeCurve{fmt.Sprintf("M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f", x0, y0, x0+2*r, y0-r, x1+2*r, y1+r, x1, y1),
		x0 + 1.5*r + 4, from.y, "start"}
}

// arc is edge e from box from to box to, the idx-th of the n edges between
// these two nodes: a quadratic curve bent sideways.
func (g *LayeredGraph) arc(e Edge, from, to box, idx, n int) edgeCurve {
	bend := (float64(idx) - float64(n-1)/2) * 22
	if e.From[0] == e.To[0] || e.To[0] < e.From[0] {
		bend += 30 // keep same-layer and backward edges off the straight line
	}
	if pairOf(e).a != e.From {
		bend = -bend // same side for both directions of a pair
	}
	// Control point: the midpoint pushed sideways by 2·bend, so that
	// the curve's middle is pushed by bend.
	mx, my := (from.x+to.x)/2, (from.y+to.y)/2
	dx, dy := to.x-from.x, to.y-from.y
	l := math.Hypot(dx, dy)
	nx, ny := -dy/l, dx/l
	cx, cy := mx+2*bend*nx, my+2*bend*ny
	x0, y0 := clip(from, cx, cy)
	x1, y1 := clip(to, cx, cy)
	c := edgeCurve{path: fmt.Sprintf("M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f", x0, y0, cx, cy, x1, y1)}
	// The label sits beside the curve's middle, on the side the edge
	// heads to, so that labels of edges that fan out do not collide.
	c.lx, c.ly = 0.25*x0+0.5*cx+0.25*x1, 0.25*y0+0.5*cy+0.25*y1
	tx, ty := x1-x0, y1-y0
	switch {
	case !g.LeftToRight && tx < -1:
		c.lx, c.anchor = c.lx-5, "end"
	case !g.LeftToRight:
		c.lx, c.anchor = c.lx+5, "start"
	case ty > 1:
		c.ly, c.anchor = c.ly+10, "middle"
	default:
		c.ly, c.anchor = c.ly-10, "middle"
	}
	return c
}

// link returns the link target of node j of layer i, "" for none.
func (g *LayeredGraph) link(i, j int) string {
	if i < len(g.Links) && j < len(g.Links[i]) {
		return g.Links[i][j]
	}
	return ""
}

// markerID returns an id for the arrow marker that depends only on the
// graph, so that the output is reproducible, and that differs between graphs,
// so that several drawings can share one HTML page.
func (g *LayeredGraph) markerID() string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%q|%q|%q|%v|%v", g.Title, g.Layers, g.LayerTitles, g.Edges, g.LeftToRight)
	return fmt.Sprintf("pq-arrow-%x", h.Sum64())
}

// Text returns g as plain text: one line per layer listing its nodes, then
// one line per edge.
func (g *LayeredGraph) Text() string {
	var b strings.Builder
	if g.Title != "" {
		b.WriteString(g.Title + "\n")
	}
	name := func(n [2]int) string {
		if n[0] >= 0 && n[0] < len(g.Layers) && n[1] >= 0 && n[1] < len(g.Layers[n[0]]) {
			return g.Layers[n[0]][n[1]]
		}
		return fmt.Sprint(n)
	}
	for i, layer := range g.Layers {
		title := fmt.Sprintf("layer %d", i)
		if i < len(g.LayerTitles) {
			title = g.LayerTitles[i]
		}
		fmt.Fprintf(&b, "%s: %s\n", title, strings.Join(layer, " | "))
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "%s -> %s", name(e.From), name(e.To))
		if e.Label != "" {
			fmt.Fprintf(&b, " [%s]", e.Label)
		}
		b.WriteString("\n")
	}
	return b.String()
}
