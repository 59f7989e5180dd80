#!/bin/bash
# SPDX-License-Identifier: MIT
# The lab's supervisor, run by scripts/lava/lab-up.sh inside the lab's
# Debian chroot (no systemd there): it starts each daemon as its package's
# systemd unit does, as a child it can stop, starts again one that ends
# (the units' Restart=always), and stops them all on TERM.
#
#   lab-init.sh PORT WORKERS       (/lab: the lab's state, bind-mounted)
#
# PostgreSQL (a Unix socket in the chroot, no TCP port), lava-server's API
# and web pages (gunicorn on 127.0.0.1:PORT), lava-publisher (its events on
# sockets inside the chroot, its websocket on 127.0.0.1:PORT+1: the
# scheduler schedules a job when it is submitted, not at its next 20 s
# round), lava-scheduler, and WORKERS lava-worker processes (a ping every
# 5 s), worker N driving device qemu-0N (the device type
# qemu under TCG: /lab/qemu-tcg.jinja2). On its first start it creates the
# database, the admin user "latctl" with the token /lab/admin.token, the
# workers with their tokens /lab/worker-N.token, and the devices (all
# root-only). /lab/ready says the API answers; /lab/pids lists the daemons.
set -euo pipefail

PORT=$1
WORKERS=$2
S=/lab
PG=/usr/lib/postgresql/15/bin
PGDATA=/var/lib/postgresql/15/main
PGCONF=/etc/postgresql/15/main
declare -A WHAT	# pid -> the daemon it is
declare -A ENDED	# daemon -> how many times it ended
umask 077

say() { echo "lab-init: $*"; }

stop() {
	trap - TERM INT EXIT
	say "stopping ${#WHAT[@]} daemons"
	[ ${#WHAT[@]} -eq 0 ] || kill -TERM "${!WHAT[@]}" 2>/dev/null || true
	wait || true
	rm -f "$S/ready" "$S/pids"
	exit 0
}
trap stop TERM INT EXIT

# Start "$@" in the background as the lab's daemon $1.
daemon() {
	local what=$1
	shift
	"$@" &
	WHAT[$!]=$what
	echo "$! $what" >>"$S/pids"
}

# PostgreSQL on a Unix socket only, password authentication but for its
# own superuser; started in the foreground of a child, not by pg_ctl.
start_postgres() {
	install -d -o postgres -g postgres -m 2775 /run/postgresql
	if ! grep -q '^# latctl lab' "$PGCONF/pg_hba.conf"; then
		printf '# latctl lab\nlocal all postgres peer\nlocal all all scram-sha-256\n' >"$PGCONF/pg_hba.conf"
		echo "listen_addresses = ''" >"$PGCONF/conf.d/latctl-lab.conf"
		chown postgres:postgres "$PGCONF/pg_hba.conf" "$PGCONF/conf.d/latctl-lab.conf"
	fi
	daemon postgres runuser -u postgres -- "$PG/postgres" -D "$PGDATA" -c "config_file=$PGCONF/postgresql.conf"
	for _ in $(seq 60); do
		runuser -u postgres -- "$PG/pg_isready" -q -h /run/postgresql && return 0
		sleep 0.5
	done
	say "PostgreSQL did not start"
	return 1
}

# A random secret of 40 hexadecimal digits.
secret() { od -An -N20 -tx1 /dev/urandom | tr -d ' \n'; }

# The database, the admin and its token: once.
first_setup() {
	[ -f "$S/setup-done" ] && return 0
	say "first start: database, admin, workers, devices"
	cat >/etc/lava-server/instance.conf <<-EOF
	LAVA_INSTANCE="latctl-lab"
	LAVA_DB_NAME="lavaserver"
	LAVA_DB_USER="lavaserver"
	LAVA_DB_PASSWORD="$(secret)"
	LAVA_DB_SERVER="/run/postgresql"
	LAVA_DB_PORT="5432"
	EOF
	chown lavaserver:lavaserver /etc/lava-server/instance.conf
	chmod 0640 /etc/lava-server/instance.conf
	python3 /usr/share/lava-server/postinst.py --db >"$S/log/postinst.log" 2>&1 ||
		{ tail -n 20 "$S/log/postinst.log"; return 1; }
	secret >"$S/admin.token"
	lava-server manage users add latctl --superuser --staff >/dev/null
	lava-server manage tokens add --user latctl --description lab-up \
		--secret "$(cat "$S/admin.token")" >/dev/null
	lava-server manage device-types add qemu
	touch "$S/setup-done"
}

# Worker N and its device qemu-0N, once each: a second lab-up with more
# workers adds the new ones.
add_worker() {
	local n=$1 w=lab-worker-$1 d=qemu-0$1
	[ -f "$S/worker-$n.token" ] && return 0
	lava-server manage workers add "$w" --description "latctl lab worker $n" |
		sed -n 's/^Token: //p' >"$S/worker-$n.token"
	[ -s "$S/worker-$n.token" ] || { say "no token for $w"; return 1; }
	install -o lavaserver -g lavaserver -m 0644 "$S/qemu-tcg.jinja2" \
		"/etc/lava-server/dispatcher-config/devices/$d.jinja2"
	lava-server manage devices add --device-type qemu --worker "$w" \
		--description "QEMU under TCG, worker $n" "$d"
}

start_gunicorn() {
	mkdir -p /var/log/lava-server
	chown lavaserver:lavaserver /var/log/lava-server
	daemon gunicorn gunicorn3 lava_server.wsgi --log-level INFO --log-file /var/log/lava-server/gunicorn.log \
		-u lavaserver -g lavaserver --worker-class gthread --workers 2 --threads 4 \
		--bind "127.0.0.1:$PORT" --timeout 120
}

# Events on sockets inside the chroot (lava-server's settings.d, read by
# every daemon that starts after it).
configure_events() {
	cat >/etc/lava-server/settings.d/01-latctl-lab.yaml <<-EOF
	EVENT_NOTIFICATION: true
	INTERNAL_EVENT_SOCKET: "ipc:///run/lava-server/internal-events"
	EVENT_SOCKET: "ipc:///run/lava-server/events"
	EOF
	chmod 0644 /etc/lava-server/settings.d/01-latctl-lab.yaml
	install -d -o lavaserver -g lavaserver /run/lava-server
}

start_publisher() {
	daemon publisher lava-server manage lava-publisher --level INFO \
		--log-file /var/log/lava-server/lava-publisher.log --host 127.0.0.1 --port $((PORT + 1))
}

start_scheduler() {
	daemon scheduler lava-server manage lava-scheduler --event-url ipc:///run/lava-server/events \
		--level INFO --log-file /var/log/lava-server/lava-scheduler.log
}

start_worker() {
	local n=$1
	mkdir -p "/var/lib/lava/dispatcher/worker-$n" /var/log/lava-dispatcher
	daemon "worker $n" lava-worker --name "lab-worker-$n" --url "http://127.0.0.1:$PORT/" \
		--token-file "$S/worker-$n.token" --worker-dir "/var/lib/lava/dispatcher/worker-$n" \
		--http-timeout 600 --ping-interval 5 --level INFO --log-file "/var/log/lava-dispatcher/worker-$n.log"
}

# The API answers an anonymous request.
api_up() {
	python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$PORT/api/v0.2/devicetypes/', timeout=5)" \
		2>/dev/null
}

# Wait for a daemon to end, then start it again (up to 5 times, as a
# unit's start limit); PostgreSQL's end stops the lab.
restart_ended() {
	local pid="" rc=0 what
	wait -n -p pid || rc=$?
	[ -n "$pid" ] || { sleep 1; return; }
	what=${WHAT[$pid]-?}
	unset "WHAT[$pid]"
	ENDED[$what]=$((${ENDED[$what]-0} + 1))
	say "$what (pid $pid) ended, exit $rc"
	if [ "${ENDED[$what]}" -gt 5 ]; then
		say "$what ended ${ENDED[$what]} times: not started again"
		return
	fi
	sleep 1
	case $what in
	gunicorn) start_gunicorn ;;
	publisher) start_publisher ;;
	scheduler) start_scheduler ;;
	worker*) start_worker "${what#worker }" ;;
	*) say "the lab cannot go on without $what"; exit 1 ;;
	esac
}

main() {
	local n
	mkdir -p "$S/log"
	: >"$S/pids"
	rm -f "$S/ready"
	start_postgres
	configure_events
	first_setup
	for n in $(seq "$WORKERS"); do
		add_worker "$n"
	done
	start_gunicorn
	start_publisher
	start_scheduler
	for _ in $(seq 120); do
		api_up && break
		sleep 0.5
	done
	api_up || { say "the API does not answer on 127.0.0.1:$PORT"; exit 1; }
	for n in $(seq "$WORKERS"); do
		start_worker "$n"
	done
	echo "http://127.0.0.1:$PORT" >"$S/ready"
	say "ready: http://127.0.0.1:$PORT, $WORKERS worker(s)"
	while :; do
		restart_ended
	done
}

main
