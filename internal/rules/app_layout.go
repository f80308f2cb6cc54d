package rules

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// channelsLastSaves is the share of the time of cuDNN's layout conversions
// and NCHW batch norm that channels_last saves: measured on the small
// CNN's pair (fixtures/pytorch2), the one layout pair of the first set.
const channelsLastSaves = 0.65

// channelsLast advises the channels_last memory format for a CNN whose
// convolutions cuDNN runs NHWC around NCHW tensors.
var channelsLast = &Rule{
	ID:    "channels-last",
	Title: "NCHW tensors around NHWC convolutions: use channels_last",
	Text: `cuDNN runs its tensor-core convolutions on NHWC data: given NCHW tensors (PyTorch's
default), it converts them to NHWC and back around each convolution, and runs
batch norm with one block per channel. In channels_last the conversions go and
batch norm runs its NHWC kernels. Where the step already runs NHWC-only kernels
(cuDNN's NHWC batch norm, ATen's *_nhwc pooling) the rule says so and advises
nothing; cuDNN's input padding kernel (channels padded to a multiple of 8) runs in
either layout and is no conversion. A Conv3d's 5-D tensors take
torch.channels_last_3d (PyTorch refuses torch.channels_last on them): where the
trace's ops are aten::conv3d the fix names that format.

The gain is 65% of the conversions' and NCHW batch norm's time, measured on a
CNN step (the convolutions change too). GroupNorm has no channels_last kernel:
it makes its input contiguous (NCHW) and returns NCHW, so each GroupNorm
between two convolutions adds a layout copy where cuDNN converted before, and
the convolution after it converts again: the conversions around the
convolutions next to a GroupNorm stay, as ATen's copies. Only the share of the
forward convolutions with no GroupNorm of their own is saved (one GroupNorm a
convolution or more: none), and where that leaves under the rules' min_gain of
the time the rule advises nothing (a diffusion UNet normalised by GroupNorm:
measured 6.3% slower in channels_last).`,
	Before: `model = ResNet().cuda()
out = model(x)`,
	After: `model = ResNet().cuda().to(memory_format=torch.channels_last)
out = model(x.to(memory_format=torch.channels_last))`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"layout-conversion|batchnorm-nchw|channels-last"},
	Optional: []string{"groupnorm", "convolution"},
	CheckApp: func(p *AppPass) {
		if cl := p.kernels("channels-last"); len(cl) > 0 {
			what := "runs NHWC-only kernels"
			if strings.Contains(cl[0].Info.Family, "batchnorm") {
				what = "batch norm runs its NHWC kernels"
			}
			p.InUse("already channels_last: %s (%s)", what, cl[0].Info.Display)
			return
		}
		layout, bn := p.kernels("layout-conversion"), p.kernels("batchnorm-nchw")
		var said []string
		if len(layout) > 0 {
			from, to := "NCHW", "NHWC"
			if c2, c3 := convCalls(p); c3 > 0 && c2 == 0 {
				from, to = "NCDHW", "NDHWC"
			}
			said = append(said, fmt.Sprintf("converts %s tensors to %s and back around the convolutions (%d launches, %s of the time)", from, to, launchesOf(layout), pct(timeOf(layout)/p.total())))
		}
		if len(bn) > 0 {
			said = append(said, fmt.Sprintf("runs NCHW batch norm with one block per channel (%d launches, %s of the time)", launchesOf(bn), pct(timeOf(bn)/p.total())))
		}
		gs := append(append([]*analysis.Group(nil), layout...), bn...)
		basis := fmt.Sprintf("%.0f%% of the conversion and NCHW batch-norm time (measured on a CNN step)", 100*channelsLastSaves)
		kept := groupNormKept(p)
		saves := saving(nil, channelsLastSaves*(1-kept), layout...)
		saving(saves, channelsLastSaves, bn...)
		msg := "cuDNN " + strings.Join(said, ", and ")
		if kept > 0 {
			gn := p.kernels("groupnorm")
			if gain := gainOf(saves, p.total()); !(gain >= p.Thresholds.MinGain) {
				// The GroupNorms keep the conversions: nothing to advise.
				return
			}
			msg += fmt.Sprintf("; but %d GroupNorm calls (no channels_last kernel: each makes its input contiguous) keep the conversions around the convolutions next to them, as ATen's copies", launchesOf(gn))
			basis += fmt.Sprintf(", of the conversions around the %.0f%% of the forward convolutions with no GroupNorm of their own", 100*(1-kept))
		}
		p.Recommend(analysis.Recommendation{Message: msg,
			Fix:    channelsLastFix(p),
			Groups: gs, Gain: gainOf(saves, p.total()), Saves: saves,
			Basis:    basis,
			Composes: "with everything; torch.compile acts on the NCHW batch norm too (counted once)"})
	},
}

// channelsLastFix writes the fix in the memory format the step's
// convolutions take: torch.channels_last for 4-D tensors (Conv2d),
// torch.channels_last_3d for the 5-D tensors of Conv3d, which PyTorch
// refuses to make channels_last ("required rank 4 tensor"); the trace's
// aten::conv2d and aten::conv3d calls say which (profan.Host.Conv2D,
// Conv3D), and a capture with neither is taken as 2-D.
func channelsLastFix(p *AppPass) string {
	const tail = ": the convolutions then read NHWC directly, the conversions go, and batch norm runs its NHWC kernels"
	c2, c3 := convCalls(p)
	switch {
	case c3 > 0 && c2 == 0:
		return "model = model.to(memory_format=torch.channels_last_3d) and x = x.to(memory_format=torch.channels_last_3d) (the 5-D format of its Conv3d layers: torch.channels_last is refused on 5-D tensors): the convolutions then read NDHWC directly, the conversions go, and batch norm runs its NHWC kernels"
	case c3 > 0:
		return fmt.Sprintf("each Conv2d submodule .to(memory_format=torch.channels_last) and each Conv3d one .to(memory_format=torch.channels_last_3d) (%d aten::conv2d and %d aten::conv3d calls: a model holding both takes neither format whole, torch.channels_last is refused on 5-D tensors and channels_last_3d on 4-D ones), their inputs likewise", c2, c3) + tail
	}
	return "model = model.to(memory_format=torch.channels_last) and x = x.to(memory_format=torch.channels_last)" + tail
}

// convCalls counts the capture's aten::conv2d and aten::conv3d calls
// (profan.Host.Conv2D, Conv3D).
func convCalls(p *AppPass) (c2, c3 int) {
	return p.hostCount(func(h *profan.Host) int { return h.Conv2D }), p.hostCount(func(h *profan.Host) int { return h.Conv3D })
}

// groupNormKept is the share of cuDNN's layout conversions that
// channels_last keeps on a step normalised by GroupNorm: ATen's GroupNorm
// has no channels_last kernel (it makes its input contiguous and returns
// NCHW), so around each convolution next to a GroupNorm the conversion
// stays, as ATen's copy (fixtures/host22b's ddpm, a UNet with a GroupNorm
// before nearly every convolution: the conversions 9.2% of the kernel
// time, priced 5.8% of the wall at 65% of them, measured 6.3% slower in
// channels_last). The share is the GroupNorm calls over the forward
// convolutions (cuDNN's fprop kernels; all of its convolutions where none
// is named so), at most 1; 0 where the step runs no GroupNorm.
func groupNormKept(p *AppPass) float64 {
	gn := launchesOf(p.kernels("groupnorm"))
	if gn == 0 {
		return 0
	}
	conv, fwd := p.kernels("convolution"), 0
	for _, g := range conv {
		if strings.Contains(strings.ToLower(g.Name), "fprop") {
			fwd += g.Launches
		}
	}
	if fwd == 0 {
		fwd = launchesOf(conv)
	}
	if fwd == 0 {
		return 1
	}
	return min(1, float64(gn)/float64(fwd))
}

// cudnnBenchmark advises cuDNN's algorithm search for a convolution step.
var cudnnBenchmark = &Rule{
	ID:    "cudnn-benchmark",
	Title: "Convolutions on cuDNN's heuristic choice: let it benchmark",
	Text: `cuDNN picks a convolution algorithm by heuristics unless
torch.backends.cudnn.benchmark is set, in which case it times its algorithms for
each input shape on first use and keeps the fastest. For a network whose input
shapes do not change from step to step it is free after the first step. What
it saves is not known from one capture (the heuristics' choice is often the
fastest): the rule names the convolutions' time it acts on and gives no gain;
it speaks when convolutions take at least a fifth of the step. Where the trace
records the convolutions' arguments (a PyTorch trace with record_shapes=True:
aten::_convolution's benchmark) and every one ran with benchmark on, it says
the lever is in use and advises nothing.`,
	Before: `model = ResNet().cuda()`,
	After: `torch.backends.cudnn.benchmark = True
model = ResNet().cuda()`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"convolution"},
	CheckApp: func(p *AppPass) {
		conv := p.kernels("convolution")
		s := timeOf(conv) / p.total()
		if s < 0.2 {
			return
		}
		if on, off := convBenchmark(p); on > 0 && off == 0 {
			p.InUse("already benchmarking: the trace records cudnn.benchmark on in all %d aten::_convolution calls (%d cuDNN convolution kernels, %s of the time, run the algorithms it timed)", on, len(conv), pct(s))
			return
		}
		p.Recommend(analysis.Recommendation{
			Message: fmt.Sprintf("%d cuDNN convolution kernels take %s of the time, on the algorithms cuDNN's heuristics chose", len(conv), pct(s)),
			Fix:     "torch.backends.cudnn.benchmark = True (with input shapes that do not change between steps): cuDNN times its algorithms once per shape and keeps the fastest",
			Groups:  conv, Basis: "not estimated: the heuristics' choice is often the fastest; time a few steps with and without",
			Composes: "with everything",
		})
	},
}

// convBenchmark counts the capture's aten::_convolution calls recorded
// with cudnn.benchmark on and off (profan.Host.ConvBenchmark).
func convBenchmark(p *AppPass) (on, off int) {
	return p.hostCount(func(h *profan.Host) int { return h.ConvBenchmark }), p.hostCount(func(h *profan.Host) int { return h.ConvHeuristic })
}
