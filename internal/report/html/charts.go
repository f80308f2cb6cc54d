package html

import (
	"fmt"
	"html/template"
	"math"
	"sort"
	"strconv"

	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// placement says whether and why a kernel is on the roofline.
type placement int

const (
	// onRoofline: the kernel has FLOPs and DRAM bytes.
	onRoofline placement = iota
	// noFlops: the kernel did no floating-point work (a copy, a
	// transpose, integer code); a log axis has no place for it.
	noFlops
	// noData: the export lacks the FLOP or DRAM byte counters.
	noData
	// noDevice: the GPU is unknown, so there are no roofs.
	noDevice
)

// rooflinePlace reads the roofline coordinates of a: arithmetic intensity in
// FLOP per DRAM byte and achieved FLOP/s.
func rooflinePlace(a *verdict.Kernel) (ai, perf float64, p placement) {
	if !hasRoofs(a.Spec) {
		return math.NaN(), math.NaN(), noDevice
	}
	perf, okP := value(a, "flop_throughput")
	ai, okA := value(a, "arithmetic_intensity")
	sp, okS := value(a, "flop_count_sp")
	dp, okD := value(a, "flop_count_dp")
	switch {
	case okP && okA && perf > 0 && ai > 0 && !math.IsInf(ai, 0) && !math.IsInf(perf, 0):
		return ai, perf, onRoofline
	case (okP && perf == 0) || ((okS || okD) && nz(sp)+nz(dp) == 0):
		return ai, perf, noFlops
	}
	return ai, perf, noData
}

// value is a canonical metric of a, when known and finite.
func value(a *verdict.Kernel, name string) (float64, bool) {
	if a == nil || a.Metrics == nil {
		return math.NaN(), false
	}
	v, ok := a.Metrics.Get(name)
	if !ok || math.IsNaN(v) {
		return math.NaN(), false
	}
	return v, true
}

func nz(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// hasRoofs reports whether spec has the peaks a roofline needs.
func hasRoofs(spec *gpumodel.Spec) bool {
	return spec != nil && spec.PeakBandwidth() > 0 && spec.PeakFP32() > 0 && finite(spec.PeakBandwidth()) && finite(spec.PeakFP32())
}

// roofItem is one kernel on a roofline chart; n is its number in the
// report, which labels its point and selects its marker.
type roofItem struct {
	n        int
	ai, perf float64
	r        float64 // marker radius; 0 for the default
}

// Roofline geometry.
const (
	rfW, rfH               = 760.0, 470.0
	rfL, rfR, rfT, rfB     = 78.0, 20.0, 18.0, 58.0
	rfMinDecades, rfMaxDec = 4, 9
)

func roofline(items []roofItem, spec *gpumodel.Spec) template.HTML {
	if !hasRoofs(spec) {
		return ""
	}
	bw, p32, p64 := spec.PeakBandwidth(), spec.PeakFP32(), spec.PeakFP64()
	ridge := p32 / bw
	minAI, maxAI, minP, maxP := ridge/10, ridge*10, bw*ridge/100, p32
	for _, it := range items {
		minAI, maxAI = math.Min(minAI, it.ai), math.Max(maxAI, it.ai*1.5)
		minP, maxP = math.Min(minP, it.perf/1.5), math.Max(maxP, it.perf)
	}
	xhi := int(math.Ceil(math.Log10(maxAI)))
	xlo := int(math.Floor(math.Log10(minAI)))
	xlo = max(min(xlo, xhi-rfMinDecades), xhi-rfMaxDec)
	yhi := int(math.Ceil(math.Log10(maxP * 1.5)))
	ylo := int(math.Floor(math.Log10(math.Min(minP, bw*math.Pow(10, float64(xlo))))))
	ylo = max(min(ylo, yhi-rfMinDecades), yhi-rfMaxDec)

	pw, ph := rfW-rfL-rfR, rfH-rfT-rfB
	X := func(ai float64) float64 {
		return rfL + (math.Log10(ai)-float64(xlo))/float64(xhi-xlo)*pw
	}
	Y := func(p float64) float64 {
		return rfT + ph - (math.Log10(p)-float64(ylo))/float64(yhi-ylo)*ph
	}
	clampX := func(x float64) float64 { return math.Max(rfL, math.Min(rfL+pw, x)) }
	clampY := func(y float64) float64 { return math.Max(rfT, math.Min(rfT+ph, y)) }

	var s svgw
	title := "Roofline of " + spec.Name
	desc := fmt.Sprintf("Kernels placed by arithmetic intensity (FLOP per DRAM byte) and achieved FLOP/s, both on log scales, "+
		"under the DRAM roof of %s and the FP32 roof of %s; ridge point at %s FLOP/B.",
		metrics.Format(bw, "B/s"), metrics.Format(p32, "FLOP/s"), fixed(ridge, 1))
	s.begin(rfW, rfH, title, desc)

	// Grid and axes.
	s.open("g", "stroke", gridColor, "stroke-width", "1")
	s.b.WriteString("\n")
	for e := xlo; e <= xhi; e++ {
		x := X(math.Pow(10, float64(e)))
		s.line(x, rfT, x, rfT+ph)
	}
	for e := ylo; e <= yhi; e++ {
		y := Y(math.Pow(10, float64(e)))
		s.line(rfL, y, rfL+pw, y)
	}
	s.close("g")
	s.open("g", "stroke", inkMuted, "stroke-width", "1")
	s.b.WriteString("\n")
	for e := xlo; e < xhi; e++ {
		for m := 2; m <= 9; m++ {
			x := X(float64(m) * math.Pow(10, float64(e)))
			s.line(x, rfT+ph, x, rfT+ph+4)
		}
	}
	for e := ylo; e < yhi; e++ {
		for m := 2; m <= 9; m++ {
			y := Y(float64(m) * math.Pow(10, float64(e)))
			s.line(rfL-4, y, rfL, y)
		}
	}
	s.close("g")
	s.rect(rfL, rfT, pw, ph, "fill", "none", "stroke", inkMuted, "stroke-width", "1")
	s.open("g", "fill", inkMuted, "font-size", "11")
	s.b.WriteString("\n")
	for e := xlo; e <= xhi; e++ {
		s.text(X(math.Pow(10, float64(e))), rfT+ph+17, decade(e), "text-anchor", "middle")
	}
	for e := ylo; e <= yhi; e++ {
		s.text(rfL-8, Y(math.Pow(10, float64(e)))+4, short(math.Pow(10, float64(e))), "text-anchor", "end")
	}
	s.close("g")
	s.text(rfL+pw/2, rfH-12, "Arithmetic intensity (FLOP per DRAM byte, log scale)", "text-anchor", "middle", "font-weight", "600")
	s.text(16, rfT+ph/2, "Performance (FLOP/s, log scale)", "text-anchor", "middle", "font-weight", "600",
		"transform", "rotate(-90 16 "+num(rfT+ph/2)+")")

	pl := &placer{bounds: box{rfL + 2, rfT + 2, rfL + pw - 2, rfT + ph - 2}}

	// Roofs.
	x0 := math.Pow(10, float64(xlo))
	x1 := math.Pow(10, float64(xhi))
	aiStart := math.Max(x0, math.Pow(10, float64(ylo))/bw)
	s.el("path", "d", "M"+num(X(aiStart))+" "+num(Y(bw*aiStart))+"L"+num(X(ridge))+" "+num(Y(p32))+"L"+num(X(x1))+" "+num(Y(p32)),
		"fill", "none", "stroke", roofColor, "stroke-width", "2.5", "stroke-linejoin", "round")
	if p64 > 0 && p64 < p32*0.999 && p64 > math.Pow(10, float64(ylo)) {
		r64 := p64 / bw
		s.line(X(math.Max(r64, aiStart)), Y(p64), X(x1), Y(p64), "stroke", roofColor, "stroke-width", "1.5", "stroke-dasharray", "7 4")
		lbl := "FP64 peak " + metrics.Format(p64, "FLOP/s") + " (dashed)"
		y := Y(p64) + 15
		s.text(rfL+pw-6, y, lbl, "text-anchor", "end", "font-size", "11.5", "fill", inkMuted)
		pl.taken = append(pl.taken, box{rfL + pw - 6 - textWidth(lbl, 11.5), y - 11, rfL + pw - 6, y + 3})
	}
	{
		lbl := "FP32 peak " + metrics.Format(p32, "FLOP/s")
		y := Y(p32) - 7
		s.text(rfL+pw-6, y, lbl, "text-anchor", "end", "font-weight", "600")
		pl.taken = append(pl.taken, box{rfL + pw - 6 - textWidth(lbl, 12), y - 12, rfL + pw - 6, y + 3})
	}
	{
		// The DRAM roof's label runs along it, a third of the way up.
		la, lr := math.Log10(aiStart), math.Log10(ridge)
		ai := math.Pow(10, la+(lr-la)*0.3)
		x, y := X(ai), Y(bw*ai)
		dxDec, dyDec := pw/float64(xhi-xlo), ph/float64(yhi-ylo)
		ang := -math.Atan2(dyDec, dxDec) * 180 / math.Pi
		lbl := "DRAM " + metrics.Format(bw, "B/s")
		s.text(x, y-7, lbl, "text-anchor", "middle", "font-weight", "600",
			"transform", "rotate("+num(ang)+" "+num(x)+" "+num(y)+")")
		w := textWidth(lbl, 12)
		pl.taken = append(pl.taken, box{x - w/2, y - w/2 - 14, x + w/2, y + w/2})
	}
	// Ridge point.
	rx, ry := X(ridge), Y(p32)
	s.line(rx, ry, rx, rfT+ph, "stroke", inkMuted, "stroke-width", "1", "stroke-dasharray", "2 3")
	s.el("circle", "cx", num(rx), "cy", num(ry), "r", "4.5", "fill", "#ffffff", "stroke", roofColor, "stroke-width", "2")
	{
		lbl := "ridge point " + fixed(ridge, 1) + " FLOP/B"
		y := rfT + ph - 8
		s.text(rx+5, y, lbl, "font-size", "11.5", "fill", inkMuted)
		pl.taken = append(pl.taken, box{rx + 5, y - 11, rx + 5 + textWidth(lbl, 11.5), y + 3}, box{rx - 7, ry - 7, rx + 7, ry + 7})
	}

	// Kernels: markers first, so that no label covers one, then labels.
	type pos struct{ x, y float64 }
	ps := make([]pos, len(items))
	for i, it := range items {
		ps[i] = pos{clampX(X(it.ai)), clampY(Y(it.perf))}
		pl.taken = append(pl.taken, box{ps[i].x - 7, ps[i].y - 7, ps[i].x + 7, ps[i].y + 7})
	}
	s.open("g", "class", "kernels")
	s.b.WriteString("\n")
	for i, it := range items {
		r := it.r
		if r <= 0 {
			r = 6
		}
		marker(&s, it.n-1, ps[i].x, ps[i].y, r, markerColor(it.n-1))
	}
	for i, it := range items {
		lbl := strconv.Itoa(it.n)
		w, h := textWidth(lbl, 13)+2, 14.0
		x, y := ps[i].x, ps[i].y
		var cands []box
		for _, d := range []float64{9, 18} {
			cands = append(cands,
				box{x + d, y - h/2, x + d + w, y + h/2},
				box{x - d - w, y - h/2, x - d, y + h/2},
				box{x - w/2, y - d - h, x + w/2, y - d},
				box{x - w/2, y + d, x + w/2, y + d + h},
				box{x + d*0.7, y - d*0.7 - h, x + d*0.7 + w, y - d*0.7},
				box{x + d*0.7, y + d*0.7, x + d*0.7 + w, y + d*0.7 + h},
				box{x - d*0.7 - w, y - d*0.7 - h, x - d*0.7, y - d*0.7},
				box{x - d*0.7 - w, y + d*0.7, x - d*0.7, y + d*0.7 + h})
		}
		b := cands[pl.place(cands)]
		s.text((b.x0+b.x1)/2, b.y1-2.5, lbl, "text-anchor", "middle", "font-size", "13", "font-weight", "700",
			"stroke", "#ffffff", "stroke-width", "3", "paint-order", "stroke")
	}
	s.close("g")
	return s.html()
}

// efficiencySVG draws a's memory efficiency: for global loads, global
// stores and shared memory, the ideal and the measured sectors (shared:
// wavefronts) per request as pairs of bars with their values written on
// them. It returns "" when the model has none of the three.
func efficiencySVG(a *verdict.Kernel) template.HTML {
	type group struct {
		name, unit string
		acc        *verdict.Access
	}
	var gs []group
	for _, g := range []group{
		{"global load", "sectors / request", a.Model.GlobalLoad},
		{"global store", "sectors / request", a.Model.GlobalStore},
		{"shared load", "wavefronts / request", a.Model.SharedLoad},
		{"shared store", "wavefronts / request", a.Model.SharedStore},
	} {
		if g.acc != nil && finite(g.acc.SectorsPerRequest) {
			gs = append(gs, g)
		}
	}
	if len(gs) == 0 {
		return ""
	}
	const (
		w, left, right, top = 560.0, 132.0, 96.0, 12.0
		bar, gap, groupGap  = 16.0, 4.0, 18.0
	)
	hi := 1.0
	for _, g := range gs {
		hi = math.Max(hi, math.Max(g.acc.SectorsPerRequest, g.acc.IdealSectorsPerRequest))
	}
	ticks := sectorTicks(hi)
	hi = ticks[len(ticks)-1]
	pw := w - left - right
	X := func(v float64) float64 { return left + v/hi*pw }
	gh := 2*bar + gap
	h := top + float64(len(gs))*(gh+groupGap) + 26

	var s svgw
	desc := "Ideal and measured sectors per request:"
	for _, g := range gs {
		desc += fmt.Sprintf(" %s ideal %s, actual %s;", g.name, fixed(g.acc.IdealSectorsPerRequest, 2), fixed(g.acc.SectorsPerRequest, 2))
	}
	s.begin(w, h, "Memory efficiency: ideal vs actual sectors per request", desc)
	axisY := h - 26
	s.open("g", "stroke", gridColor, "stroke-width", "1")
	s.b.WriteString("\n")
	for _, t := range ticks {
		s.line(X(t), top-4, X(t), axisY)
	}
	s.close("g")
	s.line(left, top-4, left, axisY, "stroke", inkMuted, "stroke-width", "1")
	s.open("g", "fill", inkMuted, "font-size", "11", "text-anchor", "middle")
	s.b.WriteString("\n")
	for _, t := range ticks {
		s.text(X(t), axisY+15, strconv.FormatFloat(t, 'f', -1, 64))
	}
	s.close("g")

	for i, g := range gs {
		y := top + float64(i)*(gh+groupGap)
		s.text(left-10, y+bar-3, g.name, "text-anchor", "end", "font-weight", "600")
		s.text(left-10, y+2*bar+gap-3, g.unit, "text-anchor", "end", "font-size", "11", "fill", inkMuted)
		ideal, act := g.acc.IdealSectorsPerRequest, g.acc.SectorsPerRequest
		// Ideal: an outlined light bar; actual: a solid bar, vermilion and
		// flagged in words when it exceeds the ideal by a quarter.
		s.rect(left, y, math.Max(X(ideal)-left, 1), bar, "fill", "#eaeef2", "stroke", ink, "stroke-width", "1", "stroke-dasharray", "3 2")
		barLabel(&s, X(ideal), y+bar-4, w, "ideal "+fixed(ideal, 2), ink, "400")
		waste := ideal > 0 && act > ideal*1.25
		fill := palette[0]
		if waste {
			fill = palette[1]
		}
		y2 := y + bar + gap
		s.rect(left, y2, math.Max(X(act)-left, 1), bar, "fill", fill, "stroke", ink, "stroke-width", "1")
		lbl := "actual " + fixed(act, 2)
		if waste {
			lbl += fmt.Sprintf("  (%s× ideal)", fixed(act/ideal, 1))
		}
		barLabel(&s, X(act), y2+bar-4, w, lbl, "#ffffff", "600")
	}
	return s.html()
}

// barLabel writes a bar's label after its end, or inside it, right
// aligned in colour inside, when it would run past the chart's width.
func barLabel(s *svgw, end, y, width float64, lbl, inside, weight string) {
	const size = 11.5
	if end+6+textWidth(lbl, size) <= width-4 {
		s.text(end+6, y, lbl, "font-size", num(size), "font-weight", weight)
		return
	}
	s.text(end-6, y, lbl, "font-size", num(size), "font-weight", weight, "text-anchor", "end", "fill", inside)
}

// trendRange is the value range a trend chart draws before its ticks
// round it: from zero unless the values sit far from it; false when no
// value is finite.
func trendRange(pts []TrendPoint) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		if finite(p.Value) {
			lo, hi = math.Min(lo, p.Value), math.Max(hi, p.Value)
		}
	}
	if len(pts) == 0 || math.IsInf(lo, 0) {
		return 0, 0, false
	}
	// A zero baseline unless the values sit far from it.
	if lo >= 0 && lo < 0.6*hi {
		lo = 0
	}
	if hi == lo {
		// A flat series: draw it against zero, a quarter below the top,
		// not magnified into noise between two ticks around it.
		switch {
		case lo > 0:
			lo, hi = 0, hi*1.25
		case lo < 0:
			lo, hi = lo*1.25, 0
		default:
			lo, hi = 0, 1
		}
	}
	return lo, hi, true
}

// labelEvery is k for x labels on every k-th of pts spread over width:
// at most most labels, none overlapping (the widest decides).
func labelEvery(pts []TrendPoint, width float64, most int) int {
	n := len(pts)
	every := max(1, (n+most-1)/most)
	if n > 1 {
		widest := 0.0
		for _, p := range pts {
			widest = math.Max(widest, textWidth(runLabel(p), 11))
		}
		step := width / float64(n-1)
		for every < n && float64(every)*step < widest+8 {
			every++
		}
	}
	return every
}

// trendSVG draws one metric of one kernel across runs: a line through
// the values in order, the first, the last and the first value after each
// change labelled, and each change point marked by a dashed vertical line
// labelled "change" with the step between the medians of the levels on
// either side.
func trendSVG(t Trend) template.HTML {
	const (
		w, h              = 760.0, 280.0
		left, right, top  = 80.0, 24.0, 36.0
		bottom            = 52.0
		maxXLabels, label = 12, 11.5
	)
	pw, ph := w-left-right, h-top-bottom
	var s svgw
	title := "Trend of " + t.Metric + " for " + t.Kernel
	n := len(t.Points)
	cps := validChanges(t.ChangePoints, n)
	desc := fmt.Sprintf("%d values over runs", n)
	if n > 0 {
		desc += fmt.Sprintf(" %d to %d", t.Points[0].Run, t.Points[n-1].Run)
	}
	desc += fmt.Sprintf("; %d change points", len(cps))
	s.begin(w, h, title, desc)
	lo, hi, ok := trendRange(t.Points)
	if !ok {
		s.text(w/2, h/2, "no values", "text-anchor", "middle", "fill", inkMuted)
		return s.html()
	}
	ticks := niceTicks(lo, hi, 5)
	lo, hi = ticks[0], ticks[len(ticks)-1]
	// An axis that does not start at zero magnifies: say so, and by how
	// much, so that a 2% band drawn at full height is read as 2%.
	if zoom := zoomNote(lo, hi, t.Unit); zoom != "" {
		s.text(4, h-10, zoom, "font-size", "10.5", "fill", inkMuted)
	}
	X := func(i int) float64 {
		if n == 1 {
			return left + pw/2
		}
		return left + 10 + float64(i)/float64(n-1)*(pw-20)
	}
	Y := func(v float64) float64 { return top + ph - (v-lo)/(hi-lo)*ph }

	s.open("g", "stroke", gridColor, "stroke-width", "1")
	s.b.WriteString("\n")
	for _, tv := range ticks {
		s.line(left, Y(tv), left+pw, Y(tv))
	}
	s.close("g")
	s.rect(left, top, pw, ph, "fill", "none", "stroke", inkMuted, "stroke-width", "1")
	s.open("g", "fill", inkMuted, "font-size", "11", "text-anchor", "end")
	s.b.WriteString("\n")
	for _, tv := range ticks {
		lbl := "0"
		if tv != 0 {
			lbl = metrics.Format(tv, t.Unit)
		}
		s.text(left-8, Y(tv)+4, lbl)
	}
	s.close("g")
	every := labelEvery(t.Points, pw-20, maxXLabels)
	s.open("g", "fill", inkMuted, "font-size", "11", "text-anchor", "middle")
	s.b.WriteString("\n")
	prevRun := int64(math.MinInt64)
	for i, p := range t.Points {
		if i%every == 0 && p.Run != prevRun {
			s.text(X(i), top+ph+16, runLabel(p))
		}
		prevRun = p.Run
	}
	s.close("g")
	xTitle := t.XTitle
	if xTitle == "" {
		xTitle = "run"
	}
	s.text(left+pw/2, h-10, xTitle, "text-anchor", "middle", "font-weight", "600")

	pl := &placer{bounds: box{left + 1, 2, left + pw - 1, top + ph - 1}}
	// Level of each segment between changes, as a faint line.
	bounds := append(append([]int{0}, cps...), n)
	meds := make([]float64, len(bounds)-1)
	for k := 0; k+1 < len(bounds); k++ {
		meds[k] = median(t.Points[bounds[k]:bounds[k+1]])
		if finite(meds[k]) && bounds[k+1]-bounds[k] > 1 {
			s.line(X(bounds[k]), Y(meds[k]), X(bounds[k+1]-1), Y(meds[k]), "stroke", gridColor, "stroke-width", "3")
		}
	}
	// Change points.
	for k, c := range cps {
		x := (X(c-1) + X(c)) / 2
		s.line(x, top-4, x, top+ph, "stroke", ink, "stroke-width", "1.2", "stroke-dasharray", "5 4")
		lbl, fill := "change", ink
		if st, ok := t.step(c); ok {
			// The step as profan trend states it, in the metric's
			// better direction: colour and word, never colour alone.
			lbl += " " + stepPct(st.Rel)
			if st.Verdict != "" {
				lbl += " " + st.Verdict
				fill = verdictColor(st.Verdict)
			}
		} else if b, a := meds[k], meds[k+1]; finite(a) && finite(b) && b != 0 {
			lbl += " " + signedPct((a-b)/math.Abs(b))
		}
		wd := textWidth(lbl, label)
		cands := []box{{x - wd/2, top - 20, x + wd/2, top - 7}, {x + 3, top - 20, x + 3 + wd, top - 7}, {x - 3 - wd, top - 20, x - 3, top - 7}}
		b := cands[pl.place(cands)]
		if fill == ink {
			s.text(b.x0, b.y1-2, lbl, "font-size", num(label), "font-weight", "600")
		} else {
			s.text(b.x0, b.y1-2, lbl, "font-size", num(label), "font-weight", "600", "fill", fill)
		}
	}
	// The line, broken at missing values, and its points.
	var d string
	pen := false
	for i, p := range t.Points {
		if !finite(p.Value) {
			pen = false
			continue
		}
		if pen {
			d += "L"
		} else {
			d += "M"
		}
		d += num(X(i)) + " " + num(Y(p.Value))
		pen = true
	}
	s.el("path", "d", d, "fill", "none", "stroke", palette[0], "stroke-width", "2", "stroke-linejoin", "round")
	for i, p := range t.Points {
		if finite(p.Value) {
			s.el("circle", "cx", num(X(i)), "cy", num(Y(p.Value)), "r", "3.5", "fill", "#ffffff", "stroke", palette[0], "stroke-width", "2")
			pl.taken = append(pl.taken, box{X(i) - 4, Y(p.Value) - 4, X(i) + 4, Y(p.Value) + 4})
		}
	}
	// Value labels: first, last, and the first point of each new level.
	show := append([]int{0}, cps...)
	show = append(show, n-1)
	sort.Ints(show)
	last := -1
	for _, i := range show {
		if i == last || !finite(t.Points[i].Value) {
			continue
		}
		last = i
		lbl := metrics.Format(t.Points[i].Value, t.Unit)
		x, y := X(i), Y(t.Points[i].Value)
		wd := textWidth(lbl, label)
		cands := []box{
			{x - wd/2, y - 22, x + wd/2, y - 8}, {x - wd/2, y + 8, x + wd/2, y + 22},
			{x + 7, y - 7, x + 7 + wd, y + 7}, {x - 7 - wd, y - 7, x - 7, y + 7},
			{x + 4, y - 24, x + 4 + wd, y - 10}, {x - 4 - wd, y - 24, x - 4, y - 10},
			{x + 4, y + 10, x + 4 + wd, y + 24}, {x - 4 - wd, y + 10, x - 4, y + 24},
		}
		b := cands[pl.place(cands)]
		s.text(b.x0, b.y1-3, lbl, "font-size", num(label), "stroke", "#ffffff", "stroke-width", "3", "paint-order", "stroke")
	}
	return s.html()
}

// step returns the step stated for the change at point c, when the
// trend carries the steps.
func (t Trend) step(c int) (TrendStep, bool) {
	if len(t.Steps) != len(t.ChangePoints) {
		return TrendStep{}, false
	}
	for k, x := range t.ChangePoints {
		if x == c {
			return t.Steps[k], true
		}
	}
	return TrendStep{}, false
}

// stepPct formats a step as profan trend prints it: +119.8%.
func stepPct(r float64) string {
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return "from 0"
	}
	return fmt.Sprintf("%+.1f%%", r*100)
}

// verdictColor is the colour of a better (bluish green) or worse
// (vermilion) step, from the colour-blind-safe palette.
func verdictColor(v string) string {
	switch v {
	case "better":
		return "#007A5A" // palette's bluish green, darkened to read as text
	case "worse":
		return "#B84A00" // palette's vermilion, darkened to read as text
	}
	return ink
}

// runLabel is the x-axis label of a point: its label, else its run ID.
func runLabel(p TrendPoint) string {
	if p.Label != "" {
		return p.Label
	}
	return "#" + strconv.FormatInt(p.Run, 10)
}

// validChanges keeps the change points inside (0, n), sorted, unique.
func validChanges(cps []int, n int) []int {
	var out []int
	for _, c := range cps {
		if c > 0 && c < n {
			out = append(out, c)
		}
	}
	sort.Ints(out)
	uniq := out[:0]
	for i, c := range out {
		if i == 0 || c != out[i-1] {
			uniq = append(uniq, c)
		}
	}
	return uniq
}

func median(ps []TrendPoint) float64 {
	var xs []float64
	for _, p := range ps {
		if finite(p.Value) {
			xs = append(xs, p.Value)
		}
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	sort.Float64s(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return (xs[m-1] + xs[m]) / 2
}

// signedPct formats a relative change: +217%, −68%.
func signedPct(r float64) string {
	p := math.Round(r * 100)
	switch {
	case p > 0:
		return "+" + strconv.FormatFloat(p, 'f', 0, 64) + "%"
	case p < 0:
		return "\u2212" + strconv.FormatFloat(-p, 'f', 0, 64) + "%"
	}
	return "±0%"
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// zoomNote says that a chart's value axis from lo to hi does not start at
// zero, and what share of the values' size its height spans; "" when it
// starts at zero.
func zoomNote(lo, hi float64, unit string) string {
	if lo <= 0 && hi >= 0 {
		return ""
	}
	top := math.Max(math.Abs(lo), math.Abs(hi))
	return fmt.Sprintf("axis from %s, not zero: its height is %s of the values", metrics.Format(lo, unit), strconv.FormatFloat(100*(hi-lo)/top, 'g', 2, 64)+"%")
}
