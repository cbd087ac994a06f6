# Parts shared by Tools/cluster-demo and Tools/ha-demo (sourced, not run): two server instances,
# nginx in front of them, and the wait until the demo is stopped. They use the caller's `work`
# (its folder), `server` (the server binary) and `pids` (what cleanup stops, newest first), and
# `demo` names the caller in messages.

# Ends the demo (its cleanup runs) once the process that started it is gone, during its start-up
# too: a test run killed outright leaves nothing running. With every long-lived child started under
# `setpriv --pdeathsig TERM`, a demo killed outright leaves nothing either. Call once, after the
# traps are set.
stop_with_parent() {
  local parent=$PPID
  (while kill -0 "$parent" 2>/dev/null; do sleep 1; done; kill -TERM $$ 2>/dev/null) &
  pids+=($!)
}

# A free TCP port on 127.0.0.1.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Starts two instances sharing one data directory (the signing key), each enforcing half the rate
# limits and trusting nginx's X-Forwarded-For, on the database URL $1, reading from $2. The first
# migrates the database before the second starts. Sets `urls` and `server_pids`.
start_instances() {
  local primary=$1 reads=$2 instance url
  mkdir -p "$work/data"
  urls=()
  for instance in 1 2; do
    DATABASE_URL="$primary" DATABASE_READ_URL="$reads" CONSTELLATION_INSTANCES=2 CONSTELLATION_TRUSTED_PROXIES=127.0.0.1 \
      setpriv --pdeathsig TERM -- "$server" serve --host 127.0.0.1 --port 0 --data-dir "$work/data" >"$work/server-$instance.log" 2>&1 &
    pids+=($!)
    url=""
    for _ in $(seq 1 600); do
      url=$(grep -o 'listening on http://[0-9.:]*' "$work/server-$instance.log" | head -n 1 | cut -d' ' -f3) || true
      [[ -n "$url" ]] && break
      kill -0 "${pids[-1]}" 2>/dev/null || break
      sleep 0.1
    done
    [[ -n "$url" ]] || { echo "$demo: instance $instance did not start" >&2; cat "$work/server-$instance.log" >&2; exit 1; }
    urls+=("$url")
  done
  server_pids=("${pids[-2]}" "${pids[-1]}")
}

# nginx on 127.0.0.1:$1 in front of `urls`: round robin; a failed instance is skipped for 5 s. A
# POST that reached an instance is not sent to the other one (nginx's default): the client retries
# it, and the API makes a repeated scan harmless. Buffering off for the live page's event stream.
start_nginx() {
  local port=$1 nginx_user=""
  mkdir -p "$work/nginx"
  [[ $(id -u) -eq 0 ]] && nginx_user="user root;"  # its workers read files in this root-owned folder
  cat >"$work/nginx/nginx.conf" <<CONF
$nginx_user
worker_processes 1;
# Each client held (a phone's stream, a live page's) is two connections, the client's and the
# instance's: an event day's 2,000 phones need more than nginx's default 512.
worker_rlimit_nofile 16384;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  upstream constellation {
    server ${urls[0]#http://} max_fails=1 fail_timeout=5s;
    server ${urls[1]#http://} max_fails=1 fail_timeout=5s;
    keepalive 32;
  }
  server {
    listen 127.0.0.1:$port;
    client_max_body_size 2m;
    location / {
      proxy_pass http://constellation;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout http_502;
    }
  }
}
CONF
  setpriv --pdeathsig TERM -- /usr/sbin/nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
  pids+=($!)
  for _ in $(seq 1 100); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/health" 2>/dev/null && return 0
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "$demo: nginx did not start" >&2
  cat "$work/nginx/error.log" >&2
  exit 1
}

# Runs until nginx stops (then fails), or until standard input ends when $1 is set (for a program
# that runs the demo: its signals may not reach a script).
wait_until_stopped() {
  local until_stdin_closes=$1 status
  while kill -0 "${pids[-1]}" 2>/dev/null; do
    if [[ -n "$until_stdin_closes" ]]; then
      status=0
      read -r -t 1 _ || status=$?
      ((status == 0 || status > 128)) || exit 0  # 1: the end of input
    else
      sleep 1 & wait $! || true
    fi
  done
  echo "$demo: nginx stopped" >&2
  exit 1
}
