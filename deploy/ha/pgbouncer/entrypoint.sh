#!/usr/bin/env bash
# Writes PgBouncer's auth_file from the service role's secret file, then runs the command (PgBouncer). The file holds
# the password itself, in the container's own /tmp and readable by PgBouncer's user alone: with it PgBouncer checks
# the service's SCRAM login and logs in to PostgreSQL as the same role, so the role needs nothing more on the server.
# The password is read without its trailing line breaks, as the service reads DATABASE_PASSWORD_FILE; a double quote
# in it is doubled, as the auth_file's format wants.
set -euo pipefail

role="${POSTGRES_APP_USER:?the name of the role the service connects as}"
password_file="${POSTGRES_APP_PASSWORD_FILE:?the file holding that role password}"
password="$(cat -- "$password_file")"
while [[ "$password" == *$'\r' || "$password" == *$'\n' ]]; do password="${password%?}"; done
if [[ -z "$password" || "$password" == *$'\n'* ]]; then
  echo "POSTGRES_APP_PASSWORD_FILE must hold one line, not empty: $password_file" >&2
  exit 1
fi

umask 077
mkdir -p /tmp/pgbouncer
printf '"%s" "%s"\n' "${role//\"/\"\"}" "${password//\"/\"\"}" >/tmp/pgbouncer/userlist.txt

exec "$@"
