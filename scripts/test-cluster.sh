#!/usr/bin/env bash
# The Slurm path of a sharded run, for real: installs Debian's slurm-wlm and
# munge when missing (root, Debian), starts munged, slurmctld and slurmd on
# localhost from a private configuration (own ports, state and sockets in a
# temporary directory: nothing in /etc is touched), submits
# deploy/slurm/quotient-array.sh, waits, and compares the merged result with
# the single-process run. Then it deletes one round-2 part, resubmits with
# --resume and checks that only that shard is recomputed. The daemons are
# always stopped (trap).
#
#   scripts/test-cluster.sh            (make test-cluster)
#
# Variables: GO (go), SHARDS (3), QUOTIENT (the quotient flags; default
# the acceptance run of issue 12, Tiger clock-aware m = 2 at T = 4),
# KEEP=1 keeps the temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
GO=${GO:-go}
SHARDS=${SHARDS:-3}
read -r -a quotient <<<"${QUOTIENT:---model tiger --family clock --m 2 --T 4 --eps 0,0.3,0.5 --limit 30000000}"
start=$(date +%s)

need=()
for b in slurmctld slurmd sbatch munged; do
	command -v "$b" >/dev/null 2>&1 || need=(slurm-wlm munge)
done
# python3 compares the JSON results (not in a minimal Debian image).
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [[ ${#need[@]} -gt 0 ]]; then
	if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
		echo "test-cluster: ${need[*]} missing and this is not root on Debian: install them" >&2
		exit 1
	fi
	t0=$(date +%s)
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q "${need[@]}"
	echo "test-cluster: installed ${need[*]} in $(($(date +%s) - t0)) s"
fi
# Debian starts the packaged services on install; ours use their own
# ports, key and sockets, so those do not interfere.

tmp=$(mktemp -d -t pomdpq-cluster.XXXXXX)
chmod 755 "$tmp"
pids=() # munged, slurmctld, slurmd: each in its own session (setsid), so
# that a ^C reaches only this script and cleanup stops them in order
sub=    # a running deploy/slurm/quotient-array.sh (its own session too)
cleanup() {
	status=$?
	# Jobs first: a job's processes belong to slurmstepd, not to slurmd,
	# and would outlive the daemons (a failure or ^C mid-run).
	# (squeue is bounded: it retries for long when slurmctld is gone.)
	if [[ ${#pids[@]} -ge 2 ]] && kill -0 "${pids[1]}" 2>/dev/null &&
		[[ -n "$(timeout 10 squeue -h -o %i 2>/dev/null)" ]]; then
		timeout 10 scancel --user="$user" 2>/dev/null || true
		for _ in $(seq 50); do
			[[ -z "$(timeout 10 squeue -h -o %i 2>/dev/null)" ]] && break
			sleep 0.2
		done
	fi
	# A submission interrupted in `sbatch --wait`: its process group (an
	# sbatch whose controller is gone would wait forever).
	if [[ -n "$sub" ]]; then
		kill -- -"$sub" 2>/dev/null || true
		wait "$sub" 2>/dev/null || true
	fi
	# slurmd, slurmctld, then munged (by its pid file: runuser may not
	# pass the signal on).
	for ((k = ${#pids[@]} - 1; k >= 0; k--)); do
		kill "${pids[k]}" 2>/dev/null || true
		if [[ $k -eq 0 && -f "$tmp/munge/munged.pid" ]]; then
			kill "$(cat "$tmp/munge/munged.pid" 2>/dev/null)" 2>/dev/null || true
		fi
		wait "${pids[k]}" 2>/dev/null || true
	done
	if [[ $status -ne 0 ]]; then
		for f in "$tmp"/log/*.log "$tmp"/out/logs/*.out; do
			[[ -f "$f" ]] && { echo "--- $f"; tail -n 20 "$f"; }
		done
	fi
	if [[ "${KEEP:-0}" == 1 ]]; then
		echo "test-cluster: kept $tmp"
	else
		rm -rf "$tmp"
	fi
	echo "test-cluster: daemons stopped; $(($(date +%s) - start)) s in all"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# submit runs deploy/slurm/quotient-array.sh in the background and waits
# for it: a signal interrupts `wait` at once (not a foreground sbatch --wait).
submit() {
	setsid deploy/slurm/quotient-array.sh --shards "$SHARDS" --dir "$tmp/out" --pomdpq "$tmp/bin/pomdpq" "$@" &
	sub=$!
	wait "$sub"
	sub=
}

mkdir -p "$tmp"/{bin,log,state,spool,munge,key,out}
"$GO" build -o "$tmp/bin/pomdpq" ./cmd/pomdpq

# munge: a fresh key and a private socket.
dd if=/dev/urandom of="$tmp/key/munge.key" bs=1024 count=1 status=none
chmod 700 "$tmp/key"
chmod 400 "$tmp/key/munge.key"
user=$(id -un)
if [[ $(id -u) -eq 0 ]]; then
	chown -R munge:munge "$tmp/munge" "$tmp/key" 2>/dev/null && muser=munge || muser=root
else
	muser=$user
fi
sock="$tmp/munge/munge.socket"
run_munge=(munged --foreground --key-file="$tmp/key/munge.key" --socket="$sock"
	--pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed")
if [[ $muser == munge && $(id -u) -eq 0 ]]; then
	setsid runuser -u munge -- "${run_munge[@]}" >"$tmp/log/munged.out" 2>&1 &
else
	setsid "${run_munge[@]}" --force >"$tmp/log/munged.out" 2>&1 &
fi
pids+=($!)
for _ in $(seq 50); do [[ -S "$sock" ]] && break; sleep 0.1; done
[[ -S "$sock" ]] || { echo "test-cluster: munged did not start" >&2; exit 1; }

node=$(hostname -s)
mkdir -p "$tmp/spool/$node"
cpus=$(nproc)
mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2))
port=$((20000 + RANDOM % 20000))
conf="$tmp/slurm.conf"
cat >"$conf" <<CONF
ClusterName=pomdpqtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
MinJobAge=3600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf
setsid slurmctld -D -i -f "$conf" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
setsid slurmd -D -f "$conf" -N "$node" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
	state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
	[[ "$state" == idle* ]] && break
	sleep 0.2
done
[[ "$state" == idle* ]] || { echo "test-cluster: node $node is '$state', not idle" >&2; sinfo >&2 || true; exit 1; }
echo "test-cluster: slurmctld and slurmd up on $node ($cpus CPUs) after $(($(date +%s) - start)) s"

# The single-process reference (--enumerate: enumerated like the shards;
# clock m = 2 is otherwise searched, lib/clock2).
t0=$(date +%s)
"$tmp/bin/pomdpq" quotient "${quotient[@]}" --enumerate --progress=off --json >"$tmp/single.json"
echo "test-cluster: single process in $(($(date +%s) - t0)) s"

t0=$(date +%s)
submit --wait -- "${quotient[@]}"
echo "test-cluster: $SHARDS shards, two rounds and two merges through Slurm in $(($(date +%s) - t0)) s"
cat "$tmp/out/result.txt"

compare() { # the merged JSON against the single run: every key merge reports
	python3 - "$tmp/single.json" "$1" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["family_size", "histories", "exact_classes", "max_distance_exact", "classes", "stand_ins", "convention"]
# In decision mode (max_distance_exact false) max_distance is a lower bound
# above the largest ε, and which one depends on the order probes are met.
if a["max_distance_exact"]:
    keys.append("max_distance")
bad = [k for k in keys if a[k] != b[k]]
for k in bad:
    print(f"test-cluster: {k}: single {a[k]}, merged {b[k]}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
compare "$tmp/out/result.json"
echo "test-cluster: merged result = single-process result"

# A lost part: only its shard is rerun.
rm "$tmp/out/dist-1.pq" "$tmp/out/result.json"
missing=$("$tmp/bin/pomdpq" merge --missing "$tmp"/out/dist-*.pq)
[[ "$missing" == 1 ]] || { echo "test-cluster: merge --missing said '$missing', want 1" >&2; exit 1; }
submit --resume --wait -- "${quotient[@]}"
recomputed=$(grep -L skipped "$tmp"/out/logs/dist-*.out "$tmp"/out/logs/classes-*.out | xargs -n1 basename | tr '\n' ' ')
[[ "$recomputed" == "dist-1.out " ]] || { echo "test-cluster: the resumed run recomputed '$recomputed', want dist-1.out only" >&2; exit 1; }
compare "$tmp/out/result.json"
echo "test-cluster: resumed run recomputed shard 1 only, same result"
echo "test-cluster: PASS"
