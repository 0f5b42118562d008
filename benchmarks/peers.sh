#!/usr/bin/env bash
# Prepare .peers/ (git-ignored) in the repository root: Clustal Omega, MAFFT, ClustalW, MUSCLE 5 and
# SSEARCH (ssearch36, the FASTA package) from Debian 12's packages, unpacked with `dpkg -x` so that they run on another x86-64 Linux machine
# (glibc >= 2.29, MUSCLE >= 2.34; >= 2.36 where it lacks libgomp or libstdc++) with nothing
# installed, plus the benchmark data (HomFam dev families gzipped, BAliBASE RV11/RV12), since
# ../shared is not copied to the GPU machine, and the BRAliBASE 2.1 RNA references
# (benchmarks/_fetch_nucleotide_ref.py, kept when already there).
#
# usage (from the repository root): bash benchmarks/peers.sh [--no-data]
#
# Layout (about 16 MB; carry [".device", ".peers"] to the GPU machine):
#   .peers/peers.tar.xz   the programs (2.2 MB), unpacked on first use into
#                         ${TMPDIR:-/tmp}/bioplug-peers-<checksum>/ (nothing grows in .peers):
#                           bin/{clustalo,clustalw,mafft,muscle,ssearch36}  links to the programs
#                           lib/           libargtable2 (rarely installed; needs glibc 2.14)
#                           lib/fallback/  libgomp, libstdc++, libgcc_s (need glibc 2.34-2.36),
#                                          used only where the target lacks its own (ldd says
#                                          "not found"); the programs themselves need glibc 2.29
#                           opt/usr/...    the unpacked packages (usr/bin, usr/lib/mafft)
#   .peers/env.sh         `source .peers/env.sh`: unpack, set PATH, LD_LIBRARY_PATH and
#                         MAFFT_BINARIES (mafft's script finds its programs through it)
#   .peers/VERSIONS       the Debian package versions
#   .peers/data/homfam/{ref,small}/<family>.gz, .peers/data/balibase3/{RV11,RV12},
#   .peers/data/nucleotide/bralibase2.1/{k10,k15}/<RNA family>/*.ref.fa.gz and SOURCE
# benchmarks/progressive.py finds .peers/ by itself (same unpacking, in Python) and sets that
# environment for the peers' processes only.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
dest="$root/.peers"
data=1
[[ "${1:-}" == "--no-data" ]] && data=0
exclude="$(git -C "$root" rev-parse --path-format=absolute --git-common-dir)/info/exclude"
mkdir -p "$(dirname "$exclude")"
grep -qxF '/.peers/' "$exclude" 2>/dev/null || echo '/.peers/' >> "$exclude"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 777 "$work"   # apt-get download runs as _apt where it can
pkgs=(clustalo libargtable2-0 libgomp1 mafft clustalw muscle fasta3 libstdc++6 libgcc-s1)
(cd "$work" && apt-get download "${pkgs[@]}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
ls "$work"/*.deb > /dev/null

p="$work/p"
mkdir -p "$p/bin" "$p/lib/fallback" "$p/opt/usr/bin" "$p/opt/usr/lib" "$dest"
: > "$work/versions"
for deb in "$work"/*.deb; do
  dpkg -x "$deb" "$work/x"
  dpkg-deb -f "$deb" Package Version | paste -sd' ' >> "$work/versions"
done
x="$work/x"
cp -a "$x/usr/bin/clustalo" "$x/usr/bin/clustalw" "$x/usr/bin/muscle" "$x/usr/bin/ssearch36" \
  "$p/opt/usr/bin/"
cp -a "$x/usr/lib/mafft" "$p/opt/usr/lib/"
rm -f "$p/opt/usr/lib/mafft/bin/"*.rb       # ruby front ends, not used
cp -a "$x"/usr/lib/x86_64-linux-gnu/libargtable2.so.0* "$p/lib/"
cp -a "$x"/usr/lib/x86_64-linux-gnu/libgomp.so.1* "$x"/usr/lib/x86_64-linux-gnu/libstdc++.so.6* \
  "$p/lib/fallback/"
cp -a "$x"/lib/x86_64-linux-gnu/libgcc_s.so.1 "$p/lib/fallback/" 2> /dev/null \
  || cp -a "$x"/usr/lib/x86_64-linux-gnu/libgcc_s.so.1 "$p/lib/fallback/"
rm -f "$p/lib/fallback/"*-gdb.py
ln -s ../opt/usr/bin/clustalo "$p/bin/clustalo"
ln -s ../opt/usr/bin/clustalw "$p/bin/clustalw"
ln -s ../opt/usr/lib/mafft/bin/mafft "$p/bin/mafft"
ln -s ../opt/usr/bin/muscle "$p/bin/muscle"
ln -s ../opt/usr/bin/ssearch36 "$p/bin/ssearch36"
rm -rf "$dest/bin" "$dest/lib" "$dest/opt"
tar -C "$p" -cJf "$dest/peers.tar.xz" bin lib opt
cp "$work/versions" "$dest/VERSIONS"

cat > "$dest/env.sh" << 'ENVSH'
# source .peers/env.sh: unpack the peers (once) and run them from there
_peers=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_dir="${TMPDIR:-/tmp}/bioplug-peers-$(cksum < "$_peers/peers.tar.xz" | cut -d' ' -f1)"
if [ ! -e "$_dir/bin/clustalo" ]; then
  python3 - "$_peers/peers.tar.xz" "$_dir" << 'PY'
import os, sys, tarfile, tempfile
tmp = tempfile.mkdtemp(dir=os.path.dirname(sys.argv[2]))
with tarfile.open(sys.argv[1]) as tar:
    tar.extractall(tmp, **({"filter": "tar"} if hasattr(tarfile, "tar_filter") else {}))
try:
    os.rename(tmp, sys.argv[2])
except OSError:
    pass  # unpacked meanwhile by another process
PY
fi
export PATH="$_dir/bin:$PATH"
export MAFFT_BINARIES="$_dir/opt/usr/lib/mafft/lib/mafft"
export LD_LIBRARY_PATH="$_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if ldd "$_dir/opt/usr/bin/clustalo" "$_dir/opt/usr/bin/muscle" 2> /dev/null | grep -q 'not found'; then
  export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$_dir/lib/fallback"
fi
unset _peers _dir
ENVSH

if [[ $data == 1 ]]; then
  shared="$root/../shared/bench"
  rm -rf "$dest/data/homfam" "$dest/data/balibase3"
  mkdir -p "$dest/data/homfam/ref" "$dest/data/homfam/small" "$dest/data/balibase3"
  for kind in ref small; do
    for f in "$shared/homfam/$kind"/*; do
      gzip -9 -n -c "$f" > "$dest/data/homfam/$kind/$(basename "$f").gz"
    done
  done
  cp "$shared/homfam/README.md" "$dest/data/homfam/"
  cp -a "$shared/balibase3/RV11" "$shared/balibase3/RV12" "$dest/data/balibase3/"
  if [[ ! -e "$dest/data/nucleotide/bralibase2.1/SOURCE" ]]; then
    python3 "$root/benchmarks/_fetch_nucleotide_ref.py" --dest "$dest/data/nucleotide" \
      || echo "warning: BRAliBASE 2.1 not prepared (see benchmarks/_fetch_nucleotide_ref.py)"
  fi
fi

# check: each program runs from the unpacked folder, with nothing installed system-wide
(
  export PATH=/usr/local/bin:/usr/bin:/bin
  unset LD_LIBRARY_PATH MAFFT_BINARIES
  # shellcheck source=/dev/null
  source "$dest/env.sh"
  for exe in clustalo mafft clustalw muscle ssearch36; do
    case "$(command -v $exe)" in
      "${TMPDIR:-/tmp}"/bioplug-peers-*) ;;
      *) echo "peer check failed: $exe is $(command -v $exe)"; exit 1 ;;
    esac
  done
  printf '>a\nMKVLAAGIVGLLLAQ\n>b\nMKVLAGIVGLLAQ\n>c\nMKVLSAGIVGLLLQ\n' > "$work/t.fa"
  clustalo -i "$work/t.fa" --threads 2 --force -o "$work/o1.fa"
  mafft --quiet --auto --thread 2 "$work/t.fa" > "$work/o2.fa"
  mafft --quiet --parttree --thread 2 "$work/t.fa" > "$work/o4.fa"
  (cd "$work" && clustalw -INFILE=t.fa -OUTFILE=o3.fa -OUTPUT=FASTA -QUIET > /dev/null)
  muscle -align "$work/t.fa" -output "$work/o5.fa" -threads 2 2> /dev/null
  ssearch36 -q -p -s BL62 -f -11 -g -1 -d 0 "$work/t.fa" "$work/t.fa" > "$work/o6.txt"
  grep -q "The best scores are" "$work/o6.txt" || { echo "peer check failed: ssearch36"; exit 1; }
  for o in o1 o2 o3 o4 o5; do
    [[ $(grep -c '>' "$work/$o.fa") == 3 ]] || { echo "peer check failed: $o"; exit 1; }
  done
  echo "peers run from $(dirname "$(dirname "$(command -v clustalo)")"): clustalo $(clustalo --version)," \
    "$(mafft --version 2>&1 | head -1), $(clustalw -help | grep -o 'CLUSTAL [0-9.]*' | head -1)," \
    "$(muscle -version | head -1), SSEARCH $(ssearch36 -help 2>&1 | grep -o 'version: [0-9.a-z]*' | cut -d' ' -f2)"
)
du -sh "$dest/peers.tar.xz" "$dest"
echo "carry [\".device\", \".peers\"] to the GPU machine"
