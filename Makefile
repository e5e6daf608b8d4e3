# Aliases for the go commands a developer runs. Nothing here changes the tree
# except generate, which rewrites policy/default_policy.go from default.toml.

GO ?= go

# check runs these at pinned versions through go run, which leaves go.mod
# alone; .ci/run and ci.yml install the same versions.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOVULNCHECK ?= $(GO) run golang.org/x/vuln/cmd/govulncheck@v1.9.0

.PHONY: build test check fuzz bench corpus generate cross clean

build:
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/guard ./cmd/guard

test:
	$(GO) test -race ./...

# govulncheck fetches its database from vuln.go.dev: where that is out of
# reach, check fails (.ci/run passes that case with a note).
check:
	test -z "$$(gofmt -l .)"
	$(GO) vet ./...
	$(GO) mod tidy -diff
	$(STATICCHECK) ./...
	$(GOVULNCHECK) ./...

fuzz:
	$(GO) test -run=- -fuzz=FuzzParse -fuzztime=200000x ./shellparse
	$(GO) test -run=- -fuzz=FuzzHook -fuzztime=40000x ./cmd/guard
	$(GO) test -run=- -fuzz=FuzzPolicy -fuzztime=60000x ./engine

bench:
	$(GO) test -run=- -bench=. -benchmem ./shellparse ./policy ./engine
	$(GO) run ./bench/hookbench

corpus:
	$(GO) run ./cmd/guard test testcases/*.toml

.PHONY: oracle oracle-fuzz

# go test ./... runs the oracle without the commands that build with go or
# cargo, and 400 generated commands; these run all of them.
oracle:
	$(GO) test -count=1 -timeout=30m -run 'TestOracle' ./internal/oracle -args -oracle.full -oracle.n=1000

oracle-fuzz:
	$(GO) test -count=1 -timeout=3h -run 'TestOracleDifferential' ./internal/oracle -args -oracle.full -oracle.n=20000

# The parser differential at length: generated inputs read by bash and zsh in
# bubblewrap against guard's reading (shellparse/differential_test.go).
.PHONY: parse-diff
SEED ?= 1
parse-diff:
	$(GO) test -count=1 -timeout=2h -run 'TestDifferential' ./shellparse -args -differential.n=200000 -differential.seed=$(SEED) -differential.shrink=2m

generate:
	$(GO) generate ./policy

cross:
	for os in linux darwin; do for arch in amd64 arm64; do \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -o bin/guard-$$os-$$arch ./cmd/guard || exit 1; \
	done; done

clean:
	rm -rf bin
