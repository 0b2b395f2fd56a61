#!/bin/sh
# Runs a command inside its own private D-Bus session with a throwaway, unlocked gnome-keyring,
# so keychain tests never touch the developer's own keyring.
set -eu
HOME="$(mktemp -d)"
XDG_RUNTIME_DIR="$(mktemp -d)"
chmod 700 "$XDG_RUNTIME_DIR"
export HOME XDG_RUNTIME_DIR
trap 'rm -rf "$HOME" "$XDG_RUNTIME_DIR"' EXIT
dbus-run-session -- sh -c 'eval "$(printf "\n" | gnome-keyring-daemon --unlock --components=secrets)"; "$0" "$@"; rc=$?; kill "$GNOME_KEYRING_PID" 2>/dev/null; exit $rc' "$@"
