# Sourced by scripts/setup, scripts/test, scripts/develop and scripts/newest: where the two
# tested Home Assistant tiers live in the checkout.
#
#   oldest  the oldest supported release, on this machine's Python 3.13:
#           .venv            Home Assistant 2025.4.4 (pytest-homeassistant-custom-component)
#   newest  the releases people run today, on Python >= 3.14.2:
#           .venv-newest     Home Assistant 2026.10.4 (the newest the test package supports):
#                            lint, types, tests/core, tests/ha
#           .venv-newest-ha  Home Assistant 2026.11.0: the real server of the e2e tests and of
#                            scripts/develop
# Without a Python >= 3.14.2 on the machine, the newest tier's interpreter comes from Debian
# sid's python3.14 packages in a chroot under .chroot/ (see scripts/newest).
# shellcheck shell=bash

OLDEST_VENV=.venv
NEWEST_VENV=.venv-newest
NEWEST_HA_VENV=.venv-newest-ha
CHROOT_DIR=.chroot/sid
# Present when the newest tier runs in the chroot (written by scripts/setup).
CHROOT_READY="$CHROOT_DIR/.context-retrieval-ready"
NEWEST_MIN=3.14.2

python_version_of() {
  "$1" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null
}

# version_at_least A B: A >= B for dotted versions.
version_at_least() {
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -1)" = "$2" ]
}

# Interpreters on PATH and in pyenv that run, one "version path" per line.
python_candidates() {
  local name path root
  {
    for name in python3.16 python3.15 python3.14 python3.13 python3; do
      command -v "$name" 2>/dev/null || true
    done
    root="${PYENV_ROOT:-$HOME/.pyenv}"
    if command -v pyenv >/dev/null 2>&1; then root="$(pyenv root)"; fi
    for path in "$root"/versions/*/bin/python3; do
      [ -x "$path" ] && echo "$path"
    done
  } | while read -r path; do
    version="$(python_version_of "$path")" || continue
    [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] && printf '%s %s\n' "$version" "$path"
  done
  return 0
}

# The newest interpreter with LOW <= version < HIGH (HIGH may be empty): prints "version path".
pick_python() {
  local low="$1" high="$2" version path best=""
  while read -r version path; do
    [ -n "$version" ] || continue
    version_at_least "$version" "$low" || continue
    if [ -n "$high" ] && version_at_least "$version" "$high"; then continue; fi
    best+="$version $path"$'\n'
  done < <(python_candidates)
  printf '%s' "$best" | sort -V | tail -1
}

newest_in_chroot() {
  [ -e "$CHROOT_READY" ]
}
