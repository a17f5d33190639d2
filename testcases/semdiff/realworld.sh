#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Semantic diff on the real-world corpus ($NFTKIT_SHARED/realworld):
#  (1) every file (its .fixed variant where one exists) against its own
#      ipt2nft translation must be proven equivalent (exit 0) or be
#      refused as trouble (exit 2: a side that does not compile or an
#      expression the engine does not model); "different" fails;
#  (3) the same file against stock iptables-restore-translate's output:
#      stock's known losses (a protocol dropped from "-p udp -m udp",
#      ...) must be reported different with counterexamples, which an
#      independent concrete evaluator (semdiff/concrete.c) replays to
#      different verdicts or fields on the two sides; through the VM's
#      trace (replay.c) none may disagree (those resting on stateful
#      free choices, or that the VM cannot trace, are counted).
# Prints one line per file and the totals; skips (77) without corpus.
set -u
shared=${NFTKIT_SHARED:-$(dirname "$0")/../../../shared}
dir=$shared/realworld
. "${srcdir:-$(dirname "$0")/..}/lib/realworld.sh"
ipt2nft=${IPT2NFT:-${top_builddir:-../..}/xlate/ipt2nft}
stock=$(command -v iptables-restore-translate || true)
concrete=${SEMDIFF_CONCRETE:-${top_builddir:-../..}/testcases/semdiff/concrete}
[ -x "$concrete" ] || concrete=
[ -d "$dir" ] || { echo "SKIP: no $dir"; exit 77; }
[ -x "$ipt2nft" ] || { echo "SKIP: no ipt2nft"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=0 equiv=0 trouble=0 diff=0 sfiles=0 sequiv=0 sdiff=0 strouble=0 sreplayed=0 sunverified=0 vm_ok=0 vm_free=0 vm_no=0 bad=0
for f in "$dir"/*.rules; do
	rw_pick "$f" || continue
	files=$((files + 1))
	"$ipt2nft" $fam -q "$f" >"$tmp/new.nft" 2>/dev/null
	"$ipt2nft" diff $fam --view=none "$f" "$tmp/new.nft" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case $rc in
	0) equiv=$((equiv + 1)); r=equivalent ;;
	1) diff=$((diff + 1)); r=DIFFERENT; bad=1
	   sed -n '1,20p' "$tmp/out" ;;
	2) trouble=$((trouble + 1))
	   r="trouble: $(grep -m1 -o 'error: .*' "$tmp/err" | cut -c1-90)" ;;
	*) bad=1; r="CRASH rc=$rc" ;;
	esac
	echo "own  $name: $r"
	[ -n "$stock" ] || continue
	# stock: same family flag by the program's name
	tool=$stock
	[ -n "$fam" ] && tool=$(command -v ip6tables-restore-translate || echo "$stock")
	"$tool" -f "$f" >"$tmp/stock.nft" 2>/dev/null || continue
	sfiles=$((sfiles + 1))
	"$ipt2nft" diff $fam --raw --view=none "$f" "$tmp/stock.nft" >"$tmp/sout" 2>"$tmp/serr"
	src=$?
	case $src in
	0) sequiv=$((sequiv + 1)); r=equivalent ;;
	1) sdiff=$((sdiff + 1)); r=DIFFERENT
	   if ! grep -q '^    trace packet' "$tmp/sout" ||
	      ! grep -q '^    old: ' "$tmp/sout"; then
		r="DIFFERENT without counterexample"; bad=1
	   elif [ -z "$concrete" ]; then
		r="DIFFERENT (no concrete evaluator to replay it)"
	   else
		"$concrete" "$f" "$tmp/stock.nft" "$tmp/sout" >"$tmp/conc" 2>&1
		case $? in
		0) r="DIFFERENT (replayed: $(tr '\n' ' ' <"$tmp/conc"))"
		   sreplayed=$((sreplayed + 1)) ;;
		# the judge cannot run an expression: unverified, not wrong
		2) r="DIFFERENT (not replayable: $(tr '\n' ' ' <"$tmp/conc" | cut -c1-80))"
		   sunverified=$((sunverified + 1)) ;;
		*) r="DIFFERENT, but the counterexample does not replay"; bad=1
		   cat "$tmp/conc" ;;
		esac
	   fi
	   if grep -q '^    replay: DISAGREES' "$tmp/sout"; then
		r="$r; the VM's trace DISAGREES"; bad=1
		grep -B12 '^    replay: DISAGREES' "$tmp/sout"
	   fi
	   vm_ok=$((vm_ok + $(grep -c '^    replay: confirmed' "$tmp/sout")))
	   vm_free=$((vm_free + $(grep -c '^    replay: not confirmed' "$tmp/sout")))
	   vm_no=$((vm_no + $(grep -c '^    replay: not possible' "$tmp/sout")))
	   grep -m1 '^  counterexample' "$tmp/sout" | sed 's/^/      /'
	   grep -m1 '^    trace packet' "$tmp/sout" | sed 's/^/      /' ;;
	2) strouble=$((strouble + 1))
	   r="trouble: $(grep -m1 -o 'error: .*' "$tmp/serr" | cut -c1-90)" ;;
	*) bad=1; r="CRASH rc=$src" ;;
	esac
	echo "stock $name: $r"
done
echo "semdiff own translation: $files files: $equiv equivalent, $diff different, $trouble trouble"
[ -n "$stock" ] &&
echo "semdiff stock translation: $sfiles files: $sequiv equivalent, $sdiff different ($sreplayed replayed concretely, $sunverified beyond the concrete evaluator), $strouble trouble; counterexamples through the VM's trace: $vm_ok confirmed, $vm_free on free choices, $vm_no not possible"
# Floors: most files must be proven (the rest are named above).
[ $equiv -ge $((files * 3 / 4)) ] || { echo "FAIL: too few proven"; bad=1; }
if [ -n "$stock" ] && [ $sdiff -lt 1 ]; then
	echo "FAIL: no stock loss found"; bad=1
fi
exit $bad
