#!/bin/bash
# start-nginx.sh: serves a static site on loopback with Debian's nginx.
#
#   start-nginx.sh SITE_DIR WORK_DIR [PORT]   start (or keep) the server
#   start-nginx.sh --stop WORK_DIR            stop it
#
# nginx runs as a master of its own (-p WORK_DIR -c WORK_DIR/nginx.conf):
# nothing under /etc/nginx is read or changed and the system's nginx, if
# any, is left alone. It listens on 127.0.0.1 only, with access logging off
# and keep-alive on. Running it again with the same arguments leaves a
# running server as it is; with another site or port it is restarted.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

die () { echo "start-nginx.sh: $*" >&2; exit 1; }

running_pid () {
  local pid_file="$1/nginx.pid" pid
  [[ -s "$pid_file" ]] || return 1
  pid=$(<"$pid_file")
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  # A stale pid file may name an unrelated process now.
  [[ "$(cat /proc/"$pid"/comm 2>/dev/null)" == nginx ]] || return 1
  echo "$pid"
}

stop () {
  local work="$1" pid
  if pid=$(running_pid "$work"); then
    # QUIT lets the workers finish their requests; the master exits last.
    kill -QUIT "$pid"
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -TERM "$pid"
  fi
  rm -f "$work/nginx.pid"
}

if [[ "${1:-}" == "--stop" ]]; then
  [[ $# -eq 2 ]] || die "usage: start-nginx.sh --stop WORK_DIR"
  stop "$2"
  exit 0
fi

[[ $# -ge 2 && $# -le 3 ]] || die "usage: start-nginx.sh SITE_DIR WORK_DIR [PORT]"
site=$(realpath "$1")
work=$(realpath -m "$2")
port="${3:-18080}"
[[ -d "$site" && -f "$site/index.html" ]] || die "$site has no index.html: generate the site first"
if ! [[ "$port" =~ ^[0-9]+$ ]] || (( port < 1024 || port > 65535 )); then
  die "'$port' is not a port from 1024 to 65535"
fi

if ! command -v nginx >/dev/null 2>&1 && [[ ! -x /usr/sbin/nginx ]]; then
  echo "Installing nginx…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y nginx >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y nginx >/dev/null; }
  # Debian's package starts the system service; this benchmark has its own.
  if command -v systemctl >/dev/null 2>&1; then systemctl stop nginx 2>/dev/null || true; fi
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

mkdir -p "$work/tmp"
conf="$work/nginx.conf"
new_conf=$(cat <<EOF
# Written by start-nginx.sh; serves $site.
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;

events {
  worker_connections 1024;
}

http {
  types {
    text/html html;
    text/css css;
    image/png png;
    application/json json;
  }
  default_type application/octet-stream;
  access_log off;
  log_not_found off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  client_body_temp_path $work/tmp/body;
  proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi;
  uwsgi_temp_path $work/tmp/uwsgi;
  scgi_temp_path $work/tmp/scgi;

  server {
    listen 127.0.0.1:$port;
    server_name localhost;
    root $site;
    index index.html;
  }
}
EOF
)

if pid=$(running_pid "$work"); then
  if [[ -f "$conf" && "$(<"$conf")" == "$new_conf" ]]; then
    echo "nginx already serves $site on http://127.0.0.1:$port/ (pid $pid)"
    exit 0
  fi
  stop "$work"
fi

if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  die "port $port on 127.0.0.1 is taken by another program: choose another port"
fi

printf '%s\n' "$new_conf" > "$conf"
"$nginx_bin" -p "$work" -c "$conf" -e "$work/error.log" -t -q || die "nginx rejected $conf (see $work/error.log)"
"$nginx_bin" -p "$work" -c "$conf" -e "$work/error.log"

for _ in $(seq 50); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "nginx serves $site on http://127.0.0.1:$port/ (pid $(running_pid "$work"))"
    exit 0
  fi
  sleep 0.1
done
die "nginx did not start listening on 127.0.0.1:$port (see $work/error.log)"
