# The kit's entry points. Each target installs missing Debian packages (as root), configures and
# builds with CMake (binaries in build/bin/), then does its job.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all setup build demo test gradescope-zip clean

all: build

setup:
	scripts/setup.sh

build: setup
	cmake --preset default
	cmake --build --preset default -j $(JOBS)

demo: build
	scripts/demo.sh

test: build
	ctest --preset default

gradescope-zip: setup
	scripts/gradescope-zip.sh

clean:
	rm -rf build
