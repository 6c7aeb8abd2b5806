# Each target installs what is missing first (scripts/bootstrap), then builds.
.PHONY: demo test bench bootstrap build clean

demo: bootstrap
	swift build -c release --product memery
	scripts/demo

test: bootstrap
	swift build --build-tests
	swift test --disable-xctest

bench: bootstrap
	swift build -c release
	scripts/bench

bootstrap:
	@scripts/bootstrap

build: bootstrap
	swift build

clean:
	rm -rf .build out
