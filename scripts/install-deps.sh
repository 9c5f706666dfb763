#!/usr/bin/env bash
# Installs rig2d's build and test dependencies on Debian 12 (idempotent; uses sudo when not root).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

packages=(build-essential cmake pkg-config catch2 libcli11-dev nlohmann-json3-dev libstb-dev
          libspdlog-dev libfmt-dev libeigen3-dev zlib1g-dev ninja-build python3
          fonts-dejavu-core  # DejaVu Sans, embedded for preview labels
          libxml2-utils  # xmllint: the JUnit report test
          chromium  # headless browser: the review page tests (rig2d-pose --html) run in it
          file dpkg-dev lintian man-db zsh  # the .deb: cpack's dependency scan, its lint, man pages, completion
          bazel-bootstrap)  # the Bazel module's test (package.bazel), offline
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js runs the JSON Schema cross-check (ajv); keep an existing install (e.g. NodeSource) as is.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
