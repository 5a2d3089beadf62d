#!/bin/sh
# Installs, only when missing, every Debian package the build and the tests
# need. Called by `make`; safe to run again. Needs root (or sudo) only when
# something is missing.
#
# Node.js and npm (the dashboard's browser test) count as present when their
# commands are on PATH, whichever package provides them (Debian's nodejs and
# npm, or NodeSource's nodejs, which bundles npm and conflicts with Debian's).
set -e

PKGS="libuv1-dev liblmdb-dev libssl-dev zlib1g-dev libxxhash-dev pkg-config gcc make clang clang-format \
 python3 python3-pytest python3-boto3 awscli wrk chromium fonts-dejavu-core"
command -v node >/dev/null 2>&1 || PKGS="$PKGS nodejs"
command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"

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
