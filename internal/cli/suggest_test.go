package cli

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"gld_efficiency", "gst_efficiency", "duration", "achieved_occupancy", "shared_efficiency"}
	for in, want := range map[string]string{
		"gld_effciency": "gld_efficiency", "gld_efficeincy": "gld_efficiency", "duraton": "duration",
		"Duration": "duration", "occupancy": "achieved_occupancy", "xyz": "", "dram": "",
	} {
		if got := closest(in, known); got != want {
			t.Errorf("closest(%q) = %q, want %q", in, got, want)
		}
	}
}
