#!/usr/bin/env bash
# A highly available PostgreSQL and Redis on one machine, for the failover test (test/ha/failover.ts):
#
#   etcd (one member)           127.0.0.1:23790 (clients), 23800 (peers)
#   Patroni node1, node2        PostgreSQL 15 on 25432 and 25433, REST API on 28008 and 28009, synchronous mode
#   HAProxy                     25000 to the leader (GET /primary), 25001 to the replicas (GET /replica), stats 25080
#   PgBouncer                   26432, transaction mode, in front of HAProxy's 25000
#   Redis                       26390 and 26391 (master and replica at first)
#   Sentinel                    26381, 26382, 26383, watching the group "mymaster" with a quorum of 2
#
# Usage: cluster.sh up|down|status|leader|switchover|kill-leader|redis-failover
#
# Everything lives under one work directory, HA_DIR: configurations, data, logs and the pid of every process the
# script started. `up` makes one with mktemp when HA_DIR is unset and prints it; every other command needs it. The
# ports stay clear of the defaults (5432, 6379, 26379, 2379, 6432), so the machine's own servers are left alone.
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin
ETCD_CLIENT_PORT=23790
ETCD_PEER_PORT=23800
NODES=(node1 node2)
declare -A PG_PORT=([node1]=25432 [node2]=25433)
declare -A REST_PORT=([node1]=28008 [node2]=28009)
WRITE_PORT=25000
READ_PORT=25001
STATS_PORT=25080
PGBOUNCER_PORT=26432
REDIS_PORTS=(26390 26391)
SENTINEL_PORTS=(26381 26382 26383)
SCOPE=shortlink-ha

log() { printf '[cluster %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() {
  log "$*"
  exit 1
}

need_dir() {
  [ -n "${HA_DIR:-}" ] || die "HA_DIR is not set: it names the work directory that 'up' made"
  [ -d "$HA_DIR" ] || die "HA_DIR $HA_DIR does not exist"
}

# PostgreSQL, Patroni and PgBouncer refuse to run as root. setpriv replaces itself with the program (runuser would
# stay in between as its parent), so the pid recorded is the program's own and kill -9 reaches it.
AS_POSTGRES=(setpriv --reuid=postgres --regid=postgres --init-groups -- env HOME=/var/lib/postgresql)

# When a process started, in clock ticks since boot (field 22 of /proc/PID/stat, counted after the command's name,
# which may hold spaces); empty when there is no such process.
start_time() {
  local stat fields
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  read -ra fields <<<"${stat##*) }"
  echo "${fields[19]}"
}

# Starts a program in the background, in a session of its own, with its output in logs/NAME.log and its pid and
# start time in pids/NAME.pid. A new session keeps it out of the caller's process group, whose signals are not
# meant for it.
start_bg() {
  local name=$1
  shift
  setsid "$@" >>"$HA_DIR/logs/$name.log" 2>&1 </dev/null &
  echo "$! $(start_time $!)" >"$HA_DIR/pids/$name.pid"
}

# The pid recorded for NAME, as long as that process still runs: a process that ended may have left its pid to an
# unrelated one, which the start time tells apart, and which must never be signalled.
pid_of() {
  local pid start
  read -r pid start 2>/dev/null <"$HA_DIR/pids/$1.pid" || return 0
  if [ -n "$start" ] && [ "$(start_time "$pid")" = "$start" ]; then echo "$pid"; fi
}
alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

tail_log() {
  local file
  for file in "$@"; do
    [ -f "$file" ] || continue
    printf -- '--- last lines of %s ---\n' "${file#"$HA_DIR"/}" >&2
    tail -n 25 "$file" >&2
  done
}

# wait_for SECONDS WHAT LOGS COMMAND...: runs COMMAND every half second until it succeeds; after SECONDS it fails,
# naming WHAT and printing the tails of LOGS (space-separated names under logs/).
wait_for() {
  local seconds=$1 what=$2 logs=$3
  shift 3
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $deadline ]; then
      log "timed out after ${seconds} s waiting for: $what"
      local name
      for name in $logs; do tail_log "$HA_DIR/logs/$name.log"; done
      return 1
    fi
    sleep 0.5
  done
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
http_status() { curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" || true; }
psql_at() {
  local port=$1
  shift
  # The timeout is set in the session rather than as a startup option, which PgBouncer refuses.
  PGCONNECT_TIMEOUT=2 psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -X -q -A -t -v ON_ERROR_STOP=1 \
    -c 'SET statement_timeout = 3000' "$@"
}
redis_at() { redis-cli -h 127.0.0.1 -p "$1" "${@:2}"; }

# The node whose Patroni says it holds the leader lock and runs as primary; empty when none does.
leader_name() {
  local node
  for node in "${NODES[@]}"; do
    if [ "$(http_status "http://127.0.0.1:${REST_PORT[$node]}/primary")" = 200 ]; then
      echo "$node"
      return 0
    fi
  done
}

# A write through HAProxy's write port: proves that a leader serves writes there, and, in synchronous mode, that a
# commit is acknowledged (by the synchronous standby, or by Patroni having dropped a standby that is gone).
write_through() {
  psql_at "$1" -c 'CREATE TABLE IF NOT EXISTS ha_probe (at timestamptz NOT NULL)' \
    -c 'INSERT INTO ha_probe VALUES (now())'
}

streaming_replicas() { psql_at "${PG_PORT[$1]}" -c "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'"; }
sync_replica() {
  [ "$(psql_at "${PG_PORT[$1]}" -c "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" -ge 1 ]
}
primary_ready() { [ "$(http_status "http://127.0.0.1:${REST_PORT[$1]}/primary")" = 200 ]; }
reads_replica() { [ "$(psql_at "$1" -c 'SELECT pg_is_in_recovery()')" = t ]; }
replica_ready() { [ "$(http_status "http://127.0.0.1:${REST_PORT[$1]}/replica")" = 200 ]; }

sync_standby() { [ "$(http_status "http://127.0.0.1:${REST_PORT[$1]}/sync")" = 200 ]; }

# Waits until `node` is a streaming replica of the leader and Patroni has recorded it as the synchronous standby in
# etcd: from then on an acknowledged commit is on both nodes, and Patroni will promote it when the leader dies.
# PostgreSQL's own view (pg_stat_replication) is not enough: until the /sync key names the standby, Patroni refuses
# to promote it, rightly, since it cannot know that it holds every acknowledged commit.
wait_replica() {
  local node=$1 leader=$2
  wait_for 60 "$node to run as a replica (Patroni GET /replica answers 200)" "$node" replica_ready "$node"
  wait_for 30 "$leader to stream to a synchronous standby (pg_stat_replication)" "$node $leader" sync_replica "$leader"
  wait_for 30 "Patroni to record $node as the synchronous standby (GET /sync answers 200)" "$node $leader" \
    sync_standby "$node"
}

node_config() {
  local node=$1 dir="$HA_DIR/$1"
  cat >"$dir/patroni.yml" <<EOF
scope: $SCOPE
namespace: /service/
name: $node
restapi:
  listen: 127.0.0.1:${REST_PORT[$node]}
  connect_address: 127.0.0.1:${REST_PORT[$node]}
# Patroni 3.0.2 speaks etcd's v3 API itself (python3-etcd only lends it its exceptions), so etcd needs no v2 API.
etcd3:
  hosts: 127.0.0.1:$ETCD_CLIENT_PORT
bootstrap:
  dcs:
    # A dead leader's lock expires after ttl; loop_wait + 2 * retry_timeout must not exceed it.
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    # A commit is acknowledged only once the synchronous standby has it, so a failover loses no acknowledged write.
    synchronous_mode: true
    postgresql:
      # A leader killed mid-write may have WAL the new leader never got: it is rewound, or copied afresh.
      use_pg_rewind: true
      remove_data_directory_on_rewind_failure: true
      remove_data_directory_on_diverged_timelines: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_connections: 200
        max_wal_senders: 10
        max_replication_slots: 10
        shared_buffers: 64MB
        fsync: 'on'
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
postgresql:
  listen: 127.0.0.1:${PG_PORT[$node]}
  connect_address: 127.0.0.1:${PG_PORT[$node]}
  data_dir: $dir/data
  bin_dir: $PG_BIN
  pgpass: $dir/pgpass
  authentication:
    superuser:
      username: postgres
    replication:
      username: postgres
  parameters:
    unix_socket_directories: $dir
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
EOF
}

start_patroni() {
  local node=$1
  start_bg "$node" "${AS_POSTGRES[@]}" /usr/bin/patroni "$HA_DIR/$node/patroni.yml"
}

start_redis() {
  local port=$1
  shift
  start_bg "redis-$port" redis-server "$HA_DIR/redis/$port.conf" "$@"
}

cmd_up() {
  if [ -z "${HA_DIR:-}" ]; then
    HA_DIR=$(mktemp -d -t shortlink-ha.XXXXXX)
    export HA_DIR
    echo "HA_DIR=$HA_DIR"
  fi
  mkdir -p "$HA_DIR"/{logs,pids,etcd,redis,pgbouncer}
  [ -z "$(ls -A "$HA_DIR/pids")" ] || die "$HA_DIR already holds a cluster: run 'down' first"
  # PostgreSQL and PgBouncer run as postgres: they must reach their directories through the work directory.
  chmod 755 "$HA_DIR"

  local port
  for port in $ETCD_CLIENT_PORT $ETCD_PEER_PORT "${PG_PORT[@]}" "${REST_PORT[@]}" $WRITE_PORT $READ_PORT $STATS_PORT \
    $PGBOUNCER_PORT "${REDIS_PORTS[@]}" "${SENTINEL_PORTS[@]}"; do
    port_free "$port" || die "port $port is taken: another cluster runs, or another program holds it"
  done

  log "etcd on $ETCD_CLIENT_PORT"
  start_bg etcd etcd --name ha --data-dir "$HA_DIR/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT" \
    --advertise-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "ha=http://127.0.0.1:$ETCD_PEER_PORT" --initial-cluster-state new \
    --initial-cluster-token "$SCOPE"
  wait_for 20 "etcd to answer GET /health" etcd \
    curl -sf -m 2 "http://127.0.0.1:$ETCD_CLIENT_PORT/health"

  log "Patroni node1 and node2 (PostgreSQL on ${PG_PORT[node1]} and ${PG_PORT[node2]})"
  local node
  for node in "${NODES[@]}"; do
    mkdir -p "$HA_DIR/$node"
    node_config "$node"
    chown -R postgres:postgres "$HA_DIR/$node"
    chmod 700 "$HA_DIR/$node"
  done
  # node1 first, so that it bootstraps the cluster and node2 copies it rather than racing for the initialize key.
  start_patroni node1
  wait_for 60 "node1 to bootstrap and lead (Patroni GET /primary answers 200)" node1 primary_ready node1
  start_patroni node2
  wait_replica node2 node1

  log "HAProxy: $WRITE_PORT to the leader, $READ_PORT to the replicas"
  cat >"$HA_DIR/haproxy.cfg" <<EOF
global
    maxconn 1000
    log stdout format raw local0 notice

defaults
    mode tcp
    log global
    timeout connect 2s
    # Pooled connections sit idle for long: they must not be cut for it.
    timeout client 30m
    timeout server 30m
    timeout check 2s

listen stats
    mode http
    bind 127.0.0.1:$STATS_PORT
    stats enable
    stats uri /

listen primary
    bind 127.0.0.1:$WRITE_PORT
    option httpchk GET /primary
    http-check expect status 200
    # A node that stops leading loses its connections at once, so that no client keeps writing to a replica.
    default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
    server node1 127.0.0.1:${PG_PORT[node1]} check port ${REST_PORT[node1]}
    server node2 127.0.0.1:${PG_PORT[node2]} check port ${REST_PORT[node2]}

listen replicas
    bind 127.0.0.1:$READ_PORT
    balance roundrobin
    option httpchk GET /replica
    http-check expect status 200
    default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
    server node1 127.0.0.1:${PG_PORT[node1]} check port ${REST_PORT[node1]}
    server node2 127.0.0.1:${PG_PORT[node2]} check port ${REST_PORT[node2]}
EOF
  start_bg haproxy haproxy -db -f "$HA_DIR/haproxy.cfg"
  wait_for 20 "a write through HAProxy's port $WRITE_PORT" haproxy write_through $WRITE_PORT
  wait_for 20 "a read of a replica through HAProxy's port $READ_PORT" haproxy reads_replica $READ_PORT

  log "PgBouncer on $PGBOUNCER_PORT (transaction mode)"
  local bouncer="$HA_DIR/pgbouncer"
  echo '"postgres" ""' >"$bouncer/userlist.txt"
  cat >"$bouncer/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$WRITE_PORT

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PGBOUNCER_PORT
unix_socket_dir =
auth_type = trust
auth_file = $bouncer/userlist.txt
admin_users = postgres
pool_mode = transaction
max_client_conn = 500
default_pool_size = 40
ignore_startup_parameters = extra_float_digits, statement_timeout
; After a failed connection to the server PgBouncer waits this long before the next try (15 s by default): during
; a failover that would keep clients out well after HAProxy has a leader again.
server_login_retry = 1
server_connect_timeout = 3
logfile = $bouncer/pgbouncer.log
pidfile =
EOF
  chown -R postgres:postgres "$bouncer"
  start_bg pgbouncer "${AS_POSTGRES[@]}" /usr/sbin/pgbouncer "$bouncer/pgbouncer.ini"
  wait_for 20 "a write through PgBouncer on $PGBOUNCER_PORT" pgbouncer write_through $PGBOUNCER_PORT

  log "Redis on ${REDIS_PORTS[*]}, Sentinels on ${SENTINEL_PORTS[*]}"
  for port in "${REDIS_PORTS[@]}"; do
    cat >"$HA_DIR/redis/$port.conf" <<EOF
bind 127.0.0.1
port $port
dir $HA_DIR/redis
dbfilename dump-$port.rdb
save ""
appendonly no
daemonize no
EOF
  done
  start_redis "${REDIS_PORTS[0]}"
  start_redis "${REDIS_PORTS[1]}" --replicaof 127.0.0.1 "${REDIS_PORTS[0]}"
  wait_for 20 "Redis replica ${REDIS_PORTS[1]} to sync with ${REDIS_PORTS[0]}" "redis-${REDIS_PORTS[1]}" \
    redis_linked "${REDIS_PORTS[1]}"
  for port in "${SENTINEL_PORTS[@]}"; do
    cat >"$HA_DIR/redis/sentinel-$port.conf" <<EOF
bind 127.0.0.1
port $port
daemonize no
dir $HA_DIR/redis
sentinel monitor mymaster 127.0.0.1 ${REDIS_PORTS[0]} 2
sentinel down-after-milliseconds mymaster 1000
sentinel failover-timeout mymaster 5000
sentinel parallel-syncs mymaster 1
EOF
    start_bg "sentinel-$port" redis-server "$HA_DIR/redis/sentinel-$port.conf" --sentinel
  done
  for port in "${SENTINEL_PORTS[@]}"; do
    wait_for 20 "Sentinel $port to see the replica and the other Sentinels" "sentinel-$port" sentinel_ready "$port"
  done
  log "up: leader $(leader_name), Redis master $(redis_master)"
}

redis_linked() { redis_at "$1" info replication | grep -q 'master_link_status:up'; }

# The master a Sentinel names for the group, as host:port.
redis_master() { redis_at "${1:-${SENTINEL_PORTS[0]}}" sentinel get-master-addr-by-name mymaster | paste -sd: -; }

sentinel_ready() {
  local info
  info=$(redis_at "$1" info sentinel)
  grep -q 'status=ok,address=127.0.0.1:[0-9]*,slaves=1,sentinels=3' <<<"$info"
}

stop_pid() {
  local pid=$1
  alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 20); do
    alive "$pid" || return 0
    sleep 0.25
  done
  kill -KILL "$pid" 2>/dev/null || true
}

# The postmaster of a node's data directory, when one runs.
postmaster_of() {
  local pidfile="$HA_DIR/$1/data/postmaster.pid"
  [ -f "$pidfile" ] || return 0
  local pid
  pid=$(head -n 1 "$pidfile")
  alive "$pid" && echo "$pid"
  return 0
}

cmd_down() {
  need_dir
  local name pid node
  # Patroni first, so that it does not start PostgreSQL again; then PostgreSQL at once (immediate mode also removes
  # its shared memory, which a kill -9 would leave behind).
  for node in "${NODES[@]}"; do
    pid=$(pid_of "$node")
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
  for node in "${NODES[@]}"; do
    pid=$(postmaster_of "$node")
    [ -n "$pid" ] || continue
    "${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$HA_DIR/$node/data" stop -m immediate -w -t 10 >/dev/null 2>&1 ||
      kill -KILL "$pid" 2>/dev/null || true
  done
  for name in "$HA_DIR"/pids/*.pid; do
    [ -f "$name" ] || continue
    stop_pid "$(pid_of "$(basename "$name" .pid)")"
  done
  # A postmaster killed with -9 and never started again leaves its small System V segment behind (its id is on the
  # seventh line of postmaster.pid): removed when nothing is attached to it any more.
  for node in "${NODES[@]}"; do
    local shmid
    shmid=$(sed -n 7p "$HA_DIR/$node/data/postmaster.pid" 2>/dev/null | awk '{print $2}') || true
    [ -n "$shmid" ] || continue
    if ipcs -m -i "$shmid" 2>/dev/null | grep -q 'nattch=0'; then ipcrm -m "$shmid" 2>/dev/null || true; fi
  done
  rm -rf "$HA_DIR"
  log "down: every process stopped, $HA_DIR removed"
}

cmd_leader() {
  need_dir
  local node
  node=$(leader_name)
  [ -n "$node" ] || die "no node leads now"
  echo "$node ${PG_PORT[$node]}"
}

other_node() { if [ "$1" = node1 ]; then echo node2; else echo node1; fi; }

new_leader_serves() {
  [ "$(leader_name)" = "$1" ] && write_through $WRITE_PORT
}

cmd_switchover() {
  need_dir
  local old new
  old=$(leader_name)
  [ -n "$old" ] || die "no node leads now: nothing to switch over"
  new=$(other_node "$old")
  log "switchover from $old to $new"
  local answer
  answer=$(curl -s -m 30 -X POST -H 'Content-Type: application/json' \
    -d "{\"leader\": \"$old\", \"candidate\": \"$new\"}" "http://127.0.0.1:${REST_PORT[$old]}/switchover") ||
    die "Patroni's POST /switchover failed: $answer"
  log "Patroni: $answer"
  wait_for 60 "$new to lead and take writes through $WRITE_PORT" "$old $new haproxy" new_leader_serves "$new"
  log "$new leads and takes writes through $WRITE_PORT"
  wait_replica "$old" "$new"
  log "$old streams from $new as its synchronous standby"
}

# kill -9 of a node's Patroni, its postmaster and every process of that PostgreSQL at once: what the death of the
# node's machine leaves behind. Killing PostgreSQL alone would let its Patroni restart it and keep the lock.
cmd_kill_leader() {
  need_dir
  local old new patroni postmaster
  old=$(leader_name)
  [ -n "$old" ] || die "no node leads now: nothing to kill"
  new=$(other_node "$old")
  patroni=$(pid_of "$old")
  postmaster=$(postmaster_of "$old")
  [ -n "$postmaster" ] || die "no PostgreSQL runs for $old"
  local victims=("$patroni" "$postmaster")
  mapfile -t -O 2 victims < <(pgrep -P "$postmaster")
  log "kill -9 of $old: Patroni $patroni, PostgreSQL ${victims[*]:1}"
  kill -KILL "${victims[@]}" 2>/dev/null || true
  wait_for 60 "$new to be promoted and take writes through $WRITE_PORT" "$new haproxy" new_leader_serves "$new"
  log "$new leads and takes writes through $WRITE_PORT; starting $old again"
  start_patroni "$old"
  wait_replica "$old" "$new"
  log "$old rejoined as a replica of $new"
}

redis_promoted() {
  local port
  for port in "${SENTINEL_PORTS[@]}"; do
    [ "$(redis_master "$port")" = "127.0.0.1:$1" ] || return 1
  done
  redis_at "$1" role | head -n 1 | grep -qx master
}

sentinels_see_replica() {
  redis_linked "$1" || return 1
  redis_at "${SENTINEL_PORTS[0]}" sentinel replicas mymaster | grep -A1 -x flags | grep -qx slave
}

cmd_redis_failover() {
  need_dir
  local master old new pid
  master=$(redis_master)
  old=${master##*:}
  if [ "$old" = "${REDIS_PORTS[0]}" ]; then new=${REDIS_PORTS[1]}; else new=${REDIS_PORTS[0]}; fi
  pid=$(pid_of "redis-$old")
  alive "$pid" || die "the Redis master $old does not run"
  log "kill -9 of the Redis master on $old (pid $pid)"
  kill -KILL "$pid"
  wait_for 30 "the Sentinels to promote $new" "sentinel-${SENTINEL_PORTS[0]} redis-$new" redis_promoted "$new"
  log "the Sentinels promoted $new; starting $old again as its replica"
  # Started as a replica, it cannot take a write as an empty master before the Sentinels reconfigure it.
  start_redis "$old" --replicaof 127.0.0.1 "$new"
  wait_for 30 "$old to sync with $new and the Sentinels to list it as a replica" \
    "redis-$old sentinel-${SENTINEL_PORTS[0]}" sentinels_see_replica "$old"
  log "$old rejoined as a replica of $new"
}

cmd_status() {
  need_dir
  local name pid
  for name in "$HA_DIR"/pids/*.pid; do
    name=$(basename "$name" .pid)
    pid=$(pid_of "$name")
    printf '%-16s %s\n' "$name" "$(if alive "$pid"; then echo "pid $pid"; else echo gone; fi)"
  done
  patronictl -c "$HA_DIR/node1/patroni.yml" list 2>/dev/null || true
  echo "leader: $(leader_name)"
  curl -s -m 2 "http://127.0.0.1:$STATS_PORT/;csv" | awk -F, '$1 ~ /primary|replicas/ && $2 ~ /node/ {print "haproxy", $1, $2, $18}'
  echo "Redis master (Sentinel): $(redis_master)"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  leader) cmd_leader ;;
  switchover) cmd_switchover ;;
  kill-leader) cmd_kill_leader ;;
  redis-failover) cmd_redis_failover ;;
  status) cmd_status ;;
  *)
    echo "usage: $0 up|down|status|leader|switchover|kill-leader|redis-failover" >&2
    exit 64
    ;;
esac
