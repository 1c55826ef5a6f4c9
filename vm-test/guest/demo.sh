#!/bin/sh
# make run: show this node's view of the cluster.
echo "== node $(cat /proc/sys/kernel/hostname): popcorn nodes"
popcorn nodes
echo "== popcorn status"
popcorn status
