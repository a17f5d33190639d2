#!/bin/sh
# nftkit set-up: install the build dependencies (Debian 12, as root),
# build out of tree in ./build, then either run the bundled example
# ("example") or the whole test suite ("test").
set -eu

top=$(cd "$(dirname "$0")" && pwd)
what=${1:-example}

install_deps() {
	pkgs=$(grep -v '^#' "$top/scripts/debian-packages.txt" | tr '\n' ' ')
	missing=""
	for p in $pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup.sh: missing packages:$missing (run as root)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
}

build() {
	cd "$top"
	[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi
	mkdir -p build
	cd build
	[ -f Makefile ] || ../configure --quiet
	make -j"$(nproc)" >/dev/null
}

install_deps
build

case "$what" in
example)
	exec "$top/build/nftc/nft" -c --debug=netlink \
		-f "$top/testcases/examples/host-firewall.nft"
	;;
test)
	cd "$top/build"
	exec make -j"$(nproc)" check
	;;
*)
	echo "usage: $0 [example|test]" >&2
	exit 2
	;;
esac
