#!/bin/bash
# stop.sh: stops the benchmark WordPress site that setup.sh started.
#
#   stop.sh                stop the Apache of CG_WP_PORT (default 8650), and
#                          the MariaDB when no other port's Apache still runs
#   stop.sh --apache-only  stop the Apache of CG_WP_PORT only
#   stop.sh --all          stop the Apache of every port, and the MariaDB
#
# Only the daemons that setup.sh started are stopped, by the process ids in
# their pid files under CG_WP_DIR (default /var/lib/cartograph-wordpress).
# The database and the configuration stay: setup.sh starts the same site
# again in seconds.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

port="${CG_WP_PORT:-8650}"
state="${CG_WP_DIR:-/var/lib/cartograph-wordpress}"
mode=port

die () { echo "stop.sh: $*" >&2; exit 1; }

case "${1:-}" in
  "") ;;
  --apache-only) mode=apache ;;
  --all) mode=all ;;
  *) die "unknown argument '$1' (usage: stop.sh [--apache-only | --all])" ;;
esac
[[ $# -le 1 ]] || die "one argument at most"
[[ "$port" =~ ^[0-9]+$ ]] || die "CG_WP_PORT must be a number, not '$port'"
[[ -d "$state" ]] || exit 0

# setup.sh calls this while it holds the lock.
if [[ -z "${CG_WP_LOCKED:-}" ]]; then
  exec 9>"$state/setup.lock"
  flock -w 900 9 || die "setup.sh held $state/setup.lock for 15 minutes"
fi

# Prints the pid in FILE when it names a live process called NAME.
live_pid () {
  local file="$1" name="$2" pid
  [[ -s "$file" ]] || return 1
  pid=$(<"$file")
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  [[ "$(cat /proc/"$pid"/comm 2>/dev/null)" == "$name" ]] || return 1
  echo "$pid"
}

wait_gone () {
  for _ in $(seq 300); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
  return 1
}

stop_apache () {
  local site="$1" pid
  if pid=$(live_pid "$site/apache.pid" apache2); then
    # TERM makes the parent stop its children and exit.
    kill -TERM "$pid"
    wait_gone "$pid" || die "Apache (pid $pid) did not stop"
    echo "stopped Apache of ${site##*/site-} (pid $pid)"
  fi
  rm -f "$site/apache.pid"
}

if [[ "$mode" == all ]]; then
  for site in "$state"/site-*; do
    [[ -d "$site" ]] && stop_apache "$site"
  done
else
  stop_apache "$state/site-$port"
fi
[[ "$mode" == apache ]] && exit 0

for site in "$state"/site-*; do
  if [[ -d "$site" ]] && live_pid "$site/apache.pid" apache2 > /dev/null; then
    echo "MariaDB stays up for the site of ${site##*/site-}"
    exit 0
  fi
done
if pid=$(live_pid "$state/mariadb-run/mariadb.pid" mariadbd); then
  kill -TERM "$pid"
  wait_gone "$pid" || die "MariaDB (pid $pid) did not stop"
  echo "stopped MariaDB (pid $pid)"
fi
