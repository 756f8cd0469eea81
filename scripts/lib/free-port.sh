# Sourced by the scripts that start services on loopback ports.
# free_port prints a port free now, picked at random below Linux's ephemeral range (32768-60999).
# A port from bind(0) comes from that range, where one of the script's own outgoing connections
# (it polls the ports it has started) can take it before the server binds it. The C++ and
# Python test harnesses pick their ports the same way.
free_port() {
  python3 -c '
import random, socket, sys
for _ in range(1000):
    port = random.randint(20000, 32767)
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        print(port)
        sys.exit(0)
sys.exit("no free port in 20000-32767")'
}
