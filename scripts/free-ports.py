#!/usr/bin/env python3
"""Prints COUNT (default 1) distinct free loopback TCP ports, on one line.

The sockets are bound together and only then released, so the ports differ from one
another: asking for one port at a time can hand the same port out twice (the first was
released before the second was asked for), and two servers then fight over it.
usage: scripts/free-ports.py [COUNT]
"""
import socket
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 1
sockets = []
for _ in range(count):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    sockets.append(s)
print(" ".join(str(s.getsockname()[1]) for s in sockets))
for s in sockets:
    s.close()
