#!/usr/bin/env bash
# Patroni's `post_bootstrap` (patroni.yml): run once, on the node that initializes the cluster, after initdb and
# before any other node joins; the replicas copy its result. Creates the role the service connects as, which is no
# superuser, and the service's database, owned by that role so that the migrations make every table its own: what
# deploy/postgres/10-service-role.sh does for the `single` and `scaled` profiles.
#
# Patroni passes a connection URL of the superuser as $1 and its password in a pgpass file (PGPASSFILE). The role's
# password is read from a file (a compose secret) without its trailing line breaks, as the service reads
# DATABASE_PASSWORD_FILE, and reaches psql through its environment, never its command line; psql quotes it, so any
# character may be in it. A failure here fails the bootstrap, and Patroni tries again on an empty data directory.
set -euo pipefail

connection="${1:?Patroni passes the superuser connection URL}"
role="${POSTGRES_APP_USER:?the name of the role the service connects as}"
database="${POSTGRES_DB:?the name of the service database}"
password_file="${POSTGRES_APP_PASSWORD_FILE:?the file holding that role password}"
password="$(cat -- "$password_file")"
while [[ "$password" == *$'\r' || "$password" == *$'\n' ]]; do password="${password%?}"; done
if [[ -z "$password" ]]; then
  echo "POSTGRES_APP_PASSWORD_FILE names an empty file: $password_file" >&2
  exit 1
fi

# Two statements, each its own transaction: CREATE DATABASE cannot run inside one.
SERVICE_ROLE_PASSWORD="$password" psql "$connection" -v ON_ERROR_STOP=1 --no-psqlrc \
  --set role="$role" --set database="$database" <<'SQL'
\getenv password SERVICE_ROLE_PASSWORD
CREATE ROLE :"role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'password';
-- PgBouncer ignores the statement timeout the service sends when it connects: the role carries it instead
-- (DATABASE_STATEMENT_TIMEOUT_MS's default; the service's own session connections still send theirs).
ALTER ROLE :"role" SET statement_timeout = '3s';
CREATE DATABASE :"database" OWNER :"role";
SQL
