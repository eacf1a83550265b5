#!/usr/bin/env bash
# Git benchmark: grove's git_* tools over MCP (stdio) against the git CLI, on two generated repositories.
#
#   bench/git.sh                 # generate the repos if missing, build grove, run, print a Markdown table
#   N=25 bench/git.sh            # more repetitions (default 15)
#   REPOS=mid bench/git.sh       # only some repositories (default: log20k log20k-bloom status50k mid wide)
#   BENCH_CACHE=/path bench/git.sh   # where the repos live (default ~/.cache/grove-gitbench); delete it to regenerate
#
# The repositories are generated with bench/cmd/gitgen piped into `git fast-import`, never committed to this
# repository. The git CLI runs isolated from the user's configuration (HOME and XDG_CONFIG_HOME pointing at an
# empty directory, GIT_CONFIG_NOSYSTEM=1); the driver also sets GIT_OPTIONAL_LOCKS=0, so `git status` does not
# rewrite the index between runs. FIRST=5 bench/git.sh takes the first-call time over 5 fresh processes (default 3).
#
# log20k and status50k are issue 13's shapes (gitgen -kind log20k/status50k, then `git gc`: a commit-graph
# without changed-path Bloom filters); log20k-bloom is a copy of log20k whose commit-graph has them
# (`git commit-graph write --reachable --changed-paths`). The issue's table is the first rows of the output.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/grove-gitbench}
N=${N:-15}
FIRST=${FIRST:-3}
REPOS=${REPOS:-log20k log20k-bloom status50k mid wide}
GROVE=${GROVE:-/tmp/grove-gitbench}

mkdir -p "$CACHE/home"
# git: the CLI isolated from the user's and the system's configuration (HOME only for git: go needs the real one).
git() {
	HOME=$CACHE/home XDG_CONFIG_HOME=$CACHE/home/.config GIT_CONFIG_NOSYSTEM=1 \
		GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.org \
		GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.org command git "$@"
}

# generate KIND: fast-import the generated history, check out main, and leave an index that is not racy.
generate() {
	local kind=$1 dir=$CACHE/$1 start=$SECONDS
	rm -rf "$dir" "$dir.json"
	if [ "$kind" = log20k-bloom ]; then
		[ -f "$CACHE/log20k.json" ] || generate log20k
		cp -a "$CACHE/log20k" "$dir"
		git -C "$dir" commit-graph write --reachable --changed-paths
		sed 's/"kind": "log20k"/"kind": "log20k-bloom"/' "$CACHE/log20k.json" >"$dir.json"
		echo "bench: generated $kind in $((SECONDS - start)) s" >&2
		return
	fi
	git init -q -b main "$dir"
	go run ./bench/cmd/gitgen -kind "$kind" -meta "$dir.json.tmp" | git -C "$dir" fast-import --quiet
	case $kind in
	mid | wide)
		git -C "$dir" repack -a -d -q --window=10
		git -C "$dir" commit-graph write --reachable
		;;
	*) git -C "$dir" gc -q ;; # as the issue did: a commit-graph, no Bloom filters
	esac
	git -C "$dir" checkout -q -f main
	# Refresh the index a second after the checkout, so no entry is racily clean (same mtime as the index).
	sleep 1.1
	git -C "$dir" read-tree HEAD
	git -C "$dir" update-index -q --refresh >/dev/null || true
	mv "$dir.json.tmp" "$dir.json"
	echo "bench: generated $kind in $((SECONDS - start)) s ($(du -sh "$dir/.git" | cut -f1) .git)" >&2
}

gen_start=$SECONDS
for kind in $REPOS; do
	if [ ! -f "$CACHE/$kind.json" ]; then
		generate "$kind"
	fi
done
echo "bench: repositories ready in $((SECONDS - gen_start)) s" >&2

if CGO_ENABLED=0 go build -o "$GROVE.new" .; then
	mv "$GROVE.new" "$GROVE"
elif [ -x "$GROVE" ]; then
	echo "bench: grove does not build right now; using the last good $GROVE" >&2
else
	echo "bench: grove does not build and there is no earlier binary" >&2
	exit 1
fi

args=()
for kind in $REPOS; do
	# An earlier run may have left stat-dirty (content-equal) entries behind: refresh them.
	git -C "$CACHE/$kind" update-index -q --refresh >/dev/null || true
	args+=("$CACHE/$kind")
done
echo "bench: load average before the run: $(cat /proc/loadavg)" >&2
go run ./bench/cmd/gitbench -grove "$GROVE" -n "$N" -first "$FIRST" "${args[@]}"
