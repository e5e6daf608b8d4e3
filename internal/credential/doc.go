// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package credential tells whether content looks like it holds a
// credential, so that guard can ask before an agent reads such a file.
//
// [Find] looks for the shapes in rules.toml: the BEGIN line of a private
// key of any kind (PEM, OpenSSH, PGP, and PuTTY's key files), and the
// token shapes of the gitleaks rule set (see SOURCE) that know a
// credential by its own form, most of them by a fixed prefix such as ghp_
// or AKIA. A match of a rule's regexp is a credential when its secret
// (the first capture group that matched something, or else all of the
// match) has more Shannon entropy, counted over bytes, than the rule asks,
// and no regexp of the rule's allow list matches it: placeholders such as
// ghp_xxxx… and AWS's documentation keys are not credentials. Find
// returns the first match that running every rule's regexp over all of
// the content would give, but it runs a regexp only where a rule's
// keyword is: a MiB of ordinary text takes well under a millisecond, and
// a MiB made of keywords on purpose about half a second. Find is safe for
// concurrent use; for empty or nil content it reports nothing.
//
// What it does not find: a credential of a shape no rule knows (a
// password, a key that only the name it is assigned to gives away, a
// generic high-entropy string, a Databricks token: SOURCE lists the
// gitleaks rules left out); a credential that is encoded (base64, URL or
// JSON escapes, compression) or split (across lines, by string
// concatenation, or between two reads); and a token longer than its rule
// allows. A [Match] says which rule matched and where, so that a message
// can name the credential without showing it.
//
// This package has no API stability promise outside this module.
package credential
