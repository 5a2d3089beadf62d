#!/bin/sh
# Installs, only when missing, the Debian packages sluice needs; safe to run
# again. Needs root (or sudo) only when something is missing.
#
#   scripts/deps.sh build   what `make` needs: compiler, libraries, python3
#                           (scripts/embed_assets.py regenerates the dashboard
#                           assets when one changes)
#   scripts/deps.sh [test]  everything: the build set plus what `make test`,
#                           `make fuzz`, `make format-check` and `make bench`
#                           need (pytest, boto3, the AWS CLI, Chromium and
#                           Node.js for the browser test, clang, clang-format,
#                           wrk)
#
# Node.js and npm (the dashboard's browser test) count as present when their
# commands are on PATH, whichever package provides them (Debian's nodejs and
# npm, or NodeSource's nodejs, which bundles npm and conflicts with Debian's).
set -e

BUILD_PKGS="libuv1-dev liblmdb-dev libssl-dev zlib1g-dev libxxhash-dev pkg-config gcc make python3"
TEST_PKGS="clang clang-format python3-pytest python3-boto3 awscli wrk chromium fonts-dejavu-core"

case "${1:-test}" in
build)
  PKGS="$BUILD_PKGS"
  ;;
test)
  PKGS="$BUILD_PKGS $TEST_PKGS"
  command -v node >/dev/null 2>&1 || PKGS="$PKGS nodejs"
  command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"
  ;;
*)
  echo "usage: scripts/deps.sh [build|test]" >&2
  exit 2
  ;;
esac

missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -n "$missing" ]; then
  echo "deps: installing:$missing"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
