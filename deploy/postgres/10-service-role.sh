#!/usr/bin/env bash
# Run once by the postgres image, as the superuser, when it initializes an empty data directory
# (/docker-entrypoint-initdb.d): creates the role the service connects as, which is no superuser, and gives it the
# service's database, so that the migrations make every table its own. The role's password is read from a file
# (a compose secret) without its trailing line breaks, as the service reads DATABASE_PASSWORD_FILE, and reaches psql
# through its environment, never its command line; psql quotes it, so any character may be in it.
set -euo pipefail

role="${POSTGRES_APP_USER:?the name of the role the service connects as}"
password_file="${POSTGRES_APP_PASSWORD_FILE:?the file holding that role password}"
password="$(cat -- "$password_file")"
while [[ "$password" == *$'\r' || "$password" == *$'\n' ]]; do password="${password%?}"; done
if [[ -z "$password" ]]; then
  echo "POSTGRES_APP_PASSWORD_FILE names an empty file: $password_file" >&2
  exit 1
fi

SERVICE_ROLE_PASSWORD="$password" psql -v ON_ERROR_STOP=1 --no-psqlrc \
  --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  --set role="$role" --set database="$POSTGRES_DB" <<'SQL'
\getenv password SERVICE_ROLE_PASSWORD
CREATE ROLE :"role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'password';
ALTER DATABASE :"database" OWNER TO :"role";
SQL
