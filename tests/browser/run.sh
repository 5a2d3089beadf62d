#!/bin/sh
# Runs the browser tests (dashboard.test.mjs: the dashboard;
# simulate_report.test.mjs: the `sluice simulate --html` report) in Debian's
# headless Chromium. Installs playwright-core into tests/browser/node_modules when it
# is missing (npm ci from package-lock.json; never a browser download).
#
#   SLUICE_BIN=build/sluice tests/browser/run.sh
#   DOCS_SCREENSHOT=1 tests/browser/run.sh     # also refresh docs/dashboard.png and
#                                               # docs/simulate-*.png
set -e
here=$(cd "$(dirname "$0")" && pwd)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -f "$here/node_modules/playwright-core/package.json" ]; then
  echo "browser test: installing playwright-core (npm ci)"
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
SLUICE_BIN=${SLUICE_BIN:-$here/../../build/sluice}
export SLUICE_BIN
node "$here/dashboard.test.mjs"
exec node "$here/simulate_report.test.mjs"
