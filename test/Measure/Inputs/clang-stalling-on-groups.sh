#!/bin/sh
# Stands in for clang in measure-group-limit.test: a module of a group of
# candidates (g*.ll) stalls 18 seconds before it is compiled; everything
# else is compiled at once by the real clang.
for arg in "$@"; do
  case "$(basename "$arg")" in
    g*.ll) sleep 18 ;;
  esac
done
for c in clang-22 /usr/lib/llvm-22/bin/clang clang; do
  if command -v "$c" > /dev/null 2>&1; then
    exec "$c" "$@"
  fi
done
echo "no clang" >&2
exit 1
