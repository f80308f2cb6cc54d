package ingest

import (
	"encoding/binary"
	"hash/maphash"
)

// checkBlock is the size of the blocks checkHash hashes at once.
const checkBlock = 32 << 10

// checkHash is a keyed 64-bit hash of a text, written a line at a time:
// the check hash of File.Read and a table's sum (table.endCapture). It
// is hash/maphash of each 32 KiB block of the text, chained: maphash.Hash
// hashes 128 bytes a call, a block costs a copy and a few calls. The sum
// depends on the text alone, never on how it was cut into writes, so the
// read that writes lines and the one that writes chunks (digestOf)
// agree. The zero value needs a seed (reset).
type checkHash struct {
	seed maphash.Seed
	sum  uint64
	n    int
	buf  []byte
}

func newCheckHash(seed maphash.Seed) *checkHash {
	c := new(checkHash)
	c.reset(seed)
	return c
}

// reset empties the hash and keys it with seed.
func (c *checkHash) reset(seed maphash.Seed) {
	c.seed, c.sum, c.n = seed, 0, 0
}

func (c *checkHash) Write(p []byte) (int, error) {
	checkAdd(c, p)
	return len(p), nil
}

func (c *checkHash) WriteString(s string) { checkAdd(c, s) }

// checkAdd writes text to c.
func checkAdd[T string | []byte](c *checkHash, text T) {
	if c.buf == nil {
		c.buf = make([]byte, checkBlock)
	}
	for len(text) > 0 {
		k := copy(c.buf[c.n:], text)
		c.n += k
		text = text[k:]
		if c.n == len(c.buf) {
			c.sum = c.chain(c.sum, c.buf)
			c.n = 0
		}
	}
}

// chain folds the hash of block into sum.
func (c *checkHash) chain(sum uint64, block []byte) uint64 {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], sum)
	binary.LittleEndian.PutUint64(b[8:], maphash.Bytes(c.seed, block))
	return maphash.Bytes(c.seed, b[:])
}

// Sum64 is the check hash of the text written so far.
func (c *checkHash) Sum64() uint64 { return c.chain(c.sum, c.buf[:c.n]) }

func (c *checkHash) WriteByte(b byte) error {
	if c.n+1 < len(c.buf) {
		c.buf[c.n] = b
		c.n++
		return nil
	}
	c.Write([]byte{b})
	return nil
}
