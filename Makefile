# The kit's entry points. Each target installs missing Debian packages (as root), configures and
# builds with CMake (binaries in build/bin/), then does its job.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

PYTHON ?= /usr/bin/python3
.PHONY: all setup build demo check doctor test slides graph graph-slides gradescope-zip student-release new-lab clean

all: build

setup:
	scripts/setup.sh

build: setup
	cmake --preset default
	cmake --build --preset default -j $(JOBS)

demo: build
	scripts/demo.sh

# The students' self-check: every visible case of every lab, with hints, ending with how many labs
# pass and which is next. Until every visible case passes, grader check exits 1 and make with it
# (make's status for a failed step is 2), so a script or CI reading the status sees the failure.
check: build
	@build/bin/grader check

# Whether OpenCL, PoCL, Oclgrind with the kit's plugin and any GPU work here, each tried, with the
# command that fixes what does not (exits 1 when something needs fixing).
doctor: build
	build/bin/grader doctor

# What students get (no solutions, no hidden cases): make student-release DEST=dir [LABS=01,02,03]
student-release: build
	scripts/student-release.sh $(DEST)

# A new lab from scripts/new-lab-template/: make new-lab NAME=09-name (see "Adding a lab" in README.md).
new-lab:
	scripts/new-lab.sh $(NAME)

# The suite builds the lecture deck, runs a one-node Slurm and shows the HTML reports in a headless
# browser, so it installs TeX Live, Slurm and Chromium too.
test: build
	scripts/setup.sh test
	ctest --preset default

# The lecture deck: build/slides/lecture.pdf (listings cut from the sources, graphs from slides/data;
# its drawings are made by the grader, so the kit is built first).
slides: build
	scripts/setup.sh slides
	scripts/build-slides.sh build/slides

# The lecture's graphs on this machine's default device (QUICK=1: a first look in under a minute;
# ARGS="-p nvidia": another device, any option of build/bin/reduction-benchmark).
graph: build
	build/bin/reduction-benchmark $(if $(QUICK),--quick) $(ARGS) -o build/bench/sweep.csv
	$(PYTHON) scripts/plot_benchmark.py build/bench/sweep.csv --out build/bench

# Redraw the shipped graphs in slides/figures from the shipped CSVs in slides/data (no measuring).
graph-slides: setup
	PYTHON=$(PYTHON) scripts/plot_deck_graphs.sh slides/figures

gradescope-zip: setup
	scripts/gradescope-zip.sh

clean:
	rm -rf build
