package rules_test

// solCheck31Read says whether the thirty-first set (fixtures/sol-check31)
// has had its one read (with main as it is then, by someone who did not
// write the set): until then its tests, its entries in TestNoUnmarkedZero
// and internal/cli's TestHeadroomNeverUnmarked, and its pages in the tests
// that read every fixture (heldOutUnread), skip, so that no test run reads
// the set before.
const solCheck31Read = false
