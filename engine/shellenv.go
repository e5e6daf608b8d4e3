// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"slices"
	"strings"

	"guard/shellparse"
)

// Variables that change how the shell reads commands: the locale, and in
// zsh the arrays tied to PATH and its kin.
//
// The locale.
//
// LC_ALL, LC_CTYPE and LANG choose the character set the shell lexes the
// rest of its input in. Under GBK, Big5, Shift JIS and similar sets a
// character's second byte can be "\" or another shell metacharacter, so
// quotes pair up differently from how guard reads the UTF-8 text: a
// standalone LC_ALL=zh_CN.GBK changes what the following lines mean, and
// `env LC_ALL=zh_CN.GBK bash -c '...'` how the inner shell reads its
// script. Only the locales whose text guard reads as the shell does are
// accepted: C, POSIX and UTF-8 ones. The agent's own locale counts too:
// under any other, a command holding a non-ASCII byte is refused (ASCII
// reads the same in every locale these shells support).

// localeVariable reports whether setting name changes how the shell and
// the programs it runs split text into characters.
func localeVariable(name string) bool {
	return name == "LANG" || name == "LC_ALL" || name == "LC_CTYPE"
}

// safeLocale reports whether guard reads text as a shell in this locale
// does. The empty value unsets the variable, leaving the agent's locale,
// which is checked on its own.
func safeLocale(v string) bool {
	if v == "" || v == "C" || v == "POSIX" {
		return true
	}
	name, _, _ := strings.Cut(v, "@") // a modifier (@euro) does not change the charset
	_, charset, ok := strings.Cut(name, ".")
	if !ok {
		return false // no charset: the language's default, often not UTF-8 (zh_CN is GB2312)
	}
	switch strings.ToLower(charset) {
	case "utf-8", "utf8":
		return true
	}
	return false
}

// Variables whose value names a file a library loads: glibc loads locale
// data from a locale name that is a path (LC_ALL=/dir/x.UTF-8, whose
// character tables change how the shell lexes), gettext its message
// catalogs from /usr/share/locale/$LANGUAGE/, so that LANGUAGE=../../p
// loads translations from the project (they are printf formats: %s of the
// environment, %n), glibc a time zone file from the path TZ names
// (TZ=/home/u/.ssh/id_rsa reads the key), and programs a terminal's
// description by TERM. Their values may name a locale, a zone or a
// terminal, never a path.

// namesFile reports whether setting name to value makes a library load a
// file the value names, and says which.
func namesFile(name, value string) (string, bool) {
	switch {
	case name == "LANG" || name == "LANGUAGE" || strings.HasPrefix(name, "LC_"):
		if strings.ContainsRune(value, '/') || strings.Contains(value, "..") {
			return fmt.Sprintf("%s=%s names a path: glibc and gettext load locale data and message catalogs from it", name, value), true
		}
	case name == "TERM":
		// ncurses refuses a name with a slash today; a terminfo entry's
		// strings are a language of their own, so guard does too.
		if strings.ContainsRune(value, '/') || strings.Contains(value, "..") {
			return fmt.Sprintf("TERM=%s names a path: programs load the terminal's description by its name", value), true
		}
	case name == "TZ":
		zone := strings.TrimPrefix(value, ":")
		if strings.HasPrefix(zone, "/") || slices.Contains(strings.Split(zone, "/"), "..") || strings.HasPrefix(zone, ".") {
			return fmt.Sprintf("TZ=%s names a file outside the time zone database: glibc reads the file it names", value), true
		}
	}
	return "", false
}

// namesFileWord is namesFile for an assignment's value as written: a ~
// the shell expands, at the start (~, ~/x, ~+, ~user) or after a colon,
// makes the value a path (TZ=~+/zone loads the project's file as the
// time zone, TZ=~/.ssh/id_rsa reads the key), whatever follows it, and
// so does zsh's =NAME.
func namesFileWord(name string, w shellparse.Word) (string, bool) {
	if w.Tilde || w.Dynamic == "tilde expansion" {
		if _, ok := namesFile(name, "/"); ok {
			return fmt.Sprintf("%s=%s: the shell expands the ~ to a directory, so the value names a path, and libraries load the file it names", name, w.Source), true
		}
	}
	if strings.HasPrefix(w.Source, "=") || strings.Contains(w.Source, ":=") {
		// zsh expands =cmd, at the start or after a colon, to the
		// program's path: TZ==date is TZ=/usr/bin/date.
		if _, ok := namesFile(name, "/"); ok {
			return fmt.Sprintf("%s=%s: zsh expands =NAME to the path of the program NAME, so the value names a path", name, w.Source), true
		}
	}
	return namesFile(name, w.Value)
}

// loopNamesFile refuses a for or select loop over a variable whose value
// can name a file a library loads: the loop sets it to each word of its
// list, which guard does not read as values, and where the variable is
// exported already (TERM, LANG, often TZ) the programs in the loop's body
// see each (for TZ in ~/.ssh/id_rsa; do date; done reads the key).
func loopNamesFile(name string) (string, bool) {
	if _, ok := namesFile(name, "/"); !ok {
		return "", false
	}
	return fmt.Sprintf("for %s sets %s to each word of its list, and where it is exported the programs the loop runs load the file a word names", name, name), true
}

// localeLeaf refuses an assignment of a locale variable to a value guard
// cannot read the shell's input in, and returns ok false for it.
func localeLeaf(name string, value string, constant bool) (why string, ok bool) {
	if !localeVariable(name) {
		return "", true
	}
	if !constant {
		return fmt.Sprintf("%s is set to a value known only at run time; the locale changes how the shell reads the rest of the command", name), false
	}
	if !safeLocale(value) {
		return fmt.Sprintf("%s=%s: guard reads commands as UTF-8, and in this locale the shell splits the rest of the input into characters differently; use C, POSIX or a UTF-8 locale", name, value), false
	}
	return "", true
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// zshTied maps the arrays zsh ties to a colon-separated variable onto it:
// `for path in /tmp/x` sets PATH in zsh.
var zshTied = map[string]string{
	"path": "PATH", "cdpath": "CDPATH", "fpath": "FPATH", "module_path": "MODULE_PATH",
	"manpath": "MANPATH", "mailpath": "MAILPATH", "fignore": "FIGNORE",
}
