// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package credential

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The examples are built here, from a rule's fixed text and generated
// characters, so that no source file holds a token. TestSourcesHoldNone
// checks that.

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	hexd   = "0123456789abcdef"
	alnum  = upper + lower + digits
	ud     = upper + digits
	ld     = lower + digits
	word   = alnum + "_-" // what [\w-] matches
	b64    = alnum + "+/"
)

// chars generates random strings from a fixed seed.
type chars struct{ r *mrand.Rand }

func newChars(seed uint64) chars { return chars{mrand.New(mrand.NewPCG(seed, 1))} }

// of returns n characters from set; the last one is from alnum when set
// has it all, so that a \b after the token holds.
func (c chars) of(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[c.r.IntN(len(set))]
	}
	if n > 0 && strings.Contains(set, alnum) {
		b[n-1] = alnum[c.r.IntN(len(alnum))]
	}
	return string(b)
}

// An example is a credential of a rule: tok, whose secret begins at at.
type example struct {
	rule string
	tok  string
	at   int
}

// examples returns one example of every rule.
func examples() []example {
	c := newChars(1)
	return []example{
		{"1password-secret-key", "A3-" + c.of(ud, 6) + "-" + c.of(ud, 11) + "-" + c.of(ud, 5) + "-" + c.of(ud, 5) + "-" + c.of(ud, 5), 0},
		{"1password-service-account-token", "ops_" + "eyJ" + c.of(b64, 260), 0},
		{"adobe-client-secret", "p8e-" + c.of(ld, 32), 0},
		{"age-secret-key", "AGE-SECRET-KEY-1" + c.of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58), 0},
		{"alibaba-access-key-id", "LTAI" + c.of(alnum, 20), 0},
		{"anthropic-admin-api-key", "sk-ant-" + "admin01-" + c.of(word, 93) + "AA", 0},
		{"anthropic-api-key", "sk-ant-" + "api03-" + c.of(word, 93) + "AA", 0},
		{"artifactory-api-key", "AKCp" + c.of(alnum, 69), 0},
		{"atlassian-api-token", "ATATT3" + c.of(alnum+"_-=", 186), 0},
		{"authress-service-client-access-key", "sc_" + c.of(ld, 12) + "." + c.of(ld, 5) + ".acc_" + c.of(ld, 20) + "." + c.of(ld+"+/_=-", 60), 0},
		{"aws-access-token", "AKIA" + c.of(upper+"234567", 16), 0},
		{"aws-amazon-bedrock-api-key-long-lived", "ABSK" + c.of(b64, 130), 0},
		{"aws-amazon-bedrock-api-key-short-lived", "bedrock-api-key-" + "YmVkcm9jay5hbWF6b25hd3MuY29t", 0},
		{"azure-ad-client-secret", c.of(alnum, 3) + "8Q" + "~" + c.of(alnum, 34), 0},
		{"clojars-api-token", "CLOJARS_" + c.of(ld, 60), 0},
		{"cloudflare-origin-ca-key", "v1.0-" + c.of(hexd, 24) + "-" + c.of(hexd, 146), 0},
		{"digitalocean-access-token", "doo_v1_" + c.of(hexd, 64), 0},
		{"digitalocean-pat", "dop_v1_" + c.of(hexd, 64), 0},
		{"digitalocean-refresh-token", "dor_v1_" + c.of(hexd, 64), 0},
		{"doppler-api-token", "dp.pt." + c.of(alnum, 43), 0},
		{"duffel-api-token", "duffel_live_" + c.of(alnum, 43), 0},
		{"dynatrace-api-token", "dt0c01." + c.of(ud, 24) + "." + c.of(alnum, 64), 0},
		{"easypost-api-token", "EZAK" + c.of(alnum, 54), 0},
		{"easypost-test-api-token", "EZTK" + c.of(alnum, 54), 0},
		{"facebook-page-access-token", "EAAM" + c.of(alnum, 150), 0},
		{"flutterwave-secret-key", "FLWSECK_TEST-" + c.of("abcdefgh0123456789", 32) + "-X", 0},
		{"flutterwave-encryption-key", "FLWSECK_TEST-" + c.of("abcdefgh0123456789", 12), 0},
		{"flyio-access-token", "fo1_" + c.of(alnum, 43), 0},
		{"frameio-api-token", "fio-u-" + c.of(alnum, 64), 0},
		{"gcp-api-key", "AIza" + c.of(alnum, 35), 0},
		{"github-app-token", "ghs_" + c.of(alnum, 36), 0},
		{"github-fine-grained-pat", "github_pat_" + c.of(alnum+"_", 82), 0},
		{"github-oauth", "gho_" + c.of(alnum, 36), 0},
		{"github-pat", "ghp_" + c.of(alnum, 36), 0},
		{"github-refresh-token", "ghr_" + c.of(alnum, 36), 0},
		{"gitlab-cicd-job-token", "glcbt-" + c.of(alnum, 3) + "_" + c.of(alnum, 20), 0},
		{"gitlab-deploy-token", "gldt-" + c.of(alnum, 20), 0},
		{"gitlab-feature-flag-client-token", "glffct-" + c.of(alnum, 20), 0},
		{"gitlab-feed-token", "glft-" + c.of(alnum, 20), 0},
		{"gitlab-incoming-mail-token", "glimt-" + c.of(alnum, 25), 0},
		{"gitlab-kubernetes-agent-token", "glagent-" + c.of(alnum, 50), 0},
		{"gitlab-oauth-app-secret", "gloas-" + c.of(alnum, 64), 0},
		{"gitlab-pat-routable", "glpat-" + c.of(alnum, 40) + "." + c.of(ld, 9), 0},
		{"gitlab-pat", "glpat-" + c.of(alnum, 20), 0},
		{"gitlab-ptt", "glptt-" + c.of(hexd, 40), 0},
		{"gitlab-runner-authentication-token-routable", "glrt-" + "t1_" + c.of(alnum, 30) + "." + c.of(ld, 9), 0},
		{"gitlab-runner-authentication-token", "glrt-" + c.of(alnum, 20), 0},
		{"gitlab-scim-token", "glsoat-" + c.of(alnum, 20), 0},
		{"gitlab-session-cookie", "_gitlab_session=" + c.of(ld, 32), 0},
		{"grafana-cloud-api-token", "glc_" + c.of(b64, 40), 0},
		{"grafana-service-account-token", "glsa_" + c.of(alnum, 32) + "_" + c.of(hexd, 8), 0},
		{"harness-api-key", "pat." + c.of(alnum, 22) + "." + c.of(alnum, 24) + "." + c.of(alnum, 20), 0},
		{"hashicorp-tf-api-token", c.of(ld, 14) + ".atlas" + "v1." + c.of(ld, 65), 0},
		{"heroku-api-key-v2", "HRKU-AA" + c.of(alnum, 58), 0},
		{"huggingface-access-token", "hf_" + c.of(lower+upper, 34), 0},
		{"huggingface-organization-api-token", "api_org_" + c.of(lower+upper, 34), 0},
		{"infracost-api-token", "ico-" + c.of(alnum, 32), 0},
		{"intra42-client-secret", "s-s4t2ud-" + c.of(hexd, 64), 0},
		{"jwt", "ey" + "J" + c.of(alnum, 30) + ".ey" + "J" + c.of(alnum, 60) + "." + c.of(alnum, 43), 0},
		{"linear-api-key", "lin_api_" + c.of(alnum, 40), 0},
		{"maxmind-license-key", c.of(alnum, 6) + "_" + c.of(alnum, 29) + "_mmk", 0},
		{"notion-api-token", "ntn_" + c.of(digits, 11) + c.of(alnum, 35), 0},
		{"npm-access-token", "npm_" + c.of(alnum, 36), 0},
		{"octopus-deploy-api-key", "API-" + c.of(ud, 26), 0},
		{"openai-api-key", "sk-" + "proj-" + c.of(alnum, 74) + "T3Blbk" + "FJ" + c.of(alnum, 74), 0},
		{"openshift-user-token", "sha256~" + c.of(alnum, 43), 0},
		{"perplexity-api-key", "pplx-" + c.of(alnum, 48), 0},
		{"planetscale-api-token", "pscale_tkn_" + c.of(alnum, 40), 0},
		{"planetscale-oauth-token", "pscale_oauth_" + c.of(alnum, 40), 0},
		{"planetscale-password", "pscale_pw_" + c.of(alnum, 40), 0},
		{"postman-api-token", "PMAK-" + c.of(hexd, 24) + "-" + c.of(hexd, 34), 0},
		{"prefect-api-token", "pnu_" + c.of(alnum, 36), 0},
		{"private-key", "-----BEGIN " + "RSA PRIVATE" + " KEY-----", 0},
		{"putty-private-key", "PuTTY-User-Key-File-" + "3: ssh-ed25519", 0},
		{"pulumi-api-token", "pul-" + c.of(hexd, 40), 0},
		{"pypi-upload-token", "pypi-" + "AgEIcHlwaS5vcmc" + c.of(alnum, 70), 0},
		{"readme-api-token", "rdme_" + c.of(ld, 70), 0},
		{"rubygems-api-token", "rubygems_" + c.of(hexd, 48), 0},
		{"scalingo-api-token", "tk-us-" + c.of(alnum, 48), 0},
		{"sendgrid-api-token", "SG." + c.of(alnum, 22) + "." + c.of(alnum, 43), 0},
		{"sendinblue-api-token", "xkeysib-" + c.of(hexd, 64) + "-" + c.of(alnum, 16), 0},
		{"sentry-org-token", "sntrys_" + "eyJpYXQiO" + c.of(b64, 30) + "LCJyZWdpb25fdXJs" + c.of(b64, 30) + "_" + c.of(b64, 43), 0},
		{"sentry-user-token", "sntryu_" + c.of(hexd, 64), 0},
		{"settlemint-application-access-token", "sm_aat_" + c.of(alnum, 16), 0},
		{"settlemint-personal-access-token", "sm_pat_" + c.of(alnum, 16), 0},
		{"settlemint-service-access-token", "sm_sat_" + c.of(alnum, 16), 0},
		{"shippo-api-token", "shippo_live_" + c.of(hexd, 40), 0},
		{"shopify-access-token", "shpat_" + c.of(hexd, 32), 0},
		{"shopify-custom-access-token", "shpca_" + c.of(hexd, 32), 0},
		{"shopify-private-app-access-token", "shppa_" + c.of(hexd, 32), 0},
		{"shopify-shared-secret", "shpss_" + c.of(hexd, 32), 0},
		{"sidekiq-sensitive-url", "https://" + c.of(hexd, 8) + ":" + c.of(hexd, 8) + "@gems.contribsys.com/", 8},
		{"slack-app-token", "xapp-1-" + c.of(ud, 11) + "-" + c.of(digits, 13) + "-" + c.of(ld, 64), 0},
		{"slack-bot-token", "xoxb-" + c.of(digits, 12) + "-" + c.of(digits, 12) + c.of(alnum, 24), 0},
		{"slack-config-access-token", "xoxe.xoxb-1-" + c.of(ud, 165), 0},
		{"slack-config-refresh-token", "xoxe-1-" + c.of(ud, 146), 0},
		{"slack-legacy-bot-token", "xoxb-" + c.of(digits, 9) + "-" + c.of(lower, 2) + c.of(alnum, 20), 0},
		{"slack-legacy-token", "xoxs-" + c.of(digits, 10) + "-" + c.of(digits, 10) + "-" + c.of(digits, 12) + "-" + c.of(hexd, 64), 0},
		{"slack-legacy-workspace-token", "xoxa-2-" + c.of(alnum, 40), 0},
		{"slack-user-token", "xoxp-" + c.of(digits, 12) + "-" + c.of(digits, 12) + "-" + c.of(digits, 12) + "-" + c.of(alnum, 32), 0},
		{"slack-webhook-url", "https://hooks.slack.com/services/" + c.of(alnum, 44), 0},
		{"sourcegraph-access-token", "sgp_" + c.of(hexd, 40), 0},
		{"square-access-token", "sq0atp-" + c.of(alnum, 22), 0},
		{"stripe-access-token", "sk_live_" + c.of(alnum, 30), 0},
		{"twilio-api-key", "SK" + c.of(hexd, 32), 0},
		{"vault-batch-token", "hvb." + c.of(alnum+"_-", 140), 0},
		{"vault-service-token", "hvs." + c.of(alnum+"_-", 95), 0},
	}
}

// embed places tok in a line of a config file, and returns where the
// secret is.
func embed(e example) ([]byte, int) {
	const before = `token = "`
	return []byte(before + e.tok + "\"\n"), len(before) + e.at
}

func init() {
	seen := map[string]bool{}
	for _, e := range examples() {
		if seen[e.rule] {
			panic("two examples of rule " + e.rule)
		}
		seen[e.rule] = true
	}
}

func TestRules(t *testing.T) {
	s, err := compile(rulesTOML)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.rules) < 40 {
		t.Errorf("%d rules, want at least 40", len(s.rules))
	}
	for _, r := range s.rules {
		r.re()
		r.atStart()
	}
	have := map[string]bool{}
	for _, e := range examples() {
		have[e.rule] = true
	}
	for _, r := range s.rules {
		if !have[r.id] {
			t.Errorf("rule %q has no example", r.id)
		}
		delete(have, r.id)
	}
	for id := range have {
		t.Errorf("example of rule %q, which rules.toml does not have", id)
	}
}

func TestFindExamples(t *testing.T) {
	for _, e := range examples() {
		data, at := embed(e)
		m, ok := Find(data)
		if !ok || m.Rule != e.rule || m.Offset != at {
			t.Errorf("input: %q\nFind = %+v, %v; want rule %s at %d", data, m, ok, e.rule, at)
		}
		if ok && m.Kind == "" {
			t.Errorf("rule %s: no kind", m.Rule)
		}
	}
}

// TestFindExamplesPlaced moves each example: to the start of the text,
// after other UTF-8 text, and behind a megabyte of text.
func TestFindExamplesPlaced(t *testing.T) {
	filler := bytes.Repeat([]byte("// The quick brown fox jumps over the lazy dog; ok.\n"), 20000)
	for _, e := range examples() {
		for _, pre := range [][]byte{nil, []byte("héllo, wörld ☃ "), filler} {
			data := append(append(append([]byte(nil), pre...), e.tok...), '\n')
			m, ok := Find(data)
			if want := len(pre) + e.at; !ok || m.Rule != e.rule || m.Offset != want {
				t.Errorf("input: %q…\nFind = %+v, %v; want rule %s at %d", data[len(pre):], m, ok, e.rule, want)
			}
		}
	}
}

// TestFindFirst: of two credentials, Find returns the one that starts
// first, whatever the order of their rules.
func TestFindFirst(t *testing.T) {
	ex := examples()
	for i := 0; i+1 < len(ex); i += 2 {
		a, b := ex[i], ex[i+1]
		for _, pair := range [][2]example{{a, b}, {b, a}} {
			data := []byte(" " + pair[0].tok + "\n " + pair[1].tok + "\n")
			m, ok := Find(data)
			if !ok || m.Rule != pair[0].rule || m.Offset != 1+pair[0].at {
				t.Errorf("input: %q\nFind = %+v, %v; want rule %s at %d", data, m, ok, pair[0].rule, 1+pair[0].at)
			}
		}
	}
}

// TestFindConcurrent: go test -race checks that Find shares nothing it
// writes.
func TestFindConcurrent(t *testing.T) {
	ex := examples()
	done := make(chan bool)
	for i := range 4 {
		go func() {
			for _, e := range ex[i*len(ex)/4 : (i+1)*len(ex)/4] {
				data, at := embed(e)
				if m, ok := Find(data); !ok || m.Rule != e.rule || m.Offset != at {
					t.Errorf("input: %q\nFind = %+v, %v", data, m, ok)
				}
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
}

func TestFindEmpty(t *testing.T) {
	for _, data := range [][]byte{nil, {}, []byte("A"), []byte("~"), []byte("_-.")} {
		if m, ok := Find(data); ok {
			t.Errorf("Find(%q) = %+v", data, m)
		}
	}
}

func TestPrivateKeyHeaders(t *testing.T) {
	begin, end := "-----BEGIN ", "-----"
	for _, tc := range []struct {
		header string
		rule   string
	}{
		{begin + "RSA PRIVATE KEY" + end, "private-key"},
		{begin + "EC PRIVATE KEY" + end, "private-key"},
		{begin + "DSA PRIVATE KEY" + end, "private-key"},
		{begin + "OPENSSH PRIVATE KEY" + end, "private-key"},
		{begin + "PRIVATE KEY" + end, "private-key"},
		{begin + "ENCRYPTED PRIVATE KEY" + end, "private-key"},
		{begin + "PGP PRIVATE KEY BLOCK" + end, "private-key"},
		{begin + "SSH2 ENCRYPTED PRIVATE KEY" + end, "private-key"},
		{strings.ToLower(begin + "RSA PRIVATE KEY" + end), "private-key"}, // gitleaks ignores case
		{"PuTTY-User-Key-File-" + "2: ssh-rsa", "putty-private-key"},
		{"PuTTY-User-Key-File-" + "3: ecdsa-sha2-nistp256", "putty-private-key"},
	} {
		data := []byte("some text\n" + tc.header + "\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n")
		m, ok := Find(data)
		if !ok || m.Rule != tc.rule || m.Offset != len("some text\n") {
			t.Errorf("input: %q\nFind = %+v, %v; want rule %s at 10", data, m, ok, tc.rule)
		}
	}
}

// TestFindFolded: a rule whose regexp ignores case finds its keyword in
// any case, and written with U+017F for s, as the regexp does.
func TestFindFolded(t *testing.T) {
	c := newChars(2)
	for _, tc := range []struct {
		tok  string
		rule string
	}{
		{"NPM_" + c.of(alnum, 36), "npm-access-token"},
		{"Npm_" + c.of(alnum, 36), "npm-access-token"},
		{"p\u017fcale_pw_" + c.of(alnum, 40), "planetscale-password"},
		{"PSCALE_PW_" + c.of(alnum, 40), "planetscale-password"},
		{"GL\u017fA_" + c.of(alnum, 32) + "_" + c.of(hexd, 8), "grafana-service-account-token"},
		{"clojar\u017f_" + c.of(ld, 60), "clojars-api-token"},
		{"XAPP-1-" + c.of(ud, 11) + "-" + c.of(digits, 13) + "-" + c.of(ld, 64), "slack-app-token"},
		{"HTTPS://" + c.of(hexd, 8) + ":" + c.of(hexd, 8) + "@GEM\u017f.contrib\u017fy\u017f.com/", "sidekiq-sensitive-url"},
	} {
		data := []byte("x: " + tc.tok + "\n")
		m, ok := Find(data)
		if !ok || m.Rule != tc.rule {
			t.Errorf("input: %q\nFind = %+v, %v; want rule %s", data, m, ok, tc.rule)
		}
	}
}

// TestFindNone: text that is not a credential, though some of it looks
// like one.
func TestFindNone(t *testing.T) {
	c := newChars(3)
	random := make([]byte, 48<<10)
	for i := range random {
		random[i] = byte(c.r.Uint32())
	}
	sha := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	sha1x := func(s string) string { h := sha1.Sum([]byte(s)); return hex.EncodeToString(h[:]) }
	var uuids, lock strings.Builder
	for i := range 200 {
		u := []byte(c.of(hexd, 32))
		fmt.Fprintf(&uuids, "%s-%s-4%s-a%s-%s\n", u[:8], u[8:12], u[13:16], u[17:20], u[20:])
		sum := make([]byte, 64)
		for j := range sum {
			sum[j] = byte(c.r.Uint32())
		}
		fmt.Fprintf(&lock, "    \"node_modules/pkg%d\": {\n      \"version\": \"1.%d.0\",\n      \"integrity\": \"sha512-%s\"\n    },\n",
			i, i, base64.StdEncoding.EncodeToString(sum))
	}
	for _, tc := range []struct {
		name string
		text string
	}{
		{"prose", "Tokens that start with ghp_ are GitHub personal access tokens; AKIA begins an AWS key ID, and sk- an OpenAI key."},
		{"prefixes alone", "ghp_ gho_ glpat- xoxb- sk-ant-api03- sk-proj- AKIA ASIA AIza hf_ npm_ pypi-AgEIcHlwaS5vcmc dop_v1_ SG. sq0atp- shpat_ dapi hvs. -----BEGIN"},
		{"placeholder", "GITHUB_TOKEN=ghp_" + strings.Repeat("x", 36) + "\nNPM_TOKEN=npm_" + strings.Repeat("0", 36) + "\n"},
		{"aws documentation key", "aws_access_key_id = AKIA" + "IOSFODNN7" + "EXAMPLE\n"},
		{"short token", "ghp_" + c.of(alnum, 20) + "\n"},
		{"word before aws key", "XAKIA" + c.of(upper, 16) + "\n"},
		{"go.sum", goSum(t)},
		{"uuids", uuids.String()},
		{"sha-1 and sha-256", sha1x("a") + "\n" + sha("a") + "\n" + sha1x("b") + " " + sha("b") + "\n"},
		{"base64 of random bytes", base64.StdEncoding.EncodeToString(random)},
		{"base64 of random bytes, lines", wrap(base64.StdEncoding.EncodeToString(random), 76)},
		{"random bytes", string(random)},
		{"public key and certificate", publicPEM(t)},
		{"package-lock.json", "{\n  \"packages\": {\n" + lock.String() + "  }\n}\n"},
	} {
		if m, ok := Find([]byte(tc.text)); ok {
			end := min(len(tc.text), m.Offset+80)
			t.Errorf("%s: Find = %+v at %q", tc.name, m, tc.text[m.Offset:end])
		}
	}
}

// TestFindNoneSource: Go source and minified JavaScript, from GOROOT.
func TestFindNoneSource(t *testing.T) {
	for name, text := range map[string]string{"Go source": readGo(t, benchSize), "minified JavaScript": readJS(t, benchSize)} {
		if m, ok := Find([]byte(text)); ok {
			t.Errorf("%s: Find = %+v at %q", name, m, text[m.Offset:min(len(text), m.Offset+80)])
		}
	}
}

func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	return b.String() + s
}

func goSum(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// publicPEM returns a PEM public key and a self-signed certificate.
func publicPEM(t *testing.T) string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "guard test"},
		NotBefore:    time.Now(),
		NotAfter:     time.Now().Add(time.Hour),
	}
	cert, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})) +
		string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert}))
}

// TestSourcesHoldNone: the package's own files hold no credential, so
// that neither guard nor a secret scanner stops at them.
func TestSourcesHoldNone(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(names, "rules.toml", "SOURCE", "LICENSE.gitleaks") {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := Find(data); ok {
			t.Errorf("%s holds %s at byte %d", name, m.Kind, m.Offset)
		}
	}
}
