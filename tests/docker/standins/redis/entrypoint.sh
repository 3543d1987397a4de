#!/bin/sh
# As the official image: "redis-server …" runs as the redis user, in /data, reachable from
# the other containers.
set -e
if [ "$1" = redis-server ]; then
    shift
    chown -R redis:redis /data
    exec runuser -u redis -- redis-server --protected-mode no "$@"
fi
exec "$@"
