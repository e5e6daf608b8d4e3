// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// A Jail is what a confined program sees and may do. Its program runs in
// namespaces of its own (user, mount, process, IPC and, unless it may
// reach other hosts, network), on a root of guard's making:
// the system's directories and the binds read-only, a throwaway home, /tmp
// and /dev, its own /proc; the project read-only, where every change the
// program asks for is made by guard when Write allows its path (see
// supervise_linux.go). It holds no capability, cannot gain any, and is
// stopped with every process it left behind when it ends.
type Jail struct {
	// Project is the project's directory, seen read-only.
	Project string
	// Write returns, for one call of the program's, whether it may change
	// a path of the project, an absolute path as the program names it
	// once every link in its directory is resolved: what the policy sees
	// of the project is taken afresh for each call, and once for all its
	// paths (a renamed tree's). Nil: the project is read-only.
	Write func() func(abs string) bool `json:"-"`
	// Link reports whether the program may make a symbolic link at abs,
	// a path Write allows: not where a kept path's directory would be
	// (a link named .github to a directory of the program's would take
	// .github/workflows/ out of the policy's reach). Nil: anywhere.
	Link func(abs string) bool `json:"-"`
	// After, if set, is called once the program ended, with a descriptor
	// of the project's directory outside the jail (O_PATH): a last check
	// of what the program left, which may put back what it must not have
	// changed; its error is guard run's.
	After func(root int) error `json:"-"`
	// Prepare, if set, is called once the jail's mounts are made and
	// before the jail closes over them: what must be read of the outside
	// (the policy, for Write) is read by then.
	Prepare func() error `json:"-"`
	// Budget, when above 0, is how many files that were in the project
	// before the program started it may remove, overwrite or rename (each
	// once): a program that runs the project's code (a test, a build) is
	// not judged, and must not remove or overwrite the project in bulk.
	// Paths Free allows do not count: the outputs of builds and tests.
	Budget int
	Free   func(abs string) bool `json:"-"`
	// Home is the home directory: an empty, throwaway one, where only
	// the binds under it show through.
	Home string
	// Binds are shown at their own paths: directories and files of the
	// system, the tools and their caches.
	Binds []Bind
	// Hide are paths inside the project or a bind that the program finds
	// empty: what the policy keeps secret.
	Hide []string
	// Connect are the TCP ports the program may connect to. Without any,
	// it has a network of its own, with only its loopback.
	Connect []uint16
	// Dir is the working directory; Argv the program and its arguments,
	// looked up in Env's search path inside the jail; Env its environment.
	Dir  string
	Argv []string
	Env  []string
}

// A Bind is a path shown inside the jail where it is outside.
type Bind struct {
	Path  string
	Write bool
}

// uidMapAll is the user namespace of the system's, as uid_map shows it.
const uidMapAll = "0 0 4294967295"

// Enter starts guard again (exe with argv, env) as the first process of new
// namespaces, with the same user and group, and returns its exit status:
// a signal's is 128 and its number. network keeps the network namespace:
// the program may reach other hosts (Jail.Connect). The signals that stop
// a command from its terminal are passed on.
//
// describe writes what the jail is to be on descriptor 3 of the process
// started, where Describe reads it; it runs once the process started,
// while it starts guard's runtime. When it fails, the process reads
// nothing, exits runFailed, and Enter returns describe's error.
func Enter(exe string, argv, env []string, network bool, describe func(io.Writer) error) (int, error) {
	if err := Available(); err != nil {
		return 0, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(exe)
	cmd.Args, cmd.Env = argv, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{r}
	// Not a UTS or cgroup namespace: the program holds no capability to
	// change the host's name, and the cgroup tree is not in the jail.
	flags := syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC
	if !network {
		flags |= syscall.CLONE_NEWNET
	}
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:                 uintptr(flags),
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		GidMappingsEnableSetgroups: false,
		Pdeathsig:                  syscall.SIGKILL,
		// A user other than root keeps, through guard's exec, the
		// capabilities the new user namespace gives it: those that make
		// the jail (mounts, the loopback, dropping the rest).
		AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP, unix.CAP_NET_ADMIN},
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return 0, fmt.Errorf("%w: the kernel does not let guard make the namespaces of the jail: %v", ErrUnsupported, err)
	}
	// The jail is worked out only now: a fork without vfork (the new user
	// namespace's) copies what this process has written by then, and pays
	// for every page either side writes until guard's exec in the child.
	described := make(chan error, 1)
	go func() {
		err := describe(w)
		w.Close()
		described <- err
	}()
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-sigs:
				cmd.Process.Signal(sig)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	if derr := <-described; derr != nil && !errors.Is(derr, syscall.EPIPE) {
		return 0, derr // else the process ended before it read, and said why
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	return 0, err
}

// Describe reads what Enter's describe wrote into v, a JSON value.
func Describe(v any) error {
	f := os.NewFile(3, "jail")
	defer f.Close()
	return json.NewDecoder(f).Decode(v)
}

// InJail reports why this process is not the first of namespaces Enter
// made, or nil: only there may Run change the mounts and start the
// program, and a guard run started any other way must not think itself
// confined.
func InJail() error {
	if os.Getpid() != 1 {
		return fmt.Errorf("process %d is not the first of its own process namespace", os.Getpid())
	}
	m, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return err
	}
	if strings.Join(strings.Fields(string(m)), " ") == uidMapAll {
		return errors.New("the process is in the system's user namespace")
	}
	return nil
}

// Run makes the jail's root, starts the program in it, makes the changes
// to the project it asks for, and returns its exit status once it ends.
// It must run in the process Enter started (see InJail), which is the
// jail's first: when it returns, the caller exits, and the kernel stops
// every process left in the jail.
func (j *Jail) Run() (int, error) {
	if err := InJail(); err != nil {
		return 0, err
	}
	if len(j.Argv) == 0 {
		return 0, errors.New("no program")
	}
	rw, err := j.build(j.Prepare)
	if err != nil {
		return 0, err
	}
	// The first process holds the project open for writing: no process
	// of the jail may look into it (/proc/1/fd), or into its memory.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("making guard's process private: %v", err)
	}
	prog, err := lookPath(j.Argv[0], j.Env)
	if err != nil {
		return 0, err
	}
	var sup *supervisor
	if j.Write != nil {
		sup = &supervisor{project: filepath.Clean(j.Project), root: rw, writer: j.Write, bounded: j.Budget > 0, budget: int64(j.Budget), free: j.Free,
			link: j.Link}
		if sup.link == nil {
			sup.link = func(string) bool { return true }
		}
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	pid, err := j.spawn(prog, sup)
	if err != nil {
		return 0, err
	}
	// Guard makes files with the modes the program asks for, its own
	// umask applied to them already (see supervisor.create).
	unix.Umask(0)
	go func() {
		for sig := range sigs {
			unix.Kill(-pid, sig.(syscall.Signal))
			unix.Kill(pid, sig.(syscall.Signal))
		}
	}()
	for {
		var ws unix.WaitStatus
		wpid, err := unix.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("waiting for the program: %v", err)
		}
		if wpid != pid {
			continue // an orphan of the program's
		}
		code := ws.ExitStatus()
		if ws.Signaled() {
			code = 128 + int(ws.Signal())
		} else if !ws.Exited() {
			continue
		}
		if j.After != nil {
			// What the program left running stops first, and no change
			// guard is making for it is halfway.
			unix.Kill(-1, unix.SIGKILL)
			if sup != nil {
				sup.tree.Lock()
			}
			if err := j.After(rw); err != nil {
				return 0, err
			}
		}
		return code, nil
	}
}

// lookPath finds prog in env's search path, as the jail shows it.
func lookPath(prog string, env []string) (string, error) {
	if strings.Contains(prog, "/") {
		return prog, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, prog)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && unix.Access(p, unix.X_OK) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found in the jail's search path", prog)
}

// systemDevices are the devices the program may open.
var systemDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// mnt is one mount of the jail's root, made in the order of its path's
// length, so that a directory's mount is made before those within it.
type mnt struct {
	path  string
	kind  string // "bind", "tmpfs", "hide"
	src   int    // an O_PATH descriptor of the bind's source
	dir   bool
	write bool
}

// build makes the jail's root and moves the process into it. It returns a
// descriptor of the project's directory where it is writable, outside the
// jail's root, for supervise.
func (j *Jail) build(prepare func() error) (int, error) {
	fail := func(what string, err error) (int, error) {
		return -1, fmt.Errorf("%w: %s: %v", ErrUnsupported, what, err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fail("making the mounts private", err)
	}
	project := filepath.Clean(j.Project)
	rw, err := unix.Open(project, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fail("opening the project", err)
	}
	// Every source is opened before the new root covers /tmp: a project
	// or a cache may be in it.
	var mounts []mnt
	bind := func(path string, write bool) error {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			mounts = append(mounts, mnt{path: path, kind: "link:" + target})
			return nil
		}
		fd, err := unix.Open(path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		mounts = append(mounts, mnt{path: path, kind: "bind", src: fd, dir: fi.IsDir(), write: write})
		return nil
	}
	for _, b := range j.Binds {
		if err := bind(filepath.Clean(b.Path), b.Write); err != nil {
			return fail("opening "+b.Path, err)
		}
	}
	if err := bind(project, false); err != nil {
		return fail("opening the project", err)
	}
	for _, d := range systemDevices {
		if err := bind(d, true); err != nil {
			return fail("opening "+d, err)
		}
	}
	for _, h := range j.Hide {
		fi, err := os.Lstat(h)
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			continue // gone, or a link: what it points at is hidden or not there
		}
		mounts = append(mounts, mnt{path: filepath.Clean(h), kind: "hide", dir: fi.IsDir()})
	}
	mounts = append(mounts, mnt{path: "/tmp", kind: "tmpfs", dir: true}, mnt{path: "/dev", kind: "dev", dir: true},
		mnt{path: "/proc", kind: "proc", dir: true})
	if j.Home != "" && j.Home != "/" {
		mounts = append(mounts, mnt{path: filepath.Clean(j.Home), kind: "home", dir: true})
	}
	slices.SortStableFunc(mounts, func(a, b mnt) int {
		return strings.Count(a.path, "/") - strings.Count(b.path, "/")
	})

	if prepare != nil {
		if err := prepare(); err != nil {
			return -1, err
		}
	}
	const root = "/tmp"
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=16m"); err != nil {
		return fail("making the jail's root", err)
	}
	emptyFile, emptyDir := root+"/.empty", root+"/.emptydir"
	// A secret shows empty, and may be read: a search of the tree finds
	// nothing in it, rather than stopping at it (grep -r exits 2 on a
	// file it cannot open).
	if err := os.WriteFile(emptyFile, nil, 0o444); err != nil {
		return fail("making the jail's root", err)
	}
	if err := os.Mkdir(emptyDir, 0o555); err != nil {
		return fail("making the jail's root", err)
	}
	var readOnly []string
	for _, m := range mounts {
		dst := root + m.path
		if err := makeMountPoint(dst, m.dir || strings.HasPrefix(m.kind, "link:")); err != nil && !strings.HasPrefix(m.kind, "link:") {
			return fail("making "+m.path, err)
		}
		switch {
		case strings.HasPrefix(m.kind, "link:"):
			os.Remove(dst)
			if err := os.Symlink(strings.TrimPrefix(m.kind, "link:"), dst); err != nil {
				return fail("making "+m.path, err)
			}
		case m.kind == "tmpfs" || m.kind == "home":
			mode := map[string]string{"tmpfs": "mode=1777", "home": "mode=0700"}[m.kind]
			if err := unix.Mount("tmpfs", dst, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, mode); err != nil {
				return fail("mounting "+m.path, err)
			}
		case m.kind == "proc":
			if err := unix.Mount("proc", dst, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_RDONLY, ""); err != nil {
				if errors.Is(err, unix.EPERM) {
					err = fmt.Errorf("%v (the kernel mounts a jail's /proc only where the /proc guard run sees is whole: in a container, or another sandbox, parts of it are covered)", err)
				}
				return fail("mounting the jail's /proc", err)
			}
		case m.kind == "dev":
			if err := makeDev(dst); err != nil {
				return fail("making the jail's /dev", err)
			}
		case m.kind == "hide":
			src := emptyFile
			if m.dir {
				src = emptyDir
			}
			if err := unix.Mount(src, dst, "", unix.MS_BIND, ""); err != nil {
				return fail("hiding "+m.path, err)
			}
			readOnly = append(readOnly, dst)
		default:
			src := "/proc/self/fd/" + strconv.Itoa(m.src)
			if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
				return fail("showing "+m.path, err)
			}
			unix.Close(m.src)
			attr := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID}
			if !strings.HasPrefix(m.path, "/dev/") {
				attr.Attr_set |= unix.MOUNT_ATTR_NODEV
			}
			if !m.write {
				attr.Attr_set |= unix.MOUNT_ATTR_RDONLY
			}
			if err := unix.MountSetattr(-1, dst, unix.AT_RECURSIVE, attr); err != nil {
				return fail("showing "+m.path, err)
			}
		}
	}
	for _, p := range readOnly {
		if err := unix.MountSetattr(-1, p, unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}); err != nil {
			return fail("hiding "+p, err)
		}
	}
	// /var/tmp is /tmp.
	if err := makeMountPoint(root+"/var", true); err == nil {
		os.Symlink("../tmp", root+"/var/tmp")
	}
	if err := unix.MountSetattr(-1, root, 0, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fail("making the jail's root read-only", err)
	}
	if err := os.Chdir(root); err != nil {
		return fail("entering the jail's root", err)
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fail("entering the jail's root", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fail("leaving the system's root", err)
	}
	if err := os.Chdir("/"); err != nil {
		return fail("entering the jail's root", err)
	}
	// The project must now refuse a change made directly: guard makes
	// each. A mount that let one through would be a door.
	probe := filepath.Join(project, ".guard-jail-probe-"+strconv.Itoa(os.Getppid()))
	if err := unix.Mkdir(probe, 0o700); !errors.Is(err, unix.EROFS) {
		if err == nil {
			unix.Rmdir(probe)
		}
		return fail("the project is not read-only in the jail", fmt.Errorf("mkdir: %v", err))
	}
	if len(j.Connect) == 0 {
		if err := loopbackUp(); err != nil {
			return fail("the jail's loopback", err)
		}
	}
	if err := os.Chdir(j.Dir); err != nil {
		return fail("the working directory", err)
	}
	return rw, nil
}

// makeMountPoint makes path, a directory or an empty file, and the
// directories above it.
func makeMountPoint(path string, dir bool) error {
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	if dir {
		return os.MkdirAll(path, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// makeDev makes the jail's /dev at dst: a directory of its own where the
// devices binds will be, the links to the process's descriptors, its own
// shared memory, and its own terminals where the kernel lets guard make
// them.
func makeDev(dst string) error {
	if err := unix.Mount("tmpfs", dst, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
		return err
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "ptmx": "pts/ptmx"} {
		if err := os.Symlink(target, filepath.Join(dst, name)); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dst+"/shm", 0o755); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", dst+"/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return err
	}
	if err := os.Mkdir(dst+"/pts", 0o755); err != nil {
		return err
	}
	// A terminal of the jail's own (script, expect); without, none.
	_ = unix.Mount("devpts", dst+"/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620")
	return nil
}

// Available reports why guard run cannot make its jail here, or nil: the
// kernel must let this user make a user namespace, and filter system
// calls. $GUARD_TEST_NO_SANDBOX set to 1 stands in for a kernel that
// cannot, for tests.
func Available() error {
	if os.Getenv("GUARD_TEST_NO_SANDBOX") == "1" {
		return fmt.Errorf("%w: GUARD_TEST_NO_SANDBOX is 1", ErrUnsupported)
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		return fmt.Errorf("%w: guard run's jail is for amd64 and arm64", ErrUnsupported)
	}
	read := func(p string) string { return strings.TrimSpace(readProc(p)) }
	if read("/proc/sys/user/max_user_namespaces") == "0" {
		return fmt.Errorf("%w: user namespaces are off (/proc/sys/user/max_user_namespaces is 0)", ErrUnsupported)
	}
	if os.Getuid() != 0 {
		if read("/proc/sys/kernel/unprivileged_userns_clone") == "0" {
			return fmt.Errorf("%w: user namespaces are for root only here (/proc/sys/kernel/unprivileged_userns_clone is 0)", ErrUnsupported)
		}
		if read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1" {
			return fmt.Errorf("%w: AppArmor denies user namespaces to unconfined programs (/proc/sys/kernel/apparmor_restrict_unprivileged_userns is 1; a profile for guard lifts it)", ErrUnsupported)
		}
	}
	if !strings.Contains(read("/proc/self/status"), "Seccomp:") {
		return fmt.Errorf("%w: the kernel has no seccomp", ErrUnsupported)
	}
	// The kernel mounts a /proc for the jail only where the /proc this
	// process sees is whole: a mount over a part of it (a container's
	// masked paths, another sandbox's read-only /proc/sys) refuses it.
	// binfmt_misc is mounted on a directory that is empty.
	for _, l := range strings.Split(read("/proc/self/mountinfo"), "\n") {
		f := strings.Fields(l)
		if len(f) > 4 && strings.HasPrefix(f[4], "/proc/") && f[4] != "/proc/sys/fs/binfmt_misc" {
			return fmt.Errorf("%w: %s is mounted over a part of /proc (a container's or another sandbox's), where the kernel mounts no /proc for a jail", ErrUnsupported, f[4])
		}
	}
	return nil
}

// readProc reads a file of /proc whole (up to 16 MiB: mountinfo grows
// with the mounts, and a container may have thousands), with plain system
// calls: os.ReadFile takes five more for each (its poller's registration
// and a stat), and Available reads four of them at every hook call. ""
// when it cannot be read.
func readProc(name string) string {
	fd, err := unix.Open(name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return ""
	}
	defer unix.Close(fd)
	buf := make([]byte, 0, 4096)
	for len(buf) < 16<<20 {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	return string(buf)
}
