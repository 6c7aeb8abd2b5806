# Each target installs what is missing first (scripts/bootstrap), then builds.
.PHONY: demo test bench bench-hub bench-hub-editor bench-peers chaos-hub crashtest fuzz tsan bootstrap build release install uninstall deb package-test clean

# Where `make install` puts Memery (DESTDIR is prefixed to it, for staging a package).
PREFIX ?= /usr/local
DESTDIR ?=
# Release builds link the Swift runtime in, so that the binary runs where Swift is not
# installed; every release build says so, or SwiftPM would relink between them.
RELEASE_BUILD = swift build -c release --static-swift-stdlib

demo: release
	scripts/demo

# The release build first: Tests/install installs it into a temporary folder and uses it.
test: release
	scripts/check-release-binary .build/release/memery .build/release/memery-helper .build/release/libmemery-builtins.so
	# Each target declares what it imports, and no front end reaches below the facade.
	scripts/check-imports
	swift build --build-tests --explicit-target-dependency-import-check=error
	swift test --disable-xctest --skip 'HubRouterTests|HubInMemoryRouterTests'
	# The hub answered in process needs Swift's cooperative threads within its deadlines;
	# the CLI suites block them waiting for processes, so it runs on its own.
	swift test --disable-xctest --filter 'HubRouterTests|HubInMemoryRouterTests'
	python3 -m pytest -q Tests/web Tests/chaos Tests/install Tests/tools

# memery, its helper processes' executable and its built-in filters, optimised, as installed.
release: bootstrap
	$(RELEASE_BUILD) --product memery
	$(RELEASE_BUILD) --product memery-helper
	$(RELEASE_BUILD) --product memery-builtins

install: release
	scripts/install "$(DESTDIR)" "$(PREFIX)"

uninstall:
	scripts/install --uninstall "$(DESTDIR)" "$(PREFIX)"

# A Debian package, out/memery_VERSION_ARCH.deb, its dependencies read off the binaries.
deb: release
	@scripts/bootstrap --package
	scripts/make-deb

# Installs the package into a throwaway Debian (debootstrap) and uses it from there as a
# new user would, then removes it and checks nothing is left. Changes nothing on this machine.
package-test: deb
	scripts/package-test

bench: bootstrap
	$(RELEASE_BUILD)
	scripts/bench

# Simulated machines (8, 64, 256) syncing through two hubs on one PostgreSQL, beside pgbench inserting the same rows.
bench-hub: bootstrap
	scripts/bench-hub

# Simulated browsers (8, 64) editing through two hubs serving the editor, beside local memery serve;
# a cold first open of a 1,000-edit creation; an edit seen on the person's other pages.
bench-hub-editor: bootstrap
	scripts/bench-hub-editor

# Faults against machines syncing through two hubs (kills, PostgreSQL stopped and restored
# from older dumps, hostile pushes), then a check that nothing acknowledged was lost.
chaos-hub: bootstrap
	swift build --product memery
	python3 scripts/chaos_hub.py --seed $${SEED:-1} --faults $${FAULTS:-250} --minutes $${MINUTES:-0}

# Memery beside ImageMagick, Pillow, libvips, SQLite and raw LMDB; the report goes to docs/benchmarks.md.
bench-peers: bootstrap
	@scripts/bootstrap --peers
	$(RELEASE_BUILD)
	scripts/bench-peers > docs/benchmarks.md.run
	# The analysis, its figures taken from this run's tables (scripts/bench-analysis).
	scripts/bench-analysis docs/benchmarks-analysis.md docs/benchmarks.md.run > docs/benchmarks.md.analysis \
	  || { rm -f docs/benchmarks.md.run docs/benchmarks.md.analysis; exit 1; }
	cat docs/benchmarks.md.run docs/benchmarks.md.analysis > docs/benchmarks.md
	rm docs/benchmarks.md.run docs/benchmarks.md.analysis
	@cat docs/benchmarks.md

# Kill -9 a streaming `memery apply` KILLS times (default 1000), at random and at fail points,
# while a second process edits the same creation (none of its edits may fail).
crashtest: bootstrap
	$(RELEASE_BUILD)
	.build/release/memery-crashtest --kills $${KILLS:-1000}

# The concurrency tests (one workspace, many threads and tasks) under ThreadSanitizer, in
# a build of their own so that the ordinary one is kept.
tsan: bootstrap
	swift build --build-tests --sanitize=thread --scratch-path .build/tsan
	swift test --disable-xctest --sanitize=thread --scratch-path .build/tsan --filter ConcurrencyTests

# libFuzzer on the image import path and the event decoders, FUZZ_SECONDS each (default 60).
fuzz: bootstrap
	scripts/fuzz

bootstrap:
	@scripts/bootstrap

build: bootstrap
	swift build

clean:
	rm -rf .build .build-fuzz out
