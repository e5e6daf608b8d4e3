// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Real-looking secrets. The AWS ones are AWS's own documentation examples.
const (
	awsKeyID  = "AKIAIOSFODNN7EXAMPLE"
	awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	ghToken   = "ghp_16C7e42F292c6912E7710c838347Ae178B4a" // ghp_ and 36 characters
	ghPAT     = "github_pat_11ABCDEFG0123456789abcd_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW"
	jwt       = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)

var redactTests = []struct {
	in, want string
	secret   string // must not be in the output; "" for a call with none
}{
	// AWS.
	{"aws s3 ls --profile x " + awsKeyID, "aws s3 ls --profile x AKIA***", awsKeyID},
	{"ASIAY34FZKBOKMUTVV7A", "ASIA***", "Y34FZKBOKMUTVV7A"},
	{"aws configure set aws_secret_access_key " + awsSecret, "aws configure set aws_secret_access_key ***", awsSecret},
	{"AWS_SECRET_ACCESS_KEY=" + awsSecret + " aws s3 ls", "AWS_SECRET_ACCESS_KEY=*** aws s3 ls", awsSecret},
	{`{"SecretAccessKey": "` + awsSecret + `"}`, `{"SecretAccessKey": "***"}`, awsSecret},

	// Tokens known by their shape.
	{"git clone https://" + ghToken + "@github.com/o/r", "git clone https://ghp_***@github.com/o/r", ghToken[4:]},
	{"echo " + ghPAT + " | gh auth login --with-token", "echo github_pat_*** | gh auth login --with-token", ghPAT[11:]},
	{"curl -d token=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx slack.com/api", "curl -d token=*** slack.com/api", "AbCdEfGhIjKlMnOpQrStUvWx"},
	{"slack xoxp-123456789012-AbCdEfGh", "slack xoxp-***", "AbCdEfGh"},
	{"echo sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "echo sk-ant-api03-***", "AbCdEfGhIjKlMnOpQrStUvWxYz"},
	{"echo glpat-AbCdEfGhIjKlMnOpQrSt", "echo glpat-***", "AbCdEfGhIjKlMnOpQrSt"},
	{"jwt decode " + jwt, "jwt decode eyJ***", jwt[3:]},

	// Headers, quoted or not.
	{"curl -H 'Authorization: Bearer " + jwt + "' https://api.example.com/v1", "curl -H 'Authorization: Bearer ***' https://api.example.com/v1", jwt[3:]},
	{`curl -H "Authorization: Basic dXNlcjpodW50ZXIy" example.com`, `curl -H "Authorization: Basic ***" example.com`, "dXNlcjpodW50ZXIy"},
	{"curl -H Authorization:Bearer\\ abc123secret example.com", "curl -H Authorization:Bearer\\ *** example.com", "abc123secret"},
	{"curl -H authorization:s3cr3tvalue example.com", "curl -H authorization:*** example.com", "s3cr3tvalue"},
	{"curl --header 'X-Api-Key: 9f8e7d6c5b4a' https://example.com", "curl --header 'X-Api-Key: ***' https://example.com", "9f8e7d6c5b4a"},
	{`curl -H "Cookie: session=abcdef; id=42" example.com`, `curl -H "Cookie: ***" example.com`, "abcdef"},

	// URLs.
	{"git clone https://user:hunter2@example.com/x", "git clone https://user:***@example.com/x", "hunter2"},
	{"psql postgres://admin:p%40ss@db.internal:5432/app", "psql postgres://admin:***@db.internal:5432/app", "p%40ss"},
	{"curl 'https://example.com/cb?access_token=ya29.a0AfH6SM&state=1'", "curl 'https://example.com/cb?access_token=***&state=1'", "ya29.a0AfH6SM"},
	{"curl https://example.com/x?api_key=123abc&page=2", "curl https://example.com/x?api_key=***&page=2", "123abc"},
	{"curl 'https://b.s3.amazonaws.com/o?X-Amz-Signature=abcdef0123&sig=zz99'", "curl 'https://b.s3.amazonaws.com/o?X-Amz-Signature=***&sig=***'", "abcdef0123"},
	{"curl -u alice:wonderland https://example.com", "curl -u alice:*** https://example.com", "wonderland"},

	// Shell assignments.
	{"GITHUB_TOKEN=" + ghToken + " gh pr list", "GITHUB_TOKEN=*** gh pr list", ghToken[4:]},
	{"export API_KEY=abc123def456; ./deploy", "export API_KEY=***; ./deploy", "abc123def456"},
	{`PGPASSWORD='correct horse' psql -h db`, "PGPASSWORD=*** psql -h db", "correct horse"},
	{`DB_SECRET="a b\"c" make`, "DB_SECRET=*** make", `a b\"c`},
	{"cd x && NPM_AUTH_TOKEN=tok123 npm publish", "cd x && NPM_AUTH_TOKEN=*** npm publish", "tok123"},
	{"docker run -e OPENAI_API_KEY=sk-abc -e MODE=prod img", "docker run -e OPENAI_API_KEY=*** -e MODE=prod img", "sk-abc"},
	{`docker run -e "SLACK_TOKEN=abc123" img`, `docker run -e "SLACK_TOKEN=***" img`, "abc123"},
	{"api_key=zzz111 python run.py", "api_key=*** python run.py", "zzz111"},
	{`echo "export API_KEY=$API_KEY" >> ~/.bashrc`, `echo "export API_KEY=***" >> ~/.bashrc`, "$API_KEY"},
	{"kubectl create secret generic x --from-literal=password=abc123", "kubectl create secret generic x --from-literal=password=***", "abc123"},
	{`TOKEN="abc def`, "TOKEN=***", "abc"}, // a quote cut short runs to the end

	// Options.
	{"mysql --password=s3cret -u root db", "mysql --password=*** -u root db", "s3cret"},
	{"mysql -uroot -ps3cret db", "mysql -uroot -p*** db", "s3cret"},
	{"vault login --token hvs.CAESIJ3xyz", "vault login --token ***", "hvs.CAESIJ3xyz"},
	{"tool --api-key=k-123 --secret 'x y' run", "tool --api-key=*** --secret *** run", "k-123"},
	{"sshpass -p hunter2 ssh host", "sshpass -p *** ssh host", "hunter2"},

	// Private keys, and a call over several lines.
	{"cat > id <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nEOF",
		`cat > id <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----***-----END OPENSSH PRIVATE KEY-----\nEOF`, "b3BlbnNzaC1rZXktdjEAAAAA"},
	{"echo '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA", `echo '-----BEGIN RSA PRIVATE KEY-----***`, "MIIEowIBAAKCAQEA"},
	{"gpg --import <<'K'\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF0=\n-----END PGP PRIVATE KEY BLOCK-----\nK",
		`gpg --import <<'K'\n-----BEGIN PGP PRIVATE KEY BLOCK-----***-----END PGP PRIVATE KEY BLOCK-----\nK`, "lQOYBF0="},
	{"config:\n  password: hunter2\n  user: bob", `config:\n  password: ***\n  user: bob`, "hunter2"},
	{`{"client_secret": "abc", "name": "x"}`, `{"client_secret": "***", "name": "x"}`, `"abc"`},

	// Calls with no secret come back as they are.
	{"go test ./...", "go test ./...", ""},
	{`git commit -m "fix key handling"`, `git commit -m "fix key handling"`, ""},
	{"grep -r password docs/", "grep -r password docs/", ""},
	{"grep -rn 'api_key' .", "grep -rn 'api_key' .", ""},
	{"git show 3f786850e387550fdab836ed7e6dc881de23001b", "git show 3f786850e387550fdab836ed7e6dc881de23001b", ""},
	{"export PATH=/usr/local/bin:$PATH", "export PATH=/usr/local/bin:$PATH", ""},
	{"curl http://localhost:8080/x?page=2&sort=name", "curl http://localhost:8080/x?page=2&sort=name", ""},
	{"git clone ssh://git@github.com/o/r.git", "git clone ssh://git@github.com/o/r.git", ""},
	{"git push -u origin main", "git push -u origin main", ""},
	{"docker login --password-stdin -u bob", "docker login --password-stdin -u bob", ""},
	{"mysql -u root -h db -P 3306", "mysql -u root -h db -P 3306", ""},
	{"ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519", "ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519", ""},
	{"echo $GITHUB_TOKEN | wc -c", "echo $GITHUB_TOKEN | wc -c", ""},
	{"sort -k2 keys.txt", "sort -k2 keys.txt", ""},
	{"printf 'a\tb'", "printf 'a\tb'", ""},
	{"kubectl get secret my-secret -o yaml", "kubectl get secret my-secret -o yaml", ""},
	{"openssl genrsa -out key.pem 2048", "openssl genrsa -out key.pem 2048", ""},
	{"aws s3 cp s3://bucket/key .", "aws s3 cp s3://bucket/key .", ""},
	{`curl -H "Content-Type: application/json" https://example.com`, `curl -H "Content-Type: application/json" https://example.com`, ""},
	{`git commit -m "token: refresh on 401"`, `git commit -m "token: refresh on 401"`, ""},

	// Control characters.
	{"echo a\r\nb\x1b[0m", `echo a\r\nb\x1b[0m`, ""},
}

func init() {
	seen := map[string]bool{}
	for _, tc := range redactTests {
		if seen[tc.in] {
			panic("duplicate Redact case: " + tc.in)
		}
		seen[tc.in] = true
	}
}

func TestRedact(t *testing.T) {
	for _, tc := range redactTests {
		got := Redact(tc.in)
		if got != tc.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		if tc.secret != "" && strings.Contains(got, tc.secret) {
			t.Errorf("Redact(%q) = %q: the secret %q is still there", tc.in, got, tc.secret)
		}
		if again := Redact(got); again != got {
			t.Errorf("Redact(Redact(%q)) = %q, want %q: Redact is not idempotent", tc.in, again, got)
		}
	}
}

func TestRedactClips(t *testing.T) {
	tests := []struct {
		in      string
		wantLen int // in bytes
		clipped bool
	}{
		{strings.Repeat("a", maxCall), maxCall, false},
		{strings.Repeat("a", maxCall+1), maxCall, true},
		{strings.Repeat("é", maxCall), maxCall - 1, true}, // 2-byte characters: 998 bytes and "…"
		{strings.Repeat("€", 400), 999, true},             // 3-byte characters: 996 bytes and "…"
		{strings.Repeat("x\n", 600), maxCall, true},       // each newline takes 2 bytes
		{strings.Repeat("word ", maxRedactInput), maxCall, true},
	}
	for _, tc := range tests {
		got := Redact(tc.in)
		t.Logf("input: %d bytes", len(tc.in))
		if len(got) != tc.wantLen {
			t.Errorf("len(Redact(…)) = %d, want %d", len(got), tc.wantLen)
		}
		if strings.HasSuffix(got, "…") != tc.clipped {
			t.Errorf("Redact(…) ends in %q: clipped is %v, want %v", got[max(0, len(got)-8):], !tc.clipped, tc.clipped)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Redact(…) is not valid UTF-8: %q", got[max(0, len(got)-8):])
		}
		if strings.Contains(got, "\n") {
			t.Errorf("Redact(…) has a newline")
		}
	}
}

// TestRedactLongInput: Redact reads the start of a long call, and a
// secret at the end of what it reads is left out whole, not cut into a
// piece that no pattern knows.
func TestRedactLongInput(t *testing.T) {
	body := strings.Repeat(strings.Repeat("QUJD", 16)+"\n", 28) // 1,820 bytes
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----"
	// The token starts 20 bytes before the end of what Redact reads.
	pad := strings.Repeat("y ", (maxRedactInput-20-len(key)-len(" echo "))/2)
	tests := []struct {
		name, in string
		want     string
	}{
		{"a token cut at the end", key + " echo " + pad + ghToken + " | gh auth login",
			"-----BEGIN RSA PRIVATE KEY-----***-----END RSA PRIVATE KEY----- echo " + pad[:len(pad)-1] + "…"},
		{"a key cut at the end", "cat <<EOF\n-----BEGIN PRIVATE KEY-----\n" + strings.Repeat("QUJD", maxRedactInput/4) + "\nEOF",
			`cat <<EOF\n-----BEGIN PRIVATE KEY-----***…`},
	}
	for _, tc := range tests {
		if i := strings.Index(tc.in, ghToken); i >= 0 && !(i < maxRedactInput && maxRedactInput < i+len(ghToken)) {
			t.Fatalf("%s: the token is at %d, not across %d", tc.name, i, maxRedactInput)
		}
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("%s: Redact(…)\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestRedactionsCompile: every pattern compiles (they are compiled when
// first used, not when the program starts).
func TestRedactionsCompile(t *testing.T) {
	for _, r := range redactions {
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Errorf("%q: %v", r.re.pattern, e)
				}
			}()
			r.re.compiled()
		}()
	}
}
