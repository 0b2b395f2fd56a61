#!/bin/sh
# Runs a command inside its own private D-Bus session with a throwaway, unlocked gnome-keyring,
# so keychain tests never touch the developer's own keyring.
set -eu
HOME="$(mktemp -d)"
XDG_RUNTIME_DIR="$(mktemp -d)"
chmod 700 "$XDG_RUNTIME_DIR"
export HOME XDG_RUNTIME_DIR
trap 'rm -rf "$HOME" "$XDG_RUNTIME_DIR"' EXIT
# The daemon runs in the foreground as our child, so it can be stopped by its pid (with --unlock it prints no
# GNOME_KEYRING_PID, and a daemonised one outlives the session); the command starts only once the secret
# service owns its bus name, so D-Bus activation can never start a second, locked keyring.
dbus-run-session -- sh -c '
    printf "\n" | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
    keyring=$!
    i=0
    until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; do
        i=$((i + 1))
        if [ "$i" -gt 100 ]; then echo "with-keyring: gnome-keyring did not start" >&2; kill "$keyring"; exit 1; fi
        sleep 0.05
    done
    rc=0; "$0" "$@" || rc=$?
    kill "$keyring" 2>/dev/null; wait "$keyring" 2>/dev/null
    exit $rc' "$@"
