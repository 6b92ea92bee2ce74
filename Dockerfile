# The kit in a container: Debian 12 (bookworm), the packages scripts/setup.sh installs, the kit
# built in /kit. See README.md, "In a container".
#   docker build -t reduction-kit .            (podman build works the same)
#   docker run --rm reduction-kit              (make check: every lab's visible cases; exits 2 until all pass)
# Stages: `packages` (Debian 12 and the kit's packages, no kit: the dev container's image,
# .devcontainer/devcontainer.json), `kit` (the kit built; the default), `check` (the solutions'
# visible cases, `grader check --dir solutions`, or in a student release `grader doctor`, run while the image is built, for a builder that
# can build images but not run containers:
# scripts/check-container.sh). BASE: another Debian 12 image, e.g. one made locally when Docker Hub
# cannot be reached (scripts/check-container.sh does that).
ARG BASE=debian:12
FROM ${BASE} AS packages
COPY scripts/setup.sh scripts/oclgrind-launcher.sh /tmp/kit-setup/
RUN /tmp/kit-setup/setup.sh core && rm -rf /tmp/kit-setup /var/lib/apt/lists/*

FROM packages AS kit
WORKDIR /kit
COPY . .
RUN make build
CMD ["make", "check"]

FROM kit AS check
# The full kit checks its solutions' visible cases; a student release, which has none, its set-up.
RUN if [ -d solutions ]; then build/bin/grader check --dir solutions; else build/bin/grader doctor; fi
