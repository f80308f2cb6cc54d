package html

import (
	"html/template"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The charts are SVG written by hand: every element and attribute name is
// a constant of this file, every attribute value and text node goes
// through esc, and every number through num or one of the formatters, so
// that the output is safe to embed and identical from run to run.

// Chart fonts and colours. The palette is Okabe and Ito's, which readers
// with the common colour-vision deficiencies tell apart; every series also
// differs by marker shape, dash or text label, so that print in grey and
// readers who see no colour lose nothing.
const (
	fontFamily = "system-ui, -apple-system, Segoe UI, Roboto, Helvetica Neue, Arial, sans-serif"
	ink        = "#1b1f24"
	inkMuted   = "#57606a"
	gridColor  = "#d8dee4"
	roofColor  = "#24292f"
)

var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"}

// esc escapes s for an SVG text node or a double-quoted attribute value.
func esc(s string) string { return template.HTMLEscapeString(s) }

// num formats a coordinate with at most one decimal.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	v = math.Round(v*10) / 10
	if v == 0 {
		return "0" // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// svgw accumulates SVG markup.
type svgw struct{ b strings.Builder }

// tag writes <name a1="v1" ...> (or <.../> when self-closing); attrs are
// name, value pairs.
func (s *svgw) tag(name string, selfClose bool, attrs ...string) {
	s.b.WriteString("<")
	s.b.WriteString(name)
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i+1] == "" {
			continue
		}
		s.b.WriteString(" ")
		s.b.WriteString(attrs[i])
		s.b.WriteString(`="`)
		s.b.WriteString(esc(attrs[i+1]))
		s.b.WriteString(`"`)
	}
	if selfClose {
		s.b.WriteString("/>")
	} else {
		s.b.WriteString(">")
	}
}

func (s *svgw) open(name string, attrs ...string) { s.tag(name, false, attrs...) }
func (s *svgw) el(name string, attrs ...string)   { s.tag(name, true, attrs...); s.b.WriteString("\n") }
func (s *svgw) close(name string)                 { s.b.WriteString("</" + name + ">\n") }

// text writes a text element holding content.
func (s *svgw) text(x, y float64, content string, attrs ...string) {
	s.tag("text", false, append([]string{"x", num(x), "y", num(y)}, attrs...)...)
	s.b.WriteString(esc(content))
	s.b.WriteString("</text>\n")
}

func (s *svgw) line(x1, y1, x2, y2 float64, attrs ...string) {
	s.el("line", append([]string{"x1", num(x1), "y1", num(y1), "x2", num(x2), "y2", num(y2)}, attrs...)...)
}

func (s *svgw) rect(x, y, w, h float64, attrs ...string) {
	s.el("rect", append([]string{"x", num(x), "y", num(y), "width", num(w), "height", num(h)}, attrs...)...)
}

// begin opens the root element; title and desc describe the chart to
// screen readers and show as a tooltip.
func (s *svgw) begin(w, h float64, title, desc string) {
	s.open("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "chart", "role", "img",
		"width", num(w), "height", num(h), "viewBox", "0 0 "+num(w)+" "+num(h),
		"font-family", fontFamily, "font-size", "12", "fill", ink)
	s.b.WriteString("\n<title>")
	s.b.WriteString(esc(title))
	s.b.WriteString("</title>\n")
	if desc != "" {
		s.b.WriteString("<desc>")
		s.b.WriteString(esc(desc))
		s.b.WriteString("</desc>\n")
	}
	s.rect(0, 0, w, h, "fill", "#ffffff")
}

// html returns the markup. It is safe: every string in it was escaped.
func (s *svgw) html() template.HTML {
	s.close("svg")
	return template.HTML(s.b.String())
}

// textWidth estimates the width of s in pixels at the given font size.
func textWidth(s string, size float64) float64 {
	return 0.58 * size * float64(utf8.RuneCountInString(s))
}

// box is a rectangle in chart coordinates, for label placement.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

func (a box) inside(b box) bool {
	return a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1
}

// placer places labels greedily where they overlap nothing placed before.
type placer struct {
	bounds box
	taken  []box
}

// place returns the first candidate inside the bounds that overlaps no
// taken box, else the first candidate, and marks it taken.
func (p *placer) place(cands []box) int {
	best := 0
	for i, c := range cands {
		if c.inside(p.bounds) && !p.overlaps(c) {
			best = i
			break
		}
	}
	p.taken = append(p.taken, cands[best])
	return best
}

func (p *placer) overlaps(c box) bool {
	for _, t := range p.taken {
		if c.overlaps(t) {
			return true
		}
	}
	return false
}

// marker draws shape i (of eight) centred on x, y with radius r.
func marker(s *svgw, i int, x, y, r float64, fill string) {
	stroke := []string{"fill", fill, "stroke", ink, "stroke-width", "1"}
	switch i % 8 {
	case 0: // circle
		s.el("circle", append([]string{"cx", num(x), "cy", num(y), "r", num(r)}, stroke...)...)
	case 1: // square
		d := r * 0.9
		s.rect(x-d, y-d, 2*d, 2*d, stroke...)
	case 2: // triangle up
		s.el("path", append([]string{"d", poly(x, y, r*1.2, 3, -90)}, stroke...)...)
	case 3: // diamond
		s.el("path", append([]string{"d", poly(x, y, r*1.2, 4, -90)}, stroke...)...)
	case 4: // triangle down
		s.el("path", append([]string{"d", poly(x, y, r*1.2, 3, 90)}, stroke...)...)
	case 5: // plus
		a, b := r*1.1, r*0.38
		d := "M" + num(x-b) + " " + num(y-a) + "H" + num(x+b) + "V" + num(y-b) + "H" + num(x+a) + "V" + num(y+b) +
			"H" + num(x+b) + "V" + num(y+a) + "H" + num(x-b) + "V" + num(y+b) + "H" + num(x-a) + "V" + num(y-b) + "H" + num(x-b) + "Z"
		s.el("path", append([]string{"d", d}, stroke...)...)
	case 6: // star
		s.el("path", append([]string{"d", star(x, y, r*1.35, r*0.6)}, stroke...)...)
	case 7: // hexagon
		s.el("path", append([]string{"d", poly(x, y, r*1.1, 6, 0)}, stroke...)...)
	}
}

// markerColor is the fill of marker i; shapes cycle over 8 and colours
// over 7, so the first 56 kernels get distinct pairs.
func markerColor(i int) string { return palette[i%len(palette)] }

// markerIcon is a small standalone SVG of marker i, for legends.
func markerIcon(i int) template.HTML {
	var s svgw
	s.open("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "marker", "width", "16", "height", "16",
		"viewBox", "0 0 16 16", "aria-hidden", "true")
	marker(&s, i, 8, 8, 5, markerColor(i))
	return s.html()
}

func poly(cx, cy, r float64, n int, startDeg float64) string {
	return polygon(cx, cy, n, startDeg, func(int) float64 { return r })
}

// star is a five-pointed star: outer radius ro, inner ri, a point up.
func star(cx, cy, ro, ri float64) string {
	return polygon(cx, cy, 10, -90, func(k int) float64 {
		if k%2 == 1 {
			return ri
		}
		return ro
	})
}

// polygon is the closed path through n vertices around (cx, cy), the
// k-th at radius r(k) and angle startDeg + 360k/n degrees.
func polygon(cx, cy float64, n int, startDeg float64, r func(k int) float64) string {
	var b strings.Builder
	for k := 0; k < n; k++ {
		a := (startDeg + 360*float64(k)/float64(n)) * math.Pi / 180
		if k == 0 {
			b.WriteString("M")
		} else {
			b.WriteString("L")
		}
		b.WriteString(num(cx + r(k)*math.Cos(a)))
		b.WriteString(" ")
		b.WriteString(num(cy + r(k)*math.Sin(a)))
	}
	b.WriteString("Z")
	return b.String()
}

// maxTicks bounds the ticks of one axis, whatever the values.
const maxTicks = 50

// niceTicks returns round tick values covering [lo, hi], about n of them,
// at most maxTicks. A range too narrow to hold distinct round steps (two
// values one floating-point step apart) is widened around its values, so
// that the step always advances.
func niceTicks(lo, hi float64, n int) []float64 {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return []float64{0, 1}
	}
	if n < 1 {
		n = 1
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	scale := math.Max(math.Abs(lo), math.Abs(hi))
	if !(hi-lo > scale*1e-9) {
		pad := scale * 0.1
		if pad == 0 || math.IsInf(lo-pad, 0) || math.IsInf(hi+pad, 0) {
			pad = 1
		}
		if scale == 0 {
			hi = lo + 1
		} else {
			lo, hi = lo-pad, hi+pad
		}
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	if !(step > 0) || math.IsInf(step, 0) {
		return []float64{lo, hi}
	}
	var ticks []float64
	start := math.Floor(lo/step+1e-9) * step
	for i := 0; i < maxTicks; i++ {
		v := start + float64(i)*step
		if v > hi+step*1e-9 {
			break
		}
		ticks = append(ticks, cleanFloat(v))
	}
	if len(ticks) > 0 && ticks[len(ticks)-1] < hi-step*1e-9 && len(ticks) < maxTicks {
		ticks = append(ticks, cleanFloat(ticks[len(ticks)-1]+step))
	}
	if len(ticks) < 2 {
		return []float64{lo, hi}
	}
	return ticks
}

// cleanFloat removes the accumulated error of repeated additions.
func cleanFloat(v float64) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, 9-math.Floor(math.Log10(math.Abs(v))))
	if r := math.Round(v*p) / p; !math.IsNaN(r) && !math.IsInf(r, 0) && p != 0 && !math.IsInf(p, 0) {
		return r
	}
	return v
}

// sectorTicks are ticks for sectors or wavefronts per request: steps of a
// power of two up to 64, round decimals above.
func sectorTicks(hi float64) []float64 {
	for _, step := range []float64{0.5, 1, 2, 4, 8, 16} {
		if hi/step <= 6 {
			var t []float64
			for i := 0; i <= 8; i++ {
				v := float64(i) * step
				if v >= hi+step-1e-9 {
					break
				}
				t = append(t, v)
			}
			return t
		}
	}
	return niceTicks(0, hi, 5)
}

// fixed formats v with d decimals.
func fixed(v float64, d int) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	s := strconv.FormatFloat(v, 'f', d, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// short formats v with three significant digits and an SI prefix, for
// axis ticks: 1.5k, 20M, 3T.
func short(v float64) string {
	if v == 0 {
		return "0"
	}
	prefixes := []string{"", "k", "M", "G", "T", "P", "E"}
	a := math.Abs(v)
	i := 0
	for a >= 1000 && i < len(prefixes)-1 {
		a /= 1000
		v /= 1000
		i++
	}
	if i == 0 && a < 1 {
		return strconv.FormatFloat(cleanFloat(v), 'g', 3, 64)
	}
	return strconv.FormatFloat(cleanFloat(v), 'f', -1, 64) + prefixes[i]
}

// decade formats 10^e for a log axis.
func decade(e int) string {
	switch {
	case e < 0 && e >= -4:
		return "0." + strings.Repeat("0", -e-1) + "1"
	case e >= 0 && e <= 3:
		return "1" + strings.Repeat("0", e)
	}
	return "1e" + strconv.Itoa(e)
}
