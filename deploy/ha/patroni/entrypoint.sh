#!/usr/bin/env bash
# Gives Patroni the passwords it needs from secret files, then runs the command (Patroni). Patroni reads the
# superuser's and the replication role's passwords from PATRONI_SUPERUSER_PASSWORD and PATRONI_REPLICATION_PASSWORD,
# and has no setting that reads a file: they are exported here, from the files that compose mounts under
# /run/secrets, without their trailing line breaks (as the service reads DATABASE_PASSWORD_FILE). They are in the
# environment of Patroni and of what it runs, never on a command line or in a file of the image.
set -euo pipefail

# read_secret NAME_OF_THE_VARIABLE_HOLDING_THE_FILE
read_secret() {
  local file="${!1:?$1 must name a file holding a password}"
  local value
  value="$(cat -- "$file")"
  while [[ "$value" == *$'\r' || "$value" == *$'\n' ]]; do value="${value%?}"; done
  if [[ -z "$value" ]]; then
    echo "$1 names an empty file: $file" >&2
    exit 1
  fi
  printf '%s' "$value"
}

PATRONI_SUPERUSER_PASSWORD="$(read_secret SUPERUSER_PASSWORD_FILE)"
PATRONI_REPLICATION_PASSWORD="$(read_secret REPLICATION_PASSWORD_FILE)"
export PATRONI_SUPERUSER_PASSWORD PATRONI_REPLICATION_PASSWORD

exec "$@"
