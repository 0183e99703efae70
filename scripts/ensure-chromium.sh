#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing and we may.
# Where that is impossible the browser tests skip, saying why (tests/browser/conftest.py).
set -u
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "WARNING: could not install chromium; the browser tests will be skipped."
else
  echo "WARNING: /usr/bin/chromium is missing and cannot be installed here (need root and apt-get);"
  echo "         the browser tests will be skipped. Install Debian's 'chromium' package to run them."
fi
exit 0
