package gpumodel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseCC parses a compute capability as exports and toolchains write it:
// "7.0", "7", "sm_70", "compute_70", "70", "sm_90a", "12.0", "sm_120".
// Two- and three-digit forms without a dot are major·10 + minor.
func ParseCC(cc string) (major, minor int, err error) {
	s := strings.ToLower(strings.TrimSpace(cc))
	s = strings.TrimPrefix(s, "sm_")
	s = strings.TrimPrefix(s, "compute_")
	s = strings.TrimRight(s, "af") // arch-specific suffixes: sm_90a, sm_100f
	if s == "" {
		return 0, 0, fmt.Errorf("parsing compute capability %q: empty", cc)
	}
	if maj, min, ok := strings.Cut(s, "."); ok {
		major, err1 := strconv.Atoi(maj)
		minor, err2 := strconv.Atoi(min)
		if err1 != nil || err2 != nil || major < 1 || minor < 0 || minor > 9 {
			return 0, 0, fmt.Errorf("parsing compute capability %q: want MAJOR.MINOR", cc)
		}
		return major, minor, nil
	}
	n, err := strconv.Atoi(s)
	// More than three digits is a board ("4090"), not a compute capability.
	if err != nil || n < 1 || n > 999 {
		return 0, 0, fmt.Errorf("parsing compute capability %q: want MAJOR.MINOR, sm_XY or XY", cc)
	}
	if n < 10 { // "9" means 9.0
		return n, 0, nil
	}
	return n / 10, n % 10, nil
}

func formatCC(major, minor int) string { return fmt.Sprintf("%d.%d", major, minor) }

// ResolveArch turns what a user types for a GPU into a compute capability
// "X.Y": a compute capability in any form ParseCC reads ("sm_80"), an
// architecture name ("Volta", "hopper"; "Tesla" is the CC 1.3
// architecture, not the product line), or a device name Lookup knows.
func ResolveArch(s string) (string, error) {
	if major, minor, err := ParseCC(s); err == nil {
		if major == 4 {
			return "", fmt.Errorf("resolving arch %q: there is no compute capability 4.x", s)
		}
		return formatCC(major, minor), nil
	}
	name := strings.ToLower(strings.Join(strings.Fields(s), " "))
	for _, r := range ccTable {
		if slices.Contains(r.names, name) {
			return r.cc, nil
		}
	}
	if spec, ok := Resolve(s); ok {
		return spec.CC, nil
	}
	return "", fmt.Errorf("resolving arch %q: not a compute capability, architecture or known GPU", s)
}
