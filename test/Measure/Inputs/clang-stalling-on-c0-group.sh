#!/bin/sh
# Stands in for clang in measure-group-limit.test: the module of the group
# that holds candidate c0 (a g*.ll that defines a symbol of c0) stalls 30
# seconds before it is compiled; everything else is compiled at once by the
# real clang.
for arg in "$@"; do
  case "$(basename "$arg")" in
    g*.ll) grep -q '__tuner_c0' "$arg" && sleep 30 ;;
  esac
done
for c in clang-22 /usr/lib/llvm-22/bin/clang clang; do
  if command -v "$c" > /dev/null 2>&1; then
    exec "$c" "$@"
  fi
done
echo "no clang" >&2
exit 1
