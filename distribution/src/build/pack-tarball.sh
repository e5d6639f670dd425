#!/bin/sh
# Packs the staged distribution into a .tar.gz that stores each byte-identical jar once.
#
# Every plugin keeps its own copy of the libraries it needs (its own class loader loads them, so
# one plugin's Hadoop never meets another's); three plugins carrying the same Hadoop 3.3.6 jars
# made 150 MB of the tarball three copies of one thing. Identical files under sluice-plugins/ are
# made hard links of one another before packing: tar stores a hard link as a reference to the
# first copy, and unpacking gives back one file per plugin directory, sharing its blocks on disk.
# Nothing changes for a class loader: each plugin still opens its own path.
#
# usage: pack-tarball.sh <staging directory sluice-VERSION> <output .tar.gz>
set -eu

stage=$1
out=$2
parent=$(dirname "$stage")
name=$(basename "$stage")

cd "$stage"
if [ -d sluice-plugins ]; then
    # "<sha256>  <path>" sorted by digest: the first path of each digest is kept, the others
    # become links to it.
    find sluice-plugins -type f -name '*.jar' -exec sha256sum {} + \
        | sort \
        | awk '$1 == digest { print kept " " $2; next } { digest = $1; kept = $2 }' \
        | while read -r kept duplicate; do
              ln -f "$kept" "$duplicate"
          done
fi

cd "$parent"
rm -f "$out"
# Sorted names, no owner of the build machine, directories and bin/ as they are staged.
tar --sort=name --owner=0 --group=0 --numeric-owner -czf "$out" "$name"
