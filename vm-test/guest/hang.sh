#!/bin/sh
# Harness self-test: never finishes, so the host must kill this guest.
echo "# hanging on purpose"
exec sleep 1000000
