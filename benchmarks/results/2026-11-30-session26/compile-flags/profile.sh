#!/bin/bash
# Where clang -O3's time goes on tuner-gen's candidates (session 26).
# 1. Generates seed 2029's first 20 programs with a clang-22 wrapper that
#    keeps a copy of every module it compiles (112 modules, 112 MB);
# 2. compiles each again alone with -ftime-report, one after the other;
# 3. sums the pass timings over the modules (passes.py): passes.md.
#   profile.sh     # into $WORK (default /tmp/s26/ll), about 7 minutes
set -euo pipefail
WORK=${WORK:-/tmp/s26/ll}
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$HERE/../../../../build/bin}
rm -rf "$WORK/files" "$WORK/gen" "$WORK/rep" "$WORK/times.txt"
mkdir -p "$WORK/bin" "$WORK/files" "$WORK/rep"
ln -sfn /usr/lib/llvm-22/lib "$WORK/lib"
cat > "$WORK/bin/clang-22" <<WRAP
#!/bin/sh
for a in "\$@"; do case \$a in *.ll) cp "\$a" "\$(mktemp $WORK/files/XXXXXX.ll)" ;; esac; done
exec /usr/lib/llvm-22/bin/clang "\$@"
WRAP
chmod +x "$WORK/bin/clang-22"
PATH="$WORK/bin:$PATH" "$BIN/tuner-gen" -o "$WORK/gen" --programs 20 \
  --configs-per-program 12 --seed 2029 --flavour both --max-elements 2097152 \
  --max-work 33554432 --min-time 0.01 --patterns all 2>&1 | tail -2
for f in "$WORK"/files/*.ll; do
  b=$(basename "$f" .ll)
  s=$(date +%s.%N)
  /usr/lib/llvm-22/bin/clang -O3 -march=native -c -Wno-override-module "$f" \
    -o "$WORK/o.o" -ftime-report 2> "$WORK/rep/$b.txt"
  echo "$b $(stat -c %s "$f") $(echo "$(date +%s.%N) - $s" | bc)" >> "$WORK/times.txt"
done
"$HERE/passes.py" "$WORK" > "$HERE/passes.md"
