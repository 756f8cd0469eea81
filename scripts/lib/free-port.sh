# shellcheck shell=bash
# Sourced by the scripts that start services on loopback ports. free_port prints a port free
# now, below Linux's ephemeral range; the picking is scripts/lib/free_port.py, which the Python
# harnesses import.
_DQ_FREE_PORT_PY="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/free_port.py"
free_port() { python3 "$_DQ_FREE_PORT_PY"; }
