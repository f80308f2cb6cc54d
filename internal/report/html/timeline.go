package html

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// Timeline is a run's timeline for the page: a strip per device (busy,
// idle by cause) and per stream (busy), over the run's span.
type Timeline struct {
	Source string
	T      *verdict.Timeline
}

type timelineView struct {
	Source  string
	Summary string
	Idle    []string
	Strip   template.HTML
}

// stateColor colours a strip's states; each also has its own row of the
// legend, so that no colour alone carries the meaning.
var stateColor = map[string]string{
	"busy":               palette[2],
	verdict.IdleLaunch:   palette[1],
	verdict.IdleSync:     palette[3],
	verdict.IdleCopy:     palette[4],
	verdict.IdleQueued:   palette[5],
	verdict.IdleData:     "#F0E442", // Okabe-Ito's yellow: the palette's colours are taken
	verdict.IdlePython:   palette[0],
	verdict.IdleAlloc:    palette[6],
	verdict.IdleOpHost:   "#882255", // Tol's wine: the palette's colours are taken
	verdict.IdleLeading:  gridColor,
	verdict.IdleTrailing: gridColor,
	verdict.IdleOther:    inkMuted,
}

// timelineViews makes the views of the timelines.
func timelineViews(ts []Timeline) []*timelineView {
	var out []*timelineView
	for _, t := range ts {
		tl := t.T
		v := &timelineView{Source: t.Source, Summary: fmt.Sprintf("wall %s, GPU busy %s (%s), %d launches on %s",
			metrics.Format(tl.Span, "s"), metrics.ShareText(tl.BusyShare), metrics.Format(tl.Busy, "s"), tl.LaunchCount, tl.Device)}
		for _, i := range tl.Idle {
			// A cause holds a gap at least: 0 is a run stored without
			// its gaps (before migration 0014), not said as 0.
			s := fmt.Sprintf("%s %s (%s)", verdict.IdleLabel(i.Cause), metrics.ShareText(i.Share), metrics.Format(i.Seconds, "s"))
			if i.Gaps > 0 {
				s = fmt.Sprintf("%s %s (%s, %d gaps)", verdict.IdleLabel(i.Cause), metrics.ShareText(i.Share), metrics.Format(i.Seconds, "s"), i.Gaps)
			}
			if len(i.Calls) > 0 {
				c := i.Calls[0]
				s += ": " + c.Name
				if c.Op != "" {
					s += " in " + c.Op
				}
				if c.Frame != "" {
					s += " at " + c.Frame
				}
			}
			v.Idle = append(v.Idle, s)
		}
		v.Strip = stripSVG(tl)
		out = append(out, v)
	}
	return out
}

// stripSVG draws the timeline: per device a row of its states, under it a
// row per stream of its busy time, over the device's span, with a legend.
func stripSVG(tl *verdict.Timeline) template.HTML {
	if len(tl.Devices) == 0 {
		return "" // a run stored before migration 0015: its figures, not its strips
	}
	label := verdict.IdleLabel
	const w, left, rowH, gap = 900.0, 150.0, 18.0, 6.0
	rows := 0
	for _, d := range tl.Devices {
		rows += 1 + len(d.Streams)
	}
	legendY := float64(rows)*(rowH+gap) + 8
	h := legendY + 22
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" width="100%%" role="img" aria-label="%s" font-family="%s" font-size="11">`,
		num(w), num(h), esc("timeline: busy and idle time by cause"), esc(fontFamily))
	y := 0.0
	row := func(name string, lo, span float64, segs []verdict.Segment, title bool) {
		fmt.Fprintf(&b, `<text x="0" y="%s" fill="%s">%s</text>`, num(y+rowH-5), ink, esc(shorten(name, 24)))
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="#f6f8fa" stroke="%s"/>`, num(left), num(y), num(w-left), num(rowH), gridColor)
		for _, s := range segs {
			x0 := left + (s.Start-lo)/span*(w-left)
			x1 := left + (s.End-lo)/span*(w-left)
			if x1-x0 < 0.2 {
				x1 = x0 + 0.2
			}
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s">`, num(x0), num(y), fmt.Sprintf("%.2f", x1-x0), num(rowH), stateColor[s.State])
			if title {
				fmt.Fprintf(&b, `<title>%s %s</title>`, esc(label(s.State)), esc(metrics.Format(s.End-s.Start, "s")))
			}
			b.WriteString(`</rect>`)
		}
		y += rowH + gap
	}
	for _, d := range tl.Devices {
		span := d.Span
		if span <= 0 {
			span = 1e-9
		}
		row(d.Device, d.Start, span, d.Strip, len(d.Strip) <= 400)
		for _, s := range d.Streams {
			row("  stream "+s.Stream, d.Start, span, s.Strip, false)
		}
	}
	x := left
	for _, st := range append([]string{"busy"}, verdict.IdleCauses...) {
		if st == verdict.IdleTrailing {
			continue
		}
		name := label(st)
		if st == "busy" {
			name = "GPU busy"
		}
		if st == verdict.IdleLeading {
			name = "host only"
		}
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="10" height="10" fill="%s"/>`, num(x), num(legendY), stateColor[st])
		fmt.Fprintf(&b, `<text x="%s" y="%s" fill="%s">%s</text>`, num(x+14), num(legendY+9), inkMuted, esc(name))
		x += 14 + 6.2*float64(len(name)) + 14
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
