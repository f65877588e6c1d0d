#!/usr/bin/env bash
# Install the Debian packages given as arguments if any are missing.
# Quiet when everything is present, so `make` can call it on every run.
# As root it installs them; otherwise it prints the command to run and fails.
set -euo pipefail

missing=()
for pkg in "$@"; do
    # "ii" = wanted install, currently installed; anything else counts as missing.
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
    [[ $status == ii* ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
    echo "deps.sh: missing Debian packages: ${missing[*]}" >&2
    echo "sudo apt-get install -y ${missing[*]}"
    exit 1
fi
echo "deps.sh: installing ${missing[*]}" >&2
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
