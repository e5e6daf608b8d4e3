// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// A repository's store, as guard reads it.
//
// To show that a history read prints no secret, guard reads what git
// would: the commits, trees and tags of the object store (loose objects
// and packs, version 2 indexes, deltas), the refs (gitrefs.go) and the
// index (gitindex.go). It never reads a blob: the names in the trees
// say which files a read reaches. What it does not read as git does it
// refuses to judge, and the read is then unknown: a reftable, a
// replacement ref or a graft (git would show other commits), an object
// missing or too large, a pack without its index. Every object read
// counts against a bound, so that a decision stays fast on a long
// history.

// gitObjectReads bounds the objects (and delta bases) a history read
// reads from a repository's store: about 0.35 s on a loaded two-core
// machine at worst (golang/tools). It is enough for git log -p over some
// 3,000 commits, and git log -p -- PATH over some 4,000 (mvdan/sh: 0.22 s).
const gitObjectReads = 10000

// maxGitObject bounds the size of a commit, tree or tag guard inflates;
// maxGitIndex the index it reads whole.
const (
	maxGitObject = 8 << 20
	maxGitIndex  = 32 << 20
)

// Object types, as packs number them.
const (
	gitCommit   = 1
	gitTree     = 2
	gitBlob     = 3
	gitTag      = 4
	gitOfsDelta = 6
	gitRefDelta = 7
)

var gitTypeNames = map[string]int{"commit": gitCommit, "tree": gitTree, "blob": gitBlob, "tag": gitTag}

// errGitBound is the error of a read past gitObjectReads. Its message is
// made when it is read, not when the package starts.
var errGitBound error = gitBoundError{}

type gitBoundError struct{}

func (gitBoundError) Error() string {
	return "the history is longer than guard reads for one decision (" + strconv.Itoa(gitObjectReads) + " objects)"
}

// gitStore is a repository's refs and objects.
type gitStore struct {
	fsys    FS
	gitDir  string // HEAD, the worktree's own refs and reflogs, the index
	common  string // the refs, packed-refs and objects worktrees share
	hashLen int    // 20 (SHA-1) or 32 (SHA-256)
	objDirs []string
	packs   []*gitPack
	packed  map[string]string // packed-refs: name to object
	shallow map[string]bool   // commits whose parents git does not read
	// What the repository's configuration makes git log and diff print:
	// log.follow, diff.submodule = diff.
	follow, submoduleDiff bool

	reads   int                  // objects read, against gitObjectReads
	kept    int                  // bytes of what is kept to read again, against maxGitKept
	objects map[string]gitObject // what was read, by id
	trees   map[string][]gitEntry
	bases   map[packOffset]gitObject
	zr      io.ReadCloser // a zlib reader, reset for each object
	br      *bufio.Reader // and the buffer it reads through
}

type gitObject struct {
	typ  int
	data []byte
}

type packOffset struct {
	pack *gitPack
	off  int64
}

// openGitStore opens the store of the git directory gitDir. It refuses a
// repository git would read another way than guard does.
func openGitStore(fsys FS, gitDir string) (*gitStore, error) {
	s := &gitStore{fsys: fsys, gitDir: gitDir, common: gitDir, hashLen: 20, objects: map[string]gitObject{},
		trees: map[string][]gitEntry{}, bases: map[packOffset]gitObject{}}
	if c, err := readFile(fsys, path.Join(gitDir, "commondir"), maxGitFile); err == nil {
		dir := strings.TrimSpace(string(c))
		if !path.IsAbs(dir) {
			dir = path.Join(gitDir, dir)
		}
		s.common = path.Clean(dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, cfg := range []string{path.Join(s.common, "config"), path.Join(gitDir, "config.worktree")} {
		err := gitConfigEach(fsys, cfg, func(section, key, value string) error {
			switch {
			case section == "extensions" && key == "objectformat":
				switch strings.ToLower(value) {
				case "sha1":
				case "sha256":
					s.hashLen = 32
				default:
					return fmt.Errorf("%s: an object format guard does not read: %s", cfg, value)
				}
			case section == "extensions" && key == "refstorage" && strings.ToLower(value) != "files":
				return fmt.Errorf("%s: the refs are stored as %s, which guard does not read", cfg, value)
			case section == "log" && key == "follow":
				s.follow = gitTrue(value)
			case section == "diff" && key == "submodule":
				s.submoduleDiff = strings.EqualFold(value, "diff")
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, f := range []string{"info/grafts", "refs/replace"} {
		if _, err := fsys.Lstat(path.Join(s.common, f)); err == nil {
			if ents, err := fsys.ReadDir(path.Join(s.common, f)); err != nil || len(ents) > 0 {
				return nil, fmt.Errorf("%s makes git show other commits than the ones stored", path.Join(s.common, f))
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if err := s.readPackedRefs(); err != nil {
		return nil, err
	}
	for name := range s.packed {
		if strings.HasPrefix(name, "refs/replace/") {
			return nil, fmt.Errorf("the replacement ref %s makes git show other commits than the ones stored", name)
		}
	}
	if data, err := readFile(fsys, path.Join(s.common, "shallow"), maxGitIndex); err == nil {
		s.shallow = map[string]bool{}
		for _, line := range strings.Fields(string(data)) {
			if id, ok := s.parseID(line); ok {
				s.shallow[id] = true
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	objects := path.Join(s.common, "objects")
	s.objDirs = []string{objects}
	if data, err := readFile(fsys, path.Join(objects, "info/alternates"), maxGitFile); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' {
				continue
			}
			if !path.IsAbs(line) {
				line = path.Join(objects, line)
			}
			s.objDirs = append(s.objDirs, path.Clean(line))
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, dir := range s.objDirs {
		ents, err := fsys.ReadDir(path.Join(dir, "pack"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			base, ok := strings.CutSuffix(e.Name(), ".pack")
			if !ok {
				continue
			}
			p, err := openPack(fsys, path.Join(dir, "pack", base), s.hashLen)
			if err != nil {
				return nil, err
			}
			s.packs = append(s.packs, p)
		}
	}
	return s, nil
}

// close closes the packs.
func (s *gitStore) close() {
	for _, p := range s.packs {
		p.closeAll()
	}
}

// gitTrue reports whether git reads a configuration value as true: a key
// without a value is. Anything but a false value counts, as more is
// printed then.
func gitTrue(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0":
		return false
	}
	return true
}

// parseID returns the object id that hex spells in full.
func (s *gitStore) parseID(h string) (string, bool) {
	if len(h) != 2*s.hashLen {
		return "", false
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// object returns an object by its id.
func (s *gitStore) object(id string) (gitObject, error) {
	if o, ok := s.objects[id]; ok {
		return o, nil
	}
	o, err := s.read(id, 0)
	if err != nil {
		return gitObject{}, err
	}
	if o.typ != gitTree && s.keep(len(o.data)) { // a tree is kept parsed (tree)
		s.objects[id] = o
	}
	return o, nil
}

// maxDeltaChain bounds the deltas followed to an object's base.
const maxDeltaChain = 1000

func (s *gitStore) read(id string, depth int) (gitObject, error) {
	if depth > maxDeltaChain {
		return gitObject{}, fmt.Errorf("object %x: a chain of deltas longer than %d", id, maxDeltaChain)
	}
	for _, p := range s.packs {
		off, ok, err := p.find(id)
		if err != nil {
			return gitObject{}, err
		}
		if ok {
			return s.packed1(p, off, depth)
		}
	}
	h := hex.EncodeToString([]byte(id))
	for _, dir := range s.objDirs {
		o, err := s.loose(path.Join(dir, h[:2], h[2:]))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return o, err
	}
	return gitObject{}, fmt.Errorf("object %s is not in the repository", h)
}

// count counts one object read against the bound.
func (s *gitStore) count() error {
	if s.reads++; s.reads > gitObjectReads {
		return errGitBound
	}
	return nil
}

// inflate returns a reader of the zlib stream r holds, reusing the
// store's reader and buffer.
func (s *gitStore) inflate(r io.Reader) (io.Reader, error) {
	if s.br == nil {
		s.br = bufio.NewReaderSize(r, 4096)
	} else {
		s.br.Reset(r)
	}
	if s.zr == nil {
		z, err := zlib.NewReader(s.br)
		if err != nil {
			return nil, err
		}
		s.zr = z
		return z, nil
	}
	if err := s.zr.(zlib.Resetter).Reset(s.br, nil); err != nil {
		return nil, err
	}
	return s.zr, nil
}

// loose reads a loose object: zlib, then "type size\0" and the data.
func (s *gitStore) loose(name string) (gitObject, error) {
	f, err := s.fsys.Open(name)
	if err != nil {
		return gitObject{}, err
	}
	defer f.Close()
	if err := s.count(); err != nil {
		return gitObject{}, err
	}
	z, err := s.inflate(f)
	if err != nil {
		return gitObject{}, fmt.Errorf("%s: %v", name, err)
	}
	var hdr []byte
	one := make([]byte, 1)
	for len(hdr) <= 32 {
		if _, err := io.ReadFull(z, one); err != nil {
			return gitObject{}, fmt.Errorf("%s: not a git object", name)
		}
		if one[0] == 0 {
			break
		}
		hdr = append(hdr, one[0])
	}
	if len(hdr) > 32 {
		return gitObject{}, fmt.Errorf("%s: not a git object", name)
	}
	typName, size, _ := strings.Cut(string(hdr), " ")
	typ, ok := gitTypeNames[typName]
	n, err := strconv.ParseInt(size, 10, 64)
	if !ok || err != nil || n < 0 {
		return gitObject{}, fmt.Errorf("%s: not a git object", name)
	}
	if typ == gitBlob {
		return gitObject{typ: typ}, nil // a blob's contents are never needed; its type is
	}
	if n > maxGitObject {
		return gitObject{}, fmt.Errorf("%s: an object larger than %d bytes", name, maxGitObject)
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(z, data); err != nil {
		return gitObject{}, fmt.Errorf("%s: %v", name, err)
	}
	return gitObject{typ, data}, nil
}

// gitPack is a pack and its version 2 index.
type gitPack struct {
	name      string
	idx, pack io.ReaderAt
	closers   []io.Closer
	n         int
	fanout    [256]uint32
	hashLen   int
	buckets   map[byte][]byte // the ids starting with a byte, read once
}

// openPack opens base.pack and base.idx.
func openPack(fsys FS, base string, hashLen int) (*gitPack, error) {
	p := &gitPack{name: base + ".pack", hashLen: hashLen}
	open := func(name string) (io.ReaderAt, error) {
		f, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		p.closers = append(p.closers, f)
		ra, ok := f.(io.ReaderAt)
		if !ok {
			return nil, fmt.Errorf("%s cannot be read at an offset", name)
		}
		return ra, nil
	}
	idx, err := open(base + ".idx")
	if err != nil {
		p.closeAll()
		return nil, fmt.Errorf("a pack guard cannot read: %v", err)
	}
	p.idx = &pagedReader{r: idx, pages: map[int64][]byte{}}
	pack, err := open(base + ".pack")
	if err != nil {
		p.closeAll()
		return nil, fmt.Errorf("a pack guard cannot read: %v", err)
	}
	p.pack = &pagedReader{r: pack, pages: map[int64][]byte{}}
	hdr := make([]byte, 8+256*4)
	if _, err := p.idx.ReadAt(hdr, 0); err != nil || string(hdr[:4]) != "\xfftOc" || binary.BigEndian.Uint32(hdr[4:]) != 2 {
		p.closeAll()
		return nil, fmt.Errorf("%s.idx: not a pack index of version 2", base)
	}
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(hdr[8+4*i:])
	}
	p.n = int(p.fanout[255])
	return p, nil
}

func (p *gitPack) closeAll() {
	for _, c := range p.closers {
		c.Close()
	}
}

// pagedReader reads a file in pages it keeps: the objects a history read
// wants lie near each other in a pack, and a read each is slow.
type pagedReader struct {
	r     io.ReaderAt
	pages map[int64][]byte
}

// Pages of a pack, and how many a decision keeps of each.
const (
	packPage  = 64 << 10
	packPages = 256
)

func (p *pagedReader) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) {
		at := off + int64(n)
		start := at - at%packPage
		page, ok := p.pages[start]
		if !ok {
			page = make([]byte, packPage)
			k, err := p.r.ReadAt(page, start)
			if err != nil && !errors.Is(err, io.EOF) {
				return n, err
			}
			page = page[:k]
			if len(p.pages) >= packPages {
				clear(p.pages)
			}
			p.pages[start] = page
		}
		if at-start >= int64(len(page)) {
			return n, io.EOF
		}
		n += copy(b[n:], page[at-start:])
	}
	return n, nil
}

// bucket returns the ids of the pack that start with the byte b, read
// in one piece the first time, and the index of the first.
func (p *gitPack) bucket(b byte) ([]byte, int, error) {
	lo, hi := 0, int(p.fanout[b])
	if b > 0 {
		lo = int(p.fanout[b-1])
	}
	if hi < lo || hi > p.n {
		return nil, 0, fmt.Errorf("%s: a pack index guard cannot read", p.name)
	}
	if ids, ok := p.buckets[b]; ok {
		return ids, lo, nil
	}
	ids := make([]byte, (hi-lo)*p.hashLen)
	if _, err := p.idx.ReadAt(ids, int64(8+256*4+lo*p.hashLen)); err != nil {
		return nil, 0, fmt.Errorf("%s: %v", p.name, err)
	}
	if p.buckets == nil {
		p.buckets = map[byte][]byte{}
	}
	p.buckets[b] = ids
	return ids, lo, nil
}

// nameAt returns the id of the pack's i-th object.
func (p *gitPack) nameAt(i int) (string, error) {
	b := make([]byte, p.hashLen)
	if _, err := p.idx.ReadAt(b, int64(8+256*4+i*p.hashLen)); err != nil {
		return "", fmt.Errorf("%s: %v", p.name, err)
	}
	return string(b), nil
}

// search returns the first index of the pack whose id is not less than
// id, among those starting with id's first byte.
func (p *gitPack) search(id string) (int, error) {
	ids, first, err := p.bucket(id[0])
	if err != nil {
		return 0, err
	}
	lo, hi := 0, len(ids)/p.hashLen
	for lo < hi {
		mid := (lo + hi) / 2
		if string(ids[mid*p.hashLen:(mid+1)*p.hashLen]) < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return first + lo, nil
}

// find returns the offset of an object in the pack.
func (p *gitPack) find(id string) (int64, bool, error) {
	ids, first, err := p.bucket(id[0])
	if err != nil {
		return 0, false, err
	}
	i, err := p.search(id)
	if err != nil {
		return 0, false, err
	}
	k := i - first
	if k >= len(ids)/p.hashLen || string(ids[k*p.hashLen:(k+1)*p.hashLen]) != id {
		return 0, false, nil
	}
	return p.offset(i)
}

func (p *gitPack) offset(i int) (int64, bool, error) {
	b := make([]byte, 8)
	base := int64(8 + 256*4 + p.n*(p.hashLen+4))
	if _, err := p.idx.ReadAt(b[:4], base+int64(4*i)); err != nil {
		return 0, false, fmt.Errorf("%s: %v", p.name, err)
	}
	off := binary.BigEndian.Uint32(b)
	if off&0x80000000 == 0 {
		return int64(off), true, nil
	}
	if _, err := p.idx.ReadAt(b, base+int64(4*p.n)+8*int64(off&0x7fffffff)); err != nil {
		return 0, false, fmt.Errorf("%s: %v", p.name, err)
	}
	return int64(binary.BigEndian.Uint64(b)), true, nil
}

// packed1 reads the object at off in the pack, resolving its deltas.
func (s *gitStore) packed1(p *gitPack, off int64, depth int) (gitObject, error) {
	if o, ok := s.bases[packOffset{p, off}]; ok {
		return o, nil
	}
	if err := s.count(); err != nil {
		return gitObject{}, err
	}
	hdr := make([]byte, 64)
	n, err := p.pack.ReadAt(hdr, off)
	if err != nil && !(errors.Is(err, io.EOF) && n > 0) {
		return gitObject{}, fmt.Errorf("%s at %d: %v", p.name, off, err)
	}
	hdr = hdr[:n]
	bad := fmt.Errorf("%s at %d: not an object", p.name, off)
	if len(hdr) == 0 {
		return gitObject{}, bad
	}
	c := hdr[0]
	typ := int(c>>4) & 7
	size := int64(c & 15)
	i, shift := 1, 4
	for c&0x80 != 0 {
		if i >= len(hdr) || shift > 56 {
			return gitObject{}, bad
		}
		c = hdr[i]
		size |= int64(c&0x7f) << shift
		i, shift = i+1, shift+7
	}
	var base gitObject
	switch typ {
	case gitCommit, gitTree, gitTag:
	case gitBlob:
		return gitObject{typ: gitBlob}, nil
	case gitOfsDelta:
		if i >= len(hdr) {
			return gitObject{}, bad
		}
		c = hdr[i]
		rel := int64(c & 0x7f)
		for i++; c&0x80 != 0; i++ {
			if i >= len(hdr) || rel > 1<<48 {
				return gitObject{}, bad
			}
			c = hdr[i]
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		if rel <= 0 || rel > off {
			return gitObject{}, bad
		}
		if base, err = s.packedBase(p, off-rel, depth+1); err != nil {
			return gitObject{}, err
		}
	case gitRefDelta:
		if i+s.hashLen > len(hdr) {
			return gitObject{}, bad
		}
		id := string(hdr[i : i+s.hashLen])
		i += s.hashLen
		if base, err = s.read(id, depth+1); err != nil {
			return gitObject{}, err
		}
	default:
		return gitObject{}, bad
	}
	if base.typ == gitBlob {
		return gitObject{typ: gitBlob}, nil // a delta on a blob is a blob
	}
	if size > maxGitObject {
		return gitObject{}, fmt.Errorf("%s at %d: an object larger than %d bytes", p.name, off, maxGitObject)
	}
	z, err := s.inflate(io.NewSectionReader(p.pack, off+int64(i), 1<<62))
	if err != nil {
		return gitObject{}, fmt.Errorf("%s at %d: %v", p.name, off, err)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(z, data); err != nil {
		return gitObject{}, fmt.Errorf("%s at %d: %v", p.name, off, err)
	}
	if typ < gitOfsDelta {
		return gitObject{typ, data}, nil
	}
	out, err := applyDelta(base.data, data)
	if err != nil {
		return gitObject{}, fmt.Errorf("%s at %d: %v", p.name, off, err)
	}
	return gitObject{base.typ, out}, nil
}

// maxGitKept bounds the bytes of objects a decision keeps to read again:
// the versions of a tree share delta bases, and a walk compares each tree
// with its parent's.
const maxGitKept = 64 << 20

// keep reports whether an object of n bytes may be kept, and counts it.
func (s *gitStore) keep(n int) bool {
	if s.kept+n > maxGitKept {
		return false
	}
	s.kept += n
	return true
}

func (s *gitStore) packedBase(p *gitPack, off int64, depth int) (gitObject, error) {
	if depth > maxDeltaChain {
		return gitObject{}, fmt.Errorf("%s at %d: a chain of deltas longer than %d", p.name, off, maxDeltaChain)
	}
	o, err := s.packed1(p, off, depth)
	if err == nil && s.keep(len(o.data)) {
		s.bases[packOffset{p, off}] = o
	}
	return o, err
}

// applyDelta applies a git delta to base.
func applyDelta(base, delta []byte) ([]byte, error) {
	varint := func() (int, bool) {
		n, shift := 0, 0
		for len(delta) > 0 && shift < 63 {
			c := delta[0]
			delta = delta[1:]
			n |= int(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				return n, true
			}
		}
		return 0, false
	}
	srcSize, ok1 := varint()
	dstSize, ok2 := varint()
	if !ok1 || !ok2 || srcSize != len(base) || dstSize > maxGitObject {
		return nil, errors.New("a delta that does not fit its base")
	}
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		c := delta[0]
		delta = delta[1:]
		switch {
		case c&0x80 != 0:
			var off, n int
			for k := range 4 {
				if c&(1<<k) != 0 {
					if len(delta) == 0 {
						return nil, errors.New("a delta cut short")
					}
					off |= int(delta[0]) << (8 * k)
					delta = delta[1:]
				}
			}
			for k := range 3 {
				if c&(0x10<<k) != 0 {
					if len(delta) == 0 {
						return nil, errors.New("a delta cut short")
					}
					n |= int(delta[0]) << (8 * k)
					delta = delta[1:]
				}
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > len(base) || len(out)+n > dstSize {
				return nil, errors.New("a delta that copies past its base")
			}
			out = append(out, base[off:off+n]...)
		case c != 0:
			n := int(c)
			if n > len(delta) || len(out)+n > dstSize {
				return nil, errors.New("a delta cut short")
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, errors.New("a delta with a reserved instruction")
		}
	}
	if len(out) != dstSize {
		return nil, errors.New("a delta of the wrong size")
	}
	return out, nil
}

// gitEntry is an entry of a tree.
type gitEntry struct {
	name string
	mode uint32
	id   string
}

func (e gitEntry) isTree() bool { return e.mode&0o170000 == 0o040000 }

func (e gitEntry) isGitlink() bool { return e.mode&0o170000 == 0o160000 }

// tree returns the entries of a tree.
func (s *gitStore) tree(id string) ([]gitEntry, error) {
	if t, ok := s.trees[id]; ok {
		return t, nil
	}
	t, err := s.readTree(id)
	if err == nil && s.keep(len(t)*(s.hashLen+64)) {
		s.trees[id] = t
	}
	return t, err
}

func (s *gitStore) readTree(id string) ([]gitEntry, error) {
	o, err := s.object(id)
	if err != nil {
		return nil, err
	}
	if o.typ != gitTree {
		return nil, fmt.Errorf("object %x is not a tree", id)
	}
	var out []gitEntry
	data := o.data
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+1+s.hashLen > len(data) {
			return nil, fmt.Errorf("tree %x does not parse", id)
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("tree %x does not parse", id)
		}
		out = append(out, gitEntry{string(data[sp+1 : nul]), uint32(mode), string(data[nul+1 : nul+1+s.hashLen])})
		data = data[nul+1+s.hashLen:]
	}
	return out, nil
}

// gitCommitInfo is what guard reads of a commit.
type gitCommitInfo struct {
	tree    string
	parents []string
}

// commit returns a commit's tree and parents; a commit the repository is
// shallow at has none, as git reads it.
func (s *gitStore) commit(id string) (gitCommitInfo, error) {
	o, err := s.object(id)
	if err != nil {
		return gitCommitInfo{}, err
	}
	if o.typ != gitCommit {
		return gitCommitInfo{}, fmt.Errorf("object %x is not a commit", id)
	}
	var c gitCommitInfo
	for _, line := range strings.Split(string(o.data), "\n") {
		if line == "" {
			break
		}
		k, v, _ := strings.Cut(line, " ")
		id, ok := s.parseID(v)
		switch {
		case k == "tree" && ok:
			c.tree = id
		case k == "parent" && ok:
			c.parents = append(c.parents, id)
		case k == "tree" || k == "parent":
			return c, fmt.Errorf("commit %x does not parse", id)
		}
	}
	if c.tree == "" {
		return c, fmt.Errorf("commit %x has no tree", id)
	}
	if s.shallow[id] {
		c.parents = nil
	}
	return c, nil
}

// peel follows tags to what they name, and returns its id and type.
func (s *gitStore) peel(id string) (string, int, error) {
	for range 32 {
		o, err := s.object(id)
		if err != nil {
			return "", 0, err
		}
		if o.typ != gitTag {
			return id, o.typ, nil
		}
		target := ""
		for _, line := range strings.Split(string(o.data), "\n") {
			if v, ok := strings.CutPrefix(line, "object "); ok {
				target, _ = s.parseID(v)
				break
			}
		}
		if target == "" {
			return "", 0, fmt.Errorf("tag %x does not parse", id)
		}
		id = target
	}
	return "", 0, errors.New("tags nested too deep")
}

// withPrefix returns the objects whose hexadecimal ids start with h, at
// most two.
func (s *gitStore) withPrefix(h string) ([]string, error) {
	var out []string
	add := func(id string) {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	lo := h
	if len(lo)%2 == 1 {
		lo += "0"
	}
	start, _ := hex.DecodeString(lo)
	for _, p := range s.packs {
		if p.n == 0 {
			continue
		}
		i, err := p.search(string(start))
		if err != nil {
			return nil, err
		}
		for ; i < p.n && len(out) < 2; i++ {
			name, err := p.nameAt(i)
			if err != nil {
				return nil, err
			}
			if !strings.HasPrefix(hex.EncodeToString([]byte(name)), h) {
				break
			}
			add(name)
		}
	}
	for _, dir := range s.objDirs {
		ents, err := s.fsys.ReadDir(path.Join(dir, h[:2]))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			if strings.HasPrefix(h[:2]+e.Name(), h) {
				if id, ok := s.parseID(h[:2] + e.Name()); ok {
					add(id)
				}
			}
		}
	}
	return out, nil
}

// gitConfigEach calls f with each key of a git config file, its section
// lowered ("diff.*" for a subsection of diff), its name lowered and its
// value; a missing file has none. An error of f ends the reading.
func gitConfigEach(fsys FS, name string, f func(section, key, value string) error) error {
	file, err := fsys.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v", name, errors.Unwrap(err))
	}
	defer file.Close()
	section := ""
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 4<<10), 1<<20) // a line may be long; most are short
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return fmt.Errorf("%s: a section header guard cannot read: %q", name, line)
			}
			hdr := strings.TrimSpace(line[1:end])
			// [diff "x"] is the subsection x of diff; [diff.x] the old form.
			sec, _, hasSub := strings.Cut(hdr, " ")
			section = strings.ToLower(sec)
			if hasSub || strings.Contains(sec, ".") {
				section = strings.ToLower(strings.SplitN(sec, ".", 2)[0]) + ".*"
			}
			line = strings.TrimSpace(line[end+1:])
			if line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
		}
		key, value, _ := strings.Cut(line, "=")
		if err := f(section, strings.ToLower(strings.TrimSpace(key)), strings.Trim(strings.TrimSpace(value), `"`)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}
