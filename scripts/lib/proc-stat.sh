# shellcheck shell=bash
# Sourced by the bench scripts: what /proc says of a process, for before/after differences.
#   cpu_ms PID   its CPU time so far (user + system), in milliseconds
#   faults PID   its minor page faults so far (fresh memory it touched)

CLK_TCK_HZ=$(getconf CLK_TCK)
cpu_ms() { awk -v hz="$CLK_TCK_HZ" '{printf "%d", ($14 + $15) * 1000 / hz}' "/proc/$1/stat"; }
faults() { awk '{print $10}' "/proc/$1/stat"; }
