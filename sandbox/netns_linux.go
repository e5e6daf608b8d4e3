// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Where the kernel lets it, guard run puts the program in a network
// namespace of its own, with a user namespace around it when guard is not
// root: the program then has a loopback of its own, where tests may listen
// and connect as they like, and no route to anything else. Landlock's TCP
// rules, which know ports but not addresses, and the seccomp filter are
// then not needed, and not applied. Where it does not (user namespaces
// turned off), they are.

// ErrNoIsolation is returned by RunIsolated when the kernel does not let
// guard make the namespaces.
var ErrNoIsolation = errors.New("the kernel does not let guard run make a network namespace")

// RunIsolated starts exe with argv in a new network namespace (and user
// namespace, unless guard runs as root), with this process's standard
// streams, passes on the signals that would end it, and returns the exit
// status to end with: the program's, or 128 and the signal that ended it.
//
// $GUARD_TEST_NO_NETNS set to 1 makes it fail with ErrNoIsolation, so that
// tests can take the other way: Landlock's and seccomp's.
func RunIsolated(exe string, argv, env []string) (int, error) {
	if os.Getenv("GUARD_TEST_NO_NETNS") == "1" {
		return 0, fmt.Errorf("%w: $GUARD_TEST_NO_NETNS is 1", ErrNoIsolation)
	}
	cmd := exec.Command(exe)
	cmd.Args, cmd.Env = argv, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	attr := &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET, Pdeathsig: syscall.SIGKILL}
	if uid, gid := os.Getuid(), os.Getgid(); uid != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	cmd.SysProcAttr = attr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrNoIsolation, err)
	}
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
	err := cmd.Wait()
	close(done)
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

// InOwnNamespace reports whether this process's network namespace has no
// device but the loopback, as the one RunIsolated makes: the network is
// left unrestricted otherwise only there.
func InOwnNamespace() (bool, error) {
	data, err := os.ReadFile("/proc/self/net/dev")
	if err != nil {
		return false, err
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, l := range lines[min(2, len(lines)):] { // two lines of headers
		name, _, _ := strings.Cut(strings.TrimSpace(l), ":")
		if name != "lo" {
			return false, nil
		}
	}
	return true, nil
}

// LoopbackUp brings up the loopback device of this process's network
// namespace, which starts down.
func LoopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
