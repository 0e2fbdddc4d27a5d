# taskplatform — `make run` starts the whole stack, `make test` runs every test.
TEMPORAL_CLI_VERSION := v1.5.1
# golangci-lint (.golangci.yml), run by `make vet` through `go run …@version`: go.mod stays the server's own,
# and Go caches the built linter, so only the first run builds it.
GOLANGCI_LINT_VERSION := v2.15.0
BIN := $(CURDIR)/bin
TEMPORAL := $(BIN)/temporal
APP := $(BIN)/taskplatform
export TP_TEMPORAL_CLI ?= $(TEMPORAL)

.PHONY: help run build test race bench bench-fairness bench-scale mutate vet migrate clean docs-images

## help: list the targets and what each does (the `## name:` lines of this Makefile)
help:
	@awk '/^## [a-z-]+:/ {sub(/^## /, ""); print; next} /^## / {sub(/^## /, "  "); print}' $(MAKEFILE_LIST)

## run: build the Temporal CLI (once) and the binary, then start `taskplatform dev`
run: $(TEMPORAL) build
	$(APP) dev

## build: build bin/taskplatform
build:
	go build -o $(APP) ./cmd/taskplatform

# The pinned Temporal CLI (dev server + Web UI), built from the Go module proxy once.
$(TEMPORAL):
	GOBIN=$(BIN) go install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_CLI_VERSION)

# `make bin/temporal`, as the error messages say (the rule above names the absolute path).
bin/temporal: $(TEMPORAL)

## test: every test (unit, workflow, replay, integration against real Temporal and PostgreSQL)
test: $(TEMPORAL)
	@# MP4 outputs need ffmpeg (Debian package): installed once, so both video branches are tested.
	command -v ffmpeg >/dev/null || (apt-get update && apt-get install -y ffmpeg)
	@# The panel's end-to-end walk drives Debian's chromium headless (chromedp).
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	@# PDF outputs are opened by a real reader: pdfinfo and pdftotext (Debian poppler-utils).
	command -v pdftotext >/dev/null || (apt-get update && apt-get install -y poppler-utils)
	@# CMYK is converted through Ghostscript's CMYK ICC profile (Debian libgs-common) and checked against
	@# Little CMS's figures; `make run` does not need it (the formula fallback, labelled).
	test -f /usr/share/color/icc/ghostscript/default_cmyk.icc || (apt-get update && apt-get install -y libgs-common)
	@# The Python client's Ed25519 checks use Debian's python3-cryptography (TestOfficialClients).
	/usr/bin/python3 -c 'import cryptography' 2>/dev/null || (apt-get update && apt-get install -y python3-cryptography)
	@# -trimpath: build cache entries that do not depend on the checkout's folder, so a fresh
	@# clone (CI) reuses what an earlier run compiled instead of compiling every package again.
	GOFLAGS="$(GOFLAGS) -trimpath" $(MAKE) --no-print-directory vet
	GOFLAGS="$(GOFLAGS) -trimpath" $(MAKE) --no-print-directory -j2 test-plain test-race

# `make test` runs every test once, in two passes side by side: the
# packages whose goroutines share memory (handlers, the worker, workflows,
# webhooks, streams, the ledger, the engines, the SDK, the use cases HTTP calls, the task registry
# and the tasks' goroutine pools) under the race detector, the others
# without it. The task families' pixel code and the process-level suites
# (e2e, cmd, panel) took 35 of the test binaries' 42 CPU-minutes under
# -race, for no memory their goroutines share. RACE_SKIP names the tests
# of the race packages that share no memory between goroutines and cost
# most under -race: those that check answers against the documentation
# (every task's examples, the curated library, a generated client's
# build, the routes), the rollups' agreement over 6,000 jobs, and the
# upscaler's pixel checks; they run without it, after the race pass
# (test-race, RACE_SKIP_PKGS). modernc.org's
# SQLite is C translated to Go; like cgo's C it is not instrumented (its
# own locks guard it; database/sql above it is). e2e, the longest
# package, starts first; the race pass and the fuzz run beside it.
# The Go SDK's modules (client and the packages it imports, each with its
# own go.mod so a user's go get pulls nothing of the server's): `./...`
# stops at their folders, so they are named by import path.
SDK_MODULES := client contract signer wire
SDK_PKGS := $(addprefix github.com/taskplatform/taskplatform/,$(addsuffix /...,$(SDK_MODULES)))
RACE_PKGS := ./activities/... ./api/... $(SDK_PKGS) ./engines/... ./jobstream/... ./models/... ./outbound/... \
	./submit/... ./telemetry/... ./worker/... ./workflows/... ./tasks ./tasks/resample ./tasks/pngenc \
	./batchstart ./cancel ./events ./jobstart ./spendlimits
RACE_SKIP := ^(TestRoutesAnswerAsDocumented|TestLibraryRecordsAnswerAsDocumented|TestGeneratedGoClientCompiles|$\
	TestCatalogueExamples|TestCommonErrorsAnswerAsDocumented|TestEventStreamAnswersAsDocumented|$\
	TestMetricsFromRollupsAgreeWithTheRows|TestUpscaleIsSharperThanLanczos|TestUpscaleBandsJoinWithoutSeams|$\
	TestDocsImages)$$
RACE_SKIP_PKGS := ./api ./models ./tasks/resample
RACE_FLAGS := -gcflags=modernc.org/...=-race=false
PLAIN_PKGS = ./e2e ./cmd/... $(filter-out $(shell go list $(RACE_PKGS)),$(shell go list ./...))

.PHONY: test-plain test-race
# The packages that run without -race, e2e first.
test-plain:
	go test -count=1 -timeout 60m $(PLAIN_PKGS)

# The race pass, then RACE_SKIP's tests without -race, then the fuzz run.
test-race:
	go test -race $(RACE_FLAGS) -count=1 -timeout 20m -skip '$(RACE_SKIP)' $(RACE_PKGS)
	go test -count=1 -timeout 20m -run '$(RACE_SKIP)' $(RACE_SKIP_PKGS)
	go test -run '^$$' -fuzz '^FuzzValidate$$' -fuzztime 10s ./tasks/all

## race: every package under the race detector (about half an hour on 2 cores), beside `make test`'s race pass
race: $(TEMPORAL)
	go test -race $(RACE_FLAGS) -count=1 -timeout 45m ./...

## docs-images: redraw the README's before/after pictures of the image tasks into docs/pictures (each under 150 KB)
docs-images:
	DOCS_IMAGES=$(CURDIR)/docs/pictures go test -count=1 -run '^TestDocsImages$$' ./tasks/image ./tasks/resample ./tasks/photoshoot

## bench: one run, one report — the API beside a bare-Temporal baseline at 1, 16 and 64 clients,
## per-job costs, each task's work beside a bare PNG encode, RSS after 1,000 and 10,000 jobs, heavy 8-output jobs
## one output at a time vs side by side and on two workers vs one (with their targets), each side's submit alone.
## Needs PostgreSQL (TP_TEST_DATABASE_URL); run it on a quiet machine. TP_BENCH_SCALE=0.1 for a quick check,
## TP_BENCH_HEAVY=only for the heavy-jobs table alone.
bench: $(TEMPORAL)
	go test -run '^$$' -bench '^BenchmarkJobs$$' -benchtime 1x -count 1 -timeout 30m ./e2e

## bench-fairness: account B's one-output job and Prefer: wait answer idle, behind account A's 200 submits and behind
## A's batch of 500, with A's throughput, on a Temporal dev server with priority and fairness beside one first in,
## first out (with the issue's targets). Needs PostgreSQL (TP_TEST_DATABASE_URL); TP_BENCH_SCALE=0.1 for a quick check,
## TP_BENCH_STEP the time of every step (default 250ms).
bench-fairness: $(TEMPORAL)
	go test -run '^$$' -bench '^BenchmarkFairness$$' -benchtime 1x -count 1 -timeout 30m ./e2e

## bench-scale: costs as data grows — seeds a fresh PostgreSQL schema (TP_TEST_DATABASE_URL; dropped after) with one
## account's 1,000,000 jobs, 5,000,000 ledger rows, 2,000,000 calls and 1,000 credit batches beside 100 other accounts,
## then prints p50/p99 of its listings and reports through the API router against 50 ms. Seeding takes a few minutes;
## BENCH_SCALE_ARGS='-schema scale_keep' seeds once and reuses the seed, '-scale 0.05' is a quick look.
bench-scale:
	go run ./bench/scale $(BENCH_SCALE_ARGS)

## mutate: the mutation check (scripts/mutate): each listed bug, applied alone to a copy of HEAD, must fail its named test; not part of `make test`
mutate: $(TEMPORAL)
	go run ./scripts/mutate

## vet: go vet, golangci-lint (.golangci.yml), gofmt and the 120-column limit over the module and the SDK's
## modules (part of `make test`)
vet:
	go vet ./... $(SDK_PKGS)
	go run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION) run ./...
	for m in $(SDK_MODULES); do \
		(cd $$m && go run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION) run ./...) \
			|| exit 1; \
	done
	test -z "$$(gofmt -l .)"
	@long=$$(LC_ALL=C.UTF-8 awk 'length > 120 {print FILENAME ":" FNR}' $$(git ls-files '*.go')); \
		test -z "$$long" || { echo "Go lines over 120 columns:"; echo "$$long"; exit 1; }

## migrate: apply the database migrations and write the curated libraries (TP_DATABASE_URL or the dev SQLite file)
migrate: build
	$(APP) migrate

## clean: remove the built binary and the dev data folder (.data)
clean:
	rm -rf $(APP) .data
