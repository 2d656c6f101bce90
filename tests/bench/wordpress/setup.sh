#!/bin/bash
# setup.sh: a real WordPress site on loopback for Cartograph's evaluations.
#
#   setup.sh [--refill]     install, fill and start the site; print its URL
#
# Installs Debian's wordpress package with Apache (mod_php) and MariaDB when
# they are missing, starts a MariaDB of its own (socket only, no TCP) and an
# Apache of its own listening on 127.0.0.1:PORT only, and fills the site once
# with make-content.py's posts through fill.php. Nothing of the system's own
# Apache or MariaDB configuration is read or changed, and their services are
# not started: the daemons are started directly, so this works without
# systemd. Run it again and it leaves a running, filled site as it is; it
# refills when the content generator, the fill script, the settings or the
# packages changed (a stamp in the database says what was filled), or when
# asked to with --refill. Several ports can be served at once, each with its
# own database.
#
# Settings, from the environment (see README.md):
#   CG_WP_PORT    port on 127.0.0.1 (default 8650)
#   CG_WP_DIR     state folder: database, logs, configuration
#                 (default /var/lib/cartograph-wordpress)
#   CG_WP_THEME   twentytwentyone (default) or twentytwentythree
#   CG_WP_SEED    content seed (default 1)
#   CG_WP_POSTS   number of posts, 1 to 600 (default 520)
#
# The base URL is the only line written to standard output; progress goes
# to standard error. Stop the site with stop.sh.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
port="${CG_WP_PORT:-8650}"
state="${CG_WP_DIR:-/var/lib/cartograph-wordpress}"
theme="${CG_WP_THEME:-twentytwentyone}"
seed="${CG_WP_SEED:-1}"
posts="${CG_WP_POSTS:-520}"
python=/usr/bin/python3
refill=0

die () { echo "setup.sh: $*" >&2; exit 1; }
say () { echo "setup.sh: $*" >&2; }

for arg in "$@"; do
  case "$arg" in
    --refill) refill=1 ;;
    -h|--help) sed -n '2,27p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$arg' (usage: setup.sh [--refill])" ;;
  esac
done

[[ $EUID -eq 0 ]] || die "run as root: it installs packages and starts daemons as their users"
if ! [[ "$port" =~ ^[0-9]+$ ]] || (( port < 1024 || port > 65535 )); then
  die "CG_WP_PORT '$port' is not a port from 1024 to 65535"
fi
[[ "$seed" =~ ^[0-9]+$ ]] || die "CG_WP_SEED must be a number, not '$seed'"
if ! [[ "$posts" =~ ^[0-9]+$ ]] || (( posts < 1 || posts > 600 )); then
  die "CG_WP_POSTS '$posts' is not a number from 1 to 600"
fi
case "$theme" in
  twentytwentyone|twentytwentythree) ;;
  *) die "CG_WP_THEME '$theme' is not one of twentytwentyone, twentytwentythree" ;;
esac
[[ "$state" == /* ]] || die "CG_WP_DIR must be an absolute path, not '$state'"

site="$state/site-$port"
db_dir="$state/mariadb"
db_run="$state/mariadb-run"
sock="$db_run/mariadb.sock"
db_name="cg_wordpress_$port"
db_user=cartograph
db_password=cartograph-bench
config_name="cartograph-$port"
wp_config="/etc/wordpress/config-$config_name.php"
url="http://127.0.0.1:$port/"
mkdir -p "$state" "$site/run"
chmod 755 "$state"

# One setup at a time: several engineers share the machine and the site.
exec 9>"$state/setup.lock"
flock -w 900 9 || die "another setup.sh held $state/setup.lock for 15 minutes"

# --- Packages --------------------------------------------------------------
packages=(wordpress "wordpress-theme-$theme" apache2 libapache2-mod-php php-mysql
          mariadb-server mariadb-client debian-handbook)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if (( ${#missing[@]} > 0 )); then
  say "installing ${missing[*]}…"
  # Debian's packages start their system services on installation unless a
  # policy says no; this site runs daemons of its own.
  guard=""
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\n# Written by setup.sh for the time of its apt-get.\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    guard=/usr/sbin/policy-rc.d
  fi
  export DEBIAN_FRONTEND=noninteractive
  status=0
  apt-get install -y --no-install-recommends "${missing[@]}" > "$state/apt.log" 2>&1 || {
    apt-get update >> "$state/apt.log" 2>&1 &&
      apt-get install -y --no-install-recommends "${missing[@]}" >> "$state/apt.log" 2>&1
  } || status=$?
  [[ -n "$guard" ]] && rm -f "$guard"
  (( status == 0 )) || die "apt-get could not install ${missing[*]} (see $state/apt.log)"
fi

# --- MariaDB, private to the benchmark --------------------------------------
db_admin () { mariadb --no-defaults --socket="$sock" --user=root "$@"; }
db_alive () { mariadb-admin --no-defaults --socket="$sock" --user=root ping >/dev/null 2>&1; }

if ! db_alive; then
  if [[ ! -d "$db_dir/mysql" ]]; then
    say "creating the MariaDB data folder $db_dir…"
    rm -rf "$db_dir"
    mkdir -p "$db_dir"
    chown mysql:mysql "$db_dir"
    chmod 700 "$db_dir"
    mariadb-install-db --no-defaults --datadir="$db_dir" --user=mysql --skip-test-db \
      --auth-root-authentication-method=socket > "$state/mariadb-install.log" 2>&1 ||
      die "mariadb-install-db failed (see $state/mariadb-install.log)"
  fi
  mkdir -p "$db_run"
  chown mysql:mysql "$db_run"
  chmod 755 "$db_run"
  rm -f "$sock"
  say "starting MariaDB on $sock…"
  # setsid: the server outlives this script and the shell that ran it.
  setsid /usr/sbin/mariadbd --no-defaults --user=mysql --datadir="$db_dir" --socket="$sock" \
    --pid-file="$db_run/mariadb.pid" --log-error="$state/mariadb.log" --skip-networking \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_520_ci \
    --innodb-buffer-pool-size=256M --innodb-flush-log-at-trx-commit=2 --skip-log-bin \
    --max-connections=200 < /dev/null > /dev/null 2>&1 9>&- &
  for _ in $(seq 300); do
    db_alive && break
    sleep 0.1
  done
  db_alive || die "MariaDB did not start (see $state/mariadb.log)"
fi

# --- WordPress's configuration for this port ---------------------------------
mkdir -p "$state/mu-plugins"
install -m 644 "$here/cartograph-loopback.php" "$state/mu-plugins/cartograph-loopback.php"
new_config=$(cat <<EOF
<?php
/* Written by tests/bench/wordpress/setup.sh of Cartograph: the benchmark
 * site on http://127.0.0.1:$port/ (Apache sets WORDPRESS_CONFIG). */
define('DB_NAME', '$db_name');
define('DB_USER', '$db_user');
define('DB_PASSWORD', '$db_password');
define('DB_HOST', 'localhost:$sock');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('WP_HOME', 'http://127.0.0.1:$port');
define('WP_SITEURL', 'http://127.0.0.1:$port');
define('WPMU_PLUGIN_DIR', '$state/mu-plugins');
/* The site never reaches another host: no updates, pings or cron. */
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_DEBUG', false);
/* Fixed keys: the site is a loopback test fixture, not a real blog. */
define('AUTH_KEY', 'cartograph-bench-$port-auth');
define('SECURE_AUTH_KEY', 'cartograph-bench-$port-secure-auth');
define('LOGGED_IN_KEY', 'cartograph-bench-$port-logged-in');
define('NONCE_KEY', 'cartograph-bench-$port-nonce');
define('AUTH_SALT', 'cartograph-bench-$port-auth-salt');
define('SECURE_AUTH_SALT', 'cartograph-bench-$port-secure-auth-salt');
define('LOGGED_IN_SALT', 'cartograph-bench-$port-logged-in-salt');
define('NONCE_SALT', 'cartograph-bench-$port-nonce-salt');
EOF
)
if [[ ! -f "$wp_config" || "$(<"$wp_config")" != "$new_config" ]]; then
  printf '%s\n' "$new_config" > "$wp_config"
fi
chown root:www-data "$wp_config"
chmod 640 "$wp_config"

# --- The content, filled once ------------------------------------------------
stamp=$( {
  echo "port=$port theme=$theme seed=$seed posts=$posts"
  cat "$here/make-content.py" "$here/fill.php"
  dpkg-query -W -f='${Package} ${Version}\n' wordpress debian-handbook "wordpress-theme-$theme"
} | sha256sum | cut -c1-16)
filled=$(db_admin --batch --skip-column-names -e \
  "SELECT option_value FROM wp_options WHERE option_name = 'cartograph_fill_stamp'" "$db_name" 2>/dev/null || true)
if (( refill )) || [[ "$filled" != "$stamp" ]]; then
  say "filling the site (seed $seed, $posts posts, theme $theme)…"
  db_admin <<EOF
DROP DATABASE IF EXISTS \`$db_name\`;
CREATE DATABASE \`$db_name\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci;
CREATE USER IF NOT EXISTS '$db_user'@'localhost' IDENTIFIED BY '$db_password';
GRANT ALL PRIVILEGES ON \`$db_name\`.* TO '$db_user'@'localhost';
EOF
  "$python" "$here/make-content.py" --seed "$seed" --posts "$posts" > "$site/content.json"
  CG_WP_PORT="$port" CG_WP_CONFIG="$config_name" CG_WP_THEME="$theme" CG_WP_STAMP="$stamp" \
    php "$here/fill.php" "$site/content.json" > "$site/fill.log" 2>&1 ||
    die "fill.php failed (see $site/fill.log)"
  say "filled: $(tail -1 "$site/fill.log")"
fi

# --- Apache, private to this port --------------------------------------------
apache_pid () {
  local pid
  [[ -s "$site/apache.pid" ]] || return 1
  pid=$(<"$site/apache.pid")
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  # A stale pid file may name an unrelated process now.
  [[ "$(cat /proc/"$pid"/comm 2>/dev/null)" == apache2 ]] || return 1
  echo "$pid"
}

conf="$site/apache.conf"
new_conf=$(cat <<EOF
# Written by setup.sh: WordPress on http://127.0.0.1:$port/ only.
ServerRoot "$site"
ServerName 127.0.0.1
Listen 127.0.0.1:$port
PidFile "$site/apache.pid"
DefaultRuntimeDir "$site/run"
Mutex file:$site/run default
User www-data
Group www-data
ErrorLog "$site/error.log"
LogLevel warn

LoadModule mpm_prefork_module /usr/lib/apache2/modules/mod_mpm_prefork.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
LoadModule alias_module /usr/lib/apache2/modules/mod_alias.so
LoadModule dir_module /usr/lib/apache2/modules/mod_dir.so
LoadModule env_module /usr/lib/apache2/modules/mod_env.so
LoadModule mime_module /usr/lib/apache2/modules/mod_mime.so
LoadModule rewrite_module /usr/lib/apache2/modules/mod_rewrite.so
LoadModule php_module /usr/lib/apache2/modules/libphp8.2.so

StartServers 4
MinSpareServers 2
MaxSpareServers 8
MaxRequestWorkers 32
KeepAlive On
KeepAliveTimeout 5
MaxKeepAliveRequests 1000
Timeout 60
TypesConfig /etc/mime.types
# One line per request, with its time in microseconds: the benchmarks count
# requests and their cost here.
LogFormat "%h %t \"%r\" %>s %O \"%{User-Agent}i\" %D" cartograph
CustomLog "$site/access.log" cartograph

SetEnv WORDPRESS_CONFIG $config_name
DocumentRoot /usr/share/wordpress
Alias /wp-content /var/lib/wordpress/wp-content
<Directory />
  Options None
  AllowOverride None
  Require all denied
</Directory>
<Directory /usr/share/wordpress>
  Options FollowSymLinks
  AllowOverride None
  Require all granted
  DirectoryIndex index.php
  RewriteEngine On
  RewriteBase /
  RewriteRule ^index\.php$ - [L]
  RewriteCond %{REQUEST_FILENAME} !-f
  RewriteCond %{REQUEST_FILENAME} !-d
  RewriteRule . /index.php [L]
</Directory>
<Directory /var/lib/wordpress/wp-content>
  Options FollowSymLinks
  AllowOverride None
  Require all granted
</Directory>
<FilesMatch "\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
EOF
)

if pid=$(apache_pid); then
  if [[ -f "$conf" && "$(<"$conf")" == "$new_conf" ]]; then
    say "Apache already serves $url (pid $pid)"
  else
    say "restarting Apache on port $port with a new configuration…"
    CG_WP_PORT="$port" CG_WP_DIR="$state" CG_WP_LOCKED=1 "$here/stop.sh" --apache-only >&2
  fi
fi
if ! apache_pid > /dev/null; then
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "port $port on 127.0.0.1 is taken by another program: set CG_WP_PORT to another port"
  fi
  printf '%s\n' "$new_conf" > "$conf"
  /usr/sbin/apache2 -f "$conf" -t > "$site/configtest.log" 2>&1 ||
    die "Apache rejected $conf (see $site/configtest.log)"
  say "starting Apache on 127.0.0.1:$port…"
  # Apache detaches itself; setsid keeps it out of this shell's job control.
  setsid /usr/sbin/apache2 -f "$conf" -k start < /dev/null > /dev/null 2>> "$site/error.log" 9>&-
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
  done
fi

# --- Check -------------------------------------------------------------------
# http.client, not urllib: no proxy from the environment comes between.
"$python" - "$port" <<'EOF' || die "the site does not answer as a WordPress home page (see $site/error.log)"
import http.client, re, sys
connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
connection.request("GET", "/")
response = connection.getresponse()
body = response.read().decode("utf-8", "replace")
match = re.search(r'<body class="([^"]*)"', body)
sys.exit(0 if response.status == 200 and match and "home" in match.group(1).split() else 1)
EOF
echo "$url"
