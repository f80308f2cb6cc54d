package rules

import (
	"slices"
	"sync"

	"github.com/profan-dev/profan"
)

// Some thirty rules read a kernel's SASS from its source page, and each
// made its own list of the page's instructions (each address once, the
// addresses parsed, sorted): on fixtures/sol-check22 that was a fifth of
// analyze's CPU. While Engine.Check runs on a kernel, instructions,
// sassRecords, addressOrder and programOrder make each list once and hand
// every rule the same one. The lists are shared, so no rule may write to
// them.

// sassView holds the lists made of one source page, each when first
// asked for.
type sassView struct {
	page []profan.SourceRecord

	instOnce, recsOnce, codeOnce, progOnce sync.Once
	inst                                   []profan.SourceRecord // instructions(page)
	recs                                   []profan.SourceRecord // sassRecords: with SASS, each address once
	at                                     map[string]int        // recs' index of each address
	code                                   []profan.SourceRecord // addressOrder(recs)
	prog                                   []profan.SourceRecord // programOrder(page)
}

// views are the source pages Engine.Check is reading, found by their
// first record; the recs made of a page are found likewise, so that
// addressOrder knows them. Each is counted: two checks of one kernel may
// overlap.
var views = struct {
	sync.Mutex
	m map[*profan.SourceRecord]*viewRef
}{m: map[*profan.SourceRecord]*viewRef{}}

type viewRef struct {
	v *sassView
	n int
}

// openView makes page's lists shared until the returned func is called.
func openView(page []profan.SourceRecord) (closeView func()) {
	if len(page) == 0 {
		return func() {}
	}
	key := &page[0]
	views.Lock()
	r := views.m[key]
	if r == nil || !same(r.v.page, page) {
		r = &viewRef{v: &sassView{page: page}}
		views.m[key] = r
	}
	r.n++
	views.Unlock()
	return func() {
		views.Lock()
		defer views.Unlock()
		if r.n--; r.n > 0 {
			return
		}
		for k, x := range views.m {
			if x == r {
				delete(views.m, k)
			}
		}
	}
}

// viewOf returns the open view whose page or recs s is, nil when none.
func viewOf(s []profan.SourceRecord) *sassView {
	if len(s) == 0 {
		return nil
	}
	views.Lock()
	r := views.m[&s[0]]
	views.Unlock()
	if r == nil {
		return nil
	}
	return r.v
}

// same reports whether a and b are one slice.
func same(a, b []profan.SourceRecord) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

func (v *sassView) instructions() []profan.SourceRecord {
	v.instOnce.Do(func() { v.inst = slices.Clip(slices.Collect(pageInstructions(v.page))) })
	return v.inst
}

func (v *sassView) sassRecords() ([]profan.SourceRecord, map[string]int) {
	v.recsOnce.Do(func() {
		v.recs, v.at = pageSASSRecords(v.page)
		v.recs = slices.Clip(v.recs)
		if len(v.recs) > 0 {
			views.Lock()
			if r := views.m[&v.page[0]]; r != nil && r.v == v {
				views.m[&v.recs[0]] = r
			}
			views.Unlock()
		}
	})
	return v.recs, v.at
}

func (v *sassView) addressOrder() []profan.SourceRecord {
	v.codeOnce.Do(func() {
		recs, _ := v.sassRecords()
		v.code = slices.Clip(sortByAddress(recs))
	})
	return v.code
}

func (v *sassView) programOrder() []profan.SourceRecord {
	v.progOnce.Do(func() { v.prog = slices.Clip(pageProgramOrder(v.page)) })
	return v.prog
}
