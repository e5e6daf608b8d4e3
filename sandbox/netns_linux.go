// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import "golang.org/x/sys/unix"

// loopbackUp brings up the loopback device of the jail's own network
// namespace, which starts down: a test's server on 127.0.0.1 works inside,
// and nothing else does.
func loopbackUp() error {
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
