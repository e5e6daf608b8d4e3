// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The project is read-only in the jail. Every call of the program that
// could change a file by its name (open for writing, mkdir, rename, unlink,
// link, symlink, chmod, chown, truncate, utimensat and their older forms)
// waits, by the seccomp filter, for guard's supervisor, which reads the
// call's paths from the program's memory and resolves them as the program
// would, to a directory and a name:
//
//   - outside the project, it lets the kernel go on with the call: the
//     jail's mounts decide (its /tmp, the caches, or nothing);
//   - in the project, where the policy lets the path be written, it makes
//     the call itself, on the project's directory outside the jail, on
//     that directory and that name (a descriptor it opened, checked to be
//     the same directory, with no link followed), and gives the program
//     the result (the file's descriptor, for open);
//   - in the project where the policy keeps the path, it refuses
//     (EACCES).
//
// Whatever the supervisor cannot settle (a path it cannot read, a
// directory gone, a last component that is a link the call would follow)
// it leaves to the kernel, which finds the project read-only: no race and
// no trick of the program's makes a change in the project the supervisor
// did not check. A change is checked by the name it has in the project
// once every link in its directory is resolved, so a link cannot walk a
// write into .git.

// changeCall is a system call that changes a file by its name; flagsArg
// is the argument of open's flags (only the calls that may write then
// wait), or -1.
type changeCall struct {
	nr       uintptr
	flagsArg int
}

var changeCalls = append([]changeCall{
	{unix.SYS_OPENAT, 2}, {unix.SYS_MKDIRAT, -1}, {unix.SYS_MKNODAT, -1}, {unix.SYS_UNLINKAT, -1},
	{unix.SYS_RENAMEAT, -1}, {unix.SYS_RENAMEAT2, -1}, {unix.SYS_LINKAT, -1}, {unix.SYS_SYMLINKAT, -1},
	{unix.SYS_TRUNCATE, -1}, {unix.SYS_FCHMODAT, -1}, {unix.SYS_FCHMODAT2, -1}, {unix.SYS_FCHOWNAT, -1},
	{unix.SYS_UTIMENSAT, -1}, {unix.SYS_FCHMOD, -1}, {unix.SYS_FCHOWN, -1},
	{unix.SYS_SETXATTR, -1}, {unix.SYS_LSETXATTR, -1}, {unix.SYS_FSETXATTR, -1},
	{unix.SYS_REMOVEXATTR, -1}, {unix.SYS_LREMOVEXATTR, -1}, {unix.SYS_FREMOVEXATTR, -1},
}, archChangeCalls...)

// chmodCalls are the calls that set a file's mode, and the argument of
// the mode.
var chmodCalls = append([]struct {
	nr      uintptr
	modeArg int
}{{unix.SYS_FCHMOD, 1}, {unix.SYS_FCHMODAT, 2}, {unix.SYS_FCHMODAT2, 2}}, archChmodCalls...)

// The operations of the calls, each as its *at form.
const (
	opOpen = iota + 1
	opMkdir
	opMknod
	opUnlink
	opRename
	opLink
	opSymlink
	opTruncate
	opChmod
	opChown
	opUtimens
	opSetxattr
	opRemovexattr
)

// fileCall is a call that changes a file: the directories its paths are
// relative to, and the addresses of the paths in the program's memory
// (two for rename and link: the old and the new).
type fileCall struct {
	op       int
	dirfd    [2]int32
	path     [2]uint64
	flags    int
	mode     uint32
	arg      uint64 // truncate's length, mknod's device, symlink's target, utimensat's times
	uid, gid uint32
	byFD     bool // fchmod, fchown, futimens, fsetxattr: of the file dirfd is open on
	// An extended attribute's name and value, and the value's size.
	xname, xvalue, xsize uint64
}

// decode reads a system call of changeCalls.
func decode(nr int32, a [6]uint64) (fileCall, bool) {
	fd := func(i int) int32 { return int32(uint32(a[i])) }
	switch uintptr(nr) {
	case unix.SYS_OPENAT:
		return fileCall{op: opOpen, dirfd: [2]int32{fd(0)}, path: [2]uint64{a[1]}, flags: int(int32(a[2])), mode: uint32(a[3])}, true
	case unix.SYS_MKDIRAT:
		return fileCall{op: opMkdir, dirfd: [2]int32{fd(0)}, path: [2]uint64{a[1]}, mode: uint32(a[2])}, true
	case unix.SYS_MKNODAT:
		return fileCall{op: opMknod, dirfd: [2]int32{fd(0)}, path: [2]uint64{a[1]}, mode: uint32(a[2]), arg: a[3]}, true
	case unix.SYS_UNLINKAT:
		return fileCall{op: opUnlink, dirfd: [2]int32{fd(0)}, path: [2]uint64{a[1]}, flags: int(int32(a[2]))}, true
	case unix.SYS_RENAMEAT, unix.SYS_RENAMEAT2:
		c := fileCall{op: opRename, dirfd: [2]int32{fd(0), fd(2)}, path: [2]uint64{a[1], a[3]}}
		if uintptr(nr) == unix.SYS_RENAMEAT2 {
			c.flags = int(int32(a[4]))
		}
		return c, true
	case unix.SYS_LINKAT:
		return fileCall{op: opLink, dirfd: [2]int32{fd(0), fd(2)}, path: [2]uint64{a[1], a[3]}, flags: int(int32(a[4]))}, true
	case unix.SYS_SYMLINKAT:
		return fileCall{op: opSymlink, dirfd: [2]int32{fd(1)}, path: [2]uint64{a[2]}, arg: a[0]}, true
	case unix.SYS_TRUNCATE:
		return fileCall{op: opTruncate, dirfd: [2]int32{unix.AT_FDCWD}, path: [2]uint64{a[0]}, arg: a[1]}, true
	case unix.SYS_FCHMODAT:
		return fileCall{op: opChmod, dirfd: [2]int32{fd(0)}, path: [2]uint64{a[1]}, mode: uint32(a[2])}, true
	case unix.SYS_FCHMODAT2:
		return fileCall{op: opChmod, dirfd: [2]int32{fd(0)}, path: [2]uint64{a[1]}, mode: uint32(a[2]), flags: int(int32(a[3]))}, true
	case unix.SYS_FCHOWNAT:
		return fileCall{op: opChown, dirfd: [2]int32{fd(0)}, path: [2]uint64{a[1]}, uid: uint32(a[2]), gid: uint32(a[3]), flags: int(int32(a[4]))}, true
	case unix.SYS_UTIMENSAT:
		return fileCall{op: opUtimens, dirfd: [2]int32{fd(0)}, path: [2]uint64{a[1]}, arg: a[2], flags: int(int32(a[3])), byFD: a[1] == 0}, true
	case unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR:
		c := fileCall{op: opSetxattr, dirfd: [2]int32{unix.AT_FDCWD}, path: [2]uint64{a[0]}, xname: a[1], xvalue: a[2], xsize: a[3], mode: uint32(a[4])}
		switch uintptr(nr) {
		case unix.SYS_LSETXATTR:
			c.flags = unix.AT_SYMLINK_NOFOLLOW
		case unix.SYS_FSETXATTR:
			c.dirfd, c.path, c.byFD = [2]int32{fd(0)}, [2]uint64{}, true
		}
		return c, true
	case unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR:
		c := fileCall{op: opRemovexattr, dirfd: [2]int32{unix.AT_FDCWD}, path: [2]uint64{a[0]}, xname: a[1]}
		switch uintptr(nr) {
		case unix.SYS_LREMOVEXATTR:
			c.flags = unix.AT_SYMLINK_NOFOLLOW
		case unix.SYS_FREMOVEXATTR:
			c.dirfd, c.path, c.byFD = [2]int32{fd(0)}, [2]uint64{}, true
		}
		return c, true
	case unix.SYS_FCHMOD:
		return fileCall{op: opChmod, dirfd: [2]int32{fd(0)}, mode: uint32(a[1]), byFD: true}, true
	case unix.SYS_FCHOWN:
		return fileCall{op: opChown, dirfd: [2]int32{fd(0)}, uid: uint32(a[1]), gid: uint32(a[2]), byFD: true}, true
	}
	return decodeArch(nr, a)
}

// The kernel's structures and requests of seccomp's user notification.
type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	nr    int32
	arch  uint32
	ip    uint64
	args  [6]uint64
}

type seccompResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

type seccompAddfd struct {
	id         uint64
	flags      uint32
	srcfd      uint32
	newfd      uint32
	newfdFlags uint32
}

const (
	notifRecv     = 0xc0502100
	notifSend     = 0xc0182101
	notifIDValid  = 0x40082102
	notifAddfd    = 0x40182103
	respContinue  = 1     // SECCOMP_USER_NOTIF_FLAG_CONTINUE
	renameBudget  = 10000 // entries a renamed directory's check reads
	notifyWorkers = 2
)

// supervisor makes the changes to the project the program asks for.
type supervisor struct {
	project  string                       // the project's path in the jail
	root     int                          // the project's directory, writable, outside the jail
	writer   func() func(abs string) bool // the policy's view for one call (Jail.Write)
	link     func(abs string) bool        // a symbolic link may be at abs
	listener int
	tree     sync.RWMutex

	bounded bool  // the program's changes to the project's files are counted (see Jail.Budget)
	budget  int64 // the changes left
	free    func(abs string) bool
	spent   atomic.Bool // the budget ran out, and guard said so
	made    sync.Map    // files the program made, by device and inode: changed freely
	mu      sync.Mutex  // guards budget
}

// fileID is a file's device and inode.
type fileID struct{ dev, ino uint64 }

// remember notes that the program made the file p names.
func (s *supervisor) remember(p place) {
	if !s.bounded {
		return
	}
	if st, ok := p.lstat(); ok {
		s.made.Store(fileID{st.Dev, st.Ino}, true)
	}
}

// spend reports whether the program may change the file p names, which
// exists as st: one it made, an output, or one more of the budget.
func (s *supervisor) spend(p place, st unix.Stat_t) bool {
	if !s.bounded || st.Mode&unix.S_IFMT == unix.S_IFDIR {
		return true
	}
	if _, ok := s.made.Load(fileID{st.Dev, st.Ino}); ok || s.free != nil && s.free(p.abs) && st.Nlink <= 1 {
		return true // made by the program, or an output alone (a hard link made into build/ is the file it links)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.budget > 0 {
		s.budget--
		return true
	}
	if !s.spent.Swap(true) {
		fmt.Fprintf(os.Stderr, "guard run: refused: %s, and every later change to a file that was in the project before the command: a build or test may remove, overwrite or rename only so many (run what changes them in bulk as its own command)\n", p.abs)
	}
	return false
}

// start serves the listener.
func (s *supervisor) start() {
	for range notifyWorkers {
		go s.serve()
	}
}

// serve answers the program's calls, one at a time, on a thread of its own
// without capabilities: what guard makes, it makes with the user's rights
// alone.
func (s *supervisor) serve() {
	runtime.LockOSThread()
	if dropCapabilities() != nil {
		return
	}
	for {
		var n seccompNotif
		if err := ioctl(s.listener, notifRecv, unsafe.Pointer(&n)); err != nil {
			if errors.Is(err, unix.EINTR) || errors.Is(err, unix.ENOENT) {
				continue
			}
			return
		}
		if r := s.handle(&n); r != nil {
			ioctl(s.listener, notifSend, unsafe.Pointer(r))
		}
	}
}

func ioctl(fd int, req uintptr, arg unsafe.Pointer) error {
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(arg))
	if errno != 0 {
		return errno
	}
	return nil
}

// A target is the thread whose call is being answered.
type target struct {
	s   *supervisor
	id  uint64
	tid int
	mem *os.File
}

// valid reports whether the call still waits: the thread, and what was
// read of it, are the caller's, not a thread that took its number since.
func (t *target) valid() bool {
	id := t.id
	return ioctl(t.s.listener, notifIDValid, unsafe.Pointer(&id)) == nil
}

// str reads a string of the program's at addr, of at most a path's
// length, a page at a time (the next may not be mapped).
func (t *target) str(addr uint64) (string, error) {
	if addr == 0 {
		return "", unix.EFAULT
	}
	var out []byte
	for len(out) < unix.PathMax {
		n := 4096 - int(addr%4096)
		buf := make([]byte, n)
		got, err := t.mem.ReadAt(buf, int64(addr))
		if got == 0 && err != nil {
			return "", err
		}
		if i := strings.IndexByte(string(buf[:got]), 0); i >= 0 {
			return string(append(out, buf[:i]...)), nil
		}
		out = append(out, buf[:got]...)
		addr += uint64(got)
	}
	return "", unix.ENAMETOOLONG
}

// umask is the thread's.
func (t *target) umask() uint32 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(t.tid) + "/status")
	if err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return uint32(m)
				}
			}
		}
	}
	return 0o022
}

// place is where a path of the program's names, in the project: its
// directory, open outside the jail, and the name in it.
type place struct {
	dir  int
	name string
	abs  string // its path in the project
}

// errOutside marks a path that resolve does not find in the project.
var errOutside = errors.New("outside the project")

// resolve finds the path of the program's at addr, relative to its
// descriptor dirfd, in the project; outside when it is not there (or
// cannot be told).
func (t *target) resolve(dirfd int32, addr uint64) (place, error) {
	path, err := t.str(addr)
	if err != nil {
		return place{}, err
	}
	trimmed := strings.TrimRight(path, "/")
	if trimmed == "" {
		return place{}, errOutside // "" or the root
	}
	dir, name := "", trimmed
	if i := strings.LastIndexByte(trimmed, '/'); i >= 0 {
		dir, name = trimmed[:i+1], trimmed[i+1:]
	}
	if name == "." || name == ".." {
		return place{}, errOutside
	}
	base := unix.AT_FDCWD
	tid := strconv.Itoa(t.tid)
	switch {
	case strings.HasPrefix(dir, "/"):
		// The program's own /proc entries, as it would see them.
		for _, r := range [][2]string{{"/proc/self/", "/proc/" + tid + "/"}, {"/proc/thread-self/", "/proc/" + tid + "/task/" + tid + "/"},
			{"/dev/fd/", "/proc/" + tid + "/fd/"}} {
			if rest, ok := strings.CutPrefix(dir, r[0]); ok {
				dir = r[1] + rest
			}
		}
	default:
		from := "/proc/" + tid + "/cwd"
		if dirfd != unix.AT_FDCWD {
			from = "/proc/" + tid + "/fd/" + strconv.Itoa(int(dirfd))
		}
		fd, err := unix.Open(from, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return place{}, errOutside
		}
		defer unix.Close(fd)
		base = fd
		if dir == "" {
			dir = "."
		}
	}
	pfd, err := unix.Openat(base, dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return place{}, errOutside
	}
	defer unix.Close(pfd)
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(pfd))
	if err != nil {
		return place{}, errOutside
	}
	rel := ""
	switch {
	case real == t.s.project:
		rel = "."
	case strings.HasPrefix(real, t.s.project+"/"):
		rel = real[len(t.s.project)+1:]
	default:
		return place{}, errOutside
	}
	rw, err := unix.Openat2(t.s.root, rel, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
	})
	if err != nil {
		return place{}, errOutside
	}
	var a, b unix.Stat_t
	if unix.Fstat(pfd, &a) != nil || unix.Fstat(rw, &b) != nil || a.Dev != b.Dev || a.Ino != b.Ino {
		unix.Close(rw)
		return place{}, errOutside
	}
	abs := real + "/" + name
	if rel == "." {
		abs = t.s.project + "/" + name
	}
	return place{dir: rw, name: name, abs: abs}, nil
}

// lstat is the name's, without following a link; ok false when it is not
// there.
func (p place) lstat() (unix.Stat_t, bool) {
	var st unix.Stat_t
	err := unix.Fstatat(p.dir, p.name, &st, unix.AT_SYMLINK_NOFOLLOW)
	return st, err == nil
}

func (p place) isLink() bool {
	st, ok := p.lstat()
	return ok && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

// handle answers one call: nil when answered already (a descriptor
// given), or when the caller is gone.
func (s *supervisor) handle(n *seccompNotif) *seccompResp {
	cont := &seccompResp{id: n.id, flags: respContinue}
	c, ok := decode(n.nr, n.args)
	if !ok {
		return cont
	}
	// A path checked is the path changed: no rename moves a directory
	// between the check of a path through it and the change (renames
	// alone move directories, and take the tree for themselves).
	if c.op == opRename {
		s.tree.Lock()
		defer s.tree.Unlock()
	} else {
		s.tree.RLock()
		defer s.tree.RUnlock()
	}
	mem, err := os.Open("/proc/" + strconv.Itoa(int(n.pid)) + "/mem")
	if err != nil {
		return cont // the kernel decides; the project is read-only to it
	}
	defer mem.Close()
	t := &target{s: s, id: n.id, tid: int(n.pid), mem: mem}
	write := s.writer()
	if !t.valid() {
		return nil
	}
	errno := func(e error) *seccompResp {
		var en unix.Errno
		if !errors.As(e, &en) {
			en = unix.EIO
		}
		return &seccompResp{id: n.id, error: -int32(en)}
	}
	done := &seccompResp{id: n.id}
	refused := errno(unix.EACCES)
	// one resolves the call's path; ok false with the answer (nil: the
	// caller is gone) when there is nothing to make.
	one := func() (place, *seccompResp, bool) {
		p, err := t.resolve(c.dirfd[0], c.path[0])
		if err != nil {
			return p, cont, false
		}
		if !t.valid() {
			unix.Close(p.dir)
			return p, nil, false
		}
		return p, nil, true
	}
	switch c.op {
	case opOpen:
		p, r, ok := one()
		if !ok {
			return r
		}
		defer unix.Close(p.dir)
		st, exists := p.lstat()
		switch {
		case c.flags&unix.O_PATH != 0:
			return cont // no access to the file: its name, for fchdir, fstat, *at calls
		case exists && c.flags&(unix.O_WRONLY|unix.O_RDWR|unix.O_TRUNC) == 0:
			// O_CREAT of a file that is there reads it: the kernel opens it,
			// read-only, not guard on the project outside (whose link in
			// /proc would open it again for writing).
			return cont
		case exists && st.Mode&unix.S_IFMT != unix.S_IFREG && st.Mode&unix.S_IFMT != unix.S_IFDIR:
			return cont // a link the kernel follows, or a pipe, socket or device: nothing of the project's changes
		case c.flags&unix.O_TMPFILE == unix.O_TMPFILE:
			return errno(unix.EOPNOTSUPP)
		case !write(p.abs):
			return refused
		case exists && st.Mode&unix.S_IFMT == unix.S_IFREG && c.flags&(unix.O_WRONLY|unix.O_RDWR|unix.O_TRUNC) != 0 && !s.spend(p, st):
			return refused
		}
		mode := c.mode &^ t.umask() &^ (unix.S_ISUID | unix.S_ISGID)
		// O_NONBLOCK: a name that became a pipe since does not hold
		// guard's thread; it is the kernel's then.
		fd, err := unix.Openat(p.dir, p.name, c.flags|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, mode)
		if err != nil {
			return errno(err)
		}
		defer unix.Close(fd)
		var now unix.Stat_t
		if unix.Fstat(fd, &now) != nil || now.Mode&unix.S_IFMT != unix.S_IFREG && now.Mode&unix.S_IFMT != unix.S_IFDIR {
			return cont
		}
		if c.flags&unix.O_NONBLOCK == 0 {
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFL, c.flags&^unix.O_NONBLOCK); err != nil {
				return errno(err)
			}
		}
		if !exists {
			s.remember(p)
		}
		return s.giveFD(n.id, fd, c.flags&unix.O_CLOEXEC)
	case opMkdir, opMknod:
		if c.op == opMknod {
			switch c.mode & unix.S_IFMT {
			case 0, unix.S_IFREG, unix.S_IFIFO, unix.S_IFSOCK:
			default:
				return errno(unix.EPERM) // no device
			}
		}
		p, r, ok := one()
		if !ok {
			return r
		}
		defer unix.Close(p.dir)
		if !write(p.abs) {
			return refused
		}
		mode := c.mode &^ t.umask()
		var err error
		if c.op == opMkdir {
			err = unix.Mkdirat(p.dir, p.name, mode)
		} else {
			err = unix.Mknodat(p.dir, p.name, mode&^(unix.S_ISUID|unix.S_ISGID), 0)
		}
		if err == nil {
			s.remember(p)
		}
		return result(done, err)
	case opUnlink:
		p, r, ok := one()
		if !ok {
			return r
		}
		defer unix.Close(p.dir)
		if !write(p.abs) {
			return refused
		}
		if st, ok := p.lstat(); ok && !s.spend(p, st) {
			return refused
		}
		return result(done, unix.Unlinkat(p.dir, p.name, c.flags&unix.AT_REMOVEDIR))
	case opSymlink:
		p, r, ok := one()
		if !ok {
			return r
		}
		defer unix.Close(p.dir)
		target, err := t.str(c.arg)
		if err != nil {
			return errno(err)
		}
		if !write(p.abs) || !s.link(p.abs) {
			return refused
		}
		err = unix.Symlinkat(target, p.dir, p.name)
		if err == nil {
			s.remember(p)
		}
		return result(done, err)
	case opTruncate, opChmod, opChown, opUtimens, opSetxattr, opRemovexattr:
		if !c.byFD && c.op != opTruncate {
			// A descriptor's file, named by AT_EMPTY_PATH, or by its
			// link in /proc (tar: chmod("/proc/self/fd/3")).
			path, err := t.str(c.path[0])
			switch n, ok := t.fdLink(path); {
			case err != nil:
			case path == "" && c.flags&unix.AT_EMPTY_PATH != 0:
				c.byFD = true
			case ok && c.flags&unix.AT_SYMLINK_NOFOLLOW == 0:
				c.byFD, c.dirfd[0] = true, n
			}
		}
		if c.byFD {
			return s.attrByFD(t, c, done, write)
		}
		p, r, ok := one()
		if !ok {
			return r
		}
		defer unix.Close(p.dir)
		st, exists := p.lstat()
		link := exists && st.Mode&unix.S_IFMT == unix.S_IFLNK
		if link && (c.op != opChown && c.op != opUtimens || c.flags&unix.AT_SYMLINK_NOFOLLOW == 0) {
			return cont // the kernel follows it, or refuses
		}
		if !write(p.abs) {
			return refused
		}
		switch c.op {
		case opSetxattr, opRemovexattr:
			fd, err := unix.Openat(p.dir, p.name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil {
				return errno(err)
			}
			defer unix.Close(fd)
			return result(done, t.xattr(c, "/proc/self/fd/"+strconv.Itoa(fd)))
		case opTruncate:
			if !s.spend(p, st) {
				return refused
			}
			fd, err := unix.Openat(p.dir, p.name, unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
			if err != nil {
				return errno(err)
			}
			defer unix.Close(fd)
			return result(done, unix.Ftruncate(fd, int64(c.arg)))
		case opChmod:
			mode := c.mode &^ unix.S_ISUID
			if st.Mode&unix.S_IFMT != unix.S_IFDIR {
				mode &^= unix.S_ISGID
			}
			return result(done, unix.Fchmodat(p.dir, p.name, mode, 0))
		case opChown:
			return result(done, unix.Fchownat(p.dir, p.name, int(int32(c.uid)), int(int32(c.gid)), c.flags&unix.AT_SYMLINK_NOFOLLOW))
		default:
			ts, err := t.times(c.arg)
			if err != nil {
				return errno(err)
			}
			return result(done, utimensat(p.dir, p.name, ts, c.flags&unix.AT_SYMLINK_NOFOLLOW))
		}
	case opRename, opLink:
		// The new name decides where the call is: a link or a rename
		// into the project from outside crosses mounts.
		to, err := t.resolve(c.dirfd[1], c.path[1])
		if err != nil {
			if c.op == opRename {
				if from, err := t.resolve(c.dirfd[0], c.path[0]); err == nil {
					unix.Close(from.dir)
					return errno(unix.EXDEV)
				}
			}
			return cont
		}
		defer unix.Close(to.dir)
		if c.op == opLink && c.flags&unix.AT_EMPTY_PATH != 0 {
			return cont
		}
		from, err := t.resolve(c.dirfd[0], c.path[0])
		if err != nil {
			return errno(unix.EXDEV)
		}
		defer unix.Close(from.dir)
		if !t.valid() {
			return nil
		}
		if c.op == opLink {
			if c.flags&unix.AT_SYMLINK_FOLLOW != 0 && from.isLink() {
				return cont
			}
			if !write(from.abs) || !write(to.abs) || from.isLink() && !s.link(to.abs) {
				return refused
			}
			return result(done, unix.Linkat(from.dir, from.name, to.dir, to.name, 0))
		}
		if !write(from.abs) || !write(to.abs) || from.isLink() && !s.link(to.abs) || to.isLink() && c.flags&unix.RENAME_EXCHANGE != 0 && !s.link(from.abs) {
			return refused
		}
		if st, ok := from.lstat(); ok && !s.spend(from, st) {
			return refused
		}
		if s.bounded && s.free != nil {
			// A tree moved among the outputs, where it would go freely:
			// each file of it is spent now; both ways for an exchange.
			if !s.free(from.abs) && s.free(to.abs) {
				if err := s.spendTree(from); err != nil {
					return errno(err)
				}
			}
			if c.flags&unix.RENAME_EXCHANGE != 0 && s.free(from.abs) && !s.free(to.abs) {
				if err := s.spendTree(to); err != nil {
					return errno(err)
				}
			}
		}
		if st, ok := to.lstat(); ok && !s.spend(to, st) {
			return refused
		}
		budget := renameBudget
		if r := s.renamedTree(from, from.abs, to.abs, &budget, write); r != nil {
			return errno(r)
		}
		if c.flags&unix.RENAME_EXCHANGE != 0 {
			if r := s.renamedTree(to, to.abs, from.abs, &budget, write); r != nil {
				return errno(r)
			}
		}
		return result(done, unix.Renameat2(from.dir, from.name, to.dir, to.name, uint(c.flags)))
	}
	return cont
}

// attrByFD changes the mode, owner or times of the file the program
// names by a descriptor (fchmod, fchown, futimens), which, opened for
// reading, is of the project's read-only mount: through the project's
// writable directory, where the file is the same, and the policy lets its
// path be written.
func (s *supervisor) attrByFD(t *target, c fileCall, done *seccompResp, write func(string) bool) *seccompResp {
	cont := &seccompResp{id: t.id, flags: respContinue}
	link := "/proc/" + strconv.Itoa(t.tid) + "/fd/" + strconv.Itoa(int(c.dirfd[0]))
	held, err := unix.Open(link, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return cont
	}
	defer unix.Close(held)
	abs, err := os.Readlink(link)
	rel, ok := strings.CutPrefix(abs, s.project+"/")
	if err != nil || !ok {
		return cont
	}
	rw, err := unix.Openat2(s.root, rel, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
	})
	if err != nil {
		return cont
	}
	defer unix.Close(rw)
	var a, b unix.Stat_t
	if unix.Fstat(held, &a) != nil || unix.Fstat(rw, &b) != nil || a.Dev != b.Dev || a.Ino != b.Ino || b.Mode&unix.S_IFMT == unix.S_IFLNK {
		return cont
	}
	if !t.valid() {
		return nil
	}
	if !write(abs) {
		return &seccompResp{id: t.id, error: -int32(unix.EACCES)}
	}
	path := "/proc/self/fd/" + strconv.Itoa(rw)
	switch c.op {
	case opChmod:
		mode := c.mode &^ unix.S_ISUID
		if b.Mode&unix.S_IFMT != unix.S_IFDIR {
			mode &^= unix.S_ISGID
		}
		return result(done, unix.Fchmodat(unix.AT_FDCWD, path, mode, 0))
	case opChown:
		return result(done, unix.Fchownat(unix.AT_FDCWD, path, int(int32(c.uid)), int(int32(c.gid)), 0))
	case opSetxattr, opRemovexattr:
		return result(done, t.xattr(c, path))
	default:
		ts, err := t.times(c.arg)
		if err != nil {
			return result(done, err)
		}
		return result(done, utimensat(unix.AT_FDCWD, path, ts, 0))
	}
}

// xattr sets or removes the extended attribute c names on path.
func (t *target) xattr(c fileCall, path string) error {
	name, err := t.str(c.xname)
	if err != nil {
		return err
	}
	if c.op == opRemovexattr {
		return unix.Removexattr(path, name)
	}
	if c.xsize > 1<<16 {
		return unix.E2BIG
	}
	value := make([]byte, c.xsize)
	if c.xsize > 0 {
		if _, err := t.mem.ReadAt(value, int64(c.xvalue)); err != nil {
			return unix.EFAULT
		}
	}
	return unix.Setxattr(path, name, value, int(c.mode))
}

// fdLink returns the descriptor of the thread's that path names by its
// link in /proc: /proc/self/fd/N, /proc/thread-self/fd/N, /proc/TID/fd/N,
// /dev/fd/N.
func (t *target) fdLink(path string) (int32, bool) {
	tid := strconv.Itoa(t.tid)
	for _, dir := range []string{"/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + tid + "/fd/", "/proc/" + tid + "/task/" + tid + "/fd/", "/dev/fd/"} {
		if rest, ok := strings.CutPrefix(path, dir); ok {
			n, err := strconv.ParseInt(rest, 10, 32)
			return int32(n), err == nil && n >= 0
		}
	}
	return 0, false
}

// times reads utimensat's two times at addr, nil for now.
func (t *target) times(addr uint64) (*[2]unix.Timespec, error) {
	if addr == 0 {
		return nil, nil
	}
	var raw [32]byte
	if _, err := t.mem.ReadAt(raw[:], int64(addr)); err != nil {
		return nil, unix.EFAULT
	}
	return &[2]unix.Timespec{
		{Sec: int64(binary.LittleEndian.Uint64(raw[0:])), Nsec: int64(binary.LittleEndian.Uint64(raw[8:]))},
		{Sec: int64(binary.LittleEndian.Uint64(raw[16:])), Nsec: int64(binary.LittleEndian.Uint64(raw[24:]))},
	}, nil
}

// renamedTree checks, when p is a directory, that every path under it may
// be written both where it is and where it goes (from and to its
// paths): a directory renamed renames all it holds. It gives EACCES for
// one kept, and EXDEV past the budget of entries, for the program to
// move the files one by one (mv does), each checked.
func (s *supervisor) renamedTree(p place, from, to string, budget *int, write func(string) bool) error {
	st, ok := p.lstat()
	if !ok || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return nil
	}
	fd, err := unix.Openat(p.dir, p.name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), from)
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return err
	}
	if *budget -= len(ents); *budget < 0 {
		return unix.EXDEV
	}
	for _, e := range ents {
		if !write(from+"/"+e.Name()) || !write(to+"/"+e.Name()) || e.Type()&os.ModeSymlink != 0 && !s.link(to+"/"+e.Name()) {
			return unix.EACCES
		}
		if e.IsDir() {
			if err := s.renamedTree(place{dir: fd, name: e.Name()}, from+"/"+e.Name(), to+"/"+e.Name(), budget, write); err != nil {
				return err
			}
		}
	}
	return nil
}

// spendTree spends the budget on every file under p, a directory; EACCES
// when it runs out.
func (s *supervisor) spendTree(p place) error {
	st, ok := p.lstat()
	if !ok || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return nil
	}
	fd, err := unix.Openat(p.dir, p.name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), p.abs)
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return err
	}
	for _, e := range ents {
		sub := place{dir: fd, name: e.Name(), abs: p.abs + "/" + e.Name()}
		st, ok := sub.lstat()
		if !ok {
			continue
		}
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			if err := s.spendTree(sub); err != nil {
				return err
			}
		} else if !s.spend(sub, st) {
			return unix.EACCES
		}
	}
	return nil
}

// giveFD puts fd in the program's table of descriptors, and answers the
// call with its number. Not in one request (SECCOMP_ADDFD_FLAG_SEND): a
// signal to guard's thread while the program takes the descriptor would
// cancel the descriptor and keep the answer, and the call would return 0,
// the program's standard input (seen: Python's open returned 0, and its
// write EBADF). Apart, the request is made again, and the answer follows
// once the descriptor is the program's.
func (s *supervisor) giveFD(id uint64, fd, cloexec int) *seccompResp {
	a := seccompAddfd{id: id, srcfd: uint32(fd)}
	if cloexec != 0 {
		a.newfdFlags = unix.O_CLOEXEC
	}
	for {
		r, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(s.listener), notifAddfd, uintptr(unsafe.Pointer(&a)))
		switch errno {
		case 0:
			return &seccompResp{id: id, val: int64(r)}
		case unix.EINTR:
			continue
		case unix.ENOENT:
			return nil // the caller is gone
		default:
			return &seccompResp{id: id, error: -int32(errno)}
		}
	}
}

// result answers a call that returns 0 or an error.
func result(done *seccompResp, err error) *seccompResp {
	if err == nil {
		return done
	}
	var en unix.Errno
	if !errors.As(err, &en) {
		en = unix.EIO
	}
	return &seccompResp{id: done.id, error: -int32(en)}
}

// utimensat sets a file's times, or to now with ts nil.
func utimensat(dir int, name string, ts *[2]unix.Timespec, flags int) error {
	p, err := unix.BytePtrFromString(name)
	if err != nil {
		return err
	}
	_, _, errno := unix.Syscall6(unix.SYS_UTIMENSAT, uintptr(dir), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(ts)), uintptr(flags), 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
