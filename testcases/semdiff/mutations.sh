#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Mutation test of the semantic diff: random (fixed seed) single-rule
# mutations of the ipt2nft translation of real-world files (a port, an
# address, a verdict, a deleted rule, two dependent rules swapped) and
# behaviour-preserving rewrites (two independent rules swapped, two
# rules merged into an anonymous set).
#  * every rewrite must be reported equivalent;
#  * a mutation reported different must come with a counterexample
#    that an independent concrete evaluator (semdiff/concrete.c: one
#    packet, byte by byte, no BDDs) runs to different verdicts (or
#    different marks/NAT) on the two sides, and whose trace names the
#    mutated line (the engine is not told which line changed);
#  * every mutation is found or proven harmless (found + harmless =
#    seeded); the unfound ones are listed, and for IPv4 files 400
#    packets per hook drawn from the files' constants are run through
#    the concrete evaluator: none may tell the two versions apart;
#  * every mutation reported equivalent is proven harmless (below);
#  * under root, a bounded sample of found mutations (2 per IPv4 file,
#    behind cases-independent kernel-filter.nft so that the
#    counterexamples are packets a wire can carry) is replayed through
#    the kernel (kernel_replay.py): stock nft loads each side into a
#    private network namespace and the packet must get the verdicts
#    the engine gave.
set -u
shared=${NFTKIT_SHARED:-$(dirname "$0")/../../../shared}
dir=$shared/realworld
ipt2nft=${IPT2NFT:-${top_builddir:-../..}/xlate/ipt2nft}
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$dir" ] || { echo "SKIP: no $dir"; exit 77; }
[ -x "$ipt2nft" ] || { echo "SKIP: no ipt2nft"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
concrete=${SEMDIFF_CONCRETE:-${top_builddir:-../..}/testcases/semdiff/concrete}
[ -x "$concrete" ] || { echo "SKIP: no $concrete"; exit 77; }
nft=${NFT:-${top_builddir:-../..}/nftc/nft}
[ -x "$nft" ] || { echo "SKIP: no $nft"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bad=0 changed=0 found=0 same=0 same_ok=0 sampled=0 vm_ok=0 vm_free=0 vm_no=0
shadowed=0 reached=0 hits=0 hitpk=0 ksample=0
for name in isem-memphis-testbed isem-sns-eduroam isem-ringofsaturn \
	    isem-synology-ds414 isem-gopherproxy ufw-conf-before6.rules; do
	f=$dir/$name.rules
	[ -f "$dir/$name.fixed.rules" ] && f=$dir/$name.fixed.rules
	[ -f "$f" ] || continue
	fam=
	case $name in *6*) fam=-6 ;; esac
	mkdir -p "$tmp/$name"
	kfile=0
	"$ipt2nft" $fam -q "$f" >"$tmp/$name/orig.nft" 2>/dev/null
	python3 "$here/mutate.py" "$tmp/$name/orig.nft" "$tmp/$name" 7 10 \
		>"$tmp/$name/list" || { bad=1; continue; }
	while read -r m kind expect lines; do
		"$ipt2nft" diff --raw --view=none -n 1 "$tmp/$name/orig.nft" \
			"$tmp/$name/$m" >"$tmp/out" 2>&1
		rc=$?
		if [ "$expect" = same ]; then
			same=$((same + 1))
			if [ $rc -eq 0 ]; then
				same_ok=$((same_ok + 1))
			else
				echo "FAIL $name $m $kind: rewrite reported rc=$rc"
				sed -n '1,30p' "$tmp/out"
				bad=1
			fi
			continue
		fi
		changed=$((changed + 1))
		case $rc in
		0) # Reported equivalent: prove it harmless independently
		   # of that answer. Probes (mutate.py --probes): the
		   # original with "MATCH queue num 4242" put before the
		   # mutated rule, MATCH the rule's match whose packets the
		   # mutation could decide differently (both versions' for
		   # a port/prefix, both rules' together for a swap). If no
		   # packet reaching that point matches (the probe is
		   # equivalent to the original), the mutation cannot
		   # change anything. Otherwise the probe's counterexamples
		   # are packets that reach the rule and hit its match: the
		   # concrete evaluator must show each hits it (original
		   # and probe differ) and that the original and the
		   # mutation treat each alike.
		   python3 "$here/mutate.py" --probes "$tmp/$name/orig.nft" \
			"$tmp/$name/$m" "$kind" "$lines" "$tmp/$name/$m" \
			>"$tmp/probes" || { bad=1; continue; }
		   why=shadowed
		   # the same VM code on both sides (a prefix whose changed
		   # bits are host bits): nothing was mutated
		   NFTKIT_OFFLINE_CHECK=1 "$nft" -c --debug=netlink \
			-f "$tmp/$name/orig.nft" >"$tmp/code0" 2>&1
		   NFTKIT_OFFLINE_CHECK=1 "$nft" -c --debug=netlink \
			-f "$tmp/$name/$m" >"$tmp/code1" 2>&1
		   if grep -q ' cmp ' "$tmp/code0" &&
		      cmp -s "$tmp/code0" "$tmp/code1"; then
			why="no-op: the same VM code"
			: >"$tmp/probes"
		   fi
		   # a deleted rule with no verdict and no write (a log)
		   if [ "$(cat "$tmp/probes")" = NOEFFECT ]; then
			why="no effect: the deleted rule only logs/counts"
			: >"$tmp/probes"
		   fi
		   while read -r p; do
			"$ipt2nft" diff --raw --view=none -n 8 \
				"$tmp/$name/orig.nft" "$p" >"$tmp/pout" 2>&1
			case $? in
			0) # unreachable: packets built to hit the match
			   # (the match alone against nothing, every hook)
			   # must not reach it in the original, concretely
			   "$ipt2nft" diff --raw --view=none -n 3 \
				"${p%.nft}-none.nft" "${p%.nft}-hit.nft" \
				>"$tmp/hout" 2>&1
			   if [ $? = 2 ]; then
				echo "FAIL $name $m $kind: no packets for" \
				     "the match of probe $p"
				sed -n '1,10p' "$tmp/hout"; bad=1
			   elif grep -q '^    raw-hook' "$tmp/hout"; then
				"$concrete" --any "$tmp/$name/orig.nft" "$p" \
					"$tmp/hout" >"$tmp/conc" 2>&1
				if [ $? != 1 ]; then
					echo "FAIL $name $m $kind: a packet" \
					     "hitting the match reaches it"
					cat "$tmp/conc"; bad=1
				fi
				hitpk=$((hitpk + $(grep -c '^    raw-hook' \
					"$tmp/hout")))
			   fi ;;
			1) why=reached
			   if ! "$concrete" --any "$tmp/$name/orig.nft" "$p" \
				"$tmp/pout" >/dev/null 2>&1; then
				echo "FAIL $name $m $kind: a probe's" \
				     "counterexample does not replay"
				sed -n '1,20p' "$tmp/pout"; bad=1
			   fi
			   # exit 1: every packet agrees
			   "$concrete" --any "$tmp/$name/orig.nft" \
				"$tmp/$name/$m" "$tmp/pout" >"$tmp/conc" 2>&1
			   crc=$?
			   if [ $crc != 1 ]; then
				echo "FAIL $name $m $kind: reported" \
				     "equivalent, but a packet that hits the" \
				     "mutated rule tells them apart (exit $crc):"
				cat "$tmp/conc"; bad=1
			   fi
			   hits=$((hits + $(grep -c '^    raw-hook' "$tmp/pout"))) ;;
			# both rules' matches together name two protocols
			# of one layer: no packet matches both
			*) if grep -q 'Error: conflicting protocols specified' \
				"$tmp/pout"; then
				[ $why = reached ] ||
					why="disjoint: conflicting protocols"
			   else
				echo "FAIL $name $m $kind: probe $p: trouble"
				sed -n '1,10p' "$tmp/pout"; bad=1
			   fi ;;
			esac
		   done <"$tmp/probes"
		   echo "not found ($why) $name $m $kind line $lines"
		   if [ "$why" = reached ]; then
			reached=$((reached + 1))
		   else
			shadowed=$((shadowed + 1))
		   fi
		   [ -z "$fam" ] || continue
		   python3 "$here/mutate.py" --packets "$tmp/$name/orig.nft" \
			"$tmp/$name/$m" 11 400 >"$tmp/pk"
		   if "$concrete" --any "$tmp/$name/orig.nft" "$tmp/$name/$m" \
			"$tmp/pk" >"$tmp/conc" 2>&1; then
			echo "FAIL $name $m $kind: reported equivalent, but" \
			     "a packet tells them apart:"
			cat "$tmp/conc"
			bad=1
		   else
			sampled=$((sampled + 1))
		   fi ;;
		1)
			# the whole outcome: "reject type 0 code 3", ...
			ov=$(sed -n '/^    old: /{s/^    old: \(.*\) by .*/\1/p;q}' "$tmp/out")
			nv=$(sed -n '/^    new: /{s/^    new: \(.*\) by .*/\1/p;q}' "$tmp/out")
			eff=$(grep -c 'different marks' "$tmp/out")
			hit=0
			for l in $(echo "$lines" | tr , ' '); do
				grep -E '^    (old|new): ' "$tmp/out" |
					grep -q "(line $l)" && hit=1
			done
			"$concrete" "$tmp/$name/orig.nft" "$tmp/$name/$m" \
				"$tmp/out" >"$tmp/conc" 2>&1
			crc=$?
			if { [ "$ov" = "$nv" ] && [ "$eff" = 0 ]; } ||
			   [ $hit = 0 ] || [ $crc != 0 ]; then
				echo "concrete evaluator (exit $crc):"
				cat "$tmp/conc"
				echo "FAIL $name $m $kind: counterexample does" \
				     "not show the mutation (line $lines)"
				sed -n '1,40p' "$tmp/out"
				bad=1
			else
				found=$((found + 1))
			fi
			# the same counterexample through the VM's trace
			if grep -q '^    replay: DISAGREES' "$tmp/out"; then
				echo "FAIL $name $m $kind: the VM's trace" \
				     "disagrees with the counterexample"
				sed -n '1,40p' "$tmp/out"
				bad=1
			fi
			# a bounded sample for the kernel: the same pair
			# behind a filter that lets only packets a wire can
			# carry (IPv4 TCP/UDP, new, no martians) reach the
			# rules, so the counterexamples are such packets
			if [ -z "$fam" ] && [ $ksample -lt 10 ] &&
			   [ $kfile -lt 2 ]; then
				for v in orig.nft "$m"; do
					cat "$tmp/$name/$v" "$here/kernel-filter.nft" \
						>"$tmp/$name/k-$v"
				done
				"$ipt2nft" diff --raw --view=none -n 4 \
					"$tmp/$name/k-orig.nft" "$tmp/$name/k-$m" \
					>"$tmp/$name/k-$m.out" 2>&1 &&
					: || [ $? != 1 ] ||
				{ echo "$tmp/$name/k-orig.nft $tmp/$name/k-$m" \
				       "$tmp/$name/k-$m.out" >>"$tmp/kpairs"
				  ksample=$((ksample + 1)) kfile=$((kfile + 1)); }
			fi
			vm_ok=$((vm_ok + $(grep -c '^    replay: confirmed' "$tmp/out")))
			vm_free=$((vm_free + $(grep -c '^    replay: not confirmed' "$tmp/out")))
			vm_no=$((vm_no + $(grep -c '^    replay: not possible' "$tmp/out"))) ;;
		*) echo "FAIL $name $m $kind: rc=$rc"; head -5 "$tmp/out"
		   bad=1 ;;
		esac
	done <"$tmp/$name/list"
done
echo "semdiff mutations: $changed seeded, $found found with a" \
     "counterexample at the mutated rule that replays concretely;" \
     "$shadowed unfound proven harmless (no packet reaching the rule" \
     "hits what the mutation changes; $hitpk packets built to hit it" \
     "do not reach it concretely), $reached unfound whose rule is" \
     "hit ($hits such packets, all treated alike concretely);" \
     "$sampled unfound IPv4 ones agree on 2,000 sampled packets each;" \
     "$same rewrites, $same_ok equivalent; VM trace replays:" \
     "$vm_ok confirmed, $vm_free on free choices, $vm_no not possible"
# Under root: the sampled counterexamples through the kernel (stock nft
# loads each side into a private network namespace, the packet goes in
# by a veth named as its input interface), at most 5.
kr="kernel replay: skipped (needs root, unshare -n and stock nft)"
stock_nft=${STOCK_NFT:-/usr/sbin/nft}
if [ "$(id -u)" = 0 ] && [ -x "$stock_nft" ] && [ -s "$tmp/kpairs" ] &&
   unshare -n true 2>/dev/null; then
	unshare -n python3 "$here/kernel_replay.py" "$stock_nft" 5 \
		"$tmp/kpairs" >"$tmp/kr" 2>&1
	krc=$?
	sed '$d' "$tmp/kr"
	kr=$(tail -1 "$tmp/kr")
	if [ $krc != 0 ] || ! grep -q '^kernel replay: [1-9]' "$tmp/kr"; then
		echo "FAIL: kernel replay (exit $krc)"; bad=1
	fi
fi
echo "$kr"
# found + proven harmless must cover every seeded mutation: a mutation
# that is neither found nor shown harmless fails the test
[ $changed -gt 0 ] && [ $((found + shadowed)) -eq $changed ] || {
	echo "FAIL: $reached mutations neither found nor proven harmless"
	bad=1; }
exit $bad
