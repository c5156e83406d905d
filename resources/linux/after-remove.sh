#!/bin/sh
# The deb's after-remove script (electron-builder.yml: deb.afterRemove); a template like
# after-install.sh, so shell variables are written $NAME, never with braces.

if [ -L /usr/bin/agent-teams ]; then
  rm -f /usr/bin/agent-teams
fi

APPARMOR_TARGET='/etc/apparmor.d/agent-teams'
if [ -f "$APPARMOR_TARGET" ]; then
  if command -v apparmor_parser >/dev/null 2>&1 && ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
    apparmor_parser --remove "$APPARMOR_TARGET" || true
  fi
  rm -f "$APPARMOR_TARGET"
fi

exit 0
