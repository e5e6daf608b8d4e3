// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A trace as strace -f -y --pidns-translation writes it: bwrap's set-up,
// then the command's processes, their calls interleaved, unfinished and
// resumed.
const sampleTrace = `100 execve("/usr/bin/bwrap", ["bwrap", "--", "/usr/bin/bash", "-c", "x"], 0x7ffd /* 5 vars */) = 0
100 clone(child_stack=NULL, flags=CLONE_NEWPID|SIGCHLD) = 101
101 mkdirat(AT_FDCWD</>, "/tmp/.bwrap", 0700) = 0
101 clone(child_stack=NULL, flags=SIGCHLD) = 2 /* 102 in strace's PID NS */
102 execve("/usr/bin/bash", ["/usr/bin/bash", "-c", "x"], 0x7ffd /* 5 vars */) = 0
102 openat(AT_FDCWD</work>, "/dev/tty", O_RDWR|O_NONBLOCK) = -1 ENXIO (No such device or address)
102 chdir("a\nb")                  = 0
102 clone3({flags=CLONE_VM|CLONE_FS|CLONE_THREAD, exit_signal=0} => {parent_tid=[0]}, 88) = 13
106 openat(AT_FDCWD</elsewhere>, "t", O_WRONLY|O_CREAT, 0666) = 3</work/a\nb/t>
102 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f4) = 3 /* 103 in strace's PID NS */
103 execve("/usr/bin/touch", ["touch", "q\"r", "x y"], 0x55e /* 5 vars */ <unfinished ...>
102 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f4 <unfinished ...>
103 <... execve resumed>)             = 0
104 openat(AT_FDCWD</work/a\nb>, "early", O_WRONLY|O_CREAT, 0666) = 3</work/a\nb/early>
102 <... clone resumed>)             = 4 /* 104 in strace's PID NS */
103 openat(AT_FDCWD</work/a\nb>, "q\"r", O_WRONLY|O_CREAT|O_NOCTTY|O_NONBLOCK, 0666) = 3</work/a\nb/q"r>
103 openat(AT_FDCWD</work/a\nb>, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3</etc/passwd>
103 renameat2(AT_FDCWD</work/a\nb>, "x", 4</etc\76d>, "y", RENAME_NOREPLACE) = -1 EROFS (Read-only file system)
104 fchdir(5</work/c\76d>)          = 0
104 unlinkat(AT_FDCWD</work/c\76d>, "../../etc/z", 0) = -1 ENOENT (No such file or directory)
104 connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.1")}, 16) = -1 ENETUNREACH (Network is unreachable)
104 connect(3<socket:[2]>, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such file or directory)
104 sendto(3<socket:[3]>, "\1\2", 2, 0, NULL, 0) = 2
104 sendto(4<socket:[4]>, "x", 1, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 1
102 openat(AT_FDCWD</work>, "no end, O_WRONLY) = 3
102 connect(3<socket:[5]>, {sa_family=AF_INET, "no end}, 16) = 0
103 +++ exited with 0 +++
104 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=3} ---
105 openat(AT_FDCWD</x>, "y", O_WRONLY) = 3</x/y>
104 execve("/usr/local/go/bin/no", ["no"], 0x55e /* 5 vars */) = -1 ENOENT (No such file or directory)
104 execve("/usr/bin/ls", ["ls"], 0x55e /* 5 vars */ <unfinished ...>
104 +++ killed by SIGKILL +++
`

func TestOracleParse(t *testing.T) {
	events, err := parseTrace([]byte(sampleTrace), "/usr/bin/bash", "/work")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range events {
		s := ev.Op.String() + " " + ev.Path
		switch {
		case ev.Op == OpBlind:
			s = "blind " + ev.Note
		case ev.Op == OpConnect || ev.Op == OpSend:
			s += " " + ev.Family
		}
		if ev.Err != "" {
			s += " " + ev.Err
		}
		if ev.Real != "" {
			s += " real=" + ev.Real
		}
		if ev.Root {
			s += " root"
		}
		if ev.Op == OpExec {
			s += " argv=" + strings.Join(ev.Argv, "|") + " ancestors=" + strings.Join(ev.Ancestors, "|")
		}
		got = append(got, s)
	}
	want := []string{
		"exec /usr/bin/bash root argv=/usr/bin/bash|-c|x ancestors=",
		"write /dev/tty ENXIO",
		"write /work/a\nb/t real=/work/a\nb/t",
		"exec /usr/bin/touch argv=touch|q\"r|x y ancestors=/usr/bin/bash",
		"write /work/a\nb/early real=/work/a\nb/early",
		"write /work/a\nb/q\"r real=/work/a\nb/q\"r",
		"write /work/a\nb/x EROFS",
		"write /etc>d/y EROFS",
		"write /etc/z ENOENT",
		"connect  AF_INET ENETUNREACH",
		"connect /var/run/nscd/socket AF_UNIX ENOENT",
		"blind a line the oracle cannot read", // the connect; the trees judge the openat
		"blind a process the trace did not see start",
		"write /x/y real=/x/y",
		"exec /usr/local/go/bin/no ENOENT argv=no ancestors=/usr/bin/bash",
		"exec /usr/bin/ls ? argv=ls ancestors=/usr/bin/bash",
	}
	if !slices.Equal(got, want) {
		t.Errorf("events:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestOracleParseNoRoot(t *testing.T) {
	if _, err := parseTrace([]byte("1 execve(\"/usr/bin/bwrap\", [], 0x1) = 0\n"), "/usr/bin/bash", "/work"); err == nil {
		t.Error("a trace without bash's execve parsed")
	}
}

func TestOracleUnescape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`a\nb`, "a\nb"},
		{`c\76d`, "c>d"},
		{`\"q\\`, `"q\`},
		{`\x41\1010`, "AA0"},
		{`\303\251`, "é"},
	} {
		if got := unescape(tc.in); got != tc.want {
			t.Errorf("unescape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestOracleTraceClose: closing a trace removes the run's directory even
// when the command left directories without write permission.
func TestOracleTraceClose(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	ro := filepath.Join(run, "work", "ro", "deep")
	if err := os.MkdirAll(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ro, "f"), nil, 0o444); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{ro, filepath.Dir(ro)} {
		if err := os.Chmod(d, 0o555); err != nil {
			t.Fatal(err)
		}
	}
	tr := &Trace{dir: run}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(run); !os.IsNotExist(err) {
		t.Errorf("the run's directory is still there: %v", err)
	}
}

// TestOracleParseEmptyName: a call on an empty name names no file; it is
// not a write to the working directory (go's compiler under zsh made one).
func TestOracleParseEmptyName(t *testing.T) {
	trace := "100 execve(\"/usr/bin/bash\", [\"bash\"], 0x1 /* 1 vars */) = 0\n" +
		"100 chdir(\"/usr/local/go/src/internal/bytealg\") = 0\n" +
		"100 truncate(\"\", 0)                 = -1 ENOENT (No such file or directory)\n"
	events, err := parseTrace([]byte(trace), "/usr/bin/bash", "/work")
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		if ev.Op == OpWrite && ev.Path != "" {
			t.Errorf("truncate(\"\") was read as a write to %q", ev.Path)
		}
	}
}
