package edgelist

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
)

// tokenTable maps tokens (site names and the raw tokens that stand for them)
// to site ids: open addressing with linear probing, at most three quarters
// full.
//
// A slot is 32 bytes, two to a cache line, and holds the top 32 bits of the
// key's hash and the site id, and the key itself when it is short (most site
// names are), else where it lies in keys. A lookup of a short key then costs
// one cache miss, and the parser's touching pass has already paid it. The
// home slot of a key is given by the top bits of its hash, which the slot
// keeps, so growing the table moves slots without hashing keys again.
type tokenTable struct {
	seed  maphash.Seed
	slots []tokenSlot
	mask  uint64
	shift uint   // a key's home slot is its hash >> shift: the top bits
	n     int    // keys stored
	keys  []byte // the bytes of the keys too long for a slot, one after another
}

// inlineKey is the longest key kept in its slot.
const inlineKey = 23

// arenaKey in tokenSlot.n marks a key kept in tokenTable.keys, its offset
// and length in the first 12 bytes of b.
const arenaKey = 0xff

type tokenSlot struct {
	meta uint64 // hash>>32<<32 | id+1; 0 for an empty slot
	n    uint8  // key length, or arenaKey
	b    [inlineKey]byte
}

func (t *tokenTable) init() {
	t.seed = maphash.MakeSeed()
	t.resize(12)
}

// resize makes an empty table of 1<<bits slots. The home slot must come
// from the top 32 bits of the hash, those a slot keeps; more would take more
// than a hundred gigabytes.
func (t *tokenTable) resize(bits uint) {
	if bits > 32 {
		panic("edgelist: token table beyond 1<<32 slots")
	}
	t.slots = make([]tokenSlot, 1<<bits)
	t.mask = 1<<bits - 1
	t.shift = 64 - bits
}

func (t *tokenTable) hash(b []byte) uint64 { return maphash.Bytes(t.seed, b) }

func (t *tokenTable) key(s *tokenSlot) []byte {
	if s.n != arenaKey {
		return s.b[:s.n]
	}
	off := binary.LittleEndian.Uint64(s.b[:8])
	return t.keys[off : off+uint64(binary.LittleEndian.Uint32(s.b[8:12]))]
}

// touch loads the slot a lookup of hash h starts at, and the key bytes it
// points to when they are not in the slot.
func (t *tokenTable) touch(h uint64) uint64 {
	s := &t.slots[h>>t.shift]
	if s.n == arenaKey && s.meta>>32 == h>>32 {
		return uint64(t.key(s)[0])
	}
	return s.meta
}

func (t *tokenTable) lookup(b []byte, h uint64) (int32, bool) {
	for i := h >> t.shift; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.meta == 0 {
			return 0, false
		}
		if s.meta>>32 == h>>32 && bytes.Equal(t.key(s), b) {
			return int32(uint32(s.meta) - 1), true
		}
	}
}

// insert adds key b (of hash h, not in the table) with site id.
func (t *tokenTable) insert(b []byte, h uint64, id int32) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	var s tokenSlot
	s.meta = h>>32<<32 | uint64(uint32(id)+1)
	if len(b) <= inlineKey {
		s.n = uint8(copy(s.b[:], b))
	} else {
		s.n = arenaKey
		binary.LittleEndian.PutUint64(s.b[:8], uint64(len(t.keys)))
		binary.LittleEndian.PutUint32(s.b[8:12], uint32(len(b)))
		t.keys = append(t.keys, b...)
	}
	t.place(s)
	t.n++
}

// place puts s in the first free slot from its home.
func (t *tokenTable) place(s tokenSlot) {
	i := s.meta >> t.shift // the top bits of meta are those of the hash
	for t.slots[i].meta != 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = s
}

// grow makes the table twice as large. At 32 bytes a slot, the table is
// the largest part of the reading's memory after the edges: at five million
// sites, 256 MB three quarters full where growing four times at half full
// took 512 MB.
func (t *tokenTable) grow() {
	old := t.slots
	t.resize(64 - t.shift + 1)
	for i := range old {
		if old[i].meta != 0 {
			t.place(old[i])
		}
	}
}

// edgeTable finds an edge already read from its two sites: open addressing
// with linear probing over the edges' indices in Graph, at most three
// quarters full. A slot is 8 bytes, eight to a cache line: the index of the
// edge plus one (0 for an empty slot) and the top 32 bits of the edge's
// hash, so that a probe rarely reads the graph's slices for an edge that is
// not the one looked for. The home slot of an edge is given by the top bits
// of its hash, which the slot keeps: growing the table moves the slots in
// order, without reading the edges again.
type edgeTable struct {
	slots []edgeSlot
	mask  uint64
	shift uint // an edge's home slot is its hash >> shift: the top bits
	n     int
}

type edgeSlot struct {
	idx uint32 // the edge's index in Graph + 1; 0 for an empty slot
	top uint32 // the top bits of the edge's hash
}

func (t *edgeTable) init() { t.resize(12) }

// resize makes an empty table of 1<<bits slots; bits is at most 32, the
// hash bits a slot keeps, and 3/4 of 1<<32 slots hold the most edges
// Graph's uint32 indices allow.
func (t *edgeTable) resize(bits uint) {
	t.slots = make([]edgeSlot, 1<<bits)
	t.mask = 1<<bits - 1
	t.shift = 64 - bits
}

// edgeHash mixes an edge's two site ids (the finaliser of SplitMix64): ids
// are small consecutive numbers, and the hash's top bits must spread them.
func edgeHash(from, to int32) uint64 {
	h := uint64(uint32(from))<<32 | uint64(uint32(to))
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return h ^ h>>31
}

// touch loads the slot a lookup of hash h starts at.
func (t *edgeTable) touch(h uint64) uint64 { return uint64(t.slots[h>>t.shift].idx) }

// lookup returns the index in g of the edge from → to, of hash h.
func (t *edgeTable) lookup(from, to int32, h uint64, g *Graph) (int, bool) {
	for i := h >> t.shift; ; i = (i + 1) & t.mask {
		s := t.slots[i]
		if s.idx == 0 {
			return 0, false
		}
		if s.top == uint32(h>>32) && g.From[s.idx-1] == from && g.To[s.idx-1] == to {
			return int(s.idx - 1), true
		}
	}
}

// insert adds the edge of index k in Graph, of hash h, not in the table.
func (t *edgeTable) insert(h uint64, k uint32) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	t.place(edgeSlot{k + 1, uint32(h >> 32)})
	t.n++
}

// place puts s in the first free slot from its home.
func (t *edgeTable) place(s edgeSlot) {
	i := uint64(s.top) << 32 >> t.shift
	for t.slots[i].idx != 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = s
}

// grow makes the table twice as large.
func (t *edgeTable) grow() {
	old := t.slots
	t.resize(64 - t.shift + 1)
	for _, s := range old {
		if s.idx != 0 {
			t.place(s)
		}
	}
}
