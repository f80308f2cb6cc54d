package profan_test

import (
	"testing"

	"github.com/profan-dev/profan"
)

// TestOptimizerFrame: the frames of PyTorch's optimizer step a fused
// step replaces, the grouping it keeps, and the rest.
func TestOptimizerFrame(t *testing.T) {
	checkFrameKinds(t, "OptimizerFrame", profan.OptimizerFrame, map[string]int{
		"torch/optim/adam.py(554): _multi_tensor_adam":                               profan.OptimizerUpdate,
		"torch/optim/adam.py(347): _single_tensor_adam":                              profan.OptimizerUpdate,
		"/usr/lib/python3/site-packages/torch/optim/sgd.py(300): _single_tensor_sgd": profan.OptimizerUpdate,
		"torch/optim/optimizer.py(164): _default_to_fused_or_foreach":                profan.OptimizerUpdate,
		"torch/optim/optimizer.py(547): _group_tensors_by_device_and_dtype":          profan.OptimizerGroup,
		"torch/utils/_foreach_utils.py(42): _group_tensors_by_device_and_dtype":      profan.OptimizerNone,
		"torch/optim/adam.py(139): _init_group":                                      profan.OptimizerNone,
		"torch/optim/optimizer.py(60): _use_grad":                                    profan.OptimizerNone,
		"train.py(40): _multi_tensor_adam":                                           profan.OptimizerNone,
		"<built-in method _foreach_add_ of type object at 0x7fa72fb3e180>":           profan.OptimizerNone,
		"": profan.OptimizerNone,
	})
}

// TestPinFrame: the frames of a DataLoader's pin-memory thread the replay
// takes its time a batch from, and the rest.
func TestPinFrame(t *testing.T) {
	checkFrameKinds(t, "PinFrame", profan.PinFrame, map[string]int{
		"torch/utils/data/_utils/pin_memory.py(26): do_one_step":                                profan.PinStep,
		"/usr/lib/python3/site-packages/torch/utils/data/_utils/pin_memory.py(28): do_one_step": profan.PinStep,
		"multiprocessing/connection.py(253): poll":                                              profan.PinArrive,
		"<built-in function read>":                                                              profan.PinWait,
		"<built-in method recvmsg of socket object at 0x7f9cc8df6c80>":                          profan.PinWait,
		"multiprocessing/connection.py(439): _poll":                                             profan.PinNone,
		"train.py(12): do_one_step":                                                             profan.PinNone,
		"torch/utils/data/_utils/pin_memory.py(55): pin_memory":                                 profan.PinNone,
		"": profan.PinNone,
	})
}

// checkFrameKinds holds kind, a classifier of Python frames by name
// (profan.OptimizerFrame, PinFrame), to what each name is.
func checkFrameKinds(t *testing.T, fn string, kind func(string) int, want map[string]int) {
	t.Helper()
	for name, w := range want {
		if got := kind(name); got != w {
			t.Errorf("%s(%q) = %d, want %d", fn, name, got, w)
		}
	}
}

// TestLoaderWait: a multi-process DataLoader iterator's blocked waits
// for a batch (the workers' pipe's poll, the pin thread's queue's
// condition), not the batch's transfer (its read, its unpickling).
func TestLoaderWait(t *testing.T) {
	for name, want := range map[string]bool{
		"multiprocessing/connection.py(253): poll":                           true,
		"threading.py(327): wait":                                            true,
		"multiprocessing/queues.py(98): get":                                 false,
		"queue.py(154): get":                                                 false,
		"multiprocessing/connection.py(439): _poll":                          false,
		"multiprocessing/connection.py(208): recv_bytes":                     false,
		"<built-in function loads>":                                          false,
		"torch/multiprocessing/reductions.py(539): rebuild_storage_fd":       false,
		"multiprocessing/connection.py(1122): wait":                          false,
		"train.py(40): wait":                                                 false,
		"<built-in method acquire of _thread.lock object at 0x7f3eaa84cb80>": false,
		"": false,
	} {
		if got := profan.LoaderWait(name); got != want {
			t.Errorf("LoaderWait(%q) = %v, want %v", name, got, want)
		}
	}
}
