#!/bin/sh
# The deb's after-install script (electron-builder.yml: deb.afterInstall). electron-builder
# reads it as a template, so shell variables are written $NAME, never with braces.
# Every step may fail on an unusual system without failing the install: the app still runs
# (with a warning from Chromium) and the README says how to finish by hand.

APP_DIR='/opt/Agent Teams'

# The CLI on PATH: the launcher runs the app's own executable as Node on the CLI bundle.
ln -sf "$APP_DIR/resources/bin/agent-teams" /usr/bin/agent-teams || true

# Chromium's setuid sandbox helper must be owned by root with the setuid bit, or the app
# refuses to start where unprivileged user namespaces are unavailable.
chown root:root "$APP_DIR/chrome-sandbox" || true
chmod 4755 "$APP_DIR/chrome-sandbox" || true

if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database /usr/share/applications || true
fi

# Ubuntu 24.04 restricts unprivileged user namespaces to programs with an AppArmor profile that
# allows them. The profile needs AppArmor ABI 4.0: older systems (Ubuntu 22.04) have no such
# restriction and cannot parse it, so it is installed only where it parses.
APPARMOR_SOURCE="$APP_DIR/resources/apparmor-profile"
APPARMOR_TARGET='/etc/apparmor.d/agent-teams'
if [ -d /etc/apparmor.d ] && command -v apparmor_parser >/dev/null 2>&1; then
  if apparmor_parser --skip-kernel-load --debug "$APPARMOR_SOURCE" >/dev/null 2>&1; then
    cp -f "$APPARMOR_SOURCE" "$APPARMOR_TARGET"
    # Loading into the kernel makes no sense inside a chroot (an image being built).
    if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
      apparmor_parser --replace --write-cache --skip-read-cache "$APPARMOR_TARGET" || true
    fi
  else
    echo "agent-teams: this AppArmor cannot parse the bundled profile; it is not needed here."
  fi
fi

exit 0
