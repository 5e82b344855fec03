#!/usr/bin/env bash
# Submit a sharded `pomdpq quotient` run to Slurm: two job arrays and two
# merges chained with --dependency=afterok (docs/scale-out.md).
#
#   deploy/slurm/quotient-array.sh --shards N --dir DIR [options] -- QUOTIENT-FLAGS...
#
# e.g. deploy/slurm/quotient-array.sh --shards 1000 --dir /scratch/$USER/tiger5 \
#        --max-running 64 -- --model tiger --family clock --m 2 --T 5 --eps 0,0.3,0.5
#
# Jobs, each waiting for the previous one to succeed:
#   1. array 0..N-1: round 1, DIR/classes-I.pq (exact classes of slice I)
#   2. merge:        DIR/plan.pq (the family's exact classes)
#   3. array 0..N-1: round 2, DIR/dist-I.pq (maxima between the plan's representatives)
#   4. merge:        DIR/result.txt and DIR/result.json (class counts at --eps)
# DIR must be on a file system every node sees. Every task skips a part that
# already exists (parts are written atomically: a file under the final name
# is complete), so after a failure rerunning the same command with --resume
# reruns only the missing shards; `pomdpq merge --missing DIR/dist-*.pq`
# lists them in --array syntax.
#
# Options:
#   --shards N          number of shards (required)
#   --dir DIR           output directory (required)
#   --pomdpq PATH       the pomdpq binary, visible to every node (default: pomdpq on PATH)
#   --max-running K     at most K array tasks at once (%K)
#   --sbatch "ARGS"     extra sbatch arguments for every job (partition, account, time, memory)
#   --resume            keep the parts already in DIR (the default refuses a non-empty DIR)
#   --wait              block until the final merge ends (sbatch --wait); exit with its status
set -euo pipefail

shards= dir= pomdpq=pomdpq maxrun= extra= resume=0 wait=0
while [[ $# -gt 0 ]]; do
	case "$1" in
	--shards) shards=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--pomdpq) pomdpq=$2; shift 2 ;;
	--max-running) maxrun=%$2; shift 2 ;;
	--sbatch) extra=$2; shift 2 ;;
	--resume) resume=1; shift ;;
	--wait) wait=1; shift ;;
	--) shift; break ;;
	*) echo "quotient-array.sh: unknown option $1 (flags for pomdpq quotient go after --)" >&2; exit 2 ;;
	esac
done
if [[ -z "$shards" || -z "$dir" || $# -eq 0 ]]; then
	sed -n '2,12p' "$0" >&2
	exit 2
fi
if ! [[ "$shards" =~ ^[1-9][0-9]*$ ]]; then
	echo "quotient-array.sh: --shards $shards is not a positive integer" >&2
	exit 2
fi
# The eps list of the quotient flags is also the final merge's.
eps=0
args=("$@")
for ((k = 0; k < ${#args[@]}; k++)); do
	case "${args[k]}" in
	--eps | -eps) eps=${args[k + 1]} ;; # Go flags take one dash or two
	--eps=* | -eps=*) eps=${args[k]#*=} ;;
	esac
done
mkdir -p "$dir/logs"
dir=$(cd "$dir" && pwd)
if [[ $resume -eq 0 ]] && compgen -G "$dir/*.pq" >/dev/null; then
	echo "quotient-array.sh: $dir already holds parts; give --resume to keep them and rerun only the missing shards" >&2
	exit 2
fi
command -v "$pomdpq" >/dev/null || { echo "quotient-array.sh: $pomdpq not found (give --pomdpq PATH)" >&2; exit 2; }
pomdpq=$(command -v "$pomdpq")

q() { printf '%q' "$1"; } # one word, quoted for the job's shell
flags=$(printf '%q ' "${args[@]}")
last=$((shards - 1))
# The job id: --parsable prints "ID" or, on a multi-cluster site, "ID;CLUSTER"
# (--dependency takes the id alone).
# shellcheck disable=SC2086 # $extra holds several sbatch arguments
sb() {
	local out
	out=$(sbatch --parsable $extra "$@") || return
	echo "${out%%;*}"
}

# A task: skip when the part exists, else compute it (atomically). Its
# memory budget is the job's allocation (pomdpq's default, half the node's
# memory, would let the job be killed for memory instead of refusing with
# the estimate); a --mem among the quotient flags comes later and wins.
task() { # round, part prefix, extra flags
	echo "set -eu; i=\$SLURM_ARRAY_TASK_ID; part=$(q "$dir")/$2-\$i.pq; " \
		"if [ -e \"\$part\" ]; then echo \"shard \$i: \$part exists, skipped\"; exit 0; fi; " \
		"mem=; if [ \"\${SLURM_MEM_PER_NODE:-0}\" -gt 0 ] 2>/dev/null; then mem=\"--mem \${SLURM_MEM_PER_NODE}M\"; " \
		"elif [ \"\${SLURM_MEM_PER_CPU:-0}\" -gt 0 ] 2>/dev/null && [ \"\${SLURM_CPUS_ON_NODE:-0}\" -gt 0 ] 2>/dev/null; then " \
		"mem=\"--mem \$((SLURM_MEM_PER_CPU * SLURM_CPUS_ON_NODE))M\"; fi; " \
		"$(q "$pomdpq") quotient \$mem $flags --progress=lines --shard \$i/$shards $3 --save \"\$part\""
}

j1=$(sb --job-name=pq-classes --array="0-$last$maxrun" --output="$dir/logs/classes-%a.out" \
	--wrap "$(task 1 classes "")")
j2=$(sb --job-name=pq-plan --dependency=afterok:"$j1" --kill-on-invalid-dep=yes --output="$dir/logs/plan.out" \
	--wrap "set -eu; cd $(q "$dir"); $(q "$pomdpq") merge classes-*.pq --out plan.pq")
j3=$(sb --job-name=pq-dist --dependency=afterok:"$j2" --kill-on-invalid-dep=yes --array="0-$last$maxrun" --output="$dir/logs/dist-%a.out" \
	--wrap "$(task 2 dist "--plan $(q "$dir/plan.pq") --probes $(q "$dir")/classes-\$i.pq")")
final=(--job-name=pq-merge --dependency=afterok:"$j3" --kill-on-invalid-dep=yes --output="$dir/logs/merge.out"
	--wrap "set -eu; cd $(q "$dir"); trap 'rm -f .result.txt.tmp .result.json.tmp' EXIT; $(q "$pomdpq") merge dist-*.pq --eps $(q "$eps") >.result.txt.tmp; $(q "$pomdpq") merge dist-*.pq --eps $(q "$eps") --json >.result.json.tmp; mv .result.txt.tmp result.txt; mv .result.json.tmp result.json")
echo "submitted: round 1 $j1 (array 0-$last), plan $j2, round 2 $j3 (array 0-$last); results in $dir"
if [[ $wait -eq 1 ]]; then
	j4=$(sb --wait "${final[@]}") || { echo "final merge failed; logs in $dir/logs; rerun with --resume" >&2; exit 1; }
	echo "final merge $j4 done: $dir/result.txt"
else
	j4=$(sb "${final[@]}")
	echo "final merge $j4 writes $dir/result.txt"
fi
