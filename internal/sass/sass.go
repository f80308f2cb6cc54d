// Package sass holds what is made of a kernel's SASS on ncu's source page:
// its instructions listed each address once, in page, address or program
// order, and split into operation and operands. The analysis and some
// thirty rules read these lists, and each made its own before (on
// fixtures/sol-check22 that was a fifth of analyze's CPU, and building
// the analysis' program a seventh of a source page's analysis): a Code
// makes each once, when first asked, and hands every reader the same one.
package sass

import (
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/profan-dev/profan"
)

// Code is the lists made of one source page, each when first asked for;
// safe for concurrent use. The lists are shared: no caller may write to
// them (append to a clone).
type Code struct {
	page []profan.SourceRecord

	instOnce, recsOnce, codeOnce, progOnce, programOnce sync.Once
	inst                                                []profan.SourceRecord
	recs                                                []profan.SourceRecord
	at                                                  map[string]int
	code                                                []profan.SourceRecord
	prog                                                []profan.SourceRecord
	program                                             *Program
}

// New returns the Code of a source page, nothing made yet.
func New(page []profan.SourceRecord) *Code { return &Code{page: page} }

// Of reports whether c is page's Code: the same slice, not an equal one.
func (c *Code) Of(page []profan.SourceRecord) bool {
	return c != nil && len(c.page) == len(page) && (len(page) == 0 || &c.page[0] == &page[0])
}

// Instructions is the page's rows with an address, each address once,
// in page order: the page may list an address twice (a line inlined in
// two places), and rows with no address are source lines.
func (c *Code) Instructions() []profan.SourceRecord {
	c.instOnce.Do(func() { c.inst = slices.Clip(slices.Collect(Instructions(c.page))) })
	return c.inst
}

// Records is the page's rows with SASS and an address, each address
// once, in page order, and the index of each address among them.
func (c *Code) Records() ([]profan.SourceRecord, map[string]int) {
	c.recsOnce.Do(func() {
		c.at = map[string]int{}
		for _, s := range c.page {
			if s.SASS == "" || s.Address == "" {
				continue
			}
			if _, dup := c.at[s.Address]; dup {
				continue
			}
			c.at[s.Address] = len(c.recs)
			c.recs = append(c.recs, s)
		}
		c.recs = slices.Clip(c.recs)
	})
	return c.recs, c.at
}

// AddressOrder is Records sorted by address (ByAddress).
func (c *Code) AddressOrder() []profan.SourceRecord {
	c.codeOnce.Do(func() {
		recs, _ := c.Records()
		c.code = slices.Clip(ByAddress(recs))
	})
	return c.code
}

// ProgramOrder is Instructions sorted by address, an address that does
// not parse first: the page files instructions under their lines.
func (c *Code) ProgramOrder() []profan.SourceRecord {
	c.progOnce.Do(func() {
		recs := slices.Collect(Instructions(c.page))
		sort.SliceStable(recs, func(i, j int) bool { return address(recs[i].Address) < address(recs[j].Address) })
		c.prog = slices.Clip(recs)
	})
	return c.prog
}

// Program is the Records in address order (an address that does not
// parse first) with each split by Fields: what the analysis' backward
// walks over the registers read.
func (c *Code) Program() *Program {
	c.programOnce.Do(func() {
		recs, _ := c.Records()
		c.program = newProgram(recs)
	})
	return c.program
}

// Program is a kernel's SASS in address order, each instruction once,
// and split. Shared: not to be written.
type Program struct {
	Recs []profan.SourceRecord
	At   map[string]int // Recs' index of each address
	// Ops and Args are each instruction's Fields, split once: the
	// backward walks split every instruction they pass, and analyze's
	// CPU on a source page went to splitting the same strings again.
	Ops  []string
	Args [][]string
}

// Fields is Fields of instruction i (its args shared: not to be
// written).
func (p *Program) Fields(i int) (op string, args []string) {
	return p.Ops[i], p.Args[i]
}

// newProgram sorts a copy of recs (Records: shared, not to be written)
// by address and splits each instruction.
func newProgram(recs []profan.SourceRecord) *Program {
	p := &Program{Recs: slices.Clone(recs), At: make(map[string]int, len(recs))}
	// Each address parsed once, not in every comparison of the sort.
	type rec struct {
		addr uint64
		s    profan.SourceRecord
	}
	rs := make([]rec, len(p.Recs))
	for i, s := range p.Recs {
		rs[i] = rec{address(s.Address), s}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].addr < rs[j].addr })
	for i := range rs {
		p.Recs[i] = rs[i].s
	}
	p.Ops, p.Args = make([]string, len(p.Recs)), make([][]string, len(p.Recs))
	for i, s := range p.Recs {
		p.At[s.Address] = i
		p.Ops[i], p.Args[i] = Fields(s.SASS)
	}
	return p
}

// Instructions yields each row of recs with an address once, in order.
func Instructions(recs []profan.SourceRecord) iter.Seq[profan.SourceRecord] {
	return func(yield func(profan.SourceRecord) bool) {
		seen := map[string]bool{}
		for _, s := range recs {
			if s.Address == "" || seen[s.Address] {
				continue
			}
			seen[s.Address] = true
			if !yield(s) {
				return
			}
		}
	}
}

// ByAddress is recs sorted by address, a new slice; a record whose
// address does not parse is dropped.
func ByAddress(recs []profan.SourceRecord) []profan.SourceRecord {
	type rec struct {
		addr uint64
		s    profan.SourceRecord
	}
	var rs []rec
	for _, s := range recs {
		a, err := parseAddress(s.Address)
		if err != nil {
			continue
		}
		rs = append(rs, rec{a, s})
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].addr < rs[j].addr })
	out := make([]profan.SourceRecord, len(rs))
	for i, r := range rs {
		out[i] = r.s
	}
	return out
}

// address is a SASS address's value, 0 when it does not parse.
func address(s string) uint64 {
	v, _ := parseAddress(s)
	return v
}

func parseAddress(s string) (uint64, error) {
	return strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s), "0x"), 16, 64)
}

// Fields splits an instruction into its operation and operands, the
// predicate guard dropped.
func Fields(sass string) (op string, args []string) {
	s := strings.TrimSpace(sass)
	if strings.HasPrefix(s, "@") {
		if i := strings.IndexByte(s, ' '); i > 0 {
			s = strings.TrimSpace(s[i:])
		}
	}
	i := strings.IndexByte(s, ' ')
	if i < 0 {
		return s, nil
	}
	op = s[:i]
	for _, a := range strings.Split(s[i+1:], ",") {
		args = append(args, strings.TrimSpace(a))
	}
	return op, args
}
