// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter's answers.
const (
	retAllow  = unix.SECCOMP_RET_ALLOW
	retNotify = unix.SECCOMP_RET_USER_NOTIF
	retEPERM  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retENOSYS = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
)

// Offsets in struct seccomp_data; an argument's low word (the system
// call's int), little-endian.
const (
	offNr   = 0
	offArch = 4
)

func offArg(i int) uint32 { return 16 + 8*uint32(i) }

// Flags of open that change a file: its access for writing, creating,
// truncating, an unnamed file.
const openWrites = unix.O_WRONLY | unix.O_RDWR | unix.O_CREAT | unix.O_TRUNC | 0x400000 // __O_TMPFILE

// filter is a seccomp program being written: each block is taken when the
// system call's number is its own, and ends in an answer.
type filter []unix.SockFilter

func ld(off uint32) unix.SockFilter {
	return unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off}
}

func jeq(k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: k, Jt: jt, Jf: jf}
}

func jset(k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K, K: k, Jt: jt, Jf: jf}
}

func ret(k uint32) unix.SockFilter { return unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k} }

// on adds a block for the system call nr; body must end in an answer on
// every path, and leaves the number loaded for the next block otherwise.
func (f *filter) on(nr uintptr, body ...unix.SockFilter) {
	*f = append(*f, jeq(uint32(nr), 0, uint8(len(body))))
	*f = append(*f, body...)
}

// answer makes nr answer k.
func (f *filter) answer(nr uintptr, k uint32) { f.on(nr, ret(k)) }

// when makes nr answer k when any bit of mask is set in argument arg.
func (f *filter) when(nr uintptr, arg int, mask, k uint32) {
	f.on(nr, ld(offArg(arg)), jset(mask, 0, 1), ret(k), ret(retAllow))
}

// jailFilter is the jail's seccomp program. Refused: io_uring (its calls
// pass by the filter), a new user namespace (where the program would hold
// capabilities again), openat2 and clone3 (their arguments are out of a
// filter's reach; the C library falls back to openat and clone), pushing
// input into a terminal (TIOCSTI, TIOCLINUX), and the other architecture's
// calls. With notify, every call that changes a file waits for guard
// (supervise); with network, sockets are as in netFilter.
func jailFilter(notify, network bool) ([]unix.SockFilter, error) {
	arch, ok := seccompArch[runtime.GOARCH]
	if !ok {
		return nil, fmt.Errorf("%w: guard run's jail is for amd64 and arm64", ErrUnsupported)
	}
	f := filter{ld(offArch), jeq(arch, 1, 0), ret(retENOSYS), ld(offNr)}
	if x32Bit != 0 {
		f = append(f, jset(x32Bit, 0, 1), ret(retENOSYS))
	}
	for _, nr := range []uintptr{unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER} {
		f.answer(nr, retEPERM)
	}
	// The kernel's keyrings: a session keyring is shared with the process
	// that started guard, and outlives the command.
	for _, nr := range []uintptr{unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_KEYCTL} {
		f.answer(nr, retEPERM)
	}
	// No set-user-ID or set-group-ID bit, by any name of any file: a
	// descriptor guard opened is of the project outside the jail, where
	// its link in /proc leads too.
	for _, c := range chmodCalls {
		next := uint32(retAllow)
		if notify {
			next = retNotify
		}
		f.on(c.nr, ld(offArg(c.modeArg)), jset(unix.S_ISUID|unix.S_ISGID, 0, 1), ret(retEPERM), ret(next))
	}
	f.answer(unix.SYS_OPENAT2, retENOSYS)
	f.answer(unix.SYS_CLONE3, retENOSYS)
	f.when(unix.SYS_UNSHARE, 0, unix.CLONE_NEWUSER, retEPERM)
	f.when(unix.SYS_CLONE, 0, unix.CLONE_NEWUSER, retEPERM)
	f.on(unix.SYS_IOCTL, ld(offArg(1)), jeq(unix.TIOCSTI, 2, 0), jeq(0x541C, 1, 0), ret(retAllow), ret(retEPERM)) // TIOCLINUX
	if network {
		f.on(unix.SYS_SOCKET,
			/* 0 */ ld(offArg(0)),
			/* 1 */ jeq(unix.AF_INET, 1, 0),
			/* 2 */ jeq(unix.AF_INET6, 0, 6), // -> 9 allow
			/* 3 */ ld(offArg(1)),
			/* 4 */ unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: 0xf}, // the type without its flags
			/* 5 */ jeq(unix.SOCK_STREAM, 0, 4), // -> 10 refuse
			/* 6 */ ld(offArg(2)),
			/* 7 */ jeq(0, 1, 0), // -> 9 allow
			/* 8 */ jeq(unix.IPPROTO_TCP, 0, 1), // -> 10 refuse
			/* 9 */ ret(retAllow),
			/* 10 */ ret(retEPERM))
	}
	if notify {
		for _, c := range changeCalls {
			if c.flagsArg >= 0 {
				f.when(c.nr, c.flagsArg, openWrites, retNotify)
			} else {
				f.answer(c.nr, retNotify)
			}
		}
	}
	f = append(f, ret(retAllow))
	if len(f) > 4096 {
		return nil, errors.New("the seccomp program is too long")
	}
	return f, nil
}

// securebits that keep a process without capabilities from gaining any
// again by running a program as root, or by changing its user.
const lockedSecurebits = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<5 | 1<<6 | 1<<7 // NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED, NO_CAP_AMBIENT_RAISE, each locked

// confineThread confines the calling OS thread, which the caller has
// locked and never unlocks, as the jail's program must be: no
// capabilities and no way to get any, no new privileges, the Landlock
// scopes and network rules the kernel has, and the seccomp filter. It
// returns the filter's listener where notify asks for one.
func confineThread(notify, network bool, connect []uint16) (int, error) {
	for c := uintptr(0); c <= 63; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return -1, fmt.Errorf("dropping capability %d: %v", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, lockedSecurebits, 0, 0, 0); err != nil {
		return -1, fmt.Errorf("securebits: %v", err)
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return -1, fmt.Errorf("ambient capabilities: %v", err)
	}
	if err := dropCapabilities(); err != nil {
		return -1, err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return -1, fmt.Errorf("no_new_privs: %v", err)
	}
	if err := landlockThread(network, connect); err != nil {
		return -1, err
	}
	prog, err := jailFilter(notify, network)
	if err != nil {
		return -1, err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	// Once guard has taken a call to make it, only a fatal signal ends the
	// program's wait: another would make it call again, and a file made
	// with O_EXCL would then be there already.
	var flags uintptr
	if notify {
		flags = unix.SECCOMP_FILTER_FLAG_NEW_LISTENER | unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
	}
	fd, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&fprog)))
	if errno == unix.EINVAL && flags&unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV != 0 {
		// Before Linux 5.19 a signal may interrupt a call guard has
		// taken to make; the program sees EINTR.
		flags &^= unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
		fd, _, errno = unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&fprog)))
	}
	runtime.KeepAlive(prog)
	if errno != 0 {
		return -1, fmt.Errorf("%w: installing the seccomp filter: %v", ErrUnsupported, errno)
	}
	if !notify {
		return -1, nil
	}
	return int(fd), nil
}

// dropCapabilities empties the calling thread's capability sets.
func dropCapabilities() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping the capabilities: %v", err)
	}
	return nil
}

// landlockThread restricts the calling thread with what Landlock has that
// the namespaces do not give: no abstract Unix socket and no signal out of
// the jail's domain; where the network is shared, TCP connects to the
// ports given only and no bind. A kernel without Landlock gets no scopes;
// a shared network needs its TCP rules.
func landlockThread(network bool, connect []uint16) error {
	abi := ABI()
	var attr rulesetAttr
	if abi >= 6 {
		attr.scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
	}
	if network {
		// The host's network is the host's abstract Unix sockets too
		// (a session bus, an agent's): only Landlock's scope keeps them
		// out then.
		if abi < 6 {
			return fmt.Errorf("%w: Landlock ABI %d, and a command that may reach other hosts needs 6 (Linux 6.12): its TCP rules, and the scope that keeps the host's abstract Unix sockets out", ErrUnsupported, abi)
		}
		attr.handledNet = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	if attr.scoped == 0 && attr.handledNet == 0 {
		return nil
	}
	fd, err := landlockRuleset(attr)
	if err != nil {
		return fmt.Errorf("%w: Landlock: %v", ErrUnsupported, err)
	}
	defer syscall.Close(fd)
	for _, port := range connect {
		if err := landlockPort(fd, port); err != nil {
			return fmt.Errorf("%w: Landlock: port %d: %v", ErrUnsupported, port, err)
		}
	}
	if err := landlockRestrict(fd); err != nil {
		return fmt.Errorf("%w: Landlock: %v", ErrUnsupported, err)
	}
	return nil
}

// spawn starts the program, confined, in a session of its own (its
// terminal, if any, is not its controlling one), and the supervisor, if
// any, on the filter's listener. The thread that starts it is confined
// first, for the program to inherit what it holds, and ends with the
// goroutine.
func (j *Jail) spawn(prog string, sup *supervisor) (int, error) {
	type result struct {
		pid int
		err error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // for good: the thread holds the jail's confinement
		fd, err := confineThread(sup != nil, len(j.Connect) > 0, j.Connect)
		if err != nil {
			ch <- result{err: err}
			return
		}
		if sup != nil {
			sup.listener = fd
			sup.start()
		}
		pid, err := syscall.ForkExec(prog, j.Argv, &syscall.ProcAttr{
			Dir:   j.Dir,
			Env:   j.Env,
			Files: []uintptr{0, 1, 2},
			Sys:   &syscall.SysProcAttr{Setsid: true},
		})
		ch <- result{pid, err}
	}()
	r := <-ch
	if r.err != nil {
		return 0, fmt.Errorf("starting %s: %w", prog, r.err)
	}
	return r.pid, nil
}
