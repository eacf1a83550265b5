# Shared by fs.sh and watch.sh: build grove into bench/out, keeping the last
# good binary when the tree does not build (other packages may be mid-edit).
# Sourced with the repository root as the working directory.

build_grove() {
	mkdir -p bench/out
	if CGO_ENABLED=0 go build -o bench/out/grove.new .; then
		mv bench/out/grove.new bench/out/grove
	elif [ -x bench/out/grove ]; then
		echo "bench: grove does not build right now; using the last good bench/out/grove" >&2
	else
		echo "bench: grove does not build and there is no earlier binary" >&2
		return 1
	fi
}
